// Package stats turns the outcomes of knight walks into the numbers a paper
// reports: exact, mergeable accumulators (Tally), success rates with
// confidence intervals (Proportion, Summary), path-length distributions
// from integer histograms (LengthStats, Quantile), class aggregates (Pool,
// Summarize), comparisons of two rates (Compare), and verdicts on published
// claims (Claim, Verdict).
//
// Accumulation is integer-only, so a run split into shards and merged gives
// the same results, value for value, as one run (docs/design.md,
// Reproducibility). Everything derived from the counts — rates, intervals,
// means, quantiles — is a pure function of them and is computed at the end.
//
// Rates are fractions in [0, 1]; Summary.String prints them in percent.
// Results carry warnings (no trials, few trials, small counts) rather than
// hiding them. The package uses no randomness. It panics only for
// programmer errors (a confidence level outside (0, 1), an outcome that
// cannot occur on the board), with a "stats: " prefix; what a user can cause,
// such as merging tallies of different boards, is an error.
//
// The package depends on sim only for sim.Outcome, and on gonum for the
// normal and beta quantiles.
package stats
