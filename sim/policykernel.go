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
	err         error // the first RuleError; every walk after it is refused
	searchState       // backtrack/NAME only (newSearchKernel)
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
	if k.err = k.g.begin(k.pos); k.err != nil {
		return o
	}
	k.path = append(k.path[:0], int32(start))
	for {
		next, tie, stopped := k.step(src)
		if next < 0 {
			o.Stopped = stopped
			break
		}
		if tie {
			o.Ties++
		}
		k.path = append(k.path, int32(next))
	}
	o.Length = len(k.path)
	o.End = k.pos.cur
	o.Success = o.Length == k.b.Squares()
	o.Closed = o.Success && o.Length > 1 && k.b.Adjacent(start, o.End)
	if keep {
		o.Path = append([]int32(nil), k.path...)
	}
	return o
}
