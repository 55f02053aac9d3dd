package stats

import (
	"math"
	"testing"
)

// TestConfidenceSequenceEnds: the ends are where the mixture martingale
// reaches 1/α (Howard et al. 2021), the interval holds the estimate, is
// wider than the fixed-n intervals (it pays for validity at every n),
// widens with the level and narrows with n.
func TestConfidenceSequenceEnds(t *testing.T) {
	for _, c := range []struct{ k, n uint64 }{{0, 10}, {3, 10}, {10, 10}, {22, 10000}, {9790, 10000}, {500, 1000}, {1, 1000000}} {
		s := Proportion{c.k, c.n}.Interval(0.95, ConfidenceSequence)
		bound := -math.Log(0.05)
		for _, end := range []float64{s.Lo, s.Hi} {
			if end == 0 || end == 1 {
				continue
			}
			if m := csLogM(c.k, c.n, end); math.Abs(m-bound) > 1e-6 {
				t.Errorf("%d/%d: log M at the end %v is %v, want log(1/α) = %v", c.k, c.n, end, m, bound)
			}
		}
		if c.k == 0 && s.Lo != 0 || c.k == c.n && s.Hi != 1 {
			t.Errorf("%d/%d: [%v, %v], want the end at 0 or 1", c.k, c.n, s.Lo, s.Hi)
		}
		if !(s.Lo <= s.Center && s.Center <= s.Hi) {
			t.Errorf("%d/%d: [%v, %v] misses the estimate %v", c.k, c.n, s.Lo, s.Hi, s.Center)
		}
		cp := Proportion{c.k, c.n}.Interval(0.95, ClopperPearson)
		if s.Lo > cp.Lo || s.Hi < cp.Hi {
			t.Errorf("%d/%d: always-valid [%v, %v] inside Clopper-Pearson [%v, %v]", c.k, c.n, s.Lo, s.Hi, cp.Lo, cp.Hi)
		}
		w := Proportion{c.k, c.n}.Interval(0.99, ConfidenceSequence)
		if w.Lo > s.Lo || w.Hi < s.Hi {
			t.Errorf("%d/%d: 99 %% [%v, %v] inside 95 %% [%v, %v]", c.k, c.n, w.Lo, w.Hi, s.Lo, s.Hi)
		}
	}
	a := Proportion{500, 1000}.Interval(0.95, ConfidenceSequence)
	b := Proportion{5000, 10000}.Interval(0.95, ConfidenceSequence)
	if b.Hi-b.Lo >= a.Hi-a.Lo {
		t.Errorf("ten times the walks: width %v, was %v", b.Hi-b.Lo, a.Hi-a.Lo)
	}
}
