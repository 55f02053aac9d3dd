package count

import (
	"fmt"
	"math"

	"github.com/knightwalk/knightwalk/sim"
)

// Sampled counts: sequential importance sampling of knight's tours.
//
// Knuth (1975, "Estimating the efficiency of backtrack programs", Math.
// Comp. 29) observed that a random path drawn step by step, where step i
// picks one of its options with probability q_i, gives the unbiased
// estimate Π 1/q_i of the number of leaves of the tree it walks: summed
// over every path, probability times weight is one per path. Counting
// tours, the weight is kept for a walk that ends in a tour and set to 0
// otherwise, so the mean weight is an unbiased estimate of the number of
// tours. Cancela & Mordecki ("Counting knight's tours through the
// randomized Warnsdorff rule", 2015) drew the steps by a randomized
// Warnsdorff rule; here a step draws among its options with probability
// proportional to exp(-β·degree), β = 0 being Knuth's uniform walk. Every
// option keeps a positive probability, which is what keeps the estimate
// unbiased (an option of probability 0 would drop its tours).
//
// Pruning removes an option only when no tour can continue through it,
// so it too keeps the estimate unbiased while moving the probability onto
// paths that can complete. The rules (sound for Hamiltonian paths in any
// graph): after the move, every unvisited square needs a way in, so it
// must have an unvisited neighbour or be next to the current square; a
// square with exactly one such link must be the path's last square, so at
// most one may exist (none but the fixed end, for closed tours); and the
// new current square needs an unvisited neighbour unless it is the last.
// The knight's graph is bipartite, so a move c→m changes these links only
// for c's other unvisited neighbours, which is what makes the check O(8).

// Proposal is how a sampled walk draws each step among the moves its
// pruning keeps: probability proportional to exp(-Beta·degree), the degree
// being Warnsdorff's (the candidate's unvisited neighbours).
type Proposal struct {
	Beta float64
}

// Name is the proposal as the tables write it: "uniform" (Knuth's walk)
// or "softmin(beta=B)" (a softened Warnsdorff rule).
func (p Proposal) Name() string {
	if p.Beta == 0 {
		return "uniform"
	}
	return fmt.Sprintf("softmin(beta=%g)", p.Beta)
}

// ParseProposal reads "uniform", "softmin" (the default β) or
// "softmin:B".
func ParseProposal(s string) (Proposal, error) {
	switch s {
	case "uniform", "knuth":
		return Proposal{}, nil
	case "softmin", "warnsdorff":
		return DefaultProposal, nil
	}
	var b float64
	for _, pre := range []string{"softmin:", "warnsdorff:"} {
		if len(s) > len(pre) && s[:len(pre)] == pre {
			if _, err := fmt.Sscan(s[len(pre):], &b); err != nil || !(b >= 0) || b > 20 || math.IsInf(b, 0) {
				return Proposal{}, fmt.Errorf("proposal %q: want %sB with B from 0 to 20", s, pre)
			}
			return Proposal{Beta: b}, nil
		}
	}
	return Proposal{}, fmt.Errorf("proposal %q: valid proposals are uniform, softmin, softmin:B (B from 0 to 20)", s)
}

// DefaultProposal is softmin with β = 0.3; docs/counting.md has the
// measured relative variance per CPU-second that chose it.
var DefaultProposal = Proposal{Beta: 0.3}

// DefaultTail is how many squares at the end of a walk are counted
// exactly by default (docs/counting.md: the measurements that chose it).
const DefaultTail = 20

// walker draws sampled walks on one board. Its arrays are padded by two
// squares on every side, so a move off the board lands on a square marked
// visited.
type walker struct {
	b          *sim.Board
	n, w       int // squares, padded width
	off        [8]int
	pos        []int32 // padded index of each square
	deg0, deg  []int8
	vis0, vis  []bool
	pw         [9]float64 // exp(-β·d)
	end        int        // closed: padded index of the fixed last square, else -1
	first      int        // closed: padded index of the fixed second square
	closedFrom int        // closed: the start square (a square of degree 2)
	tail       int        // count the completions exactly once this few squares are left
}

func newWalker(b *sim.Board, p Proposal) *walker {
	w := b.Cols + 4
	h := b.Rows + 4
	k := &walker{b: b, n: b.Squares(), w: w, end: -1, first: -1, closedFrom: -1}
	k.deg0 = make([]int8, w*h)
	k.vis0 = make([]bool, w*h)
	k.deg = make([]int8, w*h)
	k.vis = make([]bool, w*h)
	for i := range k.vis0 {
		k.vis0[i] = true
	}
	moves := [8][2]int{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}
	for i, m := range moves {
		k.off[i] = m[0]*w + m[1]
	}
	k.pos = make([]int32, k.n)
	for s := range k.n {
		r, c := b.RowCol(s)
		p := (r+2)*w + c + 2
		k.pos[s] = int32(p)
		k.vis0[p] = false
		k.deg0[p] = int8(b.Degree(s))
	}
	for d := range k.pw {
		k.pw[d] = math.Exp(-p.Beta * float64(d))
	}
	return k
}

// setClosed fixes a closed walk's start (a square of degree 2), its second
// square and its last (the start's two neighbours), so that every cycle is
// one path and the mean weight estimates the cycles. It reports false when
// the board has no square of degree 2 (then it has no cycle unless every
// square has degree at least 3, which no rectangle has).
func (k *walker) setClosed() bool {
	for s := range k.n {
		if k.b.Degree(s) == 2 {
			nb := k.b.Neighbours(nil, s)
			k.closedFrom, k.first, k.end = s, int(k.pos[nb[0]]), int(k.pos[nb[1]])
			return true
		}
	}
	return false
}

// reset lays out a fresh board with start visited and returns the current
// square, the squares left, and the number of unvisited squares (the
// fixed end aside) with exactly one link; ok is false when some square
// has none.
func (k *walker) reset(start int) (cur, left, ones int, ok bool) {
	copy(k.deg, k.deg0)
	copy(k.vis, k.vis0)
	cur = int(k.pos[start])
	k.visit(cur)
	left = k.n - 1
	if k.first >= 0 {
		cur = k.first
		k.visit(cur)
		left--
	}
	if left == 0 {
		return cur, 0, 0, true
	}
	for _, p := range k.pos {
		if k.vis[p] {
			continue
		}
		links := int(k.deg[p])
		if k.adjacent(int(p), cur) {
			links++
		}
		switch {
		case links == 0:
			return cur, left, ones, false
		case links == 1 && p != int32(k.end):
			ones++
		}
	}
	return cur, left, ones, true
}

func (k *walker) adjacent(p, q int) bool {
	for _, o := range k.off {
		if p+o == q {
			return true
		}
	}
	return false
}

func (k *walker) visit(p int) {
	k.vis[p] = true
	for _, o := range k.off {
		k.deg[p+o]--
	}
}

// options lists the moves from cur that can still lead to a tour, with
// their proposal weights and their total; K is the count of cur's
// unvisited neighbours left with one link (the fixed end aside), which a
// move adds to ones (less the move itself when it is one of them). done
// reports that the one square left is next to cur, so the walk ends in a
// tour there; na == 0 without done means no tour continues.
func (k *walker) options(cur, left, ones int, cand *[8]int, cd *[8]int8) (na, K int, sum float64, done bool) {
	nc, Z := 0, 0
	for _, o := range k.off {
		u := cur + o
		if k.vis[u] {
			continue
		}
		d := k.deg[u]
		cand[nc], cd[nc] = u, d
		nc++
		if d == 0 {
			Z++
		} else if d == 1 && u != k.end {
			K++
		}
	}
	if nc == 0 {
		return 0, 0, 0, false
	}
	if left == 1 {
		return 1, 0, 1, true // the one square left is next to cur
	}
	if Z > 0 {
		return 0, 0, 0, false // a neighbour of cur is cut off whatever the move
	}
	limit := 1 // open: one square may be the last
	if k.end >= 0 {
		limit = 0 // closed: only the fixed end
	}
	for i := range nc {
		d, m := cd[i], cand[i]
		if m == k.end {
			continue // the fixed end comes last
		}
		o := ones + K
		if d == 1 {
			o--
		}
		if o > limit {
			continue
		}
		cand[na], cd[na] = m, d
		sum += k.pw[d]
		na++
	}
	return na, K, sum, false
}

// walk draws one walk from start with rng and returns its weight: the
// inverse of its probability if it ends in a tour (closed: at the fixed
// end), else 0.
func (k *walker) walk(start int, rng *sim.PCG) float64 {
	cur, left, ones, ok := k.reset(start)
	if !ok {
		return 0
	}
	if left == 0 {
		return 1
	}
	weight := 1.0
	var cand [8]int
	var cd [8]int8
	for ; ; left-- {
		if left <= k.tail {
			return weight * k.complete(cur, left, ones)
		}
		na, K, sum, done := k.options(cur, left, ones, &cand, &cd)
		if done {
			return weight
		}
		var pick int
		switch na {
		case 0:
			return 0
		case 1:
		default:
			x := float64(rng.Uint64()>>11) * 0x1p-53 * sum
			pick = na - 1
			for i := range na - 1 {
				x -= k.pw[cd[i]]
				if x < 0 {
					pick = i
					break
				}
			}
			weight *= sum / k.pw[cd[pick]]
		}
		ones += K
		if cd[pick] == 1 {
			ones--
		}
		cur = cand[pick]
		k.visit(cur)
	}
}

// complete counts the ways to finish the tour from cur with left squares
// to visit, by depth-first search with the same pruning as the walk, and
// leaves the walker as it found it. Knuth's estimator stays unbiased when
// a subtree's leaves are counted instead of sampled, and the walk's end,
// where most walks die, no longer adds variance.
func (k *walker) complete(cur, left, ones int) float64 {
	var cand [8]int
	var cd [8]int8
	na, K, _, done := k.options(cur, left, ones, &cand, &cd)
	if done {
		return 1
	}
	var n float64
	for i := range na {
		m := cand[i]
		o := ones + K
		if cd[i] == 1 {
			o--
		}
		k.visit(m)
		n += k.complete(m, left-1, o)
		k.unvisit(m)
	}
	return n
}

func (k *walker) unvisit(p int) {
	k.vis[p] = false
	for _, o := range k.off {
		k.deg[p+o]++
	}
}
