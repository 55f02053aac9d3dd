package results

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TallyOf returns the tally of start square start of board index board and
// rule index rule of an experiment, or nil when there is none.
type TallyOf func(board, rule, start int) *stats.Tally

// ExactOf returns the exact result of start square start of board index
// board and rule index rule, and whether it was computed.
type ExactOf func(board, rule, start int) (exact.Result, bool)

// noExact is the ExactOf of a run without exact values.
func noExact(int, int, int) (exact.Result, bool) { return exact.Result{}, false }

// Tables holds every summary table of a run, in a fixed row order.
type Tables struct {
	// ExactNotes says which (board, rule)s were meant to get exact values
	// and did not fit the enumeration's budget (for the report).
	ExactNotes []string

	Squares     []table.SquareRow
	Lengths     []table.LengthRow
	DeadEnds    []table.DeadEndRow
	Classes     []table.ClassRow
	Boards      []table.BoardRow
	Comparisons []table.ComparisonRow
	Claims      []table.ClaimRow
	// Designs summarises each design per start square (nil when the
	// experiment has none: then no designs table is written).
	Designs []table.DesignRow
	// CountShares says what decided each share claim read as its source's
	// counts, size by size (the report's table of them).
	CountShares []CountShareDetail

	// cells, where set, are the inputs the squares, lengths and deadends
	// rows are made from as Write writes them, a (board, rule) at a time:
	// Squares, Lengths and DeadEnds are then empty (StreamsRows).
	cells *Inputs
	// allSucceed, with cells, says per (board, rule) whether every walk
	// from every start square is a tour (the report's list for designs);
	// Write fills it.
	allSucceed map[[2]int]bool
	sums       squareSums // with cells, the sums of the rows Write wrote
}

// StreamsRows reports whether the squares, lengths and deadends rows of
// a run of e are made as they are written, never held all at once: a run
// of more than maxReportRules rules (a design), whose report needs none
// of its rows, in a run of a fixed number of walks. A design of 40,320
// move orders from 64 squares has 2.58 million cells: their rows held
// took about 2.5 kB each. The files are the same, byte for byte, either
// way.
func StreamsRows(e *config.Experiment) bool {
	return streamRows && len(e.Rules) > maxReportRules && e.Sequential == nil
}

// streamRows is false only in the tests that compare the streamed tables
// with the same tables written from rows held in memory.
var streamRows = true

// CountShareDetail is one share claim read as counts, as decided: per
// board its probability of the stated count under our rate, that times
// Miss (the adjusted value compared with α), and its outcome.
type CountShareDetail struct {
	ID, Reading, Count string
	Alpha              float64
	Result             stats.CountShareResult
	Boards             []string
}

// BoundsOf returns certified bounds on P(success) of start square start
// of board index board under rule index rule, where the enumeration
// dropped states (exact.Result.PLower, PUpper).
type BoundsOf func(board, rule, start int) (lo, hi float64, ok bool)

// StopOf returns why a sequential run stopped walking from a start square
// (table.StopReasons), "" for a run of a fixed number of walks.
type StopOf func(board, rule, start int) string

// Inputs are what the tables are built from: the tallies, and optionally
// the exact values, a sequential run's stop reasons and the splitting
// estimates of rules with estimator: splitting.
type Inputs struct {
	Tally TallyOf
	Exact ExactOf // nil: none
	// Bounds gives the certified bounds of cells whose enumeration did
	// not fit and dropped states (experiment key exact: bounds), which
	// Exact does not give. nil: none.
	Bounds BoundsOf
	Stop   StopOf  // nil: a run of a fixed number of walks
	Split  SplitOf // nil: no rule estimated by splitting
	// ClaimTally, in a sequential run, gives each claim (by index in
	// e.Checks) the tallies it is judged on: its squares' walks up to the
	// round that decided it. nil: every claim is judged on Tally.
	ClaimTally func(check int) TallyOf
	// ClaimStop, in a sequential run, is the stop reason of a claim's row
	// (its index among the claim's rows). nil: decided when its verdict is.
	ClaimStop func(check, row int) string
}

// BuildRun builds the tables of a run from in.
func BuildRun(e *config.Experiment, in Inputs) (*Tables, error) {
	return BuildRunContext(context.Background(), e, in)
}

// BuildRunContext is BuildRun stopping with ctx's error once ctx is
// done: a design of 40,320 rules takes seconds to build, and a signal
// must not wait for it.
func BuildRunContext(ctx context.Context, e *config.Experiment, in Inputs) (*Tables, error) {
	if in.Exact == nil {
		in.Exact = noExact
	}
	tally, exact := in.Tally, in.Exact
	out := &Tables{}
	if StreamsRows(e) {
		out.cells = &in
	}
	var lm lengthMemo // the rows' length statistics, a tally at a time
	for bi, b := range e.Boards {
		classes := make([][]side, len(e.Rules)) // per rule, its class groups
		for ri, r := range e.Rules {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if out.cells == nil {
				if err := out.addStarts(e, in, bi, ri, &lm); err != nil {
					return nil, err
				}
			}
			if splitting(e, ri) { // classes, boards and comparisons pool walks: none here
				continue
			}
			params := Params(r) // once per rule: a design's rules have many rows each
			sides, err := out.addGroups(e, tally, exact, b, bi, r, ri, params, &lm)
			if err != nil {
				return nil, err
			}
			if len(e.Rules) <= MaxComparedRules { // compareRules compares them; past it, it makes no comparisons
				classes[ri] = sides
			}
			// the board's pool is its classes' (they partition its start
			// squares), not every square's tally taken again
			t, err := poolSides(sides)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", b, r.Name(), err)
			}
			row := boardRow(b, r, params, len(e.Starts[bi]), t, e, &lm)
			row.ExactSuccess = exactMean(exact, bi, ri, e.Starts[bi])
			if s, c, ok := uniformStart(tally, bi, ri, e.Starts[bi], r, e); ok {
				row.SuccessRate, row.SuccessLo, row.SuccessHi = s.Center, s.Lo, s.Hi
				row.ClosedRate, row.ClosedLo, row.ClosedHi = c.Center, c.Lo, c.Hi
			}
			out.Boards = append(out.Boards, row)
		}
		out.compareRules(e, b, slices.DeleteFunc(classes, func(c []side) bool { return c == nil }))
	}
	out.adjustHolm()
	out.Designs = designRows(e, tally)
	var err error
	if out.Claims, err = claims(e, in); err != nil {
		return out, err
	}
	for ci, ch := range e.Checks {
		if ch.Count == nil {
			continue
		}
		tally := in.Tally
		if in.ClaimTally != nil {
			tally = in.ClaimTally(ci)
		}
		r, err := CountShare(e, tally, in.Exact, ch)
		if err != nil {
			return out, err
		}
		d := CountShareDetail{ID: ch.ID, Reading: ch.Reading, Count: ch.Count.String(), Alpha: 1 - e.Confidence, Result: r}
		for _, bi := range ch.Boards {
			d.Boards = append(d.Boards, e.Boards[bi].String())
		}
		out.CountShares = append(out.CountShares, d)
	}
	return out, nil
}

// ClaimsOf is Claims on inputs: a sequential run's claims judged on their
// own tallies (Inputs.ClaimTally).
func ClaimsOf(e *config.Experiment, in Inputs) ([]table.ClaimRow, error) {
	if in.Exact == nil {
		in.Exact = noExact
	}
	return claims(e, in)
}

func claims(e *config.Experiment, in Inputs) ([]table.ClaimRow, error) {
	var out []table.ClaimRow
	type at struct{ check, row int }
	var where []at
	for ci := range e.Checks {
		rows, err := ClaimRowsOf(e, in, ci)
		if err != nil {
			return nil, err
		}
		for j := range rows {
			where = append(where, at{ci, j})
		}
		out = append(out, rows...)
	}
	adjustClaims(out, e.Confidence)
	for i := range out {
		literatureWords(e, &out[i])
	}
	if e.Sequential != nil {
		for i := range out {
			switch {
			case in.ClaimStop != nil:
				out[i].Stop = in.ClaimStop(where[i].check, where[i].row)
			case Decided(out[i]):
				out[i].Stop = table.StopDecided
			default:
				out[i].Stop = table.StopMax
			}
		}
	}
	return out, nil
}

// ClaimRowsOf returns the rows of claim e.Checks[check] before Holm's
// adjustment: verdict, interval and p-value, each from the claim's own
// tallies (in.ClaimTally where set: a sequential run's tallies as they
// were when the claim was decided, so that no other claim's walks move
// it).
func ClaimRowsOf(e *config.Experiment, in Inputs, check int) ([]table.ClaimRow, error) {
	if in.Exact == nil {
		in.Exact = noExact
	}
	if in.ClaimTally != nil {
		in.Tally = in.ClaimTally(check)
	}
	ch := e.Checks[check]
	rows, err := claimRows(e, in, ch)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].Family = ch.Family
		rows[i].Unverified = ch.Unverified
		if r := &rows[i]; r.ExactLower == 0 && r.ExactUpper == 0 { // rows that set no bounds: those of Exact (bounds set are never both 0)
			r.ExactLower, r.ExactUpper = r.Exact, r.Exact
		}
		if !ch.Compare {
			rows[i].Margin, rows[i].PEquivLower, rows[i].PEquivUpper, rows[i].Detectable = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		}
		if ch.Compare || ch.Count != nil {
			continue // comparePublished or countShareRow set its p-value
		}
		rows[i].PValue, rows[i].DiffLo, rows[i].DiffHi = math.NaN(), math.NaN(), math.NaN()
		if rows[i].DecidedBy == "sample" && ch.Set.Kind == "" && !splitting(e, ch.Rule) { // a splitting interval is a t interval: no p-value
			rows[i].PValue = stats.VerdictPValue(ch.Claim, stats.Proportion{Successes: uint64(rows[i].Successes), Trials: uint64(rows[i].Walks)}, e.VerdictMethod())
		}
	}
	return rows, nil
}

// OwnDecided reports whether a claim row, before Holm's adjustment, is
// settled by its own data with its p-value at most alpha: a sequential
// run stops a claim there, with alpha = (1 − confidence)/m for the m
// rows of its family that carry a p-value (a number fixed by the
// experiment file, not by any data), so that its Holm-adjusted p-value
// (at most m·p) decides it too. Rows decided exactly or by a
// deterministic rule's walk are settled; a published comparison by
// sampling never is (a fixed-n test, it runs to max); a share claim
// judged by its own Bonferroni intervals is settled when its verdict is
// decisive; a point claim only by a refutation.
func OwnDecided(r table.ClaimRow, alpha float64) bool {
	if r.DecidedBy != "sample" {
		return true
	}
	point := r.Kind == "rate" && r.ClaimedLo == r.ClaimedHi
	switch {
	case r.Kind == "published":
		return false
	case r.Kind == "share" && r.Test != "": // read as counts: its p-value joins the family
		return r.Verdict == stats.Consistent || r.Verdict == stats.Refuted && r.PValue <= alpha
	case r.Kind == "share" || math.IsNaN(r.PValue):
		return r.Verdict == stats.Refuted || r.Verdict == stats.Consistent && !point
	}
	return r.PValue <= alpha && !(point && r.Verdict == stats.Consistent)
}

// Decided reports whether a claim row's verdict is settled: decided
// exactly or by a deterministic rule's walk, or, sampled, refuted or
// confirmed after Holm's adjustment. A point claim's "consistent" rejects
// nothing (stats.Verdict), so it is never settled by sampling: only a
// refutation settles it.
//
// A claim compared with a published count by sampling (kind published)
// is never settled early: its two-sample test is a fixed-n test, not
// valid under optional stopping, so its squares run to max.
func Decided(r table.ClaimRow) bool {
	if r.DecidedBy != "sample" {
		return true
	}
	if r.Kind == "published" {
		return false
	}
	point := r.Kind == "rate" && r.ClaimedLo == r.ClaimedHi
	switch r.VerdictHolm {
	case stats.Refuted, stats.NotReproduced:
		return true
	case stats.Consistent, stats.Reproduced:
		return !point
	}
	return false
}

// addStarts adds the squares, lengths and dead-end rows of (board, rule).
func (out *Tables) addStarts(e *config.Experiment, in Inputs, bi, ri int, lm *lengthMemo) error {
	tally, exact := in.Tally, in.Exact
	b, r := e.Boards[bi], e.Rules[ri]
	params := Params(r)
	bname, rname := b.String(), r.Name()
	for _, start := range e.Starts[bi] {
		if splitting(e, ri) {
			sr, err := splitSquareRow(e, in, bi, ri, start)
			if err != nil {
				return err
			}
			out.Squares = append(out.Squares, sr)
			continue
		}
		t := tally(bi, ri, start)
		if t == nil {
			return fmt.Errorf("no results for %s %s from %s: the run is incomplete", b, r.Name(), b.SquareName(start))
		}
		sr := squareRow(b, r, params, start, t, e, lm)
		sr.Estimator = table.EstimatorWalks
		sr.ExactSuccess, sr.ExactClosed = math.NaN(), math.NaN()
		if x, ok := exact(bi, ri, start); ok {
			sr.ExactSuccess, sr.ExactClosed = x.PSuccess, x.PClosed
		}
		sr.ExactLower, sr.ExactUpper = squareBounds(in, bi, ri, start)
		if in.Stop != nil {
			sr.Stop = in.Stop(bi, ri, start)
		}
		out.Squares = append(out.Squares, sr)
		row, col := b.RowCol(start)
		x, hasExact := exact(bi, ri, start)
		next := func(l int) int { return l + 1 }
		if !hasExact { // the rows are the tally's non-zero bins: passed over eight at a time
			next = func(l int) int { return stats.NextNonZero(t.Lengths, l+1) }
		}
		for l := next(-1); l < max(len(t.Lengths), len(x.Lengths)); l = next(l) {
			var c uint64
			if l < len(t.Lengths) {
				c = t.Lengths[l]
			}
			share := math.NaN()
			if hasExact && l < len(x.Lengths) {
				share = x.Lengths[l]
			}
			if c > 0 || share > 0 {
				out.Lengths = append(out.Lengths, table.LengthRow{Experiment: e.Name, Params: params, Board: bname, Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: rname,
					Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col), Length: int32(l), Count: int64(c), ExactShare: share})
			}
		}
		for end := stats.NextNonZero(t.DeadEnds, 0); end < len(t.DeadEnds); end = stats.NextNonZero(t.DeadEnds, end+1) {
			if c := t.DeadEnds[end]; c > 0 {
				er, ec := b.RowCol(end)
				out.DeadEnds = append(out.DeadEnds, table.DeadEndRow{Experiment: e.Name, Params: params, Board: bname, Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: rname,
					Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col), End: b.SquareName(end), EndRow: int32(er), EndCol: int32(ec), Count: int64(c)})
			}
		}
	}
	return nil
}

// addGroups adds the class and degree rows of (board, rule) and the
// comparisons between its classes, and returns its classes pooled.
func (out *Tables) addGroups(e *config.Experiment, tally TallyOf, exact ExactOf, b *sim.Board, bi int, r sim.Rule, ri int, params table.RuleParams, lm *lengthMemo) ([]side, error) {
	groups := classGroups(b, e.Starts[bi])
	var classes []side
	for _, g := range groups {
		t, err := pool(tally, bi, ri, g.squares)
		if err != nil {
			return nil, fmt.Errorf("%s %s %s %s: %w", b, r.Name(), g.by, g.name, err)
		}
		row := classRow(b, r, params, g, t, e, lm)
		row.ExactSuccess = exactMean(exact, bi, ri, g.squares)
		if s, c, ok := uniformStart(tally, bi, ri, g.squares, r, e); ok {
			row.SuccessRate, row.SuccessLo, row.SuccessHi = s.Center, s.Lo, s.Hi
			row.ClosedRate, row.ClosedLo, row.ClosedHi = c.Center, c.Lo, c.Hi
		}
		out.Classes = append(out.Classes, row)
		if g.by == "class" {
			classes = append(classes, side{rule: r.Name(), spec: params.Spec, group: g.name, t: t})
		}
	}
	for i := range classes {
		for j := i + 1; j < len(classes); j++ {
			out.Comparisons = append(out.Comparisons, comparisonRow(e, b, "groups", classes[i], classes[j]))
		}
	}
	return classes, nil
}

// poolSides adds up the tallies of a rule's class groups, which partition
// its start squares: the pool of every start square.
func poolSides(sides []side) (*stats.Tally, error) {
	if len(sides) == 0 {
		return nil, fmt.Errorf("stats: pool: no tallies (empty class?)")
	}
	if len(sides) == 1 { // one class: its tally is the pool (callers only read it)
		return sides[0].t, nil
	}
	out := stats.NewTally(sides[0].t.Squares())
	for i, s := range sides {
		if err := out.Merge(s.t); err != nil {
			return nil, fmt.Errorf("stats: pool: class %d: %w", i, err)
		}
	}
	return out, nil
}

// group is a set of start squares pooled into one aggregate.
type group struct {
	by      string // "class" or "degree"
	name    string // "corner", "8", ...
	squares []int
}

// classGroups returns the start squares of starts grouped by class (in
// report order) and by degree (ascending), leaving out empty groups.
func classGroups(b *sim.Board, starts []int) []group {
	var out []group
	for _, c := range sim.Classes {
		g := group{by: "class", name: c.String()}
		for _, s := range starts {
			if b.Class(s) == c {
				g.squares = append(g.squares, s)
			}
		}
		if len(g.squares) > 0 {
			out = append(out, g)
		}
	}
	byDeg := map[int][]int{}
	for _, s := range starts {
		byDeg[b.Degree(s)] = append(byDeg[b.Degree(s)], s)
	}
	degs := make([]int, 0, len(byDeg))
	for d := range byDeg {
		degs = append(degs, d)
	}
	slices.Sort(degs)
	for _, d := range degs {
		out = append(out, group{by: "degree", name: strconv.Itoa(d), squares: byDeg[d]})
	}
	return out
}

// uniformStart is a group's success and closed rates from a uniformly
// random start when its squares ran unequal walks (a sequential run stops
// each square on its own): the equal-weight mean p̄ of the
// squares' rates, not the walk-weighted pooled rate, which a square that
// ran longer would pull towards its own. The interval is the one the
// table gives the same rate where every square ran the same walks, so a
// table has one interval method for a rate whatever the allocation: the
// run's method on n_eff walks, n_eff = p̄(1 − p̄)/V, with
//
//	V = Σᵢ [pᵢ(1 − pᵢ) + (pᵢ − p̄)²]/nᵢ / k²,
//
// the variance of a walk from a uniformly random start, p̄(1 − p̄) =
// mean of pᵢ(1 − pᵢ) + (pᵢ − p̄)², spread over the squares' walks. With
// equal walks n (and unadjusted rates) it is p̄(1 − p̄)/(kn): n_eff = kn,
// the pooled interval. (It was the effective sample size of the stratified mean, V =
// Σ p̃ᵢ(1 − p̃ᵢ)/nᵢ/k², Korn & Graubard 1998, which leaves out the spread
// between squares: 5× narrower than the pooled interval of the same rate
// on 7×7, [49.701, 49.739] against [49.617, 49.821] %.) pᵢ are
// Agresti–Coull adjusted, (xᵢ + 2)/(nᵢ + 4), in V only, so that a square
// at 0 or 1 still has a spread. ok is false where every square ran the
// same walks (the pooled rate is the mean already, and its interval this
// one), for a deterministic rule and in fixed runs.
func uniformStart(tally TallyOf, bi, ri int, squares []int, r sim.Rule, e *config.Experiment) (succ, closed stats.Summary, ok bool) {
	if e.Sequential == nil || r.Deterministic() || len(squares) < 2 {
		return succ, closed, false
	}
	ks, kc, ns := make([]float64, len(squares)), make([]float64, len(squares)), make([]float64, len(squares))
	equal := true
	for i, s := range squares {
		t := tally(bi, ri, s)
		if t == nil || t.Walks == 0 {
			return succ, closed, false
		}
		ks[i], kc[i], ns[i] = float64(t.Successes), float64(t.Closed), float64(t.Walks)
		equal = equal && ns[i] == ns[0]
	}
	if equal {
		return succ, closed, false
	}
	return equalWeightRate(ks, ns, e.Confidence, e.Method), equalWeightRate(kc, ns, e.Confidence, e.Method), true
}

// pool pools the tallies of squares of (board, rule) as stats.Pool does,
// merging them one at a time: a tally is two numbers per square of the
// board, and holding every square's tally at once would take squares²
// numbers (4.5 GB for the edge class of 130x130); a missing
// tally is an incomplete run.
func pool(tally TallyOf, bi, ri int, squares []int) (*stats.Tally, error) {
	var out *stats.Tally
	for i, s := range squares {
		t := tally(bi, ri, s)
		if t == nil {
			return nil, fmt.Errorf("no results for square %d: the run is incomplete", s)
		}
		if len(squares) == 1 { // one square: its tally is the pool (callers only read it)
			return t, nil
		}
		if out == nil {
			out = stats.NewTally(t.Squares())
		}
		if err := out.Merge(t); err != nil {
			return nil, fmt.Errorf("stats: pool: tally %d: %w", i, err)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("stats: pool: no tallies (empty class?)")
	}
	return out, nil
}

// squareRow is the squares row of start under rule r, whose parameters
// (Params(r), made once per rule: a design has millions of rows) are params.
func squareRow(b *sim.Board, r sim.Rule, params table.RuleParams, start int, t *stats.Tally, e *config.Experiment, m *lengthMemo) table.SquareRow {
	row, col := b.RowCol(start)
	sum := summarize(t, r, e, m)
	l := sum.Length
	w := float64(t.Walks)
	// nodes and backtracks apply to the backtracking search only: null
	// (NaN in the row) for the other rules, as in the walks table
	nodes, backtracks := math.NaN(), math.NaN()
	if r.Kind == sim.Backtrack {
		nodes, backtracks = float64(t.NodeSum)/w, float64(t.BacktrackSum)/w
	}
	sr := table.SquareRow{
		Experiment: e.Name, Params: params,
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
		Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col),
		StartClass: b.Class(start).String(), StartDegree: int32(b.Degree(start)),
		Walks: int64(t.Walks), Successes: int64(t.Successes),
		SuccessRate: sum.Success.Center, SuccessLo: sum.Success.Lo, SuccessHi: sum.Success.Hi,
		Closed: int64(t.Closed), ClosedRate: sum.ClosedTour.Center, ClosedLo: sum.ClosedTour.Lo, ClosedHi: sum.ClosedTour.Hi,
		Stopped:    int64(t.Stopped),
		LengthMean: l.Mean, LengthSD: l.SD, LengthMin: int32(l.Min), LengthP05: int32(l.P05), LengthP25: int32(l.P25),
		LengthMedian: int32(l.Median), LengthP75: int32(l.P75), LengthP95: int32(l.P95), LengthMax: int32(l.Max),
		TiesMean: float64(t.TieSum) / w, NodesMean: nodes, BacktracksMean: backtracks,
		BudgetExceeded: int64(t.BudgetExceeded), Deterministic: r.Deterministic(),
		SuccessCSLo: math.NaN(), SuccessCSHi: math.NaN(), SuccessSE: math.NaN(),
	}
	if p := sum.Success.Center; !r.Deterministic() && t.Walks > 0 {
		sr.SuccessSE = math.Sqrt(p * (1 - p) / w) // binomial
	}
	if e.Sequential != nil && !r.Deterministic() {
		cs := t.SuccessRate().Interval(e.Confidence, stats.ConfidenceSequence)
		sr.SuccessCSLo, sr.SuccessCSHi = cs.Lo, cs.Hi
	}
	return sr
}

func classRow(b *sim.Board, r sim.Rule, params table.RuleParams, g group, t *stats.Tally, e *config.Experiment, m *lengthMemo) table.ClassRow {
	sum := summarize(t, r, e, m)
	row := table.ClassRow{
		Experiment: e.Name, Params: params,
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
		GroupBy: g.by, Group: g.name, Squares: int32(len(g.squares)),
		Walks: int64(t.Walks), Successes: int64(t.Successes),
		SuccessRate: sum.Success.Center, SuccessLo: sum.Success.Lo, SuccessHi: sum.Success.Hi,
		Closed: int64(t.Closed), ClosedRate: sum.ClosedTour.Center, ClosedLo: sum.ClosedTour.Lo, ClosedHi: sum.ClosedTour.Hi,
		LengthMean: sum.Length.Mean, Deterministic: r.Deterministic(),
		SuccessCSLo: math.NaN(), SuccessCSHi: math.NaN(),
	}
	if e.Sequential != nil && !r.Deterministic() && t.Walks > 0 {
		// the pooled counts' always-valid interval, as claimsRows judges a
		// claim on these squares by
		cs := t.SuccessRate().Interval(e.Confidence, stats.ConfidenceSequence)
		row.SuccessCSLo, row.SuccessCSHi = cs.Lo, cs.Hi
	}
	return row
}

// summarize is stats.Summarize, with the intervals of a deterministic
// rule left undefined (null in the tables): its walk from a start is one
// path, so its rates are exact counts of starts, not samples. Its length
// statistics come from m (nil: computed afresh).
func summarize(t *stats.Tally, r sim.Rule, e *config.Experiment, m *lengthMemo) stats.Rates {
	sum := stats.Rates{Walks: t.Walks, Successes: t.Successes, Closed: t.Closed, Length: m.of(t)}
	if r.Deterministic() && t.Walks > 0 {
		// no interval, so none is computed: a design's millions of
		// one-walk cells spent most of their row's time on the intervals
		// (and their warnings) this drops
		rate := func(p stats.Proportion) stats.Summary {
			return stats.Summary{Center: p.Estimate(), Lo: math.NaN(), Hi: math.NaN(), Confidence: e.Confidence, Method: e.Method}
		}
		sum.Success, sum.ClosedTour = rate(t.SuccessRate()), rate(t.ClosedRate())
		return sum
	}
	sum.Success = t.SuccessRate().Interval(e.Confidence, e.Method)
	sum.ClosedTour = t.ClosedRate().Interval(e.Confidence, e.Method)
	if r.Deterministic() {
		for _, s := range []*stats.Summary{&sum.Success, &sum.ClosedTour} {
			s.Lo, s.Hi = math.NaN(), math.NaN()
		}
	}
	return sum
}

// lengthMemo holds the length statistics of the tally last summarised: a
// board's one start square has one tally for its square, class, degree
// and board rows, and each statistic is a pass over the board's bins (4
// million on 2000x2000, a sweep's every board). It holds the tally itself,
// so the address cannot be another tally's, and its walk count, so that
// one given more walks since is summarised again; the tallies the tables
// are made from are not written while they are.
type lengthMemo struct {
	t     *stats.Tally
	walks uint64
	ls    stats.LengthStats
}

// of returns t.LengthStats(), remembered (m nil: computed).
func (m *lengthMemo) of(t *stats.Tally) stats.LengthStats {
	if m == nil {
		return t.LengthStats()
	}
	if m.t != t || m.walks != t.Walks {
		m.t, m.walks, m.ls = t, t.Walks, t.LengthStats()
	}
	return m.ls
}

// exactMean is the mean exact P(success) of squares (NaN unless every one
// has it): every square runs the same walks, so the pooled estimate
// estimates this mean.
func exactMean(exact ExactOf, bi, ri int, squares []int) float64 {
	var s float64
	for _, sq := range squares {
		x, ok := exact(bi, ri, sq)
		if !ok {
			return math.NaN()
		}
		s += x.PSuccess
	}
	return s / float64(len(squares))
}

// side is one side of a comparison: a rule's class pooled on a board.
type side struct {
	rule, group string
	spec        string // the rule's rule_spec
	t           *stats.Tally
}

// MaxComparedRules is the most rules whose every pair the comparisons
// table compares: the most rule entries an experiment file may list.
const MaxComparedRules = config.MaxRules

// compareRules adds, per class of board b, the comparisons between every
// two rules (in the experiment's order); classes[ri] are rule ri's classes.
//
// An experiment of more than MaxComparedRules rules (a design) gets none:
// its pairs grow with the square of its cells (813 million for the
// 40,320 move orders), and its questions are per factor (the design
// table).
func (out *Tables) compareRules(e *config.Experiment, b *sim.Board, classes [][]side) {
	if len(classes) == 0 || len(e.Rules) > MaxComparedRules {
		return
	}
	for ci := range classes[0] { // every rule has the same classes: the same start squares
		for i := range classes {
			for j := i + 1; j < len(classes); j++ {
				out.Comparisons = append(out.Comparisons, comparisonRow(e, b, "rules", classes[i][ci], classes[j][ci]))
			}
		}
	}
}

func comparisonRow(e *config.Experiment, b *sim.Board, compare string, x, y side) table.ComparisonRow {
	a, c := x.t.SuccessRate(), y.t.SuccessRate()
	cmp := stats.Compare(a, c, e.Confidence)
	return table.ComparisonRow{Experiment: e.Name, Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Family: comparisonFamily(e, b, compare, x),
		Compare: compare, GroupBy: "class", RuleA: x.rule, GroupA: x.group, RuleB: y.rule, GroupB: y.group,
		WalksA: int64(x.t.Walks), SuccessesA: int64(x.t.Successes), RateA: a.Estimate(),
		WalksB: int64(y.t.Walks), SuccessesB: int64(y.t.Successes), RateB: c.Estimate(),
		Diff: cmp.Diff.Center, DiffLo: cmp.Diff.Lo, DiffHi: cmp.Diff.Hi, PValue: cmp.PValue, RuleSpecA: x.spec, RuleSpecB: y.spec}
}

// adjustClaims sets every claim's p_holm and verdict_holm: Holm's
// adjustment of the sampled per-board verdicts' p-values within each
// family, which bounds the chance of any wrong sampled verdict in the
// family by 1 − confidence. A verdict decided exactly or by a
// deterministic rule's walk has no sampling error and keeps its verdict;
// a share-of-boards claim keeps its own (Bonferroni) verdict, except one
// read as its source's counts: their sampling error is on the source's
// side whatever decided ours, so its p-value joins the family, and its
// "refuted" stands only where the adjusted p-value is at most α.
func adjustClaims(rows []table.ClaimRow, conf float64) {
	byFamily := map[string][]int{}
	for i := range rows {
		byFamily[rows[i].Family] = append(byFamily[rows[i].Family], i)
	}
	for _, idx := range byFamily {
		p := make([]float64, len(idx))
		for j, i := range idx {
			p[j] = rows[i].PValue
		}
		for j, h := range stats.Holm(p) {
			r := &rows[idx[j]]
			r.PHolm, r.VerdictHolm = h, r.Verdict
			if r.Kind == "published" {
				r.VerdictHolm = holmPublished(r, conf)
				continue
			}
			if r.Kind == "share" && r.Test != "" { // read as counts: only its refutation is a rejection
				if r.Verdict == stats.Refuted && h > 1-conf {
					r.VerdictHolm = stats.Inconclusive
				}
				continue
			}
			point := r.Kind == "rate" && r.ClaimedLo == r.ClaimedHi // its "consistent" rejects nothing
			if !math.IsNaN(h) && h > 1-conf && !(point && r.Verdict == stats.Consistent) {
				r.VerdictHolm = stats.Inconclusive
			}
		}
	}
}

// comparisonFamily names the Holm family of a comparison (experiment key
// comparison_family): by default the question it answers — do the classes
// differ under this rule on this board, do the rules differ on this class
// of this board — so that its adjusted p-value does not depend on what
// else the run holds; or every comparison on the board, or of the run.
func comparisonFamily(e *config.Experiment, b *sim.Board, compare string, x side) string {
	switch e.ComparisonFamily {
	case "run":
		return "run"
	case "board":
		return b.String()
	}
	if compare == "groups" {
		return b.String() + " " + x.rule + ": classes"
	}
	return b.String() + " " + x.group + ": rules"
}

// adjustHolm sets every comparison's p_holm: Holm's adjustment within its
// family over the comparisons that have a p-value.
func (out *Tables) adjustHolm() {
	byFamily := map[string][]int{}
	for i, c := range out.Comparisons {
		byFamily[c.Family] = append(byFamily[c.Family], i)
	}
	for _, idx := range byFamily {
		p := make([]float64, len(idx))
		for j, i := range idx {
			p[j] = out.Comparisons[i].PValue
		}
		for j, h := range stats.Holm(p) {
			out.Comparisons[idx[j]].PHolm = h
		}
	}
}

func boardRow(b *sim.Board, r sim.Rule, params table.RuleParams, squares int, t *stats.Tally, e *config.Experiment, m *lengthMemo) table.BoardRow {
	sum := summarize(t, r, e, m)
	var failed uint64 // dead ends, and searches that gave up at their deepest end
	for i := stats.NextNonZero(t.DeadEnds, 0); i < len(t.DeadEnds); i = stats.NextNonZero(t.DeadEnds, i+1) {
		failed += t.DeadEnds[i]
	}
	return table.BoardRow{
		Experiment: e.Name, Params: params,
		Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(), Squares: int32(squares),
		Walks: int64(t.Walks), Successes: int64(t.Successes),
		SuccessRate: sum.Success.Center, SuccessLo: sum.Success.Lo, SuccessHi: sum.Success.Hi,
		Closed: int64(t.Closed), ClosedRate: sum.ClosedTour.Center, ClosedLo: sum.ClosedTour.Lo, ClosedHi: sum.ClosedTour.Hi,
		DeadEnds: int64(failed - t.BudgetExceeded), Stopped: int64(t.Stopped), BudgetExceeded: int64(t.BudgetExceeded),
		LengthMean: sum.Length.Mean, Deterministic: r.Deterministic(),
	}
}

// claimRows evaluates a resolved claim on every board it is about (one row
// each).
func claimRows(e *config.Experiment, in Inputs, ch config.Check) ([]table.ClaimRow, error) {
	tally, exact := in.Tally, in.Exact
	if ch.Set.Kind != "" {
		row, err := setClaimRow(e, tally, exact, ch)
		row.Exact, row.CSLo, row.CSHi = math.NaN(), math.NaN(), math.NaN()
		row.Estimator = table.EstimatorWalks
		if row.DecidedBy == "" {
			row.DecidedBy = "sample"
		}
		if e.Rules[ch.Rule].Deterministic() {
			row.DecidedBy = "walk"
		}
		return []table.ClaimRow{row}, err
	}
	if splitting(e, ch.Rule) {
		return splitClaimRows(e, in, ch)
	}
	lo, hi := claimedRange(ch.Claim)
	rule := e.Rules[ch.Rule].Name()
	var out []table.ClaimRow
	for i, bi := range ch.Boards {
		b := e.Boards[bi]
		t, err := pool(tally, bi, ch.Rule, ch.Squares[i])
		if err != nil {
			return nil, fmt.Errorf("claim %s on %s: %w", ch.ID, b, err)
		}
		sum := t.SuccessRate().Interval(e.Confidence, e.Method)
		row := table.ClaimRow{Experiment: e.Name, Params: Params(e.Rules[ch.Rule]), ID: ch.ID, Source: ch.Source, Reading: ch.Reading, Fitted: ch.Fitted, Rule: rule, Board: b.String(), Target: ch.Target(b),
			Kind: ch.Claim.Kind.String(), ClaimedLo: lo, ClaimedHi: hi, Walks: int64(t.Walks), Successes: int64(t.Successes),
			Measured: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Exact: exactMean(exact, bi, ch.Rule, ch.Squares[i]), CSLo: math.NaN(), CSHi: math.NaN()}
		row.ExactLower, row.ExactUpper = boundsMean(in, bi, ch.Rule, ch.Squares[i])
		by := sum // what decides a sampled verdict
		if e.Sequential != nil {
			by = t.SuccessRate().Interval(e.Confidence, stats.ConfidenceSequence)
			row.CSLo, row.CSHi = by.Lo, by.Hi
		}
		row.Estimator = table.EstimatorWalks
		if ch.Compare {
			comparePublished(&row, ch.Published, t.SuccessRate(), e.Rules[ch.Rule].Deterministic(), e.Confidence)
		} else {
			decide(&row, ch.Claim, by, e.Rules[ch.Rule].Deterministic())
			if holds, ok := stats.Proved(ch.Claim, t.Successes, t.Walks); ok && row.DecidedBy == "sample" {
				row.DecidedBy, row.Verdict = "walk", stats.ExactVerdict(holds) // a proof, not a sample
			}
		}
		if row.DecidedBy != "sample" {
			row.CSLo, row.CSHi = math.NaN(), math.NaN()
		}
		out = append(out, row)
	}
	return out, nil
}

// decide sets a claim row's verdict and what decided it: the exact value
// where every square of the claim has one (no sampling error, no
// interval needed); a deterministic rule's walks, whose rate is a count
// of starts, not a sample (its interval is null); else the sampled
// interval against the claimed set (stats.Verdict).
func decide(row *table.ClaimRow, c stats.Claim, sum stats.Summary, deterministic bool) {
	holds, byBounds := boundsDecide(c, row.ExactLower, row.ExactUpper)
	switch {
	case !math.IsNaN(row.Exact):
		row.DecidedBy, row.Verdict = "exact", stats.ExactVerdict(c.Holds(row.Exact))
	case byBounds && !deterministic:
		row.DecidedBy, row.Verdict = "bounds", stats.ExactVerdict(holds)
	case deterministic:
		row.DecidedBy, row.Verdict = "walk", stats.ExactVerdict(c.Holds(sum.Center))
		row.Lo, row.Hi = math.NaN(), math.NaN()
	default:
		row.DecidedBy, row.Verdict = "sample", stats.Verdict(c, sum)
	}
}

// boundsDecide says whether certified bounds [lo, hi] on the claimed
// quantity decide claim c (ok), and whether it then holds: it holds if it
// holds at both ends (its set is an interval, so throughout), fails if it
// fails at both ends with the set wholly beyond one of them; otherwise
// the bounds straddle an end of the set and do not decide.
func boundsDecide(c stats.Claim, lo, hi float64) (holds, ok bool) {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return false, false
	}
	if c.Holds(lo) && c.Holds(hi) {
		return true, true
	}
	setLo, setHi := claimedRange(c)
	if !c.Holds(lo) && !c.Holds(hi) && (hi <= setLo || lo >= setHi) {
		return false, true
	}
	return false, false
}

// squareBounds returns the certified bounds on P(success) of a start
// square: its exact value twice where it has one, the bounds of an
// enumeration that dropped states, else NaN.
func squareBounds(in Inputs, bi, ri, start int) (lo, hi float64) {
	if x, ok := in.Exact(bi, ri, start); ok {
		return x.PSuccess, x.PSuccess
	}
	if in.Bounds != nil {
		if lo, hi, ok := in.Bounds(bi, ri, start); ok {
			return lo, hi
		}
	}
	return math.NaN(), math.NaN()
}

// boundsMean is the mean of the squares' bounds (NaN unless every one has
// them): bounds on their mean P(success), which a pooled claim measures.
func boundsMean(in Inputs, bi, ri int, squares []int) (lo, hi float64) {
	for _, sq := range squares {
		l, h := squareBounds(in, bi, ri, sq)
		lo, hi = lo+l, hi+h
	}
	n := float64(len(squares))
	return lo / n, min(1, hi/n)
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
