package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestComparePublished checks the eight worked examples of Newcombe, R. G.
// (1998), "Interval estimation for the difference between independent
// proportions: comparison of eleven methods", Statistics in Medicine 17,
// 873–890, Table II, method 10 (hybrid score interval, no continuity
// correction), 95%.
func TestComparePublished(t *testing.T) {
	for _, c := range []struct {
		a, b   Proportion
		d      float64
		lo, hi float64
	}{
		{Proportion{56, 70}, Proportion{48, 80}, 0.2000, 0.0524, 0.3339},
		{Proportion{9, 10}, Proportion{3, 10}, 0.6000, 0.1705, 0.8090},
		{Proportion{6, 7}, Proportion{2, 7}, 0.5714, 0.0582, 0.8062},
		{Proportion{5, 56}, Proportion{0, 29}, 0.0893, -0.0381, 0.1926},
		{Proportion{0, 10}, Proportion{0, 20}, 0.0000, -0.1611, 0.2775},
		{Proportion{0, 10}, Proportion{0, 10}, 0.0000, -0.2775, 0.2775},
		{Proportion{10, 10}, Proportion{0, 20}, 1.0000, 0.6791, 1.0000},
		{Proportion{10, 10}, Proportion{0, 10}, 1.0000, 0.6075, 1.0000},
	} {
		cmp := Compare(c.a, c.b, 0.95)
		d := cmp.Diff
		if math.Abs(d.Center-c.d) > tol4 || math.Abs(d.Lo-c.lo) > tol4 || math.Abs(d.Hi-c.hi) > tol4 {
			t.Errorf("%v − %v: %.6f [%.6f, %.6f], want %.4f [%.4f, %.4f]", c.a, c.b, d.Center, d.Lo, d.Hi, c.d, c.lo, c.hi)
		}
	}
}

// TestComparePValue checks the pooled z-test against Pearson's chi-square
// for the 2×2 table, N(ad − bc)² / (r1·r2·c1·c2), whose square root is |z|
// and whose χ²(1) upper tail is the two-sided p-value. For 56/70 vs 48/80:
// χ² = 150·1120² / (70·80·104·46) = 7.02349…, p = 0.00805.
func TestComparePValue(t *testing.T) {
	for _, c := range []struct{ a, b Proportion }{
		{Proportion{56, 70}, Proportion{48, 80}},
		{Proportion{5, 56}, Proportion{0, 29}},
		{Proportion{9000, 10000}, Proportion{8800, 10000}},
		{Proportion{30, 100}, Proportion{45, 90}},
	} {
		x1, n1, x2, n2 := float64(c.a.Successes), float64(c.a.Trials), float64(c.b.Successes), float64(c.b.Trials)
		a, b, cc, d := x1, n1-x1, x2, n2-x2
		chi2 := (n1 + n2) * (a*d - b*cc) * (a*d - b*cc) / (n1 * n2 * (a + cc) * (b + d))
		wantP := distuv.ChiSquared{K: 1}.Survival(chi2)
		cmp := Compare(c.a, c.b, 0.95)
		if math.Abs(cmp.Z*cmp.Z-chi2) > 1e-9*chi2 || math.Signbit(cmp.Z) != (x1/n1 < x2/n2) {
			t.Errorf("%v vs %v: z = %v, want ±sqrt(%v) with the sign of p1 − p2", c.a, c.b, cmp.Z, chi2)
		}
		if math.Abs(cmp.PValue-wantP) > 1e-9*wantP {
			t.Errorf("%v vs %v: p = %v, want %v", c.a, c.b, cmp.PValue, wantP)
		}
	}
	cmp := Compare(Proportion{56, 70}, Proportion{48, 80}, 0.95)
	if math.Abs(cmp.Z-2.6502) > tol4 || math.Abs(cmp.PValue-0.00805) > 0.5e-5 {
		t.Errorf("56/70 vs 48/80: z = %v, p = %v; want 2.6502, 0.00805", cmp.Z, cmp.PValue)
	}
}

func TestCompareDegenerate(t *testing.T) {
	c := Compare(Proportion{0, 0}, Proportion{3, 10}, 0.95)
	if !math.IsNaN(c.Diff.Center) || c.Diff.Lo != -1 || c.Diff.Hi != 1 || !math.IsNaN(c.Z) || !math.IsNaN(c.PValue) {
		t.Errorf("no trials on one side: %+v", c)
	}
	if len(c.Diff.Warnings) == 0 || c.Diff.Warnings[0][:7] != "first: " {
		t.Errorf("no trials on one side: warnings %q, want the first side's", c.Diff.Warnings)
	}
	for _, ab := range [][2]Proportion{{{0, 50}, {0, 80}}, {{50, 50}, {80, 80}}} {
		c = Compare(ab[0], ab[1], 0.95)
		if c.Z != 0 || c.PValue != 1 || c.Diff.Center != 0 {
			t.Errorf("%v vs %v: z %v p %v d %v, want 0 1 0", ab[0], ab[1], c.Z, c.PValue, c.Diff.Center)
		}
	}
	// Huge samples with a real difference: the p-value underflows towards 0
	// gracefully rather than cancelling to exactly 0 at moderate z.
	c = Compare(Proportion{5100, 10000}, Proportion{4800, 10000}, 0.95)
	if !(c.PValue > 0 && c.PValue < 1e-4) {
		t.Errorf("51%% vs 48%% of 10000: p = %v", c.PValue)
	}
}
