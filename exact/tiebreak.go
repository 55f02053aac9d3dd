package exact

import "github.com/knightwalk/knightwalk/sim"

// The enumerator is a sim.TieScorer: it scores square indices for the state
// it is expanding (e.cur, e.visited), on its visited sets, for the
// tie-break chains that sim.TieBreak.Narrow applies (enumerator.allowed).

func (e *enumerator[W]) SecondDegree(sq int32) int {
	s := 0
	for u := e.nb[sq].andNot(e.visited); !u.empty(); {
		s += e.nb[u.pop()].andNot(e.visited).count()
	}
	return s
}

func (e *enumerator[W]) SecondDegreeMin(sq int32) int {
	m, any := 0, false
	for u := e.nb[sq].andNot(e.visited); !u.empty(); {
		if d := e.nb[u.pop()].andNot(e.visited).count(); !any || d < m {
			m, any = d, true
		}
	}
	return m
}

func (e *enumerator[W]) CurDegree() int { return e.nb[e.cur].andNot(e.visited).count() }

func (e *enumerator[W]) CentreDist2(sq int32) int { return e.dist2[sq] }

func (e *enumerator[W]) CornerDist2(sq int32) int { return e.board.CornerDist2(int(sq)) }

func (e *enumerator[W]) EdgeDist(sq int32) int { return e.board.EdgeDist(int(sq)) }

func (e *enumerator[W]) Lookahead(sq int32, k int) int {
	vis, cur := e.visited.with(int(sq)), int(sq)
	for moves := 0; ; moves++ {
		cand := e.nb[cur].andNot(vis)
		if moves == k || cand.empty() {
			return moves
		}
		best, bestDeg := -1, 9
		for !cand.empty() {
			t := cand.pop() // ascending
			if d := e.nb[t].andNot(vis.with(t)).count(); d < bestDeg {
				best, bestDeg = t, d
			}
		}
		vis = vis.with(best)
		cur = best
	}
}

func (e *enumerator[W]) MoveRank(sq int32) int {
	for i, mi := range e.order {
		if e.moveTo[e.cur][mi] == int(sq) {
			return i
		}
	}
	panic("exact: tied square is not a move from the current square")
}

var _ sim.TieScorer = (*enumerator[words128])(nil)
