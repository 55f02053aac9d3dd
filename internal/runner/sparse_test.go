package runner

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSparseBins holds sparse, which skips empty runs eight bins at a
// time, to the plain scan on histograms of every length mod 8, with bins
// at the ends, in the tail and in runs.
func TestSparseBins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for trial := range 50 {
			h := make([]uint64, n)
			for i := range h {
				if rng.IntN(6) == 0 || trial == 0 && (i == 0 || i == n-1) {
					h[i] = rng.Uint64N(5) + 1
				}
			}
			var want [][2]uint64
			for i, c := range h {
				if c != 0 {
					want = append(want, [2]uint64{uint64(i), c})
				}
			}
			if got := sparse(h); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("len %d: sparse %v, want %v", n, got, want)
			}
		}
	}
}
