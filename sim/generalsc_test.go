package sim

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSquirrelCullNative holds squirrel-cull on the general kernel to the
// rule's policy (the 1996 steps, literature.go) walk for walk: every
// residue of n mod 8 (and n = 21, 37 for the mod-16 case of n ≡ 5), every
// start, a step limit, and kept paths.
func TestSquirrelCullNative(t *testing.T) {
	r, err := ParseRule("squirrel-cull")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{9, 10, 11, 12, 13, 14, 15, 16, 21, 24, 37} {
		b := MustBoard(n, n)
		for _, maxSteps := range []int{0, 40} {
			r.MaxSteps = maxSteps
			t.Run(fmt.Sprintf("%s/max%d", b, maxSteps), func(t *testing.T) {
				native, err := NewWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				if native.gen == nil || native.gen.sc == nil {
					t.Fatal("squirrel-cull is not on the general kernel")
				}
				policy, err := NewPolicyWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				native.KeepPaths(true)
				policy.KeepPaths(true)
				key := NewKey(1, b, r, 0)
				tours := 0
				for start := range b.Squares() {
					got, want := native.Walk(start, key, 0), policy.Walk(start, key, 0)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("start %s: native %+v, policy %+v", b.SquareName(start), got, want)
					}
					if got.Success {
						tours++
					}
				}
				if maxSteps == 0 && n >= 10 && tours == 0 {
					t.Fatalf("no tour from any start: the comparison saw no switching square")
				}
				out := make([]Outcome, 3)
				native.KeepPaths(false)
				native.WalkRange(0, key, 0, out)
				for _, o := range out {
					if want := policy.Walk(0, key, 0); o.Length != want.Length || o.End != want.End {
						t.Fatalf("WalkRange %+v, policy %+v", o, want)
					}
				}
			})
		}
	}
}
