package stats

import (
	"fmt"

	"github.com/knightwalk/knightwalk/sim"
)

// Tally accumulates the outcomes of the walks of one (board, rule, start
// square). It holds only integer counts, sums and histograms, so merging
// tallies is exact, associative and commutative: shards merged in any order
// give the same Tally, field for field, as one run over all walks
// (docs/design.md, Reproducibility).
//
// The fields are exported so that writers and readers of results can fill
// and check them directly; Add and Merge keep the invariants below.
//
//	Successes + Stopped + sum(DeadEnds) == Walks
//	sum(Lengths) == Walks
//	Closed <= Successes
//
// uint64 sums do not wrap for any realistic run: NodeSum, the largest,
// stays below 2^64 for 10^12 walks of 10^7 nodes each.
type Tally struct {
	Walks     uint64 // walks added
	Successes uint64 // walks that visited every square
	Closed    uint64 // successes whose last square is a knight's move from the start
	Stopped   uint64 // walks cut off at the step limit with moves still available

	// Lengths[L] counts walks of path length L (squares visited, start
	// included), 1 <= L <= N; Lengths[0] is unused so that the index is the
	// length. len(Lengths) == N+1.
	Lengths []uint64

	// DeadEnds[sq] counts failed walks that ended on sq. A stopped walk is
	// not counted: it ended with moves still available, so its last square
	// is no dead end. For the backtrack rule the end is that of the deepest
	// path found. len(DeadEnds) == N.
	DeadEnds []uint64

	TieSum         uint64 // sum of Outcome.Ties: tie decisions over all walks
	NodeSum        uint64 // backtrack: squares entered over all walks
	BacktrackSum   uint64 // backtrack: moves undone over all walks
	BudgetExceeded uint64 // backtrack: walks that gave up at the node budget
}

// NewTally returns an empty tally for a board of the given number of
// squares. It panics if squares < 1: boards are validated before walks run.
func NewTally(squares int) *Tally {
	if squares < 1 {
		panic(fmt.Sprintf("stats: NewTally(%d): a board has at least 1 square", squares))
	}
	return &Tally{
		Lengths:  make([]uint64, squares+1),
		DeadEnds: make([]uint64, squares),
	}
}

// Squares returns N, the number of squares of the tally's board.
func (t *Tally) Squares() int { return len(t.DeadEnds) }

// Add records one walk. It is called once per walk on the hot path, so it
// does not allocate. It panics on an outcome that cannot come from a walk
// on this board (a length or end square out of range, negative counts):
// that is a bug in the caller, not a property of the data.
func (t *Tally) Add(o sim.Outcome) {
	n := len(t.DeadEnds)
	if o.Length < 1 || o.Length > n || o.End < 0 || o.End >= n ||
		o.Ties < 0 || o.Nodes < 0 || o.Backtracks < 0 {
		panicOutcome(n, o.Length, o.End)
	}
	t.Walks++
	t.Lengths[o.Length]++
	switch {
	case o.Success:
		t.Successes++
		if o.Closed {
			t.Closed++
		}
	case o.Stopped:
		t.Stopped++
	default:
		t.DeadEnds[o.End]++
	}
	t.TieSum += uint64(o.Ties)
	t.NodeSum += uint64(o.Nodes)
	t.BacktrackSum += uint64(o.Backtracks)
	if o.BudgetExceeded {
		t.BudgetExceeded++
	}
}

// panicOutcome is out of line so that Add's fast path stays small and free
// of the formatting machinery.
func panicOutcome(n, length, end int) {
	panic(fmt.Sprintf("stats: Tally.Add: outcome (length %d, end %d, or a negative count) impossible on a board of %d squares", length, end, n))
}

// Merge adds other's counts into t. Both must describe boards of the same
// size; the error is for a mismatch, which a user can cause by merging
// shards of different experiments.
func (t *Tally) Merge(other *Tally) error {
	if other == nil {
		return fmt.Errorf("stats: merge: nil tally")
	}
	if len(other.Lengths) != len(t.Lengths) || len(other.DeadEnds) != len(t.DeadEnds) {
		return fmt.Errorf("stats: merge: tally of %d squares into one of %d squares", other.Squares(), t.Squares())
	}
	t.Walks += other.Walks
	t.Successes += other.Successes
	t.Closed += other.Closed
	t.Stopped += other.Stopped
	addBins(t.Lengths, other.Lengths)
	addBins(t.DeadEnds, other.DeadEnds)
	t.TieSum += other.TieSum
	t.NodeSum += other.NodeSum
	t.BacktrackSum += other.BacktrackSum
	t.BudgetExceeded += other.BudgetExceeded
	return nil
}

// addBins adds the bins of b into a (of one length). Past a thousand
// bins it passes over b's zero bins (NextNonZero): on a large board few
// are not zero, and adding every one writes the whole of a.
func addBins(a, b []uint64) {
	if len(b) <= 1<<10 {
		for i, c := range b {
			a[i] += c
		}
		return
	}
	for i := NextNonZero(b, 0); i < len(b); i = NextNonZero(b, i+1) {
		a[i] += b[i]
	}
}

// Reset empties t, keeping its size and storage, so that a worker can reuse
// one tally per work unit.
func (t *Tally) Reset() {
	lengths, deadEnds := t.Lengths, t.DeadEnds
	clear(lengths)
	clear(deadEnds)
	*t = Tally{Lengths: lengths, DeadEnds: deadEnds}
}

// Clone returns a deep copy of t.
func (t *Tally) Clone() *Tally {
	c := *t
	c.Lengths = append([]uint64(nil), t.Lengths...)
	c.DeadEnds = append([]uint64(nil), t.DeadEnds...)
	return &c
}

// SuccessRate returns the successes among the walks.
func (t *Tally) SuccessRate() Proportion { return Proportion{Successes: t.Successes, Trials: t.Walks} }

// ClosedRate returns the closed tours among the walks.
func (t *Tally) ClosedRate() Proportion { return Proportion{Successes: t.Closed, Trials: t.Walks} }

// LengthStats summarises the path lengths of the walks.
func (t *Tally) LengthStats() LengthStats { return SummarizeLengths(t.Lengths) }
