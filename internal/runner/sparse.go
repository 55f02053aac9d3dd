package runner

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/knightwalk/knightwalk/stats"
)

// sparseTally is a tally's JSON form in checkpoints and parts: histograms
// as [index, count] pairs of their non-zero bins, indices increasing. On a
// 2000×2000 board a dense histogram is 4 million numbers however few walks
// it counts. It is decoded as is and made a Tally only against the board
// its unit or cell says, so what a damaged file claims about its size
// allocates nothing.
type sparseTally struct {
	Squares        int         `json:"squares"`
	Walks          uint64      `json:"walks"`
	Successes      uint64      `json:"successes"`
	Closed         uint64      `json:"closed"`
	Stopped        uint64      `json:"stopped"`
	TieSum         uint64      `json:"tie_sum"`
	NodeSum        uint64      `json:"node_sum"`
	BacktrackSum   uint64      `json:"backtrack_sum"`
	BudgetExceeded uint64      `json:"budget_exceeded"`
	Lengths        [][2]uint64 `json:"lengths"`
	DeadEnds       [][2]uint64 `json:"deadends"`

	// A cell's tally (Tallies) holds the bins merge found missing from
	// Lengths and DeadEnds here, unsorted, repeats allowed, until there
	// are enough of them to merge in at once (settle): inserting each
	// unit's few new bins moved the histogram's tail every time, and a
	// run's dead ends on 1000x1000 are a new bin nearly every walk.
	pendLengths, pendDeadEnds [][2]uint64
}

// sparse lists the non-zero bins of h, ascending. It skips empty runs
// eight bins at a time: a unit of one walk on a 428x428 board has two
// non-zero bins among 366,370, and scanning them one by one was a tenth
// of a design's run.
func sparse(h []uint64) [][2]uint64 {
	out := [][2]uint64{}
	i := 0
	for ; i+8 <= len(h); i += 8 {
		c := h[i : i+8 : i+8]
		if c[0]|c[1]|c[2]|c[3]|c[4]|c[5]|c[6]|c[7] == 0 {
			continue
		}
		for j, x := range c {
			if x != 0 {
				out = append(out, [2]uint64{uint64(i + j), x})
			}
		}
	}
	for ; i < len(h); i++ {
		if h[i] != 0 {
			out = append(out, [2]uint64{uint64(i), h[i]})
		}
	}
	return out
}

// sparseAt is sparseOf(t) for a tally whose non-zero bins are all among
// the indices lens (of Lengths) and ends (of DeadEnds), in any order and
// with repeats (it sorts them): the same form, without a pass over the
// board's bins. A unit of 64 random walks on a 1000x1000 board touches
// about 128 of its 2 million bins; scanning them all (twice: for the
// cell's tally and for the checkpoint) took longer than the walks.
func sparseAt(t *stats.Tally, lens, ends []int) sparseTally {
	return sparseTally{Squares: t.Squares(), Walks: t.Walks, Successes: t.Successes, Closed: t.Closed, Stopped: t.Stopped,
		TieSum: t.TieSum, NodeSum: t.NodeSum, BacktrackSum: t.BacktrackSum, BudgetExceeded: t.BudgetExceeded,
		Lengths: binsAt(t.Lengths, lens), DeadEnds: binsAt(t.DeadEnds, ends)}
}

// binsAt lists the non-zero bins of h among idx, ascending, as sparse does.
func binsAt(h []uint64, idx []int) [][2]uint64 {
	slices.Sort(idx)
	out := [][2]uint64{}
	for i, x := range idx {
		if (i == 0 || x != idx[i-1]) && h[x] != 0 {
			out = append(out, [2]uint64{uint64(x), h[x]})
		}
	}
	return out
}

// sparseOf returns the sparse form of t.
func sparseOf(t *stats.Tally) sparseTally {
	return sparseTally{Squares: t.Squares(), Walks: t.Walks, Successes: t.Successes, Closed: t.Closed, Stopped: t.Stopped,
		TieSum: t.TieSum, NodeSum: t.NodeSum, BacktrackSum: t.BacktrackSum, BudgetExceeded: t.BudgetExceeded,
		Lengths: sparse(t.Lengths), DeadEnds: sparse(t.DeadEnds)}
}

// tally returns the Tally of s, which must be of a board of the given
// number of squares, with each histogram's bins in range, increasing and
// non-zero, as sparseOf writes them.
func (s *sparseTally) tally(squares int) (*stats.Tally, error) {
	s.settle()
	if s.Squares != squares || squares < 1 {
		return nil, fmt.Errorf("a tally of %d squares for a board of %d", s.Squares, squares)
	}
	x := stats.NewTally(squares)
	x.Walks, x.Successes, x.Closed, x.Stopped = s.Walks, s.Successes, s.Closed, s.Stopped
	x.TieSum, x.NodeSum, x.BacktrackSum, x.BudgetExceeded = s.TieSum, s.NodeSum, s.BacktrackSum, s.BudgetExceeded
	for _, h := range []struct {
		dst []uint64
		src [][2]uint64
	}{{x.Lengths, s.Lengths}, {x.DeadEnds, s.DeadEnds}} {
		for i, p := range h.src {
			if p[0] >= uint64(len(h.dst)) || p[1] == 0 || (i > 0 && p[0] <= h.src[i-1][0]) {
				return nil, fmt.Errorf("histogram bin [%d, %d] out of range, out of order or empty for %d squares", p[0], p[1], squares)
			}
			h.dst[p[0]] = p[1]
		}
	}
	return x, nil
}

// merge adds o's counts into s, as stats.Tally.Merge does for dense
// tallies; both histograms stay sorted by bin.
func (s *sparseTally) merge(o sparseTally) error {
	if o.Squares != s.Squares {
		return fmt.Errorf("merge: tally of %d squares into one of %d squares", o.Squares, s.Squares)
	}
	s.Walks += o.Walks
	s.Successes += o.Successes
	s.Closed += o.Closed
	s.Stopped += o.Stopped
	s.TieSum += o.TieSum
	s.NodeSum += o.NodeSum
	s.BacktrackSum += o.BacktrackSum
	s.BudgetExceeded += o.BudgetExceeded
	s.Lengths, s.pendLengths = addBatched(s.Lengths, s.pendLengths, o.Lengths)
	s.DeadEnds, s.pendDeadEnds = addBatched(s.DeadEnds, s.pendDeadEnds, o.DeadEnds)
	return nil
}

// settle merges the pending bins into Lengths and DeadEnds: tally, the
// only reader of a cell's tally (Tallies.Of), settles it first.
func (s *sparseTally) settle() {
	s.Lengths, s.pendLengths = addPending(s.Lengths, s.pendLengths), s.pendLengths[:0]
	s.DeadEnds, s.pendDeadEnds = addPending(s.DeadEnds, s.pendDeadEnds), s.pendDeadEnds[:0]
}

// addBatched adds b's bins that a has into a in place and appends the
// others to pend, merging pend into a (addPending) once it holds more than
// an eighth of a's bins: so a new bin costs a fixed share of a move of a.
func addBatched(a, pend, b [][2]uint64) ([][2]uint64, [][2]uint64) {
	if pend = addFound(a, pend, b); len(pend) > 64+len(a)/8 {
		return addPending(a, pend), pend[:0]
	}
	return a, pend
}

// addFound adds b's bins that a has (both sorted by bin) into a in place,
// found by binary search, and returns rest with the others appended.
func addFound(a, rest, b [][2]uint64) [][2]uint64 {
	lo := 0
	for _, p := range b {
		i, found := slices.BinarySearchFunc(a[lo:], p[0], func(e [2]uint64, bin uint64) int { return cmp.Compare(e[0], bin) })
		lo += i
		if found {
			a[lo][1] += p[1]
		} else {
			rest = append(rest, p)
		}
	}
	return rest
}

// addPending returns a with the bins of pend (unsorted, repeats allowed,
// none of them in a) added: pend sorted and its repeats summed in place,
// then merged in by addBins.
func addPending(a, pend [][2]uint64) [][2]uint64 {
	if len(pend) == 0 {
		return a
	}
	slices.SortFunc(pend, func(x, y [2]uint64) int { return cmp.Compare(x[0], y[0]) })
	n := 0
	for _, p := range pend {
		if n > 0 && pend[n-1][0] == p[0] {
			pend[n-1][1] += p[1]
		} else {
			pend[n], n = p, n+1
		}
	}
	return addBins(a, pend[:n])
}

// addBins adds the sparse histogram b into a, both sorted by bin, and
// returns the sum, reusing a: b's bins already in a (found by binary
// search) are added in place, and the few new ones are merged in from the
// back, in a grown as append grows it. A unit's merge then costs its own
// bins and a move of a's tail, not a new slice of every bin of the run (on
// 1000x1000 that allocation and merge cost a tenth of the run).
func addBins(a, b [][2]uint64) [][2]uint64 {
	fresh := addFound(a, nil, b)
	if len(fresh) == 0 {
		return a
	}
	n := len(a)
	a = slices.Grow(a, len(fresh))[:n+len(fresh)]
	i, j := n-1, len(fresh)-1
	for k := len(a) - 1; j >= 0; k-- {
		if i >= 0 && a[i][0] > fresh[j][0] {
			a[k], i = a[i], i-1
		} else {
			a[k], j = fresh[j], j-1
		}
	}
	return a
}

// oneWalk is a tally of exactly one walk on a board of at most
// sparseAbove squares, as the walk's outcome: Tallies keeps a cell in this
// form until a second tally of it comes.
type oneWalk struct {
	ties, nodes, backtracks uint64
	squares, length, end    int16 // end: -1 where the walk is no dead end
	flags                   uint8
}

const (
	oneSuccess = 1 << iota
	oneClosed
	oneStopped
	oneBudget
)

// oneWalkOf returns the one walk t counts (t.Walks == 1), and false where
// t is not the tally of a single walk as stats.Tally.Add writes one.
func oneWalkOf(t *stats.Tally) (oneWalk, bool) {
	n := t.Squares()
	if t.Walks != 1 || n > sparseAbove {
		return oneWalk{}, false
	}
	w := oneWalk{squares: int16(n), length: -1, end: -1, ties: t.TieSum, nodes: t.NodeSum, backtracks: t.BacktrackSum}
	for l, c := range t.Lengths {
		switch {
		case c == 0:
		case c == 1 && w.length < 0:
			w.length = int16(l)
		default:
			return oneWalk{}, false
		}
	}
	for e, c := range t.DeadEnds {
		switch {
		case c == 0:
		case c == 1 && w.end < 0:
			w.end = int16(e)
		default:
			return oneWalk{}, false
		}
	}
	for _, f := range []struct {
		n   uint64
		bit uint8
	}{{t.Successes, oneSuccess}, {t.Closed, oneClosed}, {t.Stopped, oneStopped}, {t.BudgetExceeded, oneBudget}} {
		switch f.n {
		case 0:
		case 1:
			w.flags |= f.bit
		default:
			return oneWalk{}, false
		}
	}
	ended := 0 // a walk is a success, stopped or a dead end: exactly one
	for _, b := range []bool{w.flags&oneSuccess != 0, w.flags&oneStopped != 0, w.end >= 0} {
		if b {
			ended++
		}
	}
	if w.length < 0 || ended != 1 || w.flags&oneClosed != 0 && w.flags&oneSuccess == 0 {
		return oneWalk{}, false
	}
	return w, true
}

// addTo adds the walk's counts into t, a tally of its board.
func (w oneWalk) addTo(t *stats.Tally) {
	t.Walks++
	t.Lengths[w.length]++
	if w.end >= 0 {
		t.DeadEnds[w.end]++
	}
	for _, f := range []struct {
		n   *uint64
		bit uint8
	}{{&t.Successes, oneSuccess}, {&t.Closed, oneClosed}, {&t.Stopped, oneStopped}, {&t.BudgetExceeded, oneBudget}} {
		if w.flags&f.bit != 0 {
			*f.n++
		}
	}
	t.TieSum += w.ties
	t.NodeSum += w.nodes
	t.BacktrackSum += w.backtracks
}
