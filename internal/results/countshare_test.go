package results

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// "At least 98 % on most (more than 70 %) / every one of n = 5..8", read
// as a source's counts (100 trials per size, assumed as Ganzfried's are:
// two statements of a sources file of the test's own, each with its
// encoding, which the claims quote), from a1 where every value is exact:
// the rows are re-derived here from the exact probabilities by summing
// binomial terms. More than 70 % of 4 sizes is 3, so a true statement
// cannot miss 2 sizes (the one with 7x7's 73.7 % and the next); share 1
// is refuted by 7x7 alone, unadjusted.
const countYAML = `name: counts
seed: 4
sources: SOURCES
boards: [{sizes: 5..8}]
starts: [a1]
walks: 50
rules: [{name: warnsdorff}]
claims:
  - {id: most, rule: warnsdorff/random, square: a1, sizes: 5..8, range: [0.98, 1], share: 0.7, per_board: count, source: test-most-98}
  - {id: every, rule: warnsdorff/random, square: a1, sizes: 5..8, range: [0.98, 1], share: 1, per_board: count, source: test-every-98}
  - {id: seven, rule: warnsdorff/random, square: a1, board: 7x7, source: ganzfried-2004-n7}
`

const countSources = `sources:
  - {id: test-most-98, authors: A. Test, title: T, where: p. 1, statement: "at least 98 % on most n from 5 to 8", sizes: 5..8, range: [0.98, 1], share: 0.7, assumed_trials: 100, assumption: "as Ganzfried's"}
  - {id: test-every-98, authors: A. Test, title: T, where: p. 1, statement: "at least 98 % on every n from 5 to 8", sizes: 5..8, range: [0.98, 1], share: 1, assumed_trials: 100, assumption: "as Ganzfried's"}
`

// countConfig writes countSources beside the test and returns countYAML
// naming it.
func countConfig(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "sources.yaml")
	if err := os.WriteFile(f, []byte(countSources), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(countYAML, "SOURCES", f, 1)
}

func TestCountShareClaims(t *testing.T) {
	yml := countConfig(t)
	c, err := config.Parse("c.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "c.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	ts := tallies(t, e)
	exactP := map[int]float64{}
	p := make([]float64, len(e.Boards)) // P(≥ 98 of 100) per size, by binomial terms
	for bi, b := range e.Boards {
		x, err := exact.Walk(context.Background(), b, e.Rules[0], 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		exactP[bi] = x.PSuccess
		d := distuv.Binomial{N: 100, P: x.PSuccess}
		for k := 98; k <= 100; k++ {
			p[bi] += d.Prob(float64(k))
		}
		if x.PSuccess == 1 { // distuv's Binomial is NaN at P = 1
			p[bi] = 1
		}
	}
	tb, err := BuildWithExact(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] },
		func(b, r, s int) (exact.Result, bool) { return exact.Result{PSuccess: exactP[b]}, true })
	if err != nil {
		t.Fatal(err)
	}
	// The p-value is the joint probability of the stated pattern: at least
	// 3 of the 4 sizes (most), or all 4, with a count ≥ 98 of 100.
	want := map[string]struct {
		verdict string
		pValue  float64
	}{
		// Not rejected, and no equivalence procedure: consistent, never
		// reproduced.
		"most":  {stats.Consistent, stats.JointTail(p, 3)},
		"every": {stats.NotReproduced, p[0] * p[1] * p[2] * p[3]},
	}
	for _, r := range tb.Claims[:2] {
		w := want[r.ID]
		if r.Kind != "share" || r.Test != "binomial" || r.DecidedBy != "exact" || r.Verdict != w.verdict || math.Abs(r.PValue-w.pValue) > 1e-12*max(1, w.pValue) {
			t.Errorf("%s: %s test %s decided by %s, %s, p %v; want share, binomial, exact, %s, p %v", r.ID, r.Kind, r.Test, r.DecidedBy, r.Verdict, r.PValue, w.verdict, w.pValue)
		}
		if r.Target != "square:a1, count ≥ 98 of 100; sizes that disagree: n = 7 (P = 3.7e-11, rejected)" || r.PublishedTrials.Int64 != 100 || !r.TrialsAssumed || r.Lo != 0.75 || r.Hi != 0.75 {
			t.Errorf("%s: target %q, trials %v assumed %v, [%v, %v]; want 3 of 4 sizes plausible", r.ID, r.Target, r.PublishedTrials, r.TrialsAssumed, r.Lo, r.Hi)
		}
		if math.IsNaN(r.PHolm) || r.PHolm < r.PValue {
			t.Errorf("%s: p_holm %v: the count share's p-value joins the family", r.ID, r.PHolm)
		}
	}
	// Holm over the family of three p-values (both shares and 7x7's count).
	ps := []float64{tb.Claims[0].PValue, tb.Claims[1].PValue, tb.Claims[2].PValue}
	for i, h := range stats.Holm(ps) {
		if tb.Claims[i].PHolm != h {
			t.Errorf("%s: p_holm %v, Holm gives %v", tb.Claims[i].ID, tb.Claims[i].PHolm, h)
		}
	}
	// The measured column says what decided the verdict: the
	// joint p-value and the size that disagrees, not a share of boards
	// that reads as support next to "not reproduced".
	for _, r := range tb.Claims[:2] {
		m := MeasuredText(r)
		if !strings.HasPrefix(m, fmt.Sprintf("joint p = %.2g", r.PValue)) || !strings.Contains(m, "sizes that disagree: n = 7 (P = 3.7e-11, rejected)") || !strings.Contains(m, "(not the verdict)") {
			t.Errorf("%s: measured %q", r.ID, m)
		}
		if strings.Contains(reading(r), "disagree") {
			t.Errorf("%s: read as %q repeats the sizes that disagree", r.ID, reading(r))
		}
	}
	if r := tb.Claims[1]; r.VerdictHolm != stats.NotReproduced {
		t.Errorf("every: verdict after Holm %s, p_holm %v", r.VerdictHolm, r.PHolm)
	}
}

// TestCountShareReportShowsWhatDecided (issue 32): the report lists every
// size's probability of the stated count, the adjusted value and the
// threshold, and says which sizes pass only through the adjustment (7×7
// for Squirrel & Cull's "over 85 % on most boards": P = 0.0023 ≤ α, but
// 23 × P > α).
func TestCountShareReportShowsWhatDecided(t *testing.T) {
	set := stats.CountSet{Lo: 86, Hi: 100, Trials: 100}
	var boards []stats.CountBoard // n = 5..49, all near 99 % but 7x7
	var names []string
	for n := 5; n < 50; n++ {
		rate := 0.99
		if n == 7 {
			rate = 0.736916
		}
		boards = append(boards, stats.CountBoard{Exact: true, Rate: rate})
		names = append(names, fmt.Sprintf("%dx%d", n, n))
	}
	r := stats.CountShare(set, boards, 0.5, 0.95, false)
	var b strings.Builder
	writeCountShares(&b, &Tables{CountShares: []CountShareDetail{{ID: "sq85", Count: set.String(), Alpha: 0.05, Result: r, Boards: names}}})
	got := b.String()
	for _, want := range []string{"| 7x7 | 0.0023 |", "P ≤ α: passes only by the adjustment", fmt.Sprintf("%d × P ≤ α", r.Miss)} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// TestComparePublishedIssue32: the issue's cases through the claims row:
// 10 walks from each of four corners, 40 of 40, against a published 81 of
// 100 is not reproduced (it said reproduced, Berger–Boos p = 0.69); 38 of
// 40 is at most inconclusive; the row carries the margin, both
// equivalence p-values and, when inconclusive, what would decide it.
func TestComparePublishedIssue32(t *testing.T) {
	rate, trials := 0.81, int64(100)
	src := &config.Publication{ID: "x-2004", Rate: &rate, Trials: &trials}
	for _, c := range []struct {
		k    uint64
		want []string
	}{
		{40, []string{stats.NotReproduced}},
		{38, []string{stats.NotReproduced, stats.Inconclusive}},
		{36, []string{stats.Inconclusive}},
		{33, []string{stats.Reproduced}}, // within the design's margin, 14.0 points (100 trials at 1/2)
	} {
		row := table.ClaimRow{Exact: math.NaN()}
		comparePublished(&row, src, stats.Proportion{Successes: c.k, Trials: 40}, false, 0.95)
		if !slices.Contains(c.want, row.Verdict) || row.Test != "barnard" || !(row.Margin > 0.1) || math.IsNaN(row.PEquivLower) || math.IsNaN(row.PEquivUpper) {
			t.Errorf("%d of 40 vs 81/100: %s by %s, margin %v, equivalence p %v/%v; want %v", c.k, row.Verdict, row.Test, row.Margin, row.PEquivLower, row.PEquivUpper, c.want)
		}
		if row.Verdict == stats.Inconclusive && !(row.WalksNeeded.Valid && row.WalksNeeded.Int64 > 40 || !row.WalksNeeded.Valid) {
			t.Errorf("%d of 40: walks needed %+v", c.k, row.WalksNeeded)
		}
	}
}

// TestUniformStartCoverage (slow): the uniform-start interval of a
// sequential run's class (the equal-weight mean of squares that ran
// unequal walks, at the mean's effective sample size) covers the true
// mean rate about as often as its level says, with squares of very
// different rates and walks: rates near 1 and near 0, spread over (0, 1),
// two squares or twelve, a square with a hundred times the walks of the
// others, and the levels 0.95 and 0.99.
func TestUniformStartCoverage(t *testing.T) {
	testenv.SkipUnlessSlow(t, "4000 simulated classes for each of 7 designs")
	rule, _ := sim.ParseRule("warnsdorff")
	rng := rand.New(rand.NewPCG(35, 1))
	for _, c := range []struct {
		rates []float64
		walks []uint64
		conf  float64
	}{
		{[]float64{0.97, 0.98, 0.99, 0.95}, []uint64{1000, 1500, 10000, 2250}, 0.95},
		{[]float64{0.5, 0.9, 0.2, 0.999}, []uint64{200, 5000, 300, 100000}, 0.95},
		{[]float64{0.01, 0.02, 0.005}, []uint64{1000, 3375, 1500}, 0.95},
		{[]float64{0.3, 0.7}, []uint64{100, 10000}, 0.95},
		{[]float64{0.6, 0.62, 0.64, 0.66, 0.68, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8, 0.82}, []uint64{100, 150, 225, 338, 507, 760, 1140, 1710, 2565, 3848, 5772, 8658}, 0.95},
		{[]float64{0.995, 0.999, 0.98}, []uint64{200, 300, 450}, 0.95},
		{[]float64{0.5, 0.9, 0.2, 0.999}, []uint64{200, 5000, 300, 100000}, 0.99},
	} {
		e := &config.Experiment{Confidence: c.conf, Method: stats.Wilson, Sequential: &config.Sequential{Until: "decided"}}
		mean := 0.0
		for _, p := range c.rates {
			mean += p / float64(len(c.rates))
		}
		const runs = 4000
		covered := 0
		squares := make([]int, len(c.rates))
		for i := range squares {
			squares[i] = i
		}
		for range runs {
			tallies := make([]*stats.Tally, len(c.rates))
			for i, p := range c.rates {
				n := c.walks[i]
				k := uint64(distuv.Binomial{N: float64(n), P: p, Src: rng}.Rand())
				tl := stats.NewTally(4)
				tl.Walks, tl.Successes = n, k
				tallies[i] = tl
			}
			s, _, ok := uniformStart(func(_, _, sq int) *stats.Tally { return tallies[sq] }, 0, 0, squares, rule, e)
			if !ok {
				t.Fatal("no uniform-start interval for unequal walks")
			}
			if s.Lo <= mean && mean <= s.Hi {
				covered++
			}
		}
		cov := float64(covered) / runs
		t.Logf("rates %v, walks %v: coverage %.4f (level %v)", c.rates, c.walks, cov, c.conf)
		if cov < c.conf-3*math.Sqrt(c.conf*(1-c.conf)/runs)-0.01 {
			t.Errorf("rates %v, walks %v: coverage %.4f, well below %v", c.rates, c.walks, cov, c.conf)
		}
	}
}
