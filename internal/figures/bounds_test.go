package figures

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestExactSuccessBounds: certified bounds narrower than a pixel draw as
// an exact value (their middle), wider ones not at all; an exact value is
// drawn as it is.
func TestExactSuccessBounds(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		exact, lo, hi, want float64
	}{
		{0.5, 0.5, 0.5, 0.5},
		{nan, 0.99, 0.99008, 0.99004},
		{nan, 0.99, 0.9902, nan},
		{nan, nan, nan, nan},
		{nan, 0, 0, nan}, // a row that sets no bounds
	} {
		got := exactSuccess(table.SquareRow{ExactSuccess: c.exact, ExactLower: c.lo, ExactUpper: c.hi})
		ok := math.Abs(got-c.want) <= 1e-12 || math.IsNaN(got) && math.IsNaN(c.want)
		if !ok {
			t.Errorf("exact %v, bounds [%v, %v]: %v, want %v", c.exact, c.lo, c.hi, got, c.want)
		}
	}
}
