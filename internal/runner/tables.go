package runner

import (
	"fmt"
	"math"

	"knightwalk/internal/table"
	"knightwalk/sim"
	"knightwalk/stats"
)

// Stats is how intervals are computed.
type Stats struct {
	Confidence float64
	Method     stats.Method
}

// Tables holds every summary table of a run, in a fixed row order.
type Tables struct {
	Squares     []table.SquareRow
	Lengths     []table.LengthRow
	DeadEnds    []table.DeadEndRow
	Classes     []table.ClassRow
	Comparisons []table.ComparisonRow
	Claims      []table.ClaimRow
}

// BuildTables turns the tallies of a complete run into table rows: squares,
// histograms and dead ends per (board, rule, start), class and degree
// aggregates, comparisons between classes, and claim verdicts.
func BuildTables(s *Spec, ts *Tallies, st Stats, claims []ClaimSpec) (*Tables, error) {
	out := &Tables{}
	for bi, b := range s.Boards {
		n := b.Squares()
		for ri, r := range s.Rules {
			for _, start := range s.Starts[bi] {
				t := ts.Get(Key{bi, ri, start})
				if t == nil {
					return nil, fmt.Errorf("no results for %s %s from %s: the run is incomplete", b, r.Name(), b.SquareName(start))
				}
				out.Squares = append(out.Squares, squareRow(b, r, start, t, st))
				row, col := b.RowCol(start)
				for l, c := range t.Lengths {
					if c > 0 {
						out.Lengths = append(out.Lengths, table.LengthRow{Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
							Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col), Length: int32(l), Count: int64(c)})
					}
				}
				for e, c := range t.DeadEnds {
					if c > 0 {
						er, ec := b.RowCol(e)
						out.DeadEnds = append(out.DeadEnds, table.DeadEndRow{Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
							Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col), End: b.SquareName(e), EndRow: int32(er), EndCol: int32(ec), Count: int64(c)})
					}
				}
			}
			groups := ClassGroups(b, s.Starts[bi])
			pooled := make([]*stats.Tally, len(groups))
			for gi, g := range groups {
				pooled[gi] = pool(ts, bi, ri, g.Squares, n)
				out.Classes = append(out.Classes, classRow(b, r, g, pooled[gi], st))
			}
			for i := range groups {
				for j := i + 1; j < len(groups); j++ {
					if groups[i].By != groups[j].By || groups[i].By != "class" {
						continue
					}
					c := stats.Compare(pooled[i].SuccessRate(), pooled[j].SuccessRate(), st.Confidence)
					out.Comparisons = append(out.Comparisons, table.ComparisonRow{Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
						GroupBy: "class", GroupA: groups[i].Name, GroupB: groups[j].Name,
						RateA: pooled[i].SuccessRate().Estimate(), RateB: pooled[j].SuccessRate().Estimate(),
						Diff: c.Diff.Center, DiffLo: c.Diff.Lo, DiffHi: c.Diff.Hi, PValue: c.PValue})
				}
			}
		}
	}
	for _, c := range claims {
		rows, err := claimRows(s, ts, st, c)
		if err != nil {
			return nil, err
		}
		out.Claims = append(out.Claims, rows...)
	}
	return out, nil
}

func squareRow(b *sim.Board, r sim.Rule, start int, t *stats.Tally, st Stats) table.SquareRow {
	row, col := b.RowCol(start)
	sum := stats.Summarize(t, st.Confidence, st.Method)
	l := sum.Length
	w := float64(t.Walks)
	return table.SquareRow{
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
		Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col),
		StartClass: b.Class(start).String(), StartDegree: int32(b.Degree(start)),
		Walks: int64(t.Walks), Successes: int64(t.Successes),
		SuccessRate: sum.Success.Center, SuccessLo: sum.Success.Lo, SuccessHi: sum.Success.Hi,
		Closed: int64(t.Closed), ClosedRate: sum.ClosedTour.Center, ClosedLo: sum.ClosedTour.Lo, ClosedHi: sum.ClosedTour.Hi,
		Stopped:    int64(t.Stopped),
		LengthMean: l.Mean, LengthSD: l.SD, LengthMin: int32(l.Min), LengthP05: int32(l.P05), LengthP25: int32(l.P25),
		LengthMedian: int32(l.Median), LengthP75: int32(l.P75), LengthP95: int32(l.P95), LengthMax: int32(l.Max),
		TiesMean: float64(t.TieSum) / w, NodesMean: float64(t.NodeSum) / w, BacktracksMean: float64(t.BacktrackSum) / w,
		BudgetExceeded: int64(t.BudgetExceeded),
	}
}

func classRow(b *sim.Board, r sim.Rule, g Group, t *stats.Tally, st Stats) table.ClassRow {
	sum := stats.Summarize(t, st.Confidence, st.Method)
	return table.ClassRow{
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
		GroupBy: g.By, Group: g.Name, Squares: int32(len(g.Squares)),
		Walks: int64(t.Walks), Successes: int64(t.Successes),
		SuccessRate: sum.Success.Center, SuccessLo: sum.Success.Lo, SuccessHi: sum.Success.Hi,
		Closed: int64(t.Closed), ClosedRate: sum.ClosedTour.Center, ClosedLo: sum.ClosedTour.Lo, ClosedHi: sum.ClosedTour.Hi,
		LengthMean: sum.Length.Mean,
	}
}

// claimRows evaluates a claim on every board it names (one row each).
func claimRows(s *Spec, ts *Tallies, st Stats, c ClaimSpec) ([]table.ClaimRow, error) {
	ri := -1
	for i, r := range s.Rules {
		if r.Name() == c.Rule {
			ri = i
		}
	}
	if ri < 0 {
		return nil, fmt.Errorf("claim %s: rule %s is not run by this experiment", c.ID, c.Rule)
	}
	lo, hi := claimedRange(c.Claim)
	var out []table.ClaimRow
	for bi, b := range s.Boards {
		if c.Board != "" && c.Board != b.String() {
			continue
		}
		squares, err := TargetSquares(b, s.Starts[bi], c.Target)
		if err != nil {
			return nil, fmt.Errorf("claim %s: %v", c.ID, err)
		}
		t := pool(ts, bi, ri, squares, b.Squares())
		sum := t.SuccessRate().Interval(st.Confidence, st.Method)
		out = append(out, table.ClaimRow{ID: c.ID, Source: c.Source, Rule: c.Rule, Board: b.String(), Target: c.Target,
			Kind: c.Claim.Kind.String(), ClaimedLo: lo, ClaimedHi: hi, Walks: int64(t.Walks), Successes: int64(t.Successes),
			Measured: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Verdict: stats.Verdict(c.Claim, sum)})
	}
	return out, nil
}

// claimedRange returns the claimed set's ends for the table.
func claimedRange(c stats.Claim) (lo, hi float64) {
	switch c.Kind {
	case stats.Rate:
		return max(0, c.Value-c.Tolerance), min(1, c.Value+c.Tolerance)
	case stats.Range:
		return c.Lo, c.Hi
	case stats.Below:
		return 0, c.Value
	case stats.Above:
		return c.Value, 1
	}
	return math.NaN(), math.NaN()
}
