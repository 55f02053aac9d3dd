package stats

import (
	"math"
	"testing"
)

// TestHolm checks Holm's adjustment against values worked by hand and
// against R's p.adjust(p, "holm"):
//
//	p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
func TestHolm(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct{ p, want []float64 }{
		{nil, []float64{}},
		{[]float64{0.2}, []float64{0.2}},
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		// NaN is outside the family: m = 2 here
		{[]float64{0.01, nan, 0.04}, []float64{0.02, nan, 0.04}},
		// capped at 1; the p = 1 of equal all-failure groups stays 1
		{[]float64{0.5, 1, 0.4}, []float64{1, 1, 1}},
		// ties get equal adjusted values
		{[]float64{0.01, 0.01, 0.2}, []float64{0.03, 0.03, 0.2}},
	} {
		got := Holm(c.p)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v", c.p, got)
		}
		for i := range got {
			if !(math.Abs(got[i]-c.want[i]) < 1e-15 || math.IsNaN(got[i]) && math.IsNaN(c.want[i])) {
				t.Errorf("Holm(%v) = %v, want %v", c.p, got, c.want)
				break
			}
		}
	}
}
