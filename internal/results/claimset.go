package results

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// setClaimRow judges a claim about the set of its boards as one row of the
// claims table. Board is the claim's sizes ("5..49", or "all"); Walks and
// Successes are summed over the boards.
//
//   - share: Measured is the share of boards whose point estimate meets
//     the per-board statement, [Lo, Hi] the share decided by the per-board
//     intervals (stats.Share); claimed [share, 1]. A board with an exact
//     value is decided by it (a point interval); the k sampled boards get
//     Bonferroni intervals at level 1 − (1 − confidence)/k, so that all
//     of them hold at once with the run's confidence and one board's
//     chance miss cannot flip the verdict more often than that. The row
//     is decided_by exact when the sampled boards cannot change the
//     verdict (it is the same with every one of them counted as meeting
//     the statement and as not), else sample.
//   - first-failure: Measured is the first failing n in board order (0
//     when none fails), claimed the stated n, Lo = Hi = Measured.
//   - failing-share: Measured is the share of boards where the walk fails,
//     claimed [0, bound); exact, Lo = Hi = Measured.
func setClaimRow(e *config.Experiment, tally TallyOf, exact ExactOf, ch config.Check) (row table.ClaimRow, err error) {
	row = table.ClaimRow{Experiment: e.Name, Params: Params(e.Rules[ch.Rule]), ID: ch.ID, Source: ch.Source, Reading: ch.Reading, Fitted: ch.Fitted, Rule: e.Rules[ch.Rule].Name(), Board: ch.Set.Sizes, Kind: ch.Set.Kind}
	if row.Board == "" {
		row.Board = "all"
	}
	if ch.Set.Each == "square" && ch.Set.Sizes == "" && slices.Min(ch.Boards) == slices.Max(ch.Boards) {
		row.Board = e.Boards[ch.Boards[0]].String() // the squares of one board
	}
	xs := make([]float64, len(ch.Boards)) // each board's exact value, NaN where sampled
	sampled := 0
	for i, bi := range ch.Boards {
		if xs[i] = exactMean(exact, bi, ch.Rule, ch.Squares[i]); math.IsNaN(xs[i]) {
			sampled++
		}
	}
	conf := stats.BonferroniLevel(e.Confidence, sampled)
	var sums []stats.Summary
	var isExact []bool
	firstFail, failing := -1, 0
	proved := 0 // sampled boards whose walks prove the per-board statement true or false
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
		if x := xs[i]; !math.IsNaN(x) {
			sums = append(sums, stats.Summary{Center: x, Lo: x, Hi: x})
			isExact = append(isExact, true)
		} else if holds, ok := stats.Proved(ch.Claim, t.Successes, t.Walks); ok && ch.Set.Kind == "share" && ch.Count == nil {
			// the walks prove the per-board statement (a success refutes
			// probability zero): a point, as an exact value is
			sums = append(sums, pointMeeting(ch.Claim, holds))
			isExact = append(isExact, true)
			proved++
		} else {
			sums = append(sums, t.SuccessRate().Interval(conf, e.VerdictMethod()))
			isExact = append(isExact, false)
		}
		if t.Successes < t.Walks {
			failing++
			if firstFail < 0 {
				firstFail = b.Rows
			}
		}
	}
	if ch.PartOfRange != "" { // the report says the claim tests part of the stated range
		defer func() { row.Target += " (" + ch.PartOfRange + ")" }()
	}
	switch ch.Set.Kind {
	case "share":
		if ch.Count != nil { // the per-board statement read as the source's counts
			row.ClaimedLo, row.ClaimedHi = ch.Set.Share, 1
			return row, countShareRow(&row, e, tally, exact, ch)
		}
		r := stats.Share(ch.Claim, sums)
		row.Target += ", " + ch.Claim.String() // the per-board statement the share counts
		if ch.Set.Each == "square" {
			row.Target += " " + ch.Set.String() + failingSquares(e, ch, sums)
		}
		row.ClaimedLo, row.ClaimedHi = ch.Set.Share, 1
		row.Measured, row.Lo, row.Hi = r.Point, r.Lo, r.Hi
		row.Verdict = stats.ShareVerdict(r, ch.Set.Share)
		row.DecidedBy = "sample"
		if decidedByExactBoards(ch, sums, isExact, row.Verdict) {
			row.DecidedBy = "exact"
			if proved > 0 && !decidedByExactBoards(ch, sums, exactOnly(isExact, xs), row.Verdict) {
				row.DecidedBy = "walk" // an observed walk proved it
			}
		}
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

// decidedByExactBoards reports whether a share claim's verdict stands
// whatever its sampled boards' rates are: the same with every sampled
// board meeting the per-board statement and with none meeting it.
func decidedByExactBoards(ch config.Check, sums []stats.Summary, isExact []bool, verdict string) bool {
	if verdict == stats.Inconclusive {
		return false
	}
	for _, meet := range []bool{true, false} {
		alt := slices.Clone(sums)
		for i := range alt {
			if !isExact[i] {
				alt[i] = pointMeeting(ch.Claim, meet)
			}
		}
		if stats.ShareVerdict(stats.Share(ch.Claim, alt), ch.Set.Share) != verdict {
			return false
		}
	}
	return true
}

// exactOnly marks the boards with an exact value (not those a walk proved).
func exactOnly(isExact []bool, xs []float64) []bool {
	out := make([]bool, len(isExact))
	for i := range out {
		out[i] = isExact[i] && !math.IsNaN(xs[i])
	}
	return out
}

// pointMeeting is a point rate that meets the claim c (meet) or does not.
func pointMeeting(c stats.Claim, meet bool) stats.Summary {
	for _, x := range []float64{0, 1, c.Value, c.Lo, c.Hi, (c.Lo + c.Hi) / 2, c.Value / 2, (1 + c.Value) / 2} {
		if c.Holds(x) == meet {
			return stats.Summary{Center: x, Lo: x, Hi: x}
		}
	}
	panic("results: no rate meets (or fails) claim " + c.String())
}

// failingSquares names the elements of an each: square claim whose
// interval (or exact value) refutes the per-square statement, as
// "; failing: c4, d3" (each with its board where the claim spans
// several), or "" where none does.
func failingSquares(e *config.Experiment, ch config.Check, sums []stats.Summary) string {
	several := slices.Min(ch.Boards) != slices.Max(ch.Boards)
	var names []string
	for i, s := range sums {
		if stats.Verdict(ch.Claim, s) != stats.Refuted {
			continue
		}
		b := e.Boards[ch.Boards[i]]
		name := b.SquareName(ch.Squares[i][0])
		if several {
			name = b.String() + " " + name
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return ""
	}
	const most = 12
	text := strings.Join(names[:min(len(names), most)], ", ")
	if len(names) > most {
		text += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return fmt.Sprintf("; failing (%d): %s", len(names), text)
}
