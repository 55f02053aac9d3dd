package sim

import (
	"fmt"
	"reflect"
	"testing"
)

// TestGeneralWalkRangeSameWalks holds the general kernel's interleaved
// walks (WalkRange, several walks in flight) to the walks Walk takes one
// at a time, outcome for outcome, on boards past 64 squares: every rule the
// kernel walks, a step limit that stops walks, ranges shorter and longer
// than the lanes, a range not starting at walk 0, and a walker retargeted
// between ranges.
func TestGeneralWalkRangeSameWalks(t *testing.T) {
	rules := []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/roth", "warnsdorff/pohl", "squirrel-cull", "ganzfried", "warnsdorff/edge", "warnsdorff/corner"}
	for _, dims := range [][2]int{{9, 9}, {12, 17}, {40, 40}} {
		b := MustBoard(dims[0], dims[1])
		for _, name := range rules {
			r, err := ParseRule(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, maxSteps := range []int{0, 30} {
				r.MaxSteps = maxSteps
				t.Run(fmt.Sprintf("%s/%s/max%d", b, name, maxSteps), func(t *testing.T) {
					one, err := NewWalker(b, r)
					if err != nil && b.Rows != b.Cols {
						t.Skip(err) // the rule is stated for square boards
					}
					if err != nil {
						t.Fatal(err)
					}
					many, err := NewWalker(b, r)
					if err != nil {
						t.Fatal(err)
					}
					for _, start := range []int{0, b.Squares() / 2, b.Squares() - 1} {
						key := NewKey(7, b, r, start)
						for _, rg := range [][2]uint64{{0, 1}, {0, 3}, {5, 37}} {
							out := make([]Outcome, rg[1])
							many.WalkRange(start, key, rg[0], out)
							for i, got := range out {
								want := one.Walk(start, key, rg[0]+uint64(i))
								if !reflect.DeepEqual(got, want) {
									t.Fatalf("start %d walk %d: WalkRange %+v, Walk %+v", start, rg[0]+uint64(i), got, want)
								}
							}
						}
					}
				})
			}
		}
	}
}

// TestGeneralWalkRangeRetarget: a walker retargeted to another rule of the
// same kind walks that rule's walks in WalkRange.
func TestGeneralWalkRangeRetarget(t *testing.T) {
	b := MustBoard(20, 20)
	first, _ := ParseRule("warnsdorff/first")
	roth, _ := ParseRule("warnsdorff/roth")
	w, err := NewWalker(b, first)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Outcome, 9)
	w.WalkRange(0, NewKey(1, b, first, 0), 0, out)
	if !w.Retarget(roth) {
		t.Fatal("Retarget(warnsdorff/roth) refused")
	}
	ref, _ := NewWalker(b, roth)
	key := NewKey(1, b, roth, 3)
	w.WalkRange(3, key, 2, out)
	for i, got := range out {
		if want := ref.Walk(3, key, 2+uint64(i)); !reflect.DeepEqual(got, want) {
			t.Fatalf("walk %d after Retarget: %+v, want %+v", i, got, want)
		}
	}
}
