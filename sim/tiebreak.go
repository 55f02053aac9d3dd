package sim

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A tie-break decides among Warnsdorff's minimum-degree squares. It is a
// chain of criteria applied in turn until one square remains: zero or more
// refining criteria (pohl, roth: each keeps the tied squares it scores
// best, possibly several), then a deciding one (random: a uniform draw;
// first: the square reached by the earliest move in the rule's move order).
//
// Names. A chain is written with its criteria joined by '+', e.g.
// "roth+first" or "pohl+roth+random", and a rule's name carries it after
// the slash: "warnsdorff/roth+first". The four single names keep their
// meaning and their spelling: "pohl" is pohl+random and "roth" is
// roth+random, and "pohl+random", "roth+random" parse to those same rules
// and are named "pohl", "roth", so they hash to the same streams. Every
// other chain is named in full, its final random or first included.
//
// Streams. A chain draws only when it ends in random and more than one
// square survives its refining criteria; it then draws once, among the
// survivors in ascending square order, as every random tie-break does. A
// chain ending in first never draws: its walk is one path.

// TieBreak is a tie-break chain, as an index into tieChains, or past its
// end into the chains interned when first parsed (extraChains).
type TieBreak uint16

const (
	TieRandom TieBreak = iota // uniform among the tied squares
	TieFirst                  // first tied square in the move order
	TiePohl                   // pohl+random: smallest sum of the degrees of its unvisited neighbours, then random
	TieRoth                   // roth+random: largest distance from the board centre, then random
)

// criterion is one step of a tie-break chain.
type criterion uint8

const (
	critRandom criterion = iota // draw uniformly among the survivors (deciding)
	critFirst                   // keep the earliest in the move order (deciding)
	critPohl                    // keep the smallest sum of the degrees of the unvisited neighbours
	critRoth                    // keep the largest (squared) distance from the board centre
	// critPohlMin keeps the smallest minimum of the degrees of the
	// unvisited neighbours: Pohl's score read as a minimum rather than a
	// sum (a reading of Pohl 1967 that the experiments test; 0 for a square with
	// no unvisited neighbour, as the sum is).
	critPohlMin
	// critPohlMinBefore is Pohl's minimum with the degrees counted before
	// the current square is marked visited: the current square is then an
	// unvisited neighbour of every candidate, with degree the number of
	// candidates k, so the score is min(k, pohlmin's score). Unlike the sum
	// (which gains the same k for every candidate) and Warnsdorff's degree
	// (one more for every candidate), the cap can merge squares pohlmin
	// tells apart: a reading of its own (docs/design.md,
	// TestPohlDegreeCounting).
	critPohlMinBefore
	// critCorner keeps the tied squares nearest a corner: the smallest
	// squared Euclidean distance to the nearest of the four corner squares
	// (Board.CornerDist2).
	critCorner
	// critEdge keeps the tied squares nearest the edge: the fewest squares
	// between the square and the nearest side (Board.EdgeDist).
	critEdge
	// critLookahead2..4 keep the tied squares whose Warnsdorff
	// continuation of k = 2..4 moves lasts longest (lookahead). k = 1
	// would decide nothing: tied squares share their degree, so each
	// continues one move or none alike.
	critLookahead2
	critLookahead3
	critLookahead4
)

var critNames = [...]string{"random", "first", "pohl", "roth", "pohlmin", "pohlmin-before", "corner", "edge", "lookahead2", "lookahead3", "lookahead4"}

// lookaheadDepth is k of a lookahead criterion (0 for the others).
func (c criterion) lookaheadDepth() int {
	if c >= critLookahead2 && c <= critLookahead4 {
		return int(c-critLookahead2) + 2
	}
	return 0
}

// refining lists the criteria that may precede the deciding one in the
// chains of tieChains, whose indices never change.
var refining = []criterion{critPohl, critRoth, critPohlMin, critPohlMinBefore}

// refiningLater are refining criteria added after tieChains was fixed:
// chains with them are interned when first parsed (extraChains), so that
// the table does not grow by thousands of chains nobody asked for.
var refiningLater = []criterion{critCorner, critEdge, critLookahead2, critLookahead3, critLookahead4}

// extraChains holds the chains interned by ParseTieBreak beyond
// tieChains, copy on write: kernels read it without a lock.
var extraChains struct {
	mu     sync.Mutex
	chains atomic.Pointer[[][]criterion]
}

// tieChains lists every valid chain; a TieBreak indexes it. The first four
// are TieRandom, TieFirst, TiePohl and TieRoth; then come the other chains,
// breadth first: each ordered selection of distinct refining criteria,
// shortest first, followed by random, then by first.
//
// The chains with pohlmin-before (added later) come after all the others,
// so that every earlier chain keeps its index.
var tieChains = func() [][]criterion {
	out := [][]criterion{{critRandom}, {critFirst}, {critPohl, critRandom}, {critRoth, critRandom}}
	for _, steps := range [][]criterion{refining[:3], refining} {
		for prefixes := [][]criterion{{}}; len(prefixes) > 0; {
			var longer [][]criterion
			for _, p := range prefixes {
				for _, last := range []criterion{critRandom, critFirst} {
					c := append(slices.Clone(p), last)
					if !slices.ContainsFunc(out, func(o []criterion) bool { return slices.Equal(o, c) }) {
						out = append(out, c)
					}
				}
				for _, r := range steps {
					if !slices.Contains(p, r) {
						longer = append(longer, append(slices.Clone(p), r))
					}
				}
			}
			prefixes = longer
		}
	}
	return out
}()

func chainString(cs []criterion) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = critNames[c]
	}
	return strings.Join(parts, "+")
}

// chain returns t's criteria, the deciding one last.
func (t TieBreak) chain() []criterion {
	if int(t) < len(tieChains) {
		return tieChains[t]
	}
	return (*extraChains.chains.Load())[int(t)-len(tieChains)]
}

// valid reports whether t is a known chain.
func (t TieBreak) valid() bool {
	if int(t) < len(tieChains) {
		return true
	}
	x := extraChains.chains.Load()
	return x != nil && int(t)-len(tieChains) < len(*x)
}

// intern returns the TieBreak of chain cs, adding it to extraChains when
// it is new.
func intern(cs []criterion) TieBreak {
	name := chainString(cs)
	for i, c := range tieChains {
		if chainString(c) == name {
			return TieBreak(i)
		}
	}
	extraChains.mu.Lock()
	defer extraChains.mu.Unlock()
	var old [][]criterion
	if x := extraChains.chains.Load(); x != nil {
		old = *x
	}
	for i, c := range old {
		if chainString(c) == name {
			return TieBreak(len(tieChains) + i)
		}
	}
	next := append(slices.Clone(old), slices.Clone(cs))
	extraChains.chains.Store(&next)
	return TieBreak(len(tieChains) + len(next) - 1)
}

// String returns t's name: random, first, pohl, roth, or a chain in full
// such as roth+first.
func (t TieBreak) String() string {
	if !t.valid() {
		return fmt.Sprintf("TieBreak(%d)", t)
	}
	if t <= TieRoth { // the single names: pohl and roth without their +random
		return critNames[t.chain()[0]]
	}
	return chainString(t.chain())
}

// Draws reports whether t can draw from the walk's stream: whether it ends
// in random.
func (t TieBreak) Draws() bool {
	c := t.chain()
	return c[len(c)-1] == critRandom
}

// UsesOrder reports whether t ends in first, so that the rule's move order
// (Rule.Order) decides its remaining ties.
func (t TieBreak) UsesOrder() bool { return !t.Draws() }

// tieHelp says what a tie-break may be, for errors.
const tieHelp = "valid tie-breaks are random, first, pohl, roth, pohlmin, pohlmin-before, corner, edge, lookahead2, lookahead3, lookahead4, or a chain of distinct steps joined by '+' " +
	"whose last is random or first and whose others are pohl, roth, pohlmin, pohlmin-before, corner, edge or lookaheadK (e.g. roth+first, pohl+roth+random, corner+first, lookahead3+random)"

// ParseTieBreak parses a tie-break: a single name (random, first, pohl,
// roth) or a chain such as roth+first.
func ParseTieBreak(s string) (TieBreak, error) {
	parts := strings.Split(s, "+")
	cs := make([]criterion, len(parts))
	for i, p := range parts {
		c, ok := criterion(0), false
		for j, n := range critNames {
			if p == n {
				c, ok = criterion(j), true
			}
		}
		switch {
		case !ok && p == "":
			return 0, fmt.Errorf("tie-break %q: empty step; %s", s, tieHelp)
		case !ok:
			return 0, fmt.Errorf("tie-break %q: unknown tie-break %q; %s", s, p, tieHelp)
		case slices.Contains(cs[:i], c):
			return 0, fmt.Errorf("tie-break %q: %s appears twice; %s", s, p, tieHelp)
		case i < len(parts)-1 && (c == critRandom || c == critFirst):
			return 0, fmt.Errorf("tie-break %q: %s decides alone, so it must come last; %s", s, p, tieHelp)
		}
		cs[i] = c
	}
	if len(cs) > 1 && cs[len(cs)-1] != critRandom && cs[len(cs)-1] != critFirst {
		return 0, fmt.Errorf("tie-break %q: a chain must end in random or first; %s", s, tieHelp)
	}
	if len(cs) == 1 && (slices.Contains(refining, cs[0]) || slices.Contains(refiningLater, cs[0])) {
		cs = append(cs, critRandom) // the single names keep their meaning: pohlmin is pohlmin+random
	}
	t := intern(cs)
	if int(t) >= len(tieChains) && !slices.ContainsFunc(cs, func(c criterion) bool { return slices.Contains(refiningLater, c) }) {
		panic("sim: valid tie-break chain " + s + " missing from tieChains")
	}
	return t, nil
}

// TieScorer scores a tied square for the criteria of a tie-break chain,
// at a walk's current state and in the scorer's own square numbering
// (that of the tied squares given to TieBreak.Narrow). Every walk kernel
// implements it on its own representation of the walk, and so does
// package exact's enumerator on its visited sets: the chains are applied
// in one place (TieBreak.Narrow), whoever scores.
type TieScorer interface {
	// SecondDegree is Pohl's score: the sum of the degrees (unvisited
	// neighbour counts) of sq's unvisited neighbours.
	SecondDegree(sq int32) int
	// SecondDegreeMin is the minimum of those degrees, 0 where sq has no
	// unvisited neighbour.
	SecondDegreeMin(sq int32) int
	// CurDegree is the number of unvisited neighbours of the current
	// square: the candidates, and the current square's own degree counted
	// before it is marked.
	CurDegree() int
	// CentreDist2 is Roth's score: 4× the squared Euclidean distance of sq
	// from the board centre (Board.CentreDist2).
	CentreDist2(sq int32) int
	// MoveRank is the position in the rule's move order (Rule.OrderOn) of
	// the move from the current square to sq.
	MoveRank(sq int32) int
	// CornerDist2 and EdgeDist are the corner and edge criteria's scores
	// (Board.CornerDist2, Board.EdgeDist).
	CornerDist2(sq int32) int
	EdgeDist(sq int32) int
	// Lookahead is the lookahead criteria's score: how many moves, up to
	// k, Warnsdorff's rule makes from sq (sq visited, the walk's visited
	// squares as they are) before a dead end, ties within the continuation
	// going to the lowest square.
	Lookahead(sq int32, k int) int
}

// Narrow applies t's chain to tied, Warnsdorff's minimum-degree squares
// (at most 8, in ascending square order), as s scores them: it keeps the
// survivors at the front, in the same order, and returns how many
// survive: 1, or more when t ends in random and the caller draws among
// tied[:n] (uniformly, in that order). It is what every kernel applies at
// the one place it reduces its tied squares.
func (t TieBreak) Narrow(tied []int32, s TieScorer) int { return narrowTies(t.chain(), tied, s) }

// narrowTies applies chain to the tied squares (in ascending square
// order), keeping the survivors at the front in the same order, and
// returns how many survive: 1, or more when the chain ends in random and
// the kernel must draw among tied[:n].
func narrowTies(chain []criterion, tied []int32, s TieScorer) int {
	n := len(tied)
	for _, c := range chain {
		if n == 1 {
			break
		}
		n = narrow(c, tied[:n], s)
	}
	return n
}

// narrow reduces the tied squares (at most 8) by one criterion, in place
// and in order, and returns how many remain. random keeps them all: the
// draw is the kernel's, at the one place its stream is used.
func narrow(c criterion, tied []int32, s TieScorer) int {
	if c == critRandom {
		return len(tied)
	}
	// Scores first, then the minimum: a switch per square is cheaper than
	// a closure call, and this runs on every tie of a chain rule.
	var v [8]int
	best := int(^uint(0) >> 1)
	for i, sq := range tied {
		switch c {
		case critFirst:
			v[i] = s.MoveRank(sq)
		case critPohl:
			v[i] = s.SecondDegree(sq)
		case critPohlMin:
			v[i] = s.SecondDegreeMin(sq)
		case critPohlMinBefore:
			// Tied squares share their degree d: with d = 0 every score is
			// the same (0 here, k by the definition), else min(k, m).
			v[i] = min(s.CurDegree(), s.SecondDegreeMin(sq))
		case critRoth:
			v[i] = -s.CentreDist2(sq)
		case critCorner:
			v[i] = s.CornerDist2(sq)
		case critEdge:
			v[i] = s.EdgeDist(sq)
		case critLookahead2, critLookahead3, critLookahead4:
			v[i] = -s.Lookahead(sq, c.lookaheadDepth()) // the longest continuation
		default:
			panic(fmt.Sprintf("sim: unknown tie-break criterion %d", c))
		}
		best = min(best, v[i])
	}
	n := 0
	for i, sq := range tied {
		if v[i] == best {
			tied[n] = sq
			n++
		}
	}
	return n
}

// The kernels' scorers. Each kernel calls narrowTies at the one place it
// reduces its tied squares (breakTie; package exact's enumerator calls
// TieBreak.Narrow in its allowed).

// fastTies scores the fast kernel's tied squares (square indices) for its
// current step.
type fastTies struct {
	k       *fastKernel
	cur     int
	visited uint64
	rank    *[64][64]uint8 // rank[from][to]: position of the move in the rule's order; built on first use
}

func (f *fastTies) SecondDegree(sq int32) int {
	k, s := f.k, 0
	for u := k.nb[sq] &^ f.visited; u != 0; u &= u - 1 {
		s += bits.OnesCount64(k.nb[bits.TrailingZeros64(u)] &^ f.visited)
	}
	return s
}

func (f *fastTies) SecondDegreeMin(sq int32) int {
	k, m, any := f.k, 0, false
	for u := k.nb[sq] &^ f.visited; u != 0; u &= u - 1 {
		if d := bits.OnesCount64(k.nb[bits.TrailingZeros64(u)] &^ f.visited); !any || d < m {
			m, any = d, true
		}
	}
	return m
}

func (f *fastTies) CurDegree() int { return bits.OnesCount64(f.k.nb[f.cur] &^ f.visited) }

func (f *fastTies) CentreDist2(sq int32) int { return int(f.k.dist2[sq]) }

func (f *fastTies) CornerDist2(sq int32) int { return f.k.board.CornerDist2(int(sq)) }

func (f *fastTies) EdgeDist(sq int32) int { return f.k.board.EdgeDist(int(sq)) }

func (f *fastTies) Lookahead(sq int32, k int) int {
	nb := &f.k.nb
	vis, cur := f.visited|1<<uint(sq), int(sq)
	for moves := 0; ; moves++ {
		cand := nb[cur] &^ vis
		if moves == k || cand == 0 {
			return moves
		}
		best, bestDeg := -1, 9
		for ; cand != 0; cand &= cand - 1 { // ascending: the first of equal degree is the lowest
			t := bits.TrailingZeros64(cand)
			if d := bits.OnesCount64(nb[t] &^ vis &^ (1 << uint(t))); d < bestDeg {
				best, bestDeg = t, d
			}
		}
		vis |= 1 << uint(best)
		cur = best
	}
}

func (f *fastTies) MoveRank(sq int32) int {
	if f.rank == nil {
		f.rank = new([64][64]uint8)
		for from := range f.k.n {
			for i, mi := range f.k.order {
				if t := f.k.moveTo[from][mi]; t >= 0 {
					f.rank[from][t] = uint8(i)
				}
			}
		}
	}
	return int(f.rank[f.cur][sq])
}

// narrowTies applies the rule's chain to the tied squares of the mask tied
// and returns the survivors as a mask.
func (k *fastKernel) narrowTies(tied uint64, cur int, visited uint64) uint64 {
	chain := k.rule.TieBreak.chain()
	if len(chain) > 0 && chain[0] == critFirst {
		// The move order decides at once (every move from cur has its own
		// rank): the lowest rank among the tied squares, without scoring
		// them one by one through the chain (a fifth of the 40,320 orders
		// from every square of 8x8 went there).
		k.ties.cur = cur
		k.ties.MoveRank(0) // builds the ranks on first use
		r := &k.ties.rank[cur]
		best, bestRank := 0, uint8(255)
		for m := tied; m != 0; m &= m - 1 {
			if s := bits.TrailingZeros64(m); r[s] < bestRank {
				best, bestRank = s, r[s]
			}
		}
		return 1 << uint(best)
	}
	var sq [8]int32
	n := 0
	for m := tied; m != 0; m &= m - 1 {
		sq[n] = int32(bits.TrailingZeros64(m))
		n++
	}
	k.ties.cur, k.ties.visited = cur, visited
	n = narrowTies(chain, sq[:n], &k.ties)
	var out uint64
	for _, s := range sq[:n] {
		out |= 1 << s
	}
	return out
}

// The general kernel scores padded indices; its current square is the end
// of its path.

func (k *genKernel) SecondDegree(p int32) int { return k.neighbourDegreeSum(p) }

func (k *genKernel) SecondDegreeMin(p int32) int {
	m, any := 0, false
	for _, off := range k.off {
		if v := k.st[int(p)+off]; v < visitedBit && (!any || int(v) < m) {
			m, any = int(v), true
		}
	}
	return m
}

func (k *genKernel) CurDegree() int {
	cur, d := int(k.path[len(k.path)-1]), 0
	for _, off := range k.off {
		if k.st[cur+off] < visitedBit {
			d++
		}
	}
	return d
}

func (k *genKernel) CentreDist2(p int32) int { return k.b.CentreDist2(k.unpad(p)) }

func (k *genKernel) CornerDist2(p int32) int { return k.b.CornerDist2(k.unpad(p)) }

func (k *genKernel) EdgeDist(p int32) int { return k.b.EdgeDist(k.unpad(p)) }

func (k *genKernel) Lookahead(p int32, depth int) int {
	var scratch [5]int // sq and the continuation's squares (k ≤ 4), visited for it alone
	ns := 0
	free := func(q int) bool {
		if k.st[q] >= visitedBit {
			return false
		}
		for _, s := range scratch[:ns] {
			if s == q {
				return false
			}
		}
		return true
	}
	cur := int(p)
	scratch[0], ns = cur, 1
	for moves := 0; ; moves++ {
		if moves == depth {
			return moves
		}
		best, bestDeg := -1, 9
		for _, o := range k.off { // ascending padded index: ascending square
			t := cur + o
			if !free(t) {
				continue
			}
			d := 0
			for _, o2 := range k.off {
				if free(t + o2) {
					d++
				}
			}
			if d < bestDeg {
				best, bestDeg = t, d
			}
		}
		if best < 0 {
			return moves
		}
		scratch[ns] = best
		ns++
		cur = best
	}
}

func (k *genKernel) MoveRank(p int32) int {
	cur := k.path[len(k.path)-1]
	for i, off := range k.off {
		if int(cur)+off == int(p) {
			return int(k.rank[i])
		}
	}
	panic("sim: tied square is not a move from the current square")
}
