package results

import (
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// Build turns the tallies of a complete run of e into table rows: squares,
// histograms and dead ends per (board, rule, start), class and degree
// aggregates, comparisons between classes, and claim verdicts.
func Build(e *config.Experiment, tally TallyOf) (*Tables, error) {
	return BuildWithExact(e, tally, nil)
}

// BuildWithExact is Build with exact values beside the estimates (exact
// may be nil): the squares carry them, classes and boards their means,
// and a claim whose squares all have one is decided by it.
func BuildWithExact(e *config.Experiment, tally TallyOf, exact ExactOf) (*Tables, error) {
	return BuildRun(e, Inputs{Tally: tally, Exact: exact})
}

// Claims returns the claims table of e on the tallies: one row per claim
// and board (one per set claim), in claim order, Holm-adjusted within
// families. A sequential run decides its sampled verdicts by the
// always-valid interval (Experiment.VerdictMethod) and looks at them after
// every round (runner, sequential.go).
func Claims(e *config.Experiment, tally TallyOf, exact ExactOf) ([]table.ClaimRow, error) {
	if exact == nil {
		exact = noExact
	}
	return claims(e, Inputs{Tally: tally, Exact: exact})
}
