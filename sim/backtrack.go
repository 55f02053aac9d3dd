package sim

// backtrack is a depth-first search for a tour that tries the unvisited
// neighbours of each square in Warnsdorff order (ascending degree; equal
// degrees in the rule's move order for TieFirst, in an order shuffled from
// the walk's stream for TieRandom), undoing moves at dead ends, until it
// finds a tour (closed when the rule asks for one) or has entered
// NodeBudget squares.
// stopCheck is how many nodes a search expands between looks at its stop
// flag: a few milliseconds.
const stopCheck = 1 << 16

func (k *genKernel) backtrack(start int, src *PCG, keep bool) Outcome {
	k.stopped = false
	n := k.b.Squares()
	budget := k.rule.NodeBudget
	if budget == 0 {
		budget = DefaultNodeBudget
	}
	o := Outcome{Start: start, Nodes: 1}
	sp := k.pad(start)
	k.visit(sp, true)
	k.fill(0, sp, src, &o)
	bestLen, bestEnd := 1, sp
	for {
		d := len(k.path) - 1
		cur := int(k.path[d])
		if len(k.path) == n && (!k.rule.Closed || n == 1 || k.b.Adjacent(start, k.unpad(int32(cur)))) {
			o.Success = true
			break
		}
		if k.next[d] < k.ncand[d] {
			if o.Nodes >= budget {
				o.BudgetExceeded = true
				break
			}
			if o.Nodes%stopCheck == 0 && k.stop != nil && k.stop.Load() {
				k.stopped = true // a search of minutes must heed Ctrl-C
				break
			}
			c := int(k.cands[8*d+int(k.next[d])])
			k.next[d]++
			k.visit(c, true)
			o.Nodes++
			if len(k.path) > bestLen {
				bestLen, bestEnd = len(k.path), c
			}
			k.fill(d+1, c, src, &o)
			continue
		}
		if d == 0 {
			break // every branch tried
		}
		k.st[cur] &^= visitedBit
		for _, off := range k.off {
			k.st[cur+off]++
		}
		k.path = k.path[:d]
		o.Backtracks++
	}
	if o.Success {
		o.Length = n
		o.End = k.unpad(k.path[n-1])
		o.Closed = n > 1 && k.b.Adjacent(start, o.End)
		if keep {
			o.Path = k.realPath()
		}
	} else {
		o.Length, o.End = bestLen, k.unpad(int32(bestEnd))
	}
	k.reset(true)
	return o
}

// fill lists the moves to try from p at depth d, best first.
func (k *genKernel) fill(d, p int, src *PCG, o *Outcome) {
	k.next[d] = 0
	k.ncand[d] = 0
	st := k.st
	if k.rule.Closed && len(k.path) < k.b.Squares() && st[k.path[0]]&^visitedBit == 0 {
		return // the start has no unvisited neighbour left: the tour cannot close
	}
	c := k.cands[8*d : 8*d+8]
	var deg, rank [8]uint8
	m := 0
	for i, off := range k.off {
		if s := st[p+off]; s < visitedBit {
			c[m], deg[m], rank[m] = int32(p+off), s, k.rank[i]
			m++
		}
	}
	if k.rule.TieBreak == TieRandom {
		for i := m - 1; i > 0; i-- {
			j := int(Uniform(src, uint32(i+1)))
			c[i], c[j] = c[j], c[i]
			deg[i], deg[j] = deg[j], deg[i]
		}
		rank = [8]uint8{0, 1, 2, 3, 4, 5, 6, 7}
	}
	// Insertion sort by (degree, rank): at most 8 items.
	for i := 1; i < m; i++ {
		for j := i; j > 0 && (deg[j] < deg[j-1] || deg[j] == deg[j-1] && rank[j] < rank[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
			deg[j], deg[j-1] = deg[j-1], deg[j]
			rank[j], rank[j-1] = rank[j-1], rank[j]
		}
	}
	if m > 1 && deg[0] == deg[1] {
		o.Ties++
	}
	k.ncand[d] = uint8(m)
}
