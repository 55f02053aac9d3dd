package sim

// The previous kernels, kept for reference: `experiment bench` and the
// benchmarks measure the current ones against them, and TestKernelsAgree
// requires identical walks. For boards of at most 64 squares the previous
// kernel is fastKernel.walk itself (one walk at a time; the current one is
// walkBatch); for larger boards it is walkPrevious below, the general
// kernel before its allowed moves became branch-free masks.

// NewPreviousWalker returns a walker that runs the previous kernels, one
// walk at a time (WalkRange included). Not for production use: it exists to
// be measured against.
func NewPreviousWalker(b *Board, r Rule) (*Walker, error) {
	w, err := newWalker(b, r, false, PathScalar)
	if err != nil {
		return nil, err
	}
	w.previous = true
	return w, nil
}

// walkPrevious is the previous general walk: a branch per neighbour to
// gather the allowed squares, the walk undone square by square.
func (k *genKernel) walkPrevious(start int, src *PCG, keep bool) Outcome {
	if k.rule.Kind == Backtrack {
		return k.backtrack(start, src, keep)
	}
	degrees := k.rule.Kind == Warnsdorff
	o := Outcome{Start: start}
	k.visit(k.pad(start), degrees)
	cur := k.pad(start)
	st := k.st
	for {
		n, minD := 0, uint8(visitedBit)
		tied := &k.tied
		for _, off := range k.off {
			p := cur + off
			s := st[p]
			if s >= visitedBit {
				continue
			}
			if degrees {
				if s > minD {
					continue
				}
				if s < minD {
					minD, n = s, 0
				}
			}
			tied[n] = int32(p)
			n++
		}
		if n == 0 {
			break
		}
		if len(k.path) > k.maxSteps {
			o.Stopped = true
			break
		}
		next := int(tied[0])
		if n > 1 {
			o.Ties++
			next = k.breakTiePrevious(cur, n, src)
		}
		k.visit(next, degrees)
		cur = next
	}
	k.ended(&o, cur, keep)
	k.reset(degrees)
	return o
}

// breakTiePrevious picks among the n tied squares in k.tied (ascending).
func (k *genKernel) breakTiePrevious(cur, n int, src *PCG) int {
	tied := k.tied[:n]
	if k.rule.Kind == Warnsdorff && k.rule.TieBreak != TieRandom {
		n = narrowTies(k.rule.TieBreak.chain(), tied, k) // tiebreak.go
	}
	if n == 1 {
		return int(tied[0])
	}
	return int(tied[Uniform(src, uint32(n))])
}
