package stats

import (
	"math"
	"testing"
)

// TestBinomialTest checks the exact two-sided binomial test against values
// worked by hand.
func TestBinomialTest(t *testing.T) {
	for _, c := range []struct {
		k, n uint64
		p    float64
		want float64
	}{
		// Symmetric: 2·(1+10+45+120)/1024.
		{3, 10, 0.5, 352.0 / 1024},
		{5, 10, 0.5, 1},
		// 0 of 100 at p = 0.01: every outcome but x = 1 (P = 0.99^99) is
		// no more likely than P(0) = 0.99^100.
		{0, 100, 0.01, 1 - math.Pow(0.99, 99)},
		// 75 of 100 at p = 0.75 is the mode: every outcome counts.
		{75, 100, 0.75, 1},
		{0, 5, 0, 1}, {1, 5, 0, 0}, {5, 5, 1, 1}, {4, 5, 1, 0},
	} {
		if got := BinomialTest(c.k, c.n, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("BinomialTest(%d, %d, %v) = %.15g; want %.15g", c.k, c.n, c.p, got, c.want)
		}
	}
	// 99 of 100 against the exact 8x8 rate from a1, 0.979578: not
	// unlikely (P(X ≥ 99) alone is about 0.39).
	if p := BinomialTest(99, 100, 0.979578); p < 0.3 || p > 0.8 {
		t.Errorf("99/100 against 0.979578: p = %v", p)
	}
	// 67 of 100 against Pohl's exact 23/32 from a1: p about 0.2-0.3.
	if p := BinomialTest(67, 100, 23.0/32); p < 0.1 || p > 0.5 {
		t.Errorf("67/100 against 0.71875: p = %v", p)
	}
}
