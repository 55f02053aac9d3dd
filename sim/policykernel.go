package sim

// policyKernel walks any rule through its Policy: the kernel of the rules
// of your own, and for the built-ins the reference that their fast kernels
// are checked against (NewPolicyWalker).
type policyKernel struct {
	b           *Board
	rule        Rule
	g           *guard // every call into the policy goes through it
	maxSteps    int
	pos         *Position
	path        []int32
	buf         []int
	err         error        // the first RuleError; every walk after it is refused
	lanes       *laneKernel  // a LanePolicy on at most 64 squares: WalkRange runs walkLanes
	check       *replayCheck // a rule of your own: a sample of its walks replayed (replaycheck.go)
	searchState              // backtrack/NAME only (newSearchKernel)
}

func newPolicyKernel(b *Board, r Rule) (*policyKernel, error) {
	var g *guard
	var err error
	if r.Custom != "" {
		g, err = newGuard(b, r)
	} else {
		g, err = builtinGuard(b, r)
	}
	if err != nil {
		return nil, err
	}
	k := &policyKernel{b: b, rule: r, g: g, maxSteps: r.MaxSteps, pos: newPosition(b)}
	if k.maxSteps == 0 || k.maxSteps > b.Squares() {
		k.maxSteps = b.Squares()
	}
	k.check = newReplayCheck(k)
	if lp, ok := g.pol.(LanePolicy); ok && r.Kind == Custom && g.w != nil && g.state == nil && b.Squares() <= 64 {
		k.lanes = newLaneKernel(b, lp, k.maxSteps)
		k.lanes.rc = k.check
	}
	return k, nil
}

// step takes one step of the walk in k.pos, drawing from src exactly as
// the kernels do: once, among the allowed squares in ascending order, when
// there are two or more. It returns the square moved to, or -1 when the
// walk ends here (stopped: cut by MaxSteps with moves left); tie says the
// step was a tie decision (Outcome.Ties). A policy's answer that no walk
// may take ends the walk and sets k.err.
func (k *policyKernel) step(src *PCG) (next int, tie, stopped bool) {
	p := k.pos
	var err error
	if k.buf, err = k.g.allowed(p, k.buf[:0]); err != nil {
		k.err = err
		return -1, false, false
	}
	m := len(k.buf)
	if m == 0 {
		return -1, false, false
	}
	if p.count > k.maxSteps {
		return -1, false, true
	}
	tie = k.g.tied(m)
	next = k.buf[0]
	if m > 1 {
		next = k.buf[Uniform(src, uint32(m))]
	}
	p.move(next)
	if err := k.g.moved(p, next); err != nil {
		k.err = err
		return -1, false, false
	}
	return next, tie, false
}

// walk runs one walk from start; after a RuleError the outcome is no
// result.
func (k *policyKernel) walk(start int, src *PCG, keep bool) Outcome {
	if k.rule.Kind == Backtrack {
		return k.search(start, src, keep)
	}
	o := Outcome{Start: start}
	if k.err != nil {
		return o
	}
	k.pos.reset(start)
	path := k.pos.trail // a walk's path is its position's trail: it never backs up
	if k.g.w != nil {
		o.Ties, o.Stopped = k.walkGuarded(src)
		path = k.pos.trail
	} else {
		k.path = append(k.path[:0], int32(start))
		o.Ties, o.Stopped = k.walkSteps(src)
		path = k.path
	}
	o.Length = len(path)
	o.End = k.pos.cur
	o.Success = o.Length == k.b.Squares()
	o.Closed = o.Success && o.Length > 1 && k.b.Adjacent(start, o.End)
	if keep {
		o.Path = append([]int32(nil), path...)
	}
	return o
}

// walkSteps is the walk of a built-in rule's reference policy, trusted:
// step by step.
func (k *policyKernel) walkSteps(src *PCG) (ties int, stopped bool) {
	if k.err = k.g.begin(k.pos); k.err != nil {
		return 0, false
	}
	for {
		next, tie, stop := k.step(src)
		if next < 0 {
			return ties, stop
		}
		if tie {
			ties++
		}
		k.path = append(k.path, int32(next))
	}
}

// walkGuarded is the walk of a rule of your own, behind the guard for the
// whole walk at once: the call watch marks the walk in progress and each
// call by one release store (guard.walkCall), a panic in any call is
// recovered here (once a walk, not once a call), and every answer is
// checked as step checks it.
func (k *policyKernel) walkGuarded(src *PCG) (ties int, stopped bool) {
	g, p := k.g, k.pos
	g.walkBegin(p)
	defer func() {
		g.walkEnd()
		if v := recover(); v != nil {
			k.err = g.recovered(g.method, p, v)
			ties, stopped = 0, false
		}
	}()
	if g.state != nil {
		g.walkCall(callBegin, p)
		g.state.Begin(p)
	}
	for {
		g.walkCall(callAllowed, p)
		buf := g.pol.Allowed(p, k.buf[:0])
		k.buf = buf
		m := len(buf)
		ok := false
		if p.words == 1 { // the bitboard check of an ascending answer, inline (neighboursOnceBits)
			free, seen, prev := p.nb[p.cur][0]&^p.vis[0], uint64(0), -1
			ok = true
			for _, sq := range buf {
				if sq <= prev || sq >= 64 {
					ok = false
					break
				}
				seen, prev = seen|1<<sq, sq
			}
			ok = ok && seen&^free == 0
		}
		if !ok && p.words == 0 && m == p.mvN && p.mvGen == p.gen && p.mvSq == p.cur {
			ok = true // exactly Moves(Current()) of this position, so far: sorted, unvisited neighbours, once each
			for i, sq := range buf {
				ok = ok && sq == p.mv[i&7]
			}
		}
		if !ok && !p.neighboursOnce(buf) || g.det && m > 1 {
			if k.err = answerProblem(&g.rule, p, k.buf, g.det); k.err != nil {
				return ties, false
			}
		}
		if m == 0 {
			return ties, false
		}
		if p.count > k.maxSteps {
			return ties, true
		}
		if g.tied(m) {
			ties++
		}
		next := buf[0]
		if m > 1 {
			next = buf[Uniform(src, uint32(m))]
		}
		p.move(next)
		if g.state != nil {
			g.walkCall(callMoved, p)
			g.state.Moved(p, next)
		}
	}
}
