package runner

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// TestExactAutoRule: exact: auto enumerates what its rule says (Warnsdorff
// with random ties on at most 64 squares, on at most 81 from at most 8
// starts, the random walk on at most 25, no deterministic rule) within budgets that depend on the number of
// starts alone, and samples elsewhere.
func TestExactAutoRule(t *testing.T) {
	for _, c := range []struct {
		board, rule string
		starts      int
		want        bool
	}{
		{"8x8", "warnsdorff/random", 64, true},
		{"9x9", "warnsdorff/random", 4, true},
		{"9x9", "warnsdorff/random", 8, true},
		{"9x9", "warnsdorff/random", 9, false},
		{"9x9", "warnsdorff/random", 81, false},
		{"9x9", "warnsdorff/pohl", 1, true},
		{"8x10", "warnsdorff/random", 4, true},
		{"9x10", "warnsdorff/random", 1, false},
		{"10x10", "warnsdorff/random", 1, false},
		{"9x9", "warnsdorff/first", 1, false},
		{"5x5", "random", 25, true},
		{"5x6", "random", 1, false},
	} {
		b, _ := sim.ParseBoard(c.board)
		r, _ := sim.ParseRule(c.rule)
		if got := exactWanted("auto", b, r, c.starts); got != c.want {
			t.Errorf("auto, %s %s from %d starts: enumerated %v, want %v", c.board, c.rule, c.starts, got, c.want)
		}
	}
	for starts, want := range map[int]int64{1: 40_000_000, 4: 10_000_000, 20: 2_000_000, 64: 2_000_000, 81: 2_000_000} {
		if got := autoBudget(starts); got != want {
			t.Errorf("auto budget for %d starts: %d, want %d", starts, got, want)
		}
	}

	// 9x9 from c3 (0.55 million states): exact, the same for any workers.
	s := specOf(t, "name: auto9\nseed: 1\nboards: [9x9]\nstarts: [c3]\nwalks: 2\nrules: [{name: warnsdorff}]\n")
	x1, err := computeExact(context.Background(), s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := exactCache.LoadAndDelete(exactKeyOf(s.Boards[0], s.Rules[0], s.Starts[0], autoBudget(1), false)); !ok {
		t.Fatal("9x9 c3: not cached under auto's budget for one start") // so that 2 workers enumerate again
	}
	x2, err := computeExact(context.Background(), s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	c3, _ := s.Boards[0].ParseSquare("c3")
	e, ok := x1.Of(0, 0, c3)
	if !ok || len(x1.Notes) != 0 || !reflect.DeepEqual(x1.cells, x2.cells) {
		t.Errorf("9x9 c3 under auto: exact %v (notes %q), or 1 and 2 workers differ", ok, x1.Notes)
	}
	if want, err := exact.Walk(context.Background(), s.Boards[0], s.Rules[0], c3, 0); err != nil || e.PSuccess != want.PSuccess {
		t.Errorf("9x9 c3 under auto: %v, exact.Walk %v (err %v)", e.PSuccess, want.PSuccess, err)
	}

	// 9x9 from every square: sampled, without trying.
	s = specOf(t, "name: auto9all\nseed: 1\nboards: [9x9]\nstarts: [all]\nwalks: 2\nrules: [{name: warnsdorff}]\n")
	x, err := computeExact(context.Background(), s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := x.Of(0, 0, 0); ok || len(x.Notes) != 0 {
		t.Errorf("9x9 every start under auto: exact %v, notes %q; want sampling", ok, x.Notes)
	}
	if testenv.Slow() { // 9x9: 5 million states for each of seven starts, then the four corners, 4.56 million each
		// 9x9 from e5 and seven more: 5 million states each, which e5 (30.4
		// million) passes: sampled, with a note saying why.
		s = specOf(t, "name: auto9e5\nseed: 1\nboards: [9x9]\nstarts: [e5, a1, b1, c1, d1, e1, f1, g1]\nwalks: 2\nrules: [{name: warnsdorff}]\n")
		x, err := computeExact(context.Background(), s, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := x.Of(0, 0, s.Starts[0][0]); ok || len(x.Notes) != 1 || !strings.Contains(x.Notes[0], "more than 5000000 states") {
			t.Errorf("9x9 from e5 and seven more under auto: exact %v, notes %q; want sampling and a note on the budget", ok, x.Notes)
		}

		s = specOf(t, "name: auto9c\nseed: 1\nboards: [9x9]\nstarts: [corner]\nwalks: 2\nrules: [{name: warnsdorff}]\n")
		x, err = computeExact(context.Background(), s, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, sq := range s.Starts[0] {
			// the corners are one orbit: equal up to the order of the sums
			if e, ok := x.Of(0, 0, sq); !ok || math.Abs(e.PSuccess-0.98732767584113534) > 1e-15 {
				t.Errorf("9x9 corner %d under auto: %v %.17g, want exact 0.98732767584113534", sq, ok, e.PSuccess)
			}
		}
	}
}

// TestExactStored: 10x10 with warnsdorff/random, which auto never
// enumerates, takes every square's exact values from the store under auto,
// on and bounds, with a note saying so, and none under off; the random
// walk and a deterministic rule on 10x10 take none.
func TestExactStored(t *testing.T) {
	for _, mode := range []string{"auto", "on", "bounds", "off"} {
		s := specOf(t, "name: stored\nseed: 1\nboards: [10x10]\nstarts: all\nwalks: 2\nexact: "+mode+"\nrules: [{name: warnsdorff}, {name: warnsdorff, tie_break: first}]\n")
		x, err := computeExact(context.Background(), s, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := s.Boards[0]
		e5, _ := b.ParseSquare("e5")
		f6, _ := b.ParseSquare("f6")
		got, ok := x.Of(0, 0, f6)
		if mode == "off" {
			if ok || len(x.Notes) != 0 {
				t.Errorf("exact: off: 10x10 f6 exact %v, notes %q", ok, x.Notes)
			}
			continue
		}
		centre, _ := x.Of(0, 0, e5)
		if !ok || got.PSuccess != 0.9778980182677935 || centre.PSuccess != got.PSuccess {
			t.Errorf("exact: %s: 10x10 f6 %v %v, e5 %v; want the stored 0.9778980182677935", mode, ok, got.PSuccess, centre.PSuccess)
		}
		n := 0
		for sq := range b.Squares() {
			if _, ok := x.Of(0, 0, sq); ok {
				n++
			}
			if _, ok := x.Of(0, 1, sq); ok {
				t.Errorf("exact: %s: warnsdorff/first on 10x10 has an exact value at %s", mode, b.SquareName(sq))
			}
		}
		if n != 100 || len(x.Notes) != 1 || !strings.Contains(x.Notes[0], "stored with the program") {
			t.Errorf("exact: %s: %d exact squares, notes %q; want 100 and a note on the store", mode, n, x.Notes)
		}
		// the dead ends are f6's own: e5's map turned by the symmetry
		var sum float64
		for _, p := range got.DeadEnds {
			sum += p
		}
		if d := sum - (1 - got.PSuccess); math.Abs(d) > 1e-12 || got.DeadEnds[f6] != 0 {
			t.Errorf("exact: %s: f6's dead ends sum to %v (want 1 - P(success)), %v on f6 itself", mode, sum, got.DeadEnds[f6])
		}
	}
}
