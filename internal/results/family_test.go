package results

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/stats"
)

// TestClaimFamilyErrorRate simulates runs of a family of claims that are
// all true and counts the runs with any wrong (refuted) verdict: after
// Holm within the family (adjustClaims) at most 1 − confidence of them,
// within Monte Carlo error; with the raw per-claim verdicts far more,
// which shows the test can fail. Twenty claims, all true with the true
// rate on an end of the claimed set (the hardest case): "80 % ± 10" on a
// true 70 % and "between 40 and 60 %" on a true 60 %, 2000 walks each.
func TestClaimFamilyErrorRate(t *testing.T) {
	testenv.SkipUnlessSlow(t, "a simulation of 4000 claim families")
	const (
		claims, walks, reps = 20, 2000, 4000
		conf                = 0.95
	)
	rng := rand.New(rand.NewPCG(20, 2026))
	kinds := []struct {
		claim stats.Claim
		p     float64
	}{{stats.Claim{Kind: stats.Rate, Value: 0.8, Tolerance: 0.1}, 0.7}, {stats.Claim{Kind: stats.Range, Lo: 0.4, Hi: 0.6}, 0.6}}
	wrongRaw, wrongHolm := 0, 0
	for range reps {
		rows := make([]table.ClaimRow, claims)
		raw := false
		for i := range rows {
			k := kinds[i%len(kinds)]
			x := stats.Proportion{Successes: uint64(distuv.Binomial{N: walks, P: k.p, Src: rng}.Rand()), Trials: walks}
			lo, hi := claimedRange(k.claim)
			rows[i] = table.ClaimRow{Kind: k.claim.Kind.String(), ClaimedLo: lo, ClaimedHi: hi, Family: "all", DecidedBy: "sample",
				Verdict: stats.Verdict(k.claim, x.Interval(conf, stats.Wilson)), PValue: stats.VerdictPValue(k.claim, x, stats.Wilson)}
			raw = raw || rows[i].Verdict == stats.Refuted
		}
		adjustClaims(rows, conf)
		holm := false
		for _, r := range rows {
			holm = holm || r.VerdictHolm == stats.Refuted
		}
		if raw {
			wrongRaw++
		}
		if holm {
			wrongHolm++
		}
	}
	// Monte Carlo error of a rate of 0.05 over 4000 runs: sd 0.0034.
	if r := float64(wrongHolm) / reps; r > 1-conf+3*0.0034 {
		t.Errorf("Holm: a family of true claims had a wrong verdict in %.4f of runs, above %.2f", r, 1-conf)
	}
	if r := float64(wrongRaw) / reps; r <= 1-conf+3*0.0034 {
		t.Errorf("raw verdicts were wrong in only %.4f of runs; the simulation should show the inflation", r)
	}
	t.Logf("runs with a wrong verdict: Holm %d/%d, raw %d/%d", wrongHolm, reps, wrongRaw, reps)
}
