package results

import (
	"math"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// comparePublished decides a claim row that states no rate of its own
// against the published count of its source in three
// outcomes: not reproduced where the difference test rejects (the exact
// binomial test of their k of n against our exact probability, or a
// deterministic rule's rate, a count of starts, not a sample; else
// Barnard's exact unconditional test of two samples, which keeps its
// power when our sample is small); reproduced only where two one-sided
// tests show our rate within the source's equivalence margin of theirs
// (stats.Replicate); inconclusive otherwise, with the difference the run
// could have detected and the walks that would decide it. The difference
// test's p-value joins the claim's Holm family, since the published side
// always carries sampling error; the equivalence p-values are reported
// raw (docs/design.md: the run-level guarantee of "reproduced").
func comparePublished(row *table.ClaimRow, p *config.Publication, ours stats.Proportion, deterministic bool, conf float64) {
	k, n, assumed, _ := p.Count()
	theirs := stats.Proportion{Successes: uint64(k), Trials: uint64(n)}
	alpha := 1 - conf
	row.Kind = "published"
	row.ClaimedLo, row.ClaimedHi = theirs.Estimate(), theirs.Estimate()
	row.PublishedSuccesses, row.PublishedTrials = table.Int64Of(k), table.Int64Of(n)
	row.TrialsAssumed = assumed
	margin := p.EquivalenceMargin(alpha)
	var r stats.Replicated
	switch {
	case !math.IsNaN(row.Exact):
		row.DecidedBy = "exact"
		r = stats.ReplicateExact(row.Exact, theirs, margin, alpha)
	case deterministic:
		row.DecidedBy = "walk"
		row.Lo, row.Hi = math.NaN(), math.NaN()
		r = stats.ReplicateExact(row.Measured, theirs, margin, alpha)
	default:
		row.DecidedBy = "sample"
		r = stats.Replicate(ours, theirs, margin, alpha)
	}
	row.DiffLo, row.DiffHi, row.Test, row.PValue = r.Diff.Lo, r.Diff.Hi, r.Method, r.PValue
	row.Margin, row.PEquivLower, row.PEquivUpper, row.Detectable = r.Margin, r.PLower, r.PUpper, r.Detectable
	if r.WalksNeeded > 0 {
		row.WalksNeeded = table.Int64Of(r.WalksNeeded)
	}
	row.Verdict = r.Verdict(alpha)
}

// holmPublished is a published comparison's verdict once its family is
// adjusted: the same rule as its verdict, with the difference test's
// p-value replaced by its Holm-adjusted one.
func holmPublished(row *table.ClaimRow, conf float64) string {
	r := stats.Replicated{Replication: stats.Replication{PValue: row.PValue}, PLower: row.PEquivLower, PUpper: row.PEquivUpper}
	return r.VerdictAt(row.PHolm, 1-conf)
}

// literatureWords says a claim's verdict in the words of a replication
// where its source is a published statement: consistent is reproduced,
// refuted not reproduced (under the reading the row names). One meaning
// for every kind: reproduced is agreement shown at the stated level. A
// share statement read as the source's counts (CountShareWord) is
// "consistent" where it is not rejected: its test has no equivalence
// procedure, so not rejecting it shows no agreement.
func literatureWords(e *config.Experiment, row *table.ClaimRow) {
	if _, ok := e.LookupSource(row.Source); !ok || row.Kind == "published" {
		return
	}
	countShare := row.Kind == "share" && row.Test != ""
	for _, v := range []*string{&row.Verdict, &row.VerdictHolm} {
		switch *v {
		case stats.Consistent:
			if countShare {
				continue // not rejected, no equivalence shown
			}
			*v = stats.Reproduced
		case stats.Refuted:
			*v = stats.NotReproduced
		}
	}
}
