package results

import (
	"math"

	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/stats"
)

// comparePublished decides a claim row that states no rate of its own
// against the published count of its source (issue 20): the exact
// binomial test of their k of n against our exact probability where we
// have one (or a deterministic rule's rate, a count of starts, not a
// sample), else the two-sample test (stats.CompareSamples). Its verdict
// is reproduced, not reproduced or inconclusive (stats.ReplicationVerdict);
// the p-value joins the claim's Holm family, since the published side
// always carries sampling error.
func comparePublished(row *table.ClaimRow, p *config.Publication, ours stats.Proportion, deterministic bool, conf float64) {
	k, n, assumed, _ := p.Count()
	theirs := stats.Proportion{Successes: uint64(k), Trials: uint64(n)}
	row.Kind = "published"
	row.ClaimedLo, row.ClaimedHi = theirs.Estimate(), theirs.Estimate()
	row.PublishedSuccesses, row.PublishedTrials = table.Int64Of(k), table.Int64Of(n)
	row.TrialsAssumed = assumed
	var r stats.Replication
	switch {
	case !math.IsNaN(row.Exact):
		row.DecidedBy = "exact"
		r = stats.CompareExact(row.Exact, theirs)
	case deterministic:
		row.DecidedBy = "walk"
		row.Lo, row.Hi = math.NaN(), math.NaN()
		r = stats.CompareExact(row.Measured, theirs)
	default:
		row.DecidedBy = "sample"
		r = stats.CompareSamples(ours, theirs, conf)
	}
	row.DiffLo, row.DiffHi, row.Test, row.PValue = r.Diff.Lo, r.Diff.Hi, r.Method, r.PValue
	row.Verdict = stats.ReplicationVerdict(r, ours, theirs, 1-conf)
}

// holmPublished is a published comparison's verdict once its family is
// adjusted: the same rule as its verdict, at the adjusted p-value.
func holmPublished(row *table.ClaimRow, conf float64) string {
	ours := stats.Proportion{Successes: uint64(row.Successes), Trials: uint64(row.Walks)}
	theirs := stats.Proportion{Successes: uint64(row.PublishedSuccesses.Int64), Trials: uint64(row.PublishedTrials.Int64)}
	return stats.ReplicationVerdict(stats.Replication{PValue: row.PHolm, Method: row.Test}, ours, theirs, 1-conf)
}

// literatureWords says a claim's verdict in the words of a replication
// where its source is a published statement: consistent is reproduced,
// refuted not reproduced (under the reading the row names).
func literatureWords(row *table.ClaimRow) {
	if _, ok := config.LookupSource(row.Source); !ok || row.Kind == "published" {
		return
	}
	for _, v := range []*string{&row.Verdict, &row.VerdictHolm} {
		switch *v {
		case stats.Consistent:
			*v = stats.Reproduced
		case stats.Refuted:
			*v = stats.NotReproduced
		}
	}
}
