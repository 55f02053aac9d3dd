package exact

import (
	"context"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// wilson returns the Wilson score interval for k successes in n trials at
// z standard errors (the stats package has the full version; exact's tests
// stay free of it).
func wilson(k, n int, z float64) (lo, hi float64) {
	p := float64(k) / float64(n)
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / d
	return c - h, c + h
}

// binomQuantile returns the smallest x with P(X <= x) >= q for X ~ Bin(n, p).
func binomQuantile(n int, p, q float64) int {
	cdf, pmf := 0.0, math.Pow(1-p, float64(n))
	for x := 0; x <= n; x++ {
		cdf += pmf
		if cdf >= q {
			return x
		}
		pmf *= float64(n-x) / float64(x+1) * p / (1 - p)
	}
	return n
}

// TestMonteCarloCoversExact runs seeded walks of every walk rule from every
// square of 6x6 and 8x8 and checks that 95 % Wilson intervals cover the
// exact probabilities from Walk. Squares whose exact value is 0 or 1
// cannot miss and are not counted. Each interval misses with probability
// about 5 %, so the number of misses among K squares is about Bin(K, 0.05);
// the test fails when it exceeds that distribution's 99.9 % quantile
// (computed with 6 % to allow for Wilson's slight under-coverage). A biased
// kernel or stream misses on most squares and fails.
//
// The random rule almost never completes a tour on these boards and its
// full walk tree is far too large to enumerate, so for it the checked
// event is "the walk survives max_steps moves", enumerated exactly to
// that depth.
func TestMonteCarloCoversExact(t *testing.T) {
	testenv.SkipUnlessSlow(t, "Monte Carlo coverage of the exact values")
	cases := []struct {
		rule     string
		maxSteps int
		walks    int
	}{
		{"warnsdorff/random", 0, 4000},
		{"warnsdorff/pohl", 0, 4000},
		{"warnsdorff/roth", 0, 4000},
		{"warnsdorff/first", 0, 100},
		{"random", 7, 4000},
	}
	const z = 1.959963984540054
	for _, c := range cases {
		for _, board := range []string{"6x6", "8x8"} {
			b, _ := sim.ParseBoard(board)
			r, _ := sim.ParseRule(c.rule)
			r.MaxSteps = c.maxSteps
			w, _ := sim.NewWalker(b, r)
			k, misses := 0, 0
			for s := 0; s < b.Squares(); s++ {
				e, err := Walk(context.Background(), b, r, s, 0)
				if err != nil {
					t.Fatal(err)
				}
				p := e.PSuccess
				if c.maxSteps > 0 {
					p = e.PStopped
				}
				key := sim.NewKey(2026, b, r, s)
				hits := 0
				for i := 0; i < c.walks; i++ {
					o := w.Walk(s, key, uint64(i))
					if o.Success && c.maxSteps == 0 || o.Stopped && c.maxSteps > 0 {
						hits++
					}
				}
				if p == 0 || p == 1 {
					if float64(hits) != p*float64(c.walks) {
						t.Errorf("%s %s from %s: exact %g but %d of %d walks", board, c.rule, b.SquareName(s), p, hits, c.walks)
					}
					continue
				}
				k++
				if lo, hi := wilson(hits, c.walks, z); p < lo || p > hi {
					misses++
					t.Logf("%s %s from %s: exact %.6f outside [%.6f, %.6f]", board, c.rule, b.SquareName(s), p, lo, hi)
				}
			}
			limit := binomQuantile(k, 0.06, 0.999)
			t.Logf("%s %s: %d of %d intervals miss the exact value (limit %d)", board, c.rule, misses, k, limit)
			if misses > limit {
				t.Errorf("%s %s: %d of %d intervals miss, more than the 99.9 %% bound %d", board, c.rule, misses, k, limit)
			}
		}
	}
}
