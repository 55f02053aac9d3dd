package stats

import (
	"math"
	"slices"
)

// Holm returns the p-values p adjusted for multiple comparisons by Holm's
// step-down method (Holm 1979), which controls the family-wise error rate
// under any dependence between the tests. The family is every non-NaN
// entry of p; NaN entries (tests that could not be made) are not part of it
// and stay NaN. With m tests and p sorted ascending, p_(i) becomes
// max over j ≤ i of min(1, (m − j + 1)·p_(j)), so adjusted values keep the
// order of the raw ones and equal raw values get equal adjusted values.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		out[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for j, i := range idx {
		running = max(running, min(1, float64(m-j)*p[i]))
		out[i] = running
	}
	return out
}
