package sim

import (
	"math/bits"
	"unsafe"
)

// genLaneCount is how many walks the general kernel keeps in flight in
// WalkRange. One walk's step is a chain of dependent work (the state bytes
// of the square's neighbours, the masks, a draw, the next square, its
// neighbours' bytes); walks in flight on boards of their own are
// independent chains, so the core overlaps one walk's loads and
// multiplications with another's. The step has no branch that depends on
// the board (a tie or not is a conditional move, see walkBatch), so a
// mispredicted branch does not throw away the other walks' work.
const genLaneCount = 4

// genLane is one walk in flight: a kernel of its own (its own state bytes
// and path, the board's fresh state shared) and the walk's stream. The
// step loops (runLanes*) keep the path in ptr/plen/pcap and hand it back to
// the kernel's slice when the walk ends (syncPath).
type genLane struct {
	st     unsafe.Pointer // &k.st[0]
	cur    int            // the walk's square, padded
	v      uint64         // the state bytes of cur's neighbours, k.off's order, after visiting cur
	hi, lo uint64         // the walk's stream
	ties   int
	path   unsafe.Pointer // &k.path[0]
	plen   int            // squares in the path
	pcap   int            // cap(k.path)
	k      *genKernel
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
			l.path = make([]int32, 0, min(cap(k.path), 1<<10))
			k.lanes[i].k = l
			k.lanes[i].st = unsafe.Pointer(&l.st[0])
		}
	}
	for i := range k.lanes {
		l := k.lanes[i].k
		l.rule, l.maxSteps, l.rank = k.rule, k.maxSteps, k.rank
	}
	return k.lanes
}

// firstByRank returns, for each set of moves (a mask over k.off), the move
// of least rank in the rule's order: TieFirst's choice among ties.
func (k *genKernel) firstByRank() *[256]uint8 {
	var t [256]uint8
	for m := 1; m < 256; m++ {
		best := -1
		for i := range 8 {
			if m>>i&1 != 0 && (best < 0 || k.rank[i] < k.rank[best]) {
				best = i
			}
		}
		t[m] = uint8(best)
	}
	return &t
}

// walkBatch writes to out[i] the outcome of walk lo+i from start, exactly
// what walk(start, stream lo+i) returns: each walk draws from its own
// stream, in its own order, whichever walks run beside it. Up to
// genLaneCount walks are in flight, stepped in turn by the rule's step
// loop (runLanes*) until one ends; that lane takes the next walk.
func (k *genKernel) walkBatch(start int, key Key, lo uint64, out []Outcome) {
	lanes := k.laneKernels()
	degrees := k.rule.Kind == Warnsdorff
	tb := k.rule.TieBreak
	if !degrees {
		tb = TieRandom
	}
	var first *[256]uint8
	if degrees && tb == TieFirst {
		first = k.firstByRank()
	}
	off := k.off
	p0 := k.pad(start)
	next := 0
	begin := func(l *genLane) bool {
		if next >= len(out) {
			return false
		}
		l.idx, l.ties, l.cur = next, 0, p0
		l.hi, l.lo = key.Seeds(lo + uint64(next))
		next++
		l.k.path = append(l.k.path[:0], int32(p0))
		l.path, l.plen, l.pcap = unsafe.Pointer(&l.k.path[0]), 1, cap(l.k.path)
		l.v = visitGather(l.st, p0, &off, degrees)
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
		var i int
		switch {
		case !degrees:
			i = runLanesRandom(act, &off, k.maxSteps)
		case tb == TieRandom:
			i = runLanesWarnsdorff(act, &off, k.maxSteps)
		case tb == TieFirst:
			i = runLanesFirst(act, &off, k.maxSteps, first)
		default:
			i = runLanesTieBreak(act, &off, k.maxSteps)
		}
		l := &act[i]
		l.syncPath()
		k.finishLane(l, start, msbs(^l.v) != 0, degrees, out)
		if !begin(l) {
			// Keep the lanes in flight at the front.
			act[i], act[len(act)-1] = act[len(act)-1], act[i]
			act = act[:len(act)-1]
		}
	}
}

// syncPath makes the kernel's path slice the lane's path.
func (l *genLane) syncPath() {
	l.k.path = l.k.path[:l.plen]
}

// push appends p to the lane's path, growing it (rarely) through the
// kernel's slice.
func (l *genLane) push(p int) {
	if l.plen == l.pcap {
		l.syncPath()
		l.k.path = append(l.k.path, 0)[:l.plen]
		l.path, l.pcap = unsafe.Pointer(&l.k.path[:1][0]), cap(l.k.path)
	}
	*(*int32)(unsafe.Add(l.path, 4*l.plen)) = int32(p)
	l.plen++
}

// The step loops. Each steps the lanes in turn until a walk ends (no move
// left, or maxSteps squares visited with moves left: the caller tells the
// two apart by the lane's v) and returns that lane. A step has no branch
// that depends on the board: the draw is always computed and kept only on
// a tie (a mask, not a jump), since with one move allowed
// selectInByte[moves][0] is that move; visiting the next square
// decrements its neighbours' degrees and gathers their bytes in the same
// pass, so the next step reads them from a register.

// tieMask is all ones when moves holds two or more moves, else zero.
func tieMask(moves uint8) uint64 {
	return -((uint64(moves&(moves-1)) + 255) >> 8)
}

// drawSel draws among moves on the lane's stream when they are two or
// more (tie all ones) and returns the chosen move's index; with one move,
// its index, the stream untouched.
func (l *genLane) drawSel(moves uint8, tie uint64) uint8 {
	m := uint32(bits.OnesCount8(moves))
	hi, lo, x := pcgStep(l.hi, l.lo)
	prod := uint64(uint32(x)) * uint64(m)
	if uint32(prod) < m && tie != 0 { // Lemire's rejection: rare
		hi, lo, prod = uniformRetry(hi, lo, m, prod)
	}
	l.hi ^= (l.hi ^ hi) & tie
	l.lo ^= (l.lo ^ lo) & tie
	l.ties += int(tie & 1)
	return selectInByte[moves][uint32(prod>>32)&7]
}

func runLanesRandom(ls []genLane, off *[8]int, maxSteps int) int {
	o0, o1, o2, o3, o4, o5, o6, o7 := off[0], off[1], off[2], off[3], off[4], off[5], off[6], off[7]
	for {
		for i := range ls {
			l := &ls[i]
			moves := msbs(^l.v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			// The draw, written out (drawSel's, kept on a tie).
			tie := tieMask(moves)
			m := uint32(bits.OnesCount8(moves))
			hi, lo, x := pcgStep(l.hi, l.lo)
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m && tie != 0 {
				hi, lo, prod = uniformRetry(hi, lo, m, prod)
			}
			l.hi ^= (l.hi ^ hi) & tie
			l.lo ^= (l.lo ^ lo) & tie
			l.ties += int(tie & 1)
			q := l.cur + off[selectInByte[moves][uint32(prod>>32)&7]&7]
			l.cur = q
			l.push(q)
			// visitGather's, without degrees.
			st := l.st
			*(*uint8)(unsafe.Add(st, q)) |= visitedBit
			l.v = uint64(*(*uint8)(unsafe.Add(st, q+o0))) | uint64(*(*uint8)(unsafe.Add(st, q+o1)))<<8 |
				uint64(*(*uint8)(unsafe.Add(st, q+o2)))<<16 | uint64(*(*uint8)(unsafe.Add(st, q+o3)))<<24 |
				uint64(*(*uint8)(unsafe.Add(st, q+o4)))<<32 | uint64(*(*uint8)(unsafe.Add(st, q+o5)))<<40 |
				uint64(*(*uint8)(unsafe.Add(st, q+o6)))<<48 | uint64(*(*uint8)(unsafe.Add(st, q+o7)))<<56
		}
	}
}

// minDegree3 keeps the moves of least degree: after visiting cur every
// neighbour's degree is at most 7, three bit-planes of v.
func minDegree3(moves uint8, v uint64) uint8 {
	return uint8(keepLow(keepLow(keepLow(uint64(moves), uint64(msbs(v<<5))), uint64(msbs(v<<6))), uint64(msbs(v<<7))))
}

func runLanesWarnsdorff(ls []genLane, off *[8]int, maxSteps int) int {
	for {
		for i := range ls {
			l := &ls[i]
			v := l.v
			moves := msbs(^v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			moves = minDegree3(moves, v)
			q := l.cur + off[l.drawSel(moves, tieMask(moves))&7]
			l.cur = q
			l.push(q)
			l.v = visitGather(l.st, q, off, true)
		}
	}
}

func runLanesFirst(ls []genLane, off *[8]int, maxSteps int, first *[256]uint8) int {
	for {
		for i := range ls {
			l := &ls[i]
			v := l.v
			moves := msbs(^v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			moves = minDegree3(moves, v)
			l.ties += int(tieMask(moves) & 1)
			q := l.cur + off[first[moves]&7]
			l.cur = q
			l.push(q)
			l.v = visitGather(l.st, q, off, true)
		}
	}
}

// runLanesTieBreak is Warnsdorff with any other tie-break: reduceTies on
// the lane's kernel, then a draw among what it leaves.
func runLanesTieBreak(ls []genLane, off *[8]int, maxSteps int) int {
	for {
		for i := range ls {
			l := &ls[i]
			v := l.v
			moves := msbs(^v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			moves = minDegree3(moves, v)
			if moves&(moves-1) != 0 {
				l.ties++
				l.syncPath() // reduceTies reads the path's last square
				moves = l.k.reduceTies(moves, l.cur)
				if moves&(moves-1) != 0 {
					var r uint32
					l.hi, l.lo, r = uniform(l.hi, l.lo, uint32(bits.OnesCount8(moves)))
					moves = 1 << selectInByte[moves][r]
				}
			}
			q := l.cur + off[bits.TrailingZeros8(moves)&7]
			l.cur = q
			l.push(q)
			l.v = visitGather(l.st, q, off, true)
		}
	}
}

// visitGather marks p visited in the state at st and returns the state
// bytes of its neighbours in off's order, byte i from off[i]; with degrees,
// each neighbour first loses one unvisited neighbour (p). The bytes are
// read and written through unsafe pointers: the board's two-square border
// of visited squares keeps every neighbour of a board square inside the
// padded state (newGenKernel), and p is always a board square.
func visitGather(st unsafe.Pointer, p int, off *[8]int, degrees bool) uint64 {
	*(*uint8)(unsafe.Add(st, p)) |= visitedBit
	b0 := (*uint8)(unsafe.Add(st, p+off[0]))
	b1 := (*uint8)(unsafe.Add(st, p+off[1]))
	b2 := (*uint8)(unsafe.Add(st, p+off[2]))
	b3 := (*uint8)(unsafe.Add(st, p+off[3]))
	b4 := (*uint8)(unsafe.Add(st, p+off[4]))
	b5 := (*uint8)(unsafe.Add(st, p+off[5]))
	b6 := (*uint8)(unsafe.Add(st, p+off[6]))
	b7 := (*uint8)(unsafe.Add(st, p+off[7]))
	if !degrees {
		return uint64(*b0) | uint64(*b1)<<8 | uint64(*b2)<<16 | uint64(*b3)<<24 |
			uint64(*b4)<<32 | uint64(*b5)<<40 | uint64(*b6)<<48 | uint64(*b7)<<56
	}
	x0, x1, x2, x3 := *b0-1, *b1-1, *b2-1, *b3-1
	x4, x5, x6, x7 := *b4-1, *b5-1, *b6-1, *b7-1
	*b0, *b1, *b2, *b3, *b4, *b5, *b6, *b7 = x0, x1, x2, x3, x4, x5, x6, x7
	return uint64(x0) | uint64(x1)<<8 | uint64(x2)<<16 | uint64(x3)<<24 |
		uint64(x4)<<32 | uint64(x5)<<40 | uint64(x6)<<48 | uint64(x7)<<56
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
