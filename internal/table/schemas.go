package table

import "slices"

// The column lists below are the tables' schemas: column names, order and
// types. Every count is int64; a float64 column made with optCol is null
// where its value is undefined; categorical columns are dictionaries whose
// level order is fixed by their order (levels.go). docs/tables.md documents them; TestDocsMatchCode keeps the two in
// step, and TestSpecsCoverFields checks every struct field has one column.

var squaresSpec = newSpec(Squares,
	slices.Concat([]column[SquareRow]{
		dictCol("experiment", experimentOrder, func(r *SquareRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *SquareRow) *string { return &r.Board }),
		i32Col("rows", func(r *SquareRow) *int32 { return &r.Rows }),
		i32Col("cols", func(r *SquareRow) *int32 { return &r.Cols }),
		dictCol("rule", ruleOrder, func(r *SquareRow) *string { return &r.Rule }),
		strCol("start", func(r *SquareRow) *string { return &r.Start }),
		i32Col("start_row", func(r *SquareRow) *int32 { return &r.StartRow }),
		i32Col("start_col", func(r *SquareRow) *int32 { return &r.StartCol }),
		dictCol("start_class", classOrder, func(r *SquareRow) *string { return &r.StartClass }),
		i32Col("start_degree", func(r *SquareRow) *int32 { return &r.StartDegree }),
		i64Col("walks", func(r *SquareRow) *int64 { return &r.Walks }),
		i64Col("successes", func(r *SquareRow) *int64 { return &r.Successes }),
		optCol("success_rate", func(r *SquareRow) *float64 { return &r.SuccessRate }),
		optCol("success_lo", func(r *SquareRow) *float64 { return &r.SuccessLo }),
		optCol("success_hi", func(r *SquareRow) *float64 { return &r.SuccessHi }),
		i64Col("closed", func(r *SquareRow) *int64 { return &r.Closed }),
		optCol("closed_rate", func(r *SquareRow) *float64 { return &r.ClosedRate }),
		optCol("closed_lo", func(r *SquareRow) *float64 { return &r.ClosedLo }),
		optCol("closed_hi", func(r *SquareRow) *float64 { return &r.ClosedHi }),
		i64Col("stopped", func(r *SquareRow) *int64 { return &r.Stopped }),
		optCol("length_mean", func(r *SquareRow) *float64 { return &r.LengthMean }),
		optCol("length_sd", func(r *SquareRow) *float64 { return &r.LengthSD }),
		i32Col("length_min", func(r *SquareRow) *int32 { return &r.LengthMin }),
		i32Col("length_p05", func(r *SquareRow) *int32 { return &r.LengthP05 }),
		i32Col("length_p25", func(r *SquareRow) *int32 { return &r.LengthP25 }),
		i32Col("length_median", func(r *SquareRow) *int32 { return &r.LengthMedian }),
		i32Col("length_p75", func(r *SquareRow) *int32 { return &r.LengthP75 }),
		i32Col("length_p95", func(r *SquareRow) *int32 { return &r.LengthP95 }),
		i32Col("length_max", func(r *SquareRow) *int32 { return &r.LengthMax }),
		optCol("ties_mean", func(r *SquareRow) *float64 { return &r.TiesMean }),
		optCol("nodes_mean", func(r *SquareRow) *float64 { return &r.NodesMean }),
		optCol("backtracks_mean", func(r *SquareRow) *float64 { return &r.BacktracksMean }),
		i64Col("budget_exceeded", func(r *SquareRow) *int64 { return &r.BudgetExceeded }),
	}, paramCols(func(r *SquareRow) *RuleParams { return &r.Params }))...,
)

var lengthsSpec = newSpec(Lengths,
	slices.Concat([]column[LengthRow]{
		dictCol("experiment", experimentOrder, func(r *LengthRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *LengthRow) *string { return &r.Board }),
		i32Col("rows", func(r *LengthRow) *int32 { return &r.Rows }),
		i32Col("cols", func(r *LengthRow) *int32 { return &r.Cols }),
		dictCol("rule", ruleOrder, func(r *LengthRow) *string { return &r.Rule }),
		strCol("start", func(r *LengthRow) *string { return &r.Start }),
		i32Col("start_row", func(r *LengthRow) *int32 { return &r.StartRow }),
		i32Col("start_col", func(r *LengthRow) *int32 { return &r.StartCol }),
		i32Col("length", func(r *LengthRow) *int32 { return &r.Length }),
		i64Col("count", func(r *LengthRow) *int64 { return &r.Count }),
	}, paramCols(func(r *LengthRow) *RuleParams { return &r.Params }))...,
)

var deadEndsSpec = newSpec(DeadEnds,
	slices.Concat([]column[DeadEndRow]{
		dictCol("experiment", experimentOrder, func(r *DeadEndRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *DeadEndRow) *string { return &r.Board }),
		i32Col("rows", func(r *DeadEndRow) *int32 { return &r.Rows }),
		i32Col("cols", func(r *DeadEndRow) *int32 { return &r.Cols }),
		dictCol("rule", ruleOrder, func(r *DeadEndRow) *string { return &r.Rule }),
		strCol("start", func(r *DeadEndRow) *string { return &r.Start }),
		i32Col("start_row", func(r *DeadEndRow) *int32 { return &r.StartRow }),
		i32Col("start_col", func(r *DeadEndRow) *int32 { return &r.StartCol }),
		strCol("end", func(r *DeadEndRow) *string { return &r.End }),
		i32Col("end_row", func(r *DeadEndRow) *int32 { return &r.EndRow }),
		i32Col("end_col", func(r *DeadEndRow) *int32 { return &r.EndCol }),
		i64Col("count", func(r *DeadEndRow) *int64 { return &r.Count }),
	}, paramCols(func(r *DeadEndRow) *RuleParams { return &r.Params }))...,
)

var classesSpec = newSpec(Classes,
	slices.Concat([]column[ClassRow]{
		dictCol("experiment", experimentOrder, func(r *ClassRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *ClassRow) *string { return &r.Board }),
		i32Col("rows", func(r *ClassRow) *int32 { return &r.Rows }),
		i32Col("cols", func(r *ClassRow) *int32 { return &r.Cols }),
		dictCol("rule", ruleOrder, func(r *ClassRow) *string { return &r.Rule }),
		dictCol("group_by", groupByOrder, func(r *ClassRow) *string { return &r.GroupBy }),
		dictCol("group", groupOrder, func(r *ClassRow) *string { return &r.Group }),
		i32Col("squares", func(r *ClassRow) *int32 { return &r.Squares }),
		i64Col("walks", func(r *ClassRow) *int64 { return &r.Walks }),
		i64Col("successes", func(r *ClassRow) *int64 { return &r.Successes }),
		optCol("success_rate", func(r *ClassRow) *float64 { return &r.SuccessRate }),
		optCol("success_lo", func(r *ClassRow) *float64 { return &r.SuccessLo }),
		optCol("success_hi", func(r *ClassRow) *float64 { return &r.SuccessHi }),
		i64Col("closed", func(r *ClassRow) *int64 { return &r.Closed }),
		optCol("closed_rate", func(r *ClassRow) *float64 { return &r.ClosedRate }),
		optCol("closed_lo", func(r *ClassRow) *float64 { return &r.ClosedLo }),
		optCol("closed_hi", func(r *ClassRow) *float64 { return &r.ClosedHi }),
		optCol("length_mean", func(r *ClassRow) *float64 { return &r.LengthMean }),
	}, paramCols(func(r *ClassRow) *RuleParams { return &r.Params }))...,
)

var boardsSpec = newSpec(Boards,
	slices.Concat([]column[BoardRow]{
		dictCol("experiment", experimentOrder, func(r *BoardRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *BoardRow) *string { return &r.Board }),
		i32Col("rows", func(r *BoardRow) *int32 { return &r.Rows }),
		i32Col("cols", func(r *BoardRow) *int32 { return &r.Cols }),
		dictCol("rule", ruleOrder, func(r *BoardRow) *string { return &r.Rule }),
		i32Col("squares", func(r *BoardRow) *int32 { return &r.Squares }),
		i64Col("walks", func(r *BoardRow) *int64 { return &r.Walks }),
		i64Col("successes", func(r *BoardRow) *int64 { return &r.Successes }),
		optCol("success_rate", func(r *BoardRow) *float64 { return &r.SuccessRate }),
		optCol("success_lo", func(r *BoardRow) *float64 { return &r.SuccessLo }),
		optCol("success_hi", func(r *BoardRow) *float64 { return &r.SuccessHi }),
		i64Col("closed", func(r *BoardRow) *int64 { return &r.Closed }),
		optCol("closed_rate", func(r *BoardRow) *float64 { return &r.ClosedRate }),
		optCol("closed_lo", func(r *BoardRow) *float64 { return &r.ClosedLo }),
		optCol("closed_hi", func(r *BoardRow) *float64 { return &r.ClosedHi }),
		i64Col("dead_ends", func(r *BoardRow) *int64 { return &r.DeadEnds }),
		i64Col("stopped", func(r *BoardRow) *int64 { return &r.Stopped }),
		i64Col("budget_exceeded", func(r *BoardRow) *int64 { return &r.BudgetExceeded }),
		optCol("length_mean", func(r *BoardRow) *float64 { return &r.LengthMean }),
	}, paramCols(func(r *BoardRow) *RuleParams { return &r.Params }))...,
)

var comparisonsSpec = newSpec(Comparisons,
	dictCol("board", boardOrder, func(r *ComparisonRow) *string { return &r.Board }),
	i32Col("rows", func(r *ComparisonRow) *int32 { return &r.Rows }),
	i32Col("cols", func(r *ComparisonRow) *int32 { return &r.Cols }),
	dictCol("rule", ruleOrder, func(r *ComparisonRow) *string { return &r.Rule }),
	dictCol("group_by", groupByOrder, func(r *ComparisonRow) *string { return &r.GroupBy }),
	dictCol("group_a", groupOrder, func(r *ComparisonRow) *string { return &r.GroupA }),
	dictCol("group_b", groupOrder, func(r *ComparisonRow) *string { return &r.GroupB }),
	optCol("rate_a", func(r *ComparisonRow) *float64 { return &r.RateA }),
	optCol("rate_b", func(r *ComparisonRow) *float64 { return &r.RateB }),
	optCol("diff", func(r *ComparisonRow) *float64 { return &r.Diff }),
	optCol("diff_lo", func(r *ComparisonRow) *float64 { return &r.DiffLo }),
	optCol("diff_hi", func(r *ComparisonRow) *float64 { return &r.DiffHi }),
	optCol("p_value", func(r *ComparisonRow) *float64 { return &r.PValue }),
)

var claimsSpec = newSpec(Claims,
	slices.Concat([]column[ClaimRow]{
		dictCol("experiment", experimentOrder, func(r *ClaimRow) *string { return &r.Experiment }),
		strCol("id", func(r *ClaimRow) *string { return &r.ID }),
		strCol("source", func(r *ClaimRow) *string { return &r.Source }),
		dictCol("rule", ruleOrder, func(r *ClaimRow) *string { return &r.Rule }),
		dictCol("board", boardOrder, func(r *ClaimRow) *string { return &r.Board }),
		strCol("target", func(r *ClaimRow) *string { return &r.Target }),
		dictCol("kind", kindOrder, func(r *ClaimRow) *string { return &r.Kind }),
		f64Col("claimed_lo", func(r *ClaimRow) *float64 { return &r.ClaimedLo }),
		f64Col("claimed_hi", func(r *ClaimRow) *float64 { return &r.ClaimedHi }),
		i64Col("walks", func(r *ClaimRow) *int64 { return &r.Walks }),
		i64Col("successes", func(r *ClaimRow) *int64 { return &r.Successes }),
		optCol("measured", func(r *ClaimRow) *float64 { return &r.Measured }),
		optCol("lo", func(r *ClaimRow) *float64 { return &r.Lo }),
		optCol("hi", func(r *ClaimRow) *float64 { return &r.Hi }),
		dictCol("verdict", verdictOrder, func(r *ClaimRow) *string { return &r.Verdict }),
	}, paramCols(func(r *ClaimRow) *RuleParams { return &r.Params }))...,
)

var walksSpec = newSpec(Walks,
	slices.Concat([]column[WalkRow]{
		dictCol("experiment", experimentOrder, func(r *WalkRow) *string { return &r.Experiment }),
		dictCol("board", boardOrder, func(r *WalkRow) *string { return &r.Board }),
		dictCol("rule", ruleOrder, func(r *WalkRow) *string { return &r.Rule }),
		strCol("start", func(r *WalkRow) *string { return &r.Start }),
		i32Col("start_row", func(r *WalkRow) *int32 { return &r.StartRow }),
		i32Col("start_col", func(r *WalkRow) *int32 { return &r.StartCol }),
		i64Col("walk", func(r *WalkRow) *int64 { return &r.Walk }),
		i32Col("length", func(r *WalkRow) *int32 { return &r.Length }),
		boolCol("success", func(r *WalkRow) *bool { return &r.Success }),
		boolCol("closed", func(r *WalkRow) *bool { return &r.Closed }),
		strCol("end", func(r *WalkRow) *string { return &r.End }),
		i32Col("end_row", func(r *WalkRow) *int32 { return &r.EndRow }),
		i32Col("end_col", func(r *WalkRow) *int32 { return &r.EndCol }),
		i32Col("ties", func(r *WalkRow) *int32 { return &r.Ties }),
		dictCol("outcome", outcomeOrder, func(r *WalkRow) *string { return &r.Outcome }),
		optI64Col("nodes", func(r *WalkRow) *NullInt64 { return &r.Nodes }),
		optI64Col("backtracks", func(r *WalkRow) *NullInt64 { return &r.Backtracks }),
	}, paramCols(func(r *WalkRow) *RuleParams { return &r.Params }))...,
).withPlain("walk")

// paramCols are the rule-parameter columns that end every table with a rule
// column (see RuleParams).
func paramCols[R any](p func(*R) *RuleParams) []column[R] {
	return []column[R]{
		optDictCol("tie_break", tieBreakOrder, func(r *R) *string { return &p(r).TieBreak }),
		optI64Col("max_steps", func(r *R) *NullInt64 { return &p(r).MaxSteps }),
		optI64Col("node_budget", func(r *R) *NullInt64 { return &p(r).NodeBudget }),
		optStrCol("move_order", func(r *R) *string { return &p(r).MoveOrder }),
	}
}
