package stats

import (
	"fmt"
	"math"
)

// Summary is an estimate that carries its own uncertainty: a point estimate,
// a confidence interval, and the warnings a reader needs to judge it (too
// few trials, interval undefined). Rates are fractions in [0, 1];
// differences of rates lie in [-1, 1].
type Summary struct {
	Center     float64 // point estimate (the observed proportion, not the interval midpoint)
	Lo, Hi     float64 // confidence interval
	Confidence float64 // e.g. 0.95
	Method     Method
	Warnings   []string
}

// String prints the estimate and interval in percent with two decimals,
// e.g. "97.96% [97.90, 98.02]"; an undefined estimate prints as "n/a".
func (s Summary) String() string {
	center := "n/a"
	if !math.IsNaN(s.Center) {
		center = fmt.Sprintf("%.2f%%", 100*s.Center)
	}
	return fmt.Sprintf("%s [%.2f, %.2f]", center, 100*s.Lo, 100*s.Hi)
}

// Contains reports whether x lies in the closed interval [Lo, Hi].
func (s Summary) Contains(x float64) bool { return s.Lo <= x && x <= s.Hi }
