package sim

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// ExactMaxSquares is the largest board ExactWalk handles: the visited set
// must fit in two words.
const ExactMaxSquares = 128

// DefaultExactBudget bounds the states ExactWalk expands when no budget is
// given.
const DefaultExactBudget = 50_000_000

// Exact holds the exact distribution of one walk rule's outcome from one
// start square, found by following every branch a walk can take, weighted
// by its probability.
type Exact struct {
	Start      int
	PSuccess   float64   // P(every square visited)
	PClosed    float64   // P(success and the last square a knight's move from the start)
	PStopped   float64   // P(cut by MaxSteps)
	MeanLength float64   // E[path length], start included
	MeanTies   float64   // E[tie decisions]
	Lengths    []float64 // Lengths[L] = P(path length L), L = 0..squares
	DeadEnds   []float64 // DeadEnds[s] = P(the walk fails at a dead end on s)

	// Nodes counts the distinct (visited set, current square) states
	// expanded: walks that reach the same state are merged (memoisation).
	Nodes int64
	// TreeNodes counts the nodes of the unmerged branch tree, i.e. what a
	// plain recursive enumeration would visit.
	TreeNodes float64
}

// ErrBudget is wrapped by the error ExactWalk returns when it would expand
// more states than its budget allows.
var ErrBudget = fmt.Errorf("node budget exceeded")

// ExactWalk enumerates every branch of rule r's walk from start on b (at
// most ExactMaxSquares squares): each draw among m squares splits the walk
// into m branches of probability 1/m, deterministic tie-breaks do not split.
// The search runs layer by layer (one layer per path length), merging
// branches that reach the same visited set and current square; the layers
// are processed in a fixed order, so the floating-point sums, and the
// result, are the same on every run. budget bounds the states expanded
// (0: DefaultExactBudget); going over it returns an error wrapping
// ErrBudget.
func ExactWalk(ctx context.Context, b *Board, r Rule, start int, budget int64) (Exact, error) {
	n := b.Squares()
	if err := r.Validate(); err != nil {
		return Exact{}, err
	}
	if r.Kind == Backtrack {
		return Exact{}, fmt.Errorf("exact: rule %s is a search, not a random walk; exact enumeration covers random and warnsdorff", r.Name())
	}
	if n > ExactMaxSquares {
		return Exact{}, fmt.Errorf("exact: board %s has %d squares; exact enumeration handles at most %d", b, n, ExactMaxSquares)
	}
	if start < 0 || start >= n {
		return Exact{}, fmt.Errorf("exact: start square %d off the %s board", start, b)
	}
	if budget <= 0 {
		budget = DefaultExactBudget
	}
	e := newEnumerator(b, r)
	res := Exact{Start: start, Lengths: make([]float64, n+1), DeadEnds: make([]float64, n)}
	layer := []exactState{{set: bitset{}.with(start), cur: uint8(start), p: 1, paths: 1}}
	index := map[bitsetKey]int{}
	var next []exactState
	for depth := 1; len(layer) > 0; depth++ {
		if err := ctx.Err(); err != nil {
			return Exact{}, err
		}
		if res.Nodes += int64(len(layer)); res.Nodes > budget {
			return Exact{}, fmt.Errorf("exact: %s %s from %s: more than %d states at path length %d: %w (raise the budget or pick a smaller board)",
				b, r.Name(), b.SquareName(start), budget, depth, ErrBudget)
		}
		clear(index)
		next = next[:0]
		for i := range layer {
			s := &layer[i]
			res.TreeNodes += s.paths
			allowed, ties := e.allowed(s.set, int(s.cur))
			if ties {
				res.MeanTies += s.p
			}
			m := allowed.count()
			if m == 0 || depth-1 >= e.maxSteps {
				res.Lengths[depth] += s.p
				res.MeanLength += s.p * float64(depth)
				switch {
				case depth == n:
					res.PSuccess += s.p
					if n > 1 && b.Adjacent(start, int(s.cur)) {
						res.PClosed += s.p
					}
				case m > 0:
					res.PStopped += s.p
				default:
					res.DeadEnds[s.cur] += s.p
				}
				continue
			}
			q := s.p / float64(m)
			for a := allowed; !a.empty(); {
				c := a.pop()
				ns := exactState{set: s.set.with(c), cur: uint8(c)}
				k := bitsetKey{ns.set, ns.cur}
				j, ok := index[k]
				if !ok {
					j = len(next)
					index[k] = j
					next = append(next, ns)
				}
				next[j].p += q
				next[j].paths += s.paths
			}
		}
		// A fixed order for the next layer keeps the sums reproducible.
		slices.SortFunc(next, func(x, y exactState) int {
			if c := x.set.compare(y.set); c != 0 {
				return c
			}
			return int(x.cur) - int(y.cur)
		})
		layer, next = next, layer
	}
	return res, nil
}

type exactState struct {
	set      bitset
	cur      uint8
	p, paths float64
}

type bitsetKey struct {
	set bitset
	cur uint8
}

// bitset is a set of up to 128 squares.
type bitset [2]uint64

func (s bitset) with(sq int) bitset { s[sq>>6] |= 1 << (sq & 63); return s }
func (s bitset) and(t bitset) bitset {
	return bitset{s[0] & t[0], s[1] & t[1]}
}
func (s bitset) andNot(t bitset) bitset { return bitset{s[0] &^ t[0], s[1] &^ t[1]} }
func (s bitset) count() int             { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }
func (s bitset) empty() bool            { return s[0]|s[1] == 0 }

// pop removes and returns the lowest square.
func (s *bitset) pop() int {
	if s[0] != 0 {
		i := bits.TrailingZeros64(s[0])
		s[0] &= s[0] - 1
		return i
	}
	i := bits.TrailingZeros64(s[1])
	s[1] &= s[1] - 1
	return 64 + i
}

func (s bitset) compare(t bitset) int {
	for i := 1; i >= 0; i-- {
		if s[i] != t[i] {
			if s[i] < t[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// enumerator decides, for a state, which squares a walk may move to next
// with equal probability, following the same rules as the kernels.
type enumerator struct {
	rule     Rule
	maxSteps int
	nb       []bitset
	moveTo   [][8]int
	order    [8]int
	dist2    []int

	cur     int    // the state being expanded, for the tie scores
	visited bitset // (tiebreak.go)
}

func newEnumerator(b *Board, r Rule) *enumerator {
	n := b.Squares()
	e := &enumerator{rule: r, maxSteps: r.MaxSteps, nb: make([]bitset, n), moveTo: make([][8]int, n), dist2: make([]int, n)}
	if e.maxSteps == 0 || e.maxSteps > n {
		e.maxSteps = n
	}
	for sq := 0; sq < n; sq++ {
		row, col := b.RowCol(sq)
		for i, m := range CanonicalMoves {
			e.moveTo[sq][i] = -1
			if b.On(row+m.DR, col+m.DC) {
				t := b.Square(row+m.DR, col+m.DC)
				e.nb[sq] = e.nb[sq].with(t)
				e.moveTo[sq][i] = t
			}
		}
		e.dist2[sq] = b.CentreDist2(sq)
	}
	for i, m := range r.order() {
		e.order[i] = moveIndex(m)
	}
	return e
}

// allowed returns the squares the walk picks among uniformly, and whether
// the step is a tie decision (more than one square allowed by the rule's
// primary criterion).
func (e *enumerator) allowed(visited bitset, cur int) (bitset, bool) {
	cand := e.nb[cur].andNot(visited)
	if e.rule.Kind == RandomWalk || cand.count() <= 1 {
		return cand, cand.count() > 1
	}
	deg := func(sq int) int { return e.nb[sq].andNot(visited).count() }
	tied := keepMinScore(cand, deg)
	if tied.count() == 1 {
		return tied, false
	}
	var sq [8]int32
	n := 0
	for t := tied; !t.empty(); n++ {
		sq[n] = int32(t.pop())
	}
	e.cur, e.visited = cur, visited
	tied = bitset{}
	for _, s := range sq[:narrowTies(e.rule.TieBreak.chain(), sq[:n], e)] {
		tied = tied.with(int(s))
	}
	return tied, true
}

// keepMinScore returns the members of set with the smallest score.
func keepMinScore(set bitset, score func(int) int) bitset {
	var keep bitset
	best := int(^uint(0) >> 1)
	for s := set; !s.empty(); {
		c := s.pop()
		v := score(c)
		if v < best {
			best, keep = v, bitset{}
		}
		if v == best {
			keep = keep.with(c)
		}
	}
	return keep
}
