package sim

import "math/bits"

// genLaneCount is how many walks the general kernel keeps in flight in
// WalkRange. One walk's step is a chain of dependent work (eight loads of
// state bytes, the masks, a draw, the next square); walks in flight on
// boards of their own are independent chains, so the core overlaps one
// walk's loads and multiplications with another's.
const genLaneCount = 4

// genLane is one walk in flight: a kernel of its own (its own state bytes
// and path, the board's fresh state shared) and the walk's stream.
type genLane struct {
	k      *genKernel
	cur    int
	hi, lo uint64
	ties   int
	idx    int // the walk's index in out
}

// lanes returns the kernel's lanes, made on first use, each following the
// kernel's present rule.
func (k *genKernel) laneKernels() []genLane {
	if k.lanes == nil {
		k.lanes = make([]genLane, genLaneCount)
		for i := range k.lanes {
			l := &genKernel{b: k.b, pc: k.pc, off: k.off, fresh: k.fresh}
			l.st = append([]uint8(nil), k.fresh...)
			l.path = make([]int32, 0, cap(k.path))
			k.lanes[i].k = l
		}
	}
	for i := range k.lanes {
		l := k.lanes[i].k
		l.rule, l.maxSteps, l.rank = k.rule, k.maxSteps, k.rank
	}
	return k.lanes
}

// walkBatch writes to out[i] the outcome of walk lo+i from start, exactly
// what walk(start, stream lo+i) returns: each walk draws from its own
// stream, in its own order, whichever walks run beside it. Up to
// genLaneCount walks are in flight, stepped in turn; a lane whose walk
// ends takes the next.
func (k *genKernel) walkBatch(start int, key Key, lo uint64, out []Outcome) {
	lanes := k.laneKernels()
	degrees := k.rule.Kind == Warnsdorff
	drawTies := !degrees || k.rule.TieBreak == TieRandom
	p0 := k.pad(start)
	next := 0
	begin := func(l *genLane) bool {
		if next >= len(out) {
			return false
		}
		l.idx, l.ties, l.cur = next, 0, p0
		l.hi, l.lo = key.Seeds(lo + uint64(next))
		next++
		l.k.visit(p0, degrees)
		return true
	}
	n := 0
	for i := range lanes {
		if !begin(&lanes[i]) {
			break
		}
		n++
	}
	act := lanes[:n]
	for len(act) > 0 {
		for i := 0; i < len(act); i++ {
			l := &act[i]
			lk := l.k
			moves := lk.allowed(l.cur, degrees)
			stopped := false
			if moves != 0 && len(lk.path) > lk.maxSteps {
				stopped, moves = true, 0
			}
			if moves == 0 {
				k.finishLane(l, start, stopped, degrees, out)
				if !begin(l) {
					// Keep the lanes in flight at the front.
					act[i], act[len(act)-1] = act[len(act)-1], act[i]
					act = act[:len(act)-1]
					i--
				}
				continue
			}
			if moves&(moves-1) != 0 {
				l.ties++
				if !drawTies {
					moves = lk.reduceTies(moves, l.cur)
				}
				if moves&(moves-1) != 0 {
					var r uint32
					l.hi, l.lo, r = uniform(l.hi, l.lo, uint32(bits.OnesCount8(moves)))
					moves = 1 << selectInByte[moves][r]
				}
			}
			l.cur += lk.off[bits.TrailingZeros8(moves)&7]
			lk.visit(l.cur, degrees)
		}
	}
}

// finishLane writes the lane's outcome and leaves its kernel's state as
// new, as walk does.
func (k *genKernel) finishLane(l *genLane, start int, stopped, degrees bool, out []Outcome) {
	lk := l.k
	o := Outcome{Start: start, Ties: l.ties, Stopped: stopped}
	o.Length = len(lk.path)
	o.End = lk.unpad(int32(l.cur))
	o.Success = o.Length == k.b.Squares()
	o.Closed = o.Success && o.Length > 1 && k.b.Adjacent(start, o.End)
	out[l.idx] = o
	cost := 1
	if degrees {
		cost = 9
	}
	if len(lk.path)*cost*16 >= len(lk.st) {
		copy(lk.st, lk.fresh)
		lk.path = lk.path[:0]
	} else {
		lk.reset(degrees)
	}
}
