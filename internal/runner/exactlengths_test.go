package runner

import (
	"context"
	"math"
	"path/filepath"
	"testing"
)

// TestExactLengthShares: the lengths table's exact_share of a start sums
// to 1, and every length's sampled share lies within five standard errors
// of it (Warnsdorff/random from c3 on 7x7, exact by enumeration).
func TestExactLengthShares(t *testing.T) {
	s := specOf(t, "name: lx\nboards: [7x7]\nstarts: [c3]\nwalks: 20000\nrules: [{name: warnsdorff}]\n")
	sum, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "out"), 2, All, false)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, r := range sum.Tables.Lengths {
		p := r.ExactShare
		if math.IsNaN(p) {
			t.Fatalf("length %d: no exact share", r.Length)
		}
		total += p
		got := float64(r.Count) / 20000
		if se := math.Sqrt(p * (1 - p) / 20000); math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("length %d: sampled %v, exact %v (SE %v)", r.Length, got, p, se)
		}
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("exact shares sum to %v", total)
	}
}
