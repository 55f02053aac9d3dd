package results

import (
	"fmt"
	"math"
)

// The functions below are the one way each kind of number is printed,
// by the report, docs/claims.md, the LaTeX table and the consoles alike.

// RateText is a rate with its interval, in percent with three decimals:
// "97.210% [97.050, 97.370]"; a deterministic rule's rate, which has no
// interval (lo is NaN), is marked "(walk)".
func RateText(c, lo, hi float64) string {
	if math.IsNaN(lo) && !math.IsNaN(c) { // a deterministic rule: its walks are the answer
		return fmt.Sprintf("%.3f%% (walk)", 100*c)
	}
	return fmt.Sprintf("%.3f%% [%.3f, %.3f]", 100*c, 100*lo, 100*hi)
}

// PText is a p-value with two significant digits, or "" where there is
// none (NaN).
func PText(p float64) string {
	if math.IsNaN(p) {
		return ""
	}
	return fmt.Sprintf("%.2g", p)
}

// CountText is a count of walks, boards or sizes: the integer, in full.
func CountText[N ~int | ~int64 | ~uint64](n N) string {
	return fmt.Sprintf("%d", n)
}
