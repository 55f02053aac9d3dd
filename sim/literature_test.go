package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
)

// literatureWalk is the walk of a literature rule from a1 on n×n.
func literatureWalk(t *testing.T, name string, n, start int) Outcome {
	t.Helper()
	b := MustBoard(n, n)
	r, err := ParseRule(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	w.KeepPaths(true)
	o := w.Walk(start, NewKey(0, b, r, start), 0)
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	return o
}

// TestLiteratureRulesAgree: Squirrel & Cull's algorithm written from their
// 1996 steps and from Ganzfried's 2004 pseudocode take the same walk from
// the papers' corner on every n tested, and it is a valid walk.
func TestLiteratureRulesAgree(t *testing.T) {
	hi := 80
	if testenv.Slow() {
		hi = 300
	}
	for n := 1; n <= hi; n++ {
		a, g := literatureWalk(t, "squirrel-cull", n, 0), literatureWalk(t, "ganzfried", n, 0)
		if !slices.Equal(a.Path, g.Path) {
			t.Fatalf("%dx%d: squirrel-cull and ganzfried differ after %d squares", n, n, commonPrefix(a.Path, g.Path))
		}
		r, _ := ParseRule("squirrel-cull")
		checkWalk(t, MustBoard(n, n), a, r)
	}
}

func commonPrefix(a, b []int32) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// TestLiteratureClaimsSampled checks the papers' statements on sampled
// sizes (experiments/squirrel-cull.yaml checks every n to 2000):
// Ganzfried (2004, p. 9): a tour for every 5 ≤ n < 112 but n = 74;
// Squirrel & Cull (1996, p. 116): a tour for every n ≥ 112; Ganzfried's
// proof (section 7): every n ≡ 7 mod 8 from 47.
func TestLiteratureClaimsSampled(t *testing.T) {
	sizes := []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 21, 37, 53, 73, 74, 75, 101, 111}
	for n := 112; n < 128; n++ { // every residue mod 16 from the first size claimed
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 47, 55, 63, 71, 79, 87, 255, 263)
	if testenv.Slow() {
		sizes = append(sizes, 501, 502, 503, 504, 505, 506, 507, 508, 517, 999, 1000, 1999, 2000)
	}
	for _, n := range sizes {
		o := literatureWalk(t, "squirrel-cull", n, 0)
		if want := n != 74; o.Success != want {
			t.Errorf("squirrel-cull %dx%d from a1: success %v after %d of %d squares, the papers say %v", n, n, o.Success, o.Length, n*n, want)
		}
	}
}

// TestLiteratureTableAsPrinted pins a few of Figure 3's switching squares
// as printed, for sizes where Figure 3's and Ganzfried's spellings meet:
// a typo in the table is the likeliest way to break the rule.
func TestLiteratureTableAsPrinted(t *testing.T) {
	cases := map[int]string{
		112: "[{34261578 111 110} {87642135 2 2} {51867342 104 1} {51342678 7 109} {21435678 0 0}]",
		113: "[{34261578 112 111} {87642135 2 2} {51324678 107 61} {32481765 0 0}]",
		114: "[{34261578 6 1} {87642135 3 1} {54132678 99 4} {52431678 10 112} {85647123 5 54} {15746823 0 0}]",
		115: "[{34625718 114 113} {42681357 109 115} {86512347 2 5} {51867342 105 3} {61825437 58 113} {71642538 0 0}]",
		116: "[{34261578 115 114} {87642135 2 2} {51867342 108 1} {51342678 10 111} {86753421 13 59} {78563421 0 0}]",
		117: "[{34261578 116 115} {87642135 2 2} {51324678 115 56} {15234678 0 0}]", // 117 ≡ 5 mod 16
		125: "[{34261578 124 123} {87642135 2 2} {51324678 123 56} {15234678 0 0}]", // 125 ≡ 13 mod 16
		118: "[{34261578 6 1} {87642135 3 1} {54132678 108 1} {52431678 10 116} {85647123 3 63} {12453678 0 0}]",
		119: "[{34625718 118 117} {42681357 113 119} {86512347 2 5} {51867342 113 3} {61825437 60 117} {61357284 0 0}]",
	}
	for n, want := range cases {
		if got := fmt.Sprint(squirrelCullTable(n)); got != want {
			t.Errorf("n = %d: %s\nwant %s", n, got, want)
		}
	}
}

// TestLiteratureRulesRefuse: no rectangular boards, no stepper, and their
// Choices say they keep state, which exact enumeration refuses (they keep
// state along the walk; their one walk decides).
func TestLiteratureRulesRefuse(t *testing.T) {
	r, _ := ParseRule("squirrel-cull")
	if !r.Deterministic() {
		t.Error("squirrel-cull not deterministic")
	}
	if _, err := NewWalker(MustBoard(8, 9), r); err == nil || !strings.Contains(err.Error(), "square boards") {
		t.Errorf("8x9: %v", err)
	}
	if c, err := NewChoices(MustBoard(6, 6), r); err != nil || !c.Stateful() {
		t.Errorf("choices: %v, want a policy that keeps state", err)
	}
	if _, err := NewStepper(MustBoard(6, 6), r); err == nil {
		t.Error("stepper accepted")
	}
}
