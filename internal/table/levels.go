package table

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Levels lists the values of the run's categorical columns that the writer
// cannot know by itself: the experiment's boards and rules. Rules keep the
// experiment's order; boards are sorted by size whatever their order here.
// A writer given no Levels takes the values from the rows it writes.
type Levels struct {
	Experiment string
	Boards     []string
	Rules      []string
	TieBreaks  []string // the rules' tie-breaks
}

// order fixes the level order of a categorical column. The levels of a file
// are fixed, then the values from the run's Levels (from), then any other
// value met in the rows; those after fixed are sorted by less when it is
// set, else kept in the order first met. A closed order accepts only fixed.
type order struct {
	fixed  []string
	closed bool
	less   func(a, b string) int
	from   func(Levels) []string
	// doc says, for docs/tables.md's generated level lists, where the
	// levels after fixed come from; "" for a closed order
	doc string
}

// Class names, in their level order (sim.Class's order).
var classLevels = []string{"corner", "edge", "centre", "interior"}

var (
	experimentOrder = &order{doc: "the run's name", from: func(l Levels) []string {
		if l.Experiment == "" {
			return nil
		}
		return []string{l.Experiment}
	}}
	// the four single tie-breaks, then the run's chains (roth+first, …) in
	// the order of its rules
	tieBreakOrder = &order{doc: "then the run's other chains (`roth+first`, …) in the order of its rules", fixed: []string{"random", "first", "pohl", "roth"}, from: func(l Levels) []string { return l.TieBreaks }}
	boardOrder    = &order{doc: "the run's boards by size (rows·cols, then rows: `3x4`, `4x3`, `5x5`, …, `10x10`)", less: compareBoards, from: func(l Levels) []string { return l.Boards }}
	ruleOrder     = &order{doc: "the run's rules in the experiment file's order", from: func(l Levels) []string { return l.Rules }}
	classOrder    = &order{fixed: classLevels, closed: true}
	groupByOrder  = &order{fixed: []string{"class", "degree"}, closed: true}
	// a group is a class or a degree: classes first, then degrees in
	// numeric order (2 before 10)
	groupOrder   = &order{fixed: classLevels, less: compareNumeric, doc: "then the degrees met, in numeric order (`2`, `3`, …, `8`)"}
	kindOrder    = &order{fixed: []string{"rate", "range", "below", "above", "share", "first-failure", "failing-share", "published"}, closed: true}
	verdictOrder = &order{fixed: []string{"consistent", "inconclusive", "refuted", "reproduced", "not reproduced"}, closed: true}
	// the test of a claim compared with a published count or share; null
	// (not "") for others
	testOrder = &order{fixed: []string{"berger-boos", "binomial", "barnard"}, closed: true}
	// what decided a claim: its exact value, a deterministic rule's walks,
	// or a sample with its interval
	decidedByOrder = &order{fixed: []string{"exact", "walk", "sample", "bounds"}, closed: true}
	stopOrder      = &order{fixed: StopReasons, closed: true}
	estimatorOrder = &order{fixed: []string{EstimatorWalks, EstimatorSplitting}, closed: true}
	outcomeOrder   = &order{fixed: Outcomes, closed: true}
	countKindOrder = &order{fixed: CountKinds, closed: true}
	compareOrder   = &order{fixed: []string{"groups", "rules"}, closed: true}
)

// CountKinds are the values of the counts table's kind column: directed
// open tours, closed tours, and tours up to the board's symmetries
// (docs/tables.md, `counts`).
var CountKinds = []string{"open", "closed", "unique"}

// StopReasons are the values of the stop column of a sequential run
// (walks: {until: ...}; docs/design.md, "Running until decided"): every
// claim the square feeds is decided; its always-valid interval reached
// half_width; it reached max first; it feeds no claim and ran min walks;
// its rule is deterministic and one walk decides it.
var StopReasons = []string{StopDecided, StopPrecise, StopMax, StopMin, StopDeterministic}

// The estimators of the estimator column: plain walks, or multilevel
// splitting on path length (rule key estimator: splitting).
const (
	EstimatorWalks     = "walks"
	EstimatorSplitting = "splitting"
)

// The stop reasons.
const (
	StopDecided       = "decided"
	StopPrecise       = "precise"
	StopMax           = "max"
	StopMin           = "min"
	StopDeterministic = "deterministic"
)

// Outcomes are the values of the walks table's outcome column, in their
// level order: every walk has exactly one. "success" is an open tour only;
// a tour that closes is "closed" (docs/tables.md, `walks`).
var Outcomes = []string{OutcomeSuccess, OutcomeClosed, OutcomeDeadEnd, OutcomeStopped, OutcomeBudget}

// The walk outcomes.
const (
	OutcomeSuccess = "success"  // an open tour: every square visited, the last not a knight's move from the start
	OutcomeClosed  = "closed"   // a closed tour
	OutcomeDeadEnd = "dead_end" // no unvisited neighbour left (backtrack: every branch tried)
	OutcomeStopped = "stopped"  // cut off at max_steps with moves still available
	OutcomeBudget  = "budget"   // backtrack gave up at its node budget
)

// compareBoards orders boards "RxC" by squares, then rows; names that are
// not boards follow, by name.
func compareBoards(a, b string) int {
	ra, ca, oka := parseBoard(a)
	rb, cb, okb := parseBoard(b)
	switch {
	case oka && okb:
		return cmp.Or(cmp.Compare(ra*ca, rb*cb), cmp.Compare(ra, rb), cmp.Compare(a, b))
	case oka:
		return -1
	case okb:
		return 1
	}
	return cmp.Compare(a, b)
}

func parseBoard(s string) (rows, cols int, ok bool) {
	r, c, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	return rows, cols, err1 == nil && err2 == nil
}

// compareNumeric orders decimal integers by value; other strings follow, by
// value.
func compareNumeric(a, b string) int {
	na, erra := strconv.Atoi(a)
	nb, errb := strconv.Atoi(b)
	switch {
	case erra == nil && errb == nil:
		return cmp.Compare(na, nb)
	case erra == nil:
		return -1
	case errb == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// levelSet is one column's levels in a file, with each value's index.
type levelSet struct {
	o      *order
	values []string
	index  map[string]int
}

func newLevelSet(o *order, l Levels) *levelSet {
	ls := &levelSet{o: o, index: map[string]int{}}
	for _, v := range o.fixed {
		ls.index[v] = len(ls.values)
		ls.values = append(ls.values, v)
	}
	if o.from != nil {
		ls.add(o.from(l))
	}
	return ls
}

// add adds the values not yet among the levels (a closed order takes none:
// writing one then fails with the list of valid values).
func (ls *levelSet) add(vals []string) {
	if ls.o.closed {
		return
	}
	grew := false
	for _, v := range vals {
		if _, ok := ls.index[v]; !ok {
			ls.index[v] = -1
			ls.values = append(ls.values, v)
			grew = true
		}
	}
	if !grew {
		return
	}
	if ls.o.less != nil {
		slices.SortStableFunc(ls.values[len(ls.o.fixed):], ls.o.less)
	}
	for i, v := range ls.values {
		ls.index[v] = i
	}
}
