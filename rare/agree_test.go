package rare

import (
	"context"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// TestCoverage: over independent seeds the interval covers the exact 5×5
// value about as often as it says, with enough particles that replicates
// are seldom 0. The fast version checks a few seeds loosely; the slow one
// measures the coverage rate on many, and shows that with too few
// particles (most replicates 0, which Result warns of) it undercovers, so
// that the check can fail.
func TestCoverage(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r := mustRule(t, "random")
	want := exactTail(t, b, r, 0, 25)
	cover := func(seeds, particles int) (rate float64, warned int) {
		covered := 0
		for s := range seeds {
			res := estimate(t, Options{Board: b, Rule: r, Seed: uint64(1000 + s), Particles: particles, Replicates: 10})
			if res.Lo <= want && want <= res.Hi {
				covered++
			}
			if len(res.Warnings) > 0 {
				warned++
			}
		}
		return float64(covered) / float64(seeds), warned
	}
	seeds, min := 20, 0.85
	if testenv.Slow() {
		seeds, min = 400, 0.92
	}
	rate, warned := cover(seeds, 1000)
	t.Logf("1000 particles, 10 replicates: 95%% intervals covered the exact %.6g in %.3f of %d seeds, %d warned", want, rate, seeds, warned)
	if rate < min || rate == 1 && seeds >= 100 {
		t.Errorf("95%% intervals covered the exact value in %.3f of %d seeds; want at least %.2f and not always", rate, seeds, min)
	}
	if !testenv.Slow() {
		return
	}
	rate, warned = cover(seeds, 100)
	t.Logf("100 particles, 10 replicates: covered in %.3f of %d seeds, %d warned", rate, seeds, warned)
	if rate > 0.9 || warned < seeds*3/4 {
		t.Errorf("100 particles: coverage %.3f and %d of %d warned; want the undercoverage of mostly-zero replicates, and warnings", rate, warned, seeds)
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
