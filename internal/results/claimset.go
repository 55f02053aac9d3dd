package results

import (
	"fmt"

	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/stats"
)

// setClaimRow judges a claim about the set of its boards as one row of the
// claims table. Board is the claim's sizes ("5..49", or "all"); Walks and
// Successes are summed over the boards.
//
//   - share: Measured is the share of boards whose point estimate meets
//     the per-board statement, [Lo, Hi] the share decided by the per-board
//     intervals (stats.Share); claimed [share, 1].
//   - first-failure: Measured is the first failing n in board order (0
//     when none fails), claimed the stated n, Lo = Hi = Measured.
//   - failing-share: Measured is the share of boards where the walk fails,
//     claimed [0, bound); exact, Lo = Hi = Measured.
func setClaimRow(e *config.Experiment, tally TallyOf, ch config.Check) (table.ClaimRow, error) {
	row := table.ClaimRow{ID: ch.ID, Source: ch.Source, Rule: e.Rules[ch.Rule].Name(), Board: ch.Set.Sizes, Kind: ch.Set.Kind}
	if row.Board == "" {
		row.Board = "all"
	}
	var sums []stats.Summary
	firstFail, failing := -1, 0
	for i, bi := range ch.Boards {
		b := e.Boards[bi]
		t, err := pool(tally, bi, ch.Rule, ch.Squares[i])
		if err != nil {
			return row, fmt.Errorf("claim %s on %s: %w", ch.ID, b, err)
		}
		if i == 0 {
			row.Target = ch.Target(b)
		}
		row.Walks += int64(t.Walks)
		row.Successes += int64(t.Successes)
		sums = append(sums, t.SuccessRate().Interval(e.Confidence, e.Method))
		if t.Successes < t.Walks {
			failing++
			if firstFail < 0 {
				firstFail = b.Rows
			}
		}
	}
	switch ch.Set.Kind {
	case "share":
		r := stats.Share(ch.Claim, sums)
		row.Target += ", " + ch.Claim.String() // the per-board statement the share counts
		row.ClaimedLo, row.ClaimedHi = ch.Set.Share, 1
		row.Measured, row.Lo, row.Hi = r.Point, r.Lo, r.Hi
		row.Verdict = stats.ShareVerdict(r, ch.Set.Share)
	case "first-failure":
		row.ClaimedLo, row.ClaimedHi = float64(ch.Set.FirstFailure), float64(ch.Set.FirstFailure)
		row.Measured = float64(max(firstFail, 0)) // 0: no board fails
		row.Lo, row.Hi = row.Measured, row.Measured
		row.Verdict = stats.ExactVerdict(firstFail == ch.Set.FirstFailure)
	case "failing-share":
		share := float64(failing) / float64(len(ch.Boards))
		row.ClaimedLo, row.ClaimedHi = 0, ch.Set.FailingBelow
		row.Measured, row.Lo, row.Hi = share, share, share
		row.Verdict = stats.ExactVerdict(share < ch.Set.FailingBelow)
	default:
		panic("results: unknown set claim kind " + ch.Set.Kind)
	}
	return row, nil
}
