package sim

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// Backtracking ordered by a rule of your own (docs/design.md, "Backtracking
// ordered by a rule of your own"): rule backtrack/NAME is the depth-first
// search of backtrack whose candidates at each square are tried in the
// order the registered rule NAME gives them. Its policy's allowed squares
// come first, then the other unvisited neighbours in Warnsdorff order
// (ascending degree). With tie-break first each group is in the rule's move
// order (the allowed squares) or by (degree, move order) (the others); with
// tie-break random each group is shuffled from the walk's stream (the
// allowed squares in ascending square order before the shuffle, the others
// then sorted stably by degree), as backtrack shuffles its candidates.
// A policy that is Warnsdorff's rule with the first tie-break so orders
// the search exactly as the built-in backtrack (TestPolicyBacktrackIsBacktrack).

// newSearchKernel makes the policy kernel of backtrack/NAME.
func newSearchKernel(b *Board, r Rule) (*policyKernel, error) {
	k, err := newPolicyKernel(b, r)
	if err != nil {
		return nil, err
	}
	if k.g.state != nil {
		return nil, fmt.Errorf("rule %s: %s keeps state along its walk, which a search cannot undo when it backs up; order the search by a rule without state", r.Name(), r.Custom)
	}
	n := b.Squares()
	k.cands = make([]int32, 8*n)
	k.next = make([]uint8, n)
	k.ncand = make([]uint8, n)
	for i, m := range r.orderOn(b) {
		k.rank[(m.DR+2)*5+m.DC+2] = uint8(i)
	}
	return k, nil
}

// search runs backtrack/NAME from start: the same search, outcome and
// budget as genKernel.backtrack, with candidates from fillPolicy.
func (k *policyKernel) search(start int, src *PCG, keep bool) Outcome {
	k.stopped = false
	n := k.b.Squares()
	budget := k.rule.NodeBudget
	if budget == 0 {
		budget = DefaultNodeBudget
	}
	o := Outcome{Start: start, Nodes: 1}
	if k.err != nil {
		return o
	}
	p := k.pos
	p.reset(start)
	k.path = append(k.path[:0], int32(start))
	if !k.fillPolicy(0, src, &o) {
		return o
	}
	bestLen, bestEnd := 1, start
	for {
		d := len(k.path) - 1
		cur := int(k.path[d])
		if len(k.path) == n && (!k.rule.Closed || n == 1 || k.b.Adjacent(start, cur)) {
			o.Success = true
			break
		}
		if k.next[d] < k.ncand[d] {
			if o.Nodes >= budget {
				o.BudgetExceeded = true
				break
			}
			if o.Nodes%stopCheck == 0 && k.stop != nil && k.stop.Load() {
				k.stopped = true
				break
			}
			c := int(k.cands[8*d+int(k.next[d])])
			k.next[d]++
			p.move(c)
			k.path = append(k.path, int32(c))
			o.Nodes++
			if len(k.path) > bestLen {
				bestLen, bestEnd = len(k.path), c
			}
			if !k.fillPolicy(d+1, src, &o) {
				return Outcome{Start: start}
			}
			continue
		}
		if d == 0 {
			break
		}
		p.undo(int(k.path[d-1]))
		k.path = k.path[:d]
		o.Backtracks++
	}
	if o.Success {
		o.Length = n
		o.End = int(k.path[n-1])
		o.Closed = n > 1 && k.b.Adjacent(start, o.End)
		if keep {
			o.Path = append([]int32(nil), k.path...)
		}
	} else {
		o.Length, o.End = bestLen, bestEnd
	}
	return o
}

// fillPolicy lists the squares to try from the current square at depth d,
// best first; false when the policy gave an answer no walk may take
// (k.err is set).
func (k *policyKernel) fillPolicy(d int, src *PCG, o *Outcome) bool {
	p := k.pos
	k.next[d], k.ncand[d] = 0, 0
	if k.rule.Closed && len(k.path) < k.b.Squares() && p.Degree(p.start) == 0 {
		return true // the start has no unvisited neighbour left: the tour cannot close
	}
	var err error
	if k.buf, err = k.g.allowed(p, k.buf[:0]); err != nil {
		k.err = err
		return false
	}
	allowed := k.buf
	if k.g.tied(len(allowed)) { // as a walk counts its ties
		o.Ties++
	}
	k.rest = p.Moves(p.cur, k.rest[:0])
	k.rest = slices.DeleteFunc(k.rest, func(sq int) bool { _, in := slices.BinarySearch(allowed, sq); return in })
	cr, cc := k.b.RowCol(p.cur)
	rank := func(sq int) uint8 {
		r, c := k.b.RowCol(sq)
		return k.rank[(r-cr+2)*5+c-cc+2]
	}
	random := k.rule.TieBreak == TieRandom
	if random {
		shuffle(allowed, src)
		shuffle(k.rest, src)
		slices.SortStableFunc(k.rest, func(a, b int) int { return p.Degree(a) - p.Degree(b) })
	} else {
		slices.SortFunc(allowed, func(a, b int) int { return int(rank(a)) - int(rank(b)) })
		slices.SortFunc(k.rest, func(a, b int) int {
			if da, db := p.Degree(a), p.Degree(b); da != db {
				return da - db
			}
			return int(rank(a)) - int(rank(b))
		})
	}
	c := k.cands[8*d : 8*d+8]
	m := 0
	for _, sq := range allowed {
		c[m] = int32(sq)
		m++
	}
	for _, sq := range k.rest {
		c[m] = int32(sq)
		m++
	}
	k.ncand[d] = uint8(m)
	return true
}

// shuffle permutes s from src as backtrack shuffles its candidates: for i
// from the last down to 1, swap s[i] with s[Uniform(i+1)].
func shuffle(s []int, src *PCG) {
	for i := len(s) - 1; i > 0; i-- {
		j := int(Uniform(src, uint32(i+1)))
		s[i], s[j] = s[j], s[i]
	}
}

// searchState is the scratch state of backtrack/NAME in a policyKernel.
type searchState struct {
	cands       []int32
	next, ncand []uint8
	rest        []int
	rank        [25]uint8 // a move's place in the move order, by (dr+2)*5 + dc+2
	stop        *atomic.Bool
	stopped     bool
}
