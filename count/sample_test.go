package count

import (
	"context"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// expectation enumerates every walk the sampler can draw from the state
// the walker is in and returns Σ probability × weight: the sampler's exact
// expectation, which must equal the number of tours it estimates.
func (k *walker) expectation(cur, left, ones int) float64 {
	if left == 0 {
		return 1
	}
	var cand [8]int
	var cd [8]int8
	na, K, sum, done := k.options(cur, left, ones, &cand, &cd)
	if done {
		return 1
	}
	var e float64
	for i := range na {
		q := 1.0
		if na > 1 {
			q = k.pw[cd[i]] / sum
		}
		deg, vis := append([]int8(nil), k.deg...), append([]bool(nil), k.vis...)
		o := ones + K
		if cd[i] == 1 {
			o--
		}
		k.visit(cand[i])
		// the weight of a path is 1/q times its continuation's: q · (1/q) · E
		e += q * (1 / q) * k.expectation(cand[i], left-1, o)
		copy(k.deg, deg)
		copy(k.vis, vis)
	}
	return e
}

// TestSampleExpectationExact holds each proposal's estimator to its exact
// expectation (every path it can draw, enumerated with its probability)
// against the frontier sweep's counts, per start square and closed.
func TestSampleExpectationExact(t *testing.T) {
	boards := [][2]int{{3, 4}, {4, 4}, {3, 7}, {4, 5}, {5, 5}, {3, 8}}
	for _, p := range []Proposal{{}, {Beta: 0.7}, DefaultProposal, {Beta: 4}} {
		for _, rc := range boards {
			b := sim.MustBoard(rc[0], rc[1])
			for _, closed := range []bool{false, true} {
				opt := Options{Closed: closed}
				if !closed {
					for s := range b.Squares() {
						opt.Starts = append(opt.Starts, s)
					}
				}
				want, err := Tours(context.Background(), b, opt)
				if err != nil {
					t.Fatal(err)
				}
				k := newWalker(b, p)
				if closed {
					if !k.setClosed() {
						t.Fatalf("%s: no square of degree 2", b)
					}
					cur, left, ones, ok := k.reset(k.closedFrom)
					got := 0.0
					if ok {
						got = k.expectation(cur, left, ones)
					}
					if w := float64(want.Tours.Big().Int64()); math.Abs(got-w) > 1e-9*math.Max(1, w) {
						t.Errorf("%s closed %s: expectation %v, want %v cycles", b, p.Name(), got, w)
					}
					continue
				}
				for s := range b.Squares() {
					cur, left, ones, ok := k.reset(s)
					got := 0.0
					if ok {
						got = k.expectation(cur, left, ones)
					}
					w := float64(want.PerStart[s].Big().Int64())
					if math.Abs(got-w) > 1e-9*math.Max(1, w) {
						t.Errorf("%s open from %s, %s: expectation %v, want %v", b, b.SquareName(s), p.Name(), got, w)
					}
				}
			}
		}
	}
}
