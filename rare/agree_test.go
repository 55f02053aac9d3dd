package rare

import (
	"context"
	"math"
	"testing"

	"knightwalk/internal/testenv"
	"knightwalk/sim"
)

// TestCoverage: over independent seeds the interval covers the exact 5×5
// value about as often as it says. The fast version checks a few seeds
// loosely; the slow one measures the coverage rate on many.
func TestCoverage(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r := mustRule(t, "random")
	want := exact(t, b, r, 0, 25)
	seeds, min := 20, 0.8
	if testenv.Slow() {
		seeds, min = 400, 0.91
	}
	covered := 0
	for s := range seeds {
		res := estimate(t, Options{Board: b, Rule: r, Seed: uint64(1000 + s), Particles: 100, Replicates: 10, Workers: 1})
		if res.Lo <= want && want <= res.Hi {
			covered++
		}
	}
	rate := float64(covered) / float64(seeds)
	t.Logf("95%% intervals covered the exact %.6g in %d of %d seeds (%.3f)", want, covered, seeds, rate)
	if rate < min || covered == seeds && seeds >= 100 {
		t.Errorf("95%% intervals covered the exact value in %d of %d seeds (%.3f); want at least %.2f and not always", covered, seeds, rate, min)
	}
}

// TestPlainAgreement: where plain sampling resolves the probability,
// splitting agrees with it (within four combined standard errors): the
// 6×6 random walk, and Warnsdorff/random from a corner of a large board;
// the slow version adds 200×200 and the 8×8 random walk (about 4·10⁻⁷,
// which 10⁸ plain walks resolve to ±15 %).
func TestPlainAgreement(t *testing.T) {
	cases := []struct {
		b           *sim.Board
		rule        string
		walks, part int
	}{
		{sim.MustBoard(6, 6), "random", 2_000_000, 1000},
		{sim.MustBoard(100, 100), "warnsdorff/random", 1000, 200},
	}
	if testenv.Slow() {
		cases = append(cases, struct {
			b           *sim.Board
			rule        string
			walks, part int
		}{sim.MustBoard(200, 200), "warnsdorff/random", 4000, 400}, struct {
			b           *sim.Board
			rule        string
			walks, part int
		}{sim.MustBoard(8, 8), "random", 100_000_000, 200_000})
	}
	for _, c := range cases {
		r := mustRule(t, c.rule)
		o := Options{Board: c.b, Rule: r, Seed: 8, Particles: c.part, Replicates: 10}
		pr, err := Plain(context.Background(), o, int64(c.walks))
		if err != nil {
			t.Fatal(err)
		}
		p, se := pr.Estimate, pr.StdErr
		if pr.Walks != int64(c.walks) || pr.Steps < pr.Walks || pr.Hits != int64(math.Round(p*float64(c.walks))) {
			t.Fatalf("plain: %+v", pr)
		}
		if c.part > 10_000 {
			o.Pilot = 2000
			o.Replicates = 20
		}
		res := estimate(t, o)
		z := math.Abs(res.Estimate-p) / math.Hypot(se, res.StdErr)
		t.Logf("%s %s: splitting %.4g ± %.2g (levels %v), plain %.4g ± %.2g over %d walks, z %.2f", c.b, r, res.Estimate, res.StdErr, res.Levels, p, se, c.walks, z)
		if !(z < 4) || p == 0 {
			t.Errorf("%s %s: splitting %.4g ± %.2g, plain %.4g ± %.2g: z %.2f", c.b, r, res.Estimate, res.StdErr, p, se, z)
		}
	}
}
