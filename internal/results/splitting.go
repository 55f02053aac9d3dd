package results

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// Estimated is a splitting estimate of a start square's success rate
// (package rare): the mean of Replicates independent unbiased replicates,
// its standard error and Student t interval, and the walk segments it ran.
type Estimated struct {
	Estimate, StdErr, Lo, Hi float64
	Replicates               int
	Walks                    int64
	Warnings                 []string
}

// SplitOf returns the splitting estimate of a start square, if the rule
// is estimated by splitting.
type SplitOf func(board, rule, start int) (Estimated, bool)

// splitting reports whether rule ri of e is estimated by splitting.
func splitting(e *config.Experiment, ri int) bool {
	return ri < len(e.Estimators) && e.Estimators[ri].Splitting
}

// splitSquareRow is the squares row of a start estimated by splitting:
// the estimate, its standard error and interval; walks counts the walk
// segments the estimate ran (successes 0: splitting counts no successes
// of whole walks); closed-tour and length columns are null or 0, as
// splitting follows path length only.
func splitSquareRow(e *config.Experiment, in Inputs, bi, ri, start int) (table.SquareRow, error) {
	b, r := e.Boards[bi], e.Rules[ri]
	var x Estimated
	ok := in.Split != nil
	if ok {
		x, ok = in.Split(bi, ri, start)
	}
	if !ok {
		return table.SquareRow{}, fmt.Errorf("no splitting estimate for %s %s from %s: the run is incomplete", b, r.Name(), b.SquareName(start))
	}
	row, col := b.RowCol(start)
	nan := math.NaN()
	sr := table.SquareRow{
		Experiment: e.Name, Params: Params(r),
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
		Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col),
		StartClass: b.Class(start).String(), StartDegree: int32(b.Degree(start)),
		Walks: x.Walks, SuccessRate: x.Estimate, SuccessLo: x.Lo, SuccessHi: x.Hi,
		ClosedRate: nan, ClosedLo: nan, ClosedHi: nan, ExactSuccess: nan, ExactClosed: nan,
		SuccessCSLo: nan, SuccessCSHi: nan, LengthMean: nan, LengthSD: nan,
		TiesMean: nan, NodesMean: nan, BacktracksMean: nan,
		Estimator: table.EstimatorSplitting, SuccessSE: x.StdErr,
	}
	if ex, ok := in.Exact(bi, ri, start); ok {
		sr.ExactSuccess, sr.ExactClosed = ex.PSuccess, ex.PClosed
	}
	sr.ExactLower, sr.ExactUpper = squareBounds(in, bi, ri, start)
	return sr, nil
}

// splitClaimRows evaluates a per-board claim about a rule estimated by
// splitting. One square: its own interval. Several: the mean of their
// estimates (the mean rate of the squares, as a pooled rate of equal walks
// estimates), its standard error √(Σ SE²)/m from the independent squares,
// and the Student t interval with the replicates' degrees of freedom. No
// p-value: these verdicts stay out of the Holm family.
func splitClaimRows(e *config.Experiment, in Inputs, ch config.Check) ([]table.ClaimRow, error) {
	lo, hi := claimedRange(ch.Claim)
	r := e.Rules[ch.Rule]
	var out []table.ClaimRow
	for i, bi := range ch.Boards {
		b := e.Boards[bi]
		var sum, se2 float64
		var walks int64
		var one Estimated
		reps := 0
		for _, sq := range ch.Squares[i] {
			x, ok := in.Split(bi, ch.Rule, sq)
			if !ok {
				return nil, fmt.Errorf("claim %s on %s: no splitting estimate from %s", ch.ID, b, b.SquareName(sq))
			}
			one = x
			sum += x.Estimate
			se2 += x.StdErr * x.StdErr
			walks += x.Walks
			reps = x.Replicates
		}
		m := float64(len(ch.Squares[i]))
		s := stats.Summary{Center: sum / m, Lo: one.Lo, Hi: one.Hi, Confidence: e.Confidence}
		if len(ch.Squares[i]) > 1 {
			t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(reps - 1)}.Quantile(1 - (1-e.Confidence)/2)
			half := t * math.Sqrt(se2) / m
			s.Lo, s.Hi = max(0, s.Center-half), min(1, s.Center+half)
		}
		row := table.ClaimRow{Experiment: e.Name, Params: Params(r), ID: ch.ID, Source: ch.Source, Reading: ch.Reading, Fitted: ch.Fitted, Rule: r.Name(), Board: b.String(), Target: ch.Target(b),
			Kind: ch.Claim.Kind.String(), ClaimedLo: lo, ClaimedHi: hi, Walks: walks,
			Measured: s.Center, Lo: s.Lo, Hi: s.Hi, Exact: exactMean(in.Exact, bi, ch.Rule, ch.Squares[i]),
			CSLo: math.NaN(), CSHi: math.NaN(), Estimator: table.EstimatorSplitting}
		row.ExactLower, row.ExactUpper = boundsMean(in, bi, ch.Rule, ch.Squares[i])
		decide(&row, ch.Claim, s, false)
		out = append(out, row)
	}
	return out, nil
}
