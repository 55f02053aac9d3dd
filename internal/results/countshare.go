package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// CountShare judges a share claim read as its source's counts (per_board:
// count; stats.CountShare) on the tallies: each board's side is its exact
// value where every square has one, a deterministic rule's count of
// starts (no sampling), or its walks. A sequential run's confidence sets
// are always-valid intervals, so its boards may stop one by one
// (CountShareResult.Settled).
func CountShare(e *config.Experiment, tally TallyOf, exact ExactOf, ch config.Check) (stats.CountShareResult, error) {
	if exact == nil {
		exact = noExact
	}
	boards := make([]stats.CountBoard, len(ch.Boards))
	for i, bi := range ch.Boards {
		if x := exactMean(exact, bi, ch.Rule, ch.Squares[i]); !math.IsNaN(x) {
			boards[i] = stats.CountBoard{Exact: true, Rate: x}
			continue
		}
		t, err := pool(tally, bi, ch.Rule, ch.Squares[i])
		if err != nil {
			return stats.CountShareResult{}, fmt.Errorf("claim %s on %s: %w", ch.ID, e.Boards[bi], err)
		}
		boards[i] = stats.CountBoard{Ours: t.SuccessRate()}
		if e.Rules[ch.Rule].Deterministic() {
			boards[i] = stats.CountBoard{Exact: true, Rate: t.SuccessRate().Estimate()}
		}
	}
	return stats.CountShare(*ch.Count, boards, ch.Set.Share, e.Confidence, e.Sequential != nil), nil
}

// countShareRow fills a share row read as counts: measured, [lo, hi] and
// the verdict from stats.CountShare, its p-value (which joins the claim's
// Holm family, as a published comparison's does: the source's counts carry
// sampling error whatever decided our side), the test and the source's
// trials. It is decided exactly where the exact boards fix the verdict
// whatever the sampled ones show.
func countShareRow(row *table.ClaimRow, e *config.Experiment, tally TallyOf, exact ExactOf, ch config.Check) error {
	r, err := CountShare(e, tally, exact, ch)
	if err != nil {
		return err
	}
	row.Target += ", count " + ch.Count.String()
	if d := disagreeing(e, ch, r); d != "" {
		row.Target += "; " + d
	}
	row.Measured, row.Lo, row.Hi = r.Point, r.Lo, r.Hi
	row.Verdict = r.Verdict(ch.Set.Share)
	row.PValue, row.DiffLo, row.DiffHi = r.PValue, math.NaN(), math.NaN()
	row.PublishedTrials, row.TrialsAssumed = table.Int64Of(int64(ch.Count.Trials)), ch.CountAssumed
	row.Test, row.DecidedBy = "berger-boos", "sample"
	if r.Exact {
		row.Test, row.DecidedBy = "binomial", "exact"
	} else if r.DecidedByExact(ch.Set.Share) {
		row.DecidedBy = "exact"
	}
	return nil
}

// disagreeing names the sizes whose stated count is implausible alone
// under our rates (P ≤ α, before any adjustment), with their P, those
// rejected even after the adjustment for the sizes a true statement may
// miss marked so: "sizes that disagree: n = 8 (P = 0.021, rejected)";
// "" where none. With the joint p-value they say what decided the
// verdict (MeasuredText).
func disagreeing(e *config.Experiment, ch config.Check, r stats.CountShareResult) string {
	alpha := 1 - e.Confidence
	var parts []string
	for i, bi := range ch.Boards {
		if i >= len(r.P) || r.P[i] > alpha {
			continue
		}
		part := fmt.Sprintf("%d (P = %s", e.Boards[bi].Rows, PText(r.P[i]))
		if r.Adjusted[i] <= alpha {
			part += ", rejected"
		}
		parts = append(parts, part+")")
	}
	if len(parts) == 0 {
		return ""
	}
	if len(parts) > 8 {
		parts = append(parts[:8], fmt.Sprintf("%d more", len(parts)-8))
	}
	return "sizes that disagree: n = " + strings.Join(parts, ", ")
}
