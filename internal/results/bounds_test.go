package results

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// TestBoundsDecideClaims: certified bounds decide a claim (decided_by
// bounds, no p-value or interval guarantee needed) when they lie wholly
// inside or wholly outside the claimed set, and leave it to the sample
// when they straddle an end; the squares table carries them, with
// exact_success null, and exact values give equal bounds.
func TestBoundsDecideClaims(t *testing.T) {
	const y = `name: b
seed: 5
boards: [5x5]
starts: [a1, c3, b2]
walks: 40
rules: [{name: warnsdorff, tie_break: random}]
claims:
  - {id: inside, rule: warnsdorff/random, square: a1, above: 0.9}
  - {id: outside, rule: warnsdorff/random, square: a1, below: 0.95}
  - {id: straddle, rule: warnsdorff/random, square: a1, above: 0.97}
  - {id: exact, rule: warnsdorff/random, square: b2, rate: 0.75, tolerance: 0.01}
`
	c, err := config.Parse("b.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "b.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	ts := tallies(t, e)
	b := e.Boards[0]
	a1, b2 := b.Square(0, 0), b.Square(1, 1)
	in := Inputs{
		Tally: func(bi, ri, s int) *stats.Tally { return ts[[3]int{bi, ri, s}] },
		Exact: func(bi, ri, s int) (exact.Result, bool) {
			return exact.Result{PSuccess: 0.75}, s == b2
		},
		Bounds: func(bi, ri, s int) (float64, float64, bool) { return 0.955, 0.98, s == a1 },
	}
	tb, err := BuildRun(e, in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"inside":   {"bounds", stats.Consistent},
		"outside":  {"bounds", stats.Refuted},
		"straddle": {"sample", ""},
		"exact":    {"exact", stats.Consistent},
	}
	for _, r := range tb.Claims {
		w := want[r.ID]
		if r.DecidedBy != w[0] || (w[1] != "" && r.Verdict != w[1]) {
			t.Errorf("%s: decided by %s, %s; want %s %s", r.ID, r.DecidedBy, r.Verdict, w[0], w[1])
		}
		switch r.ID {
		case "exact":
			if r.ExactLower != 0.75 || r.ExactUpper != 0.75 {
				t.Errorf("exact: bounds [%g, %g], want 0.75 twice", r.ExactLower, r.ExactUpper)
			}
		default:
			if r.ExactLower != 0.955 || r.ExactUpper != 0.98 || !math.IsNaN(r.Exact) {
				t.Errorf("%s: exact %g, bounds [%g, %g]", r.ID, r.Exact, r.ExactLower, r.ExactUpper)
			}
		}
		if r.DecidedBy == "bounds" && !math.IsNaN(r.PValue) {
			t.Errorf("%s: decided by bounds with p-value %g", r.ID, r.PValue)
		}
	}
	for _, s := range tb.Squares {
		switch s.Start {
		case "a1":
			if !math.IsNaN(s.ExactSuccess) || s.ExactLower != 0.955 || s.ExactUpper != 0.98 {
				t.Errorf("a1: exact %g, bounds [%g, %g]", s.ExactSuccess, s.ExactLower, s.ExactUpper)
			}
		case "b2":
			if s.ExactSuccess != 0.75 || s.ExactLower != 0.75 || s.ExactUpper != 0.75 {
				t.Errorf("b2: exact %g, bounds [%g, %g]", s.ExactSuccess, s.ExactLower, s.ExactUpper)
			}
		case "c3":
			if !math.IsNaN(s.ExactLower) || !math.IsNaN(s.ExactUpper) {
				t.Errorf("c3: bounds [%g, %g], want null", s.ExactLower, s.ExactUpper)
			}
		}
	}
}
