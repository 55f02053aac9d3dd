package sim

import (
	"math/bits"
	"unsafe"
)

// The random walk's wide kernel: genVecLanes walks in flight, one a
// 32-bit element of AVX-512 registers, all stepped by the same
// instructions (genVecRandom, genvec_amd64.s). A step of the scalar lanes
// (generalbatch.go) is some fifty instructions for one walk; a round of the
// wide loop is about as many vector instructions, gathers and scatters for
// sixteen. The walks are the same walks, draw for draw: each lane draws
// from its own stream's buffer as the scalar lanes do, with Lemire's
// multiply-and-shift on the count of moves, and takes the r-th move in
// ascending order of offsets (the order the draw counts in).
//
// The lanes' state bytes lie in one slab, a board's padded state a lane at
// a fixed stride, so that a lane's square is one 32-bit index (its base
// plus the padded square) that the gathers add to a base register; its
// path is scattered through 64-bit pointers (each lane's path is its own
// slice, grown in Go). What the loop does not do it hands back to Go: a
// walk's end, a used-up draw buffer, Lemire's rejection on a tie (the lane
// then walks to its end in Go's loop, the same walk) and the end of a
// budget of rounds (the paths' room).

// genVecLanes is how many walks the wide kernel keeps in flight: the
// elements of a 512-bit register.
const genVecLanes = 16

// genVecRows is how many of its stream's next outputs each lane's buffer
// holds: a multiple of genDrawRows (the fill's unit), large enough that a
// refill (a hand-back to Go) is rare, small enough that a walk's unused
// draws cost little.
const genVecRows = 256

// genVecMaxState bounds a lane's padded state for the wide kernel on any
// batch (boards up to about 720x720, a slab of at most 8 MiB), and
// genVecMaxStateBatch on batches of genVecBigBatch walks or more (up to
// about 1400x1400, 32 MiB): past a megabyte a lane sixteen lanes' rows
// miss the caches, and the wide kernel wins only where its batches are
// long enough that their last few walks (few lanes busy) are a small part.
// Measured from the corner, ns a step scalar / wide: batches of 64 (the
// runner's units past 362x362, one by one) 100x100 4.62 / 3.57, 300x300
// 4.75 / 4.11, 700x700 5.18 / 4.75, 1000x1000 4.96 / 5.14; batches of 256
// and 512 on 1000x1000 5.91 / 5.43 and 5.87 / 5.39 (median of 3, another
// hour: the machine's speed drifts).
const (
	genVecMaxState      = 1 << 19
	genVecMaxStateBatch = 2 << 20
	genVecBigBatch      = 256
)

// genVecState is what the wide loop reads and writes: each lane's square,
// moves, next draw and path pointer, one element a lane, and the loop's
// constants. Go keeps it in step with the lanes' genLane (sync, load).
type genVecState struct {
	g    [genVecLanes]int32   // the lane's square: base + padded square, an index into the slab
	m    [genVecLanes]uint32  // its moves from there, a mask over k.off (ascending order)
	rd   [genVecLanes]int32   // its next draw, an index into draws (row j*genVecRows + the lane's rd)
	rend [genVecLanes]int32   // (j+1)*genVecRows: its buffer used up
	base [genVecLanes]int32   // j*stride: where its state starts in the slab
	pp   [genVecLanes]uintptr // where its path's next square goes
	offs [genVecLanes]int32   // k.off, then zeros: a move's offset by its ascending index
	// selLo[n] holds, byte r, the position of the r-th set bit of the
	// nibble n (r below its count); selHi the same plus 4, for the high
	// nibble of a mask.
	selLo, selHi [genVecLanes]uint32
	act          uint64 // the lanes in flight, bit j lane j

	// Base addresses: the slab plus the words' offsets (k.off[0], [2],
	// [3], [4], [5], [6]), the slab itself, and the draw buffers.
	pA, pB0, pB4, pC0, pC4, pD, pS, pDr uintptr
}

// genVec is a kernel's wide lanes: the loop's state, the lanes' own state
// (genLane, each with a kernel whose state is a stride of slab), their
// draw buffers.
type genVec struct {
	s      genVecState
	lanes  [genVecLanes]genLane
	slab   []uint8
	draws  []uint64
	stride int
	tail   [genVecLanes]genLane // tailScalar's lanes
}

// genVecLoop is the wide loop walkBatchVec calls: a variable, so that a
// test can hand back to Go where the loop would not.
var genVecLoop = genVecRandomLoop

// genVecRandomOK says whether the wide kernel runs this kernel's random
// walks: the CPU has AVX-512 (haveAVX512: the loop uses F and VPOPCNTDQ),
// the batch fills half the lanes, and the board's state is small enough
// for a batch of its size (genVecMaxState).
func (k *genKernel) genVecRandomOK(walks int) bool {
	n := len(k.fresh)
	return genVecRandom && walks >= genVecLanes/2 &&
		(n <= genVecMaxState || n <= genVecMaxStateBatch && walks >= genVecBigBatch)
}

// vecLanes returns the kernel's wide lanes, made on first use.
func (k *genKernel) vecLanes() *genVec {
	if k.vec != nil {
		return k.vec
	}
	v := &genVec{}
	v.stride = (len(k.fresh) + 63) &^ 63
	const huge = 2 << 20
	raw := make([]uint8, genVecLanes*v.stride+64+huge)
	a := int(-uintptr(unsafe.Pointer(&raw[0])) & (huge - 1))
	v.slab = raw[a : a+genVecLanes*v.stride+64]
	adviseHuge(raw[a:])
	v.draws = make([]uint64, genVecLanes*genVecRows)
	s := &v.s
	for j := range genVecLanes {
		l := &genKernel{b: k.b, pc: k.pc, off: k.off, fresh: k.fresh}
		l.st = v.slab[j*v.stride : j*v.stride+len(k.fresh) : j*v.stride+len(k.fresh)]
		copy(l.st, k.fresh)
		l.path = make([]int32, 0, min(cap(k.path), 1<<12))
		v.lanes[j] = genLane{k: l, st: unsafe.Pointer(&l.st[0])}
		s.base[j] = int32(j * v.stride)
		s.rend[j] = int32((j + 1) * genVecRows)
	}
	for i := range 8 {
		s.offs[i] = int32(k.off[i])
	}
	for n := range 16 {
		r := 0
		for b := range 4 {
			if n>>b&1 != 0 {
				s.selLo[n] |= uint32(b) << (8 * r)
				s.selHi[n] |= uint32(b+4) << (8 * r)
				r++
			}
		}
	}
	slab := uintptr(unsafe.Pointer(&v.slab[0]))
	s.pS = slab
	s.pA, s.pB0, s.pB4 = slab+uintptr(k.off[0]), slab+uintptr(k.off[2]), slab+uintptr(k.off[3])
	s.pC0, s.pC4, s.pD = slab+uintptr(k.off[4]), slab+uintptr(k.off[5]), slab+uintptr(k.off[6])
	s.pDr = uintptr(unsafe.Pointer(&v.draws[0]))
	k.vec = v
	return v
}

// jumpRows returns the stream's state genDrawRows steps on from (hi, lo):
// (hi, lo)·M^R + I_R mod 2^128, the tables' jR (REFILL's, in Go).
func (t *genTables) jumpRows(hi, lo uint64) (uint64, uint64) {
	mh, ml, ih, il := t.jR[0], t.jR[1], t.jR[2], t.jR[3]
	h, l := bits.Mul64(lo, ml)
	h += hi*ml + lo*mh
	l, c := bits.Add64(l, il, 0)
	h += ih + c
	return h, l
}

// fill fills lane j's buffer with the next genVecRows outputs of its
// stream from (hi, lo), which stays the state at the buffer's start.
func (v *genVec) fill(j int, t *genTables) {
	l := &v.lanes[j]
	hi, lo := l.hi, l.lo
	for b := 0; b < genVecRows; b += genDrawRows {
		l.dr = unsafe.Pointer(&v.draws[j*genVecRows+b])
		genFillDraws(l, t)
		l.hi, l.lo = t.jumpRows(l.hi, l.lo)
	}
	l.hi, l.lo = hi, lo
	v.s.rd[j] = int32(j * genVecRows)
}

// refill takes lane j past its used-up buffer and fills the next.
func (v *genVec) refill(j int, t *genTables) {
	l := &v.lanes[j]
	for b := 0; b < genVecRows; b += genDrawRows {
		l.hi, l.lo = t.jumpRows(l.hi, l.lo)
	}
	l.ties += genVecRows
	v.fill(j, t)
}

// sync brings lane j's genLane up to the loop's state: its square, path
// length, draws taken (rd), and v (its neighbours' state bytes, for Go's
// loop and finishLane).
func (v *genVec) sync(j int, t *genTables) {
	l, s := &v.lanes[j], &v.s
	l.cur = int(s.g[j] - s.base[j])
	l.plen = int((s.pp[j] - uintptr(l.path)) / 4)
	l.rd = int(s.rd[j]) - j*genVecRows
	l.v = visitWords(l.st, l.cur, t, false) // cur is visited already
}

// walkBatchVec is walkBatch for the random walk on the wide lanes: the
// same outcomes, walk lo+i on stream lo+i.
func (k *genKernel) walkBatchVec(start int, key Key, lo uint64, out []Outcome) {
	v := k.vecLanes()
	s := &v.s
	t := k.tables()
	for j := range v.lanes {
		l := v.lanes[j].k
		l.rule, l.maxSteps = k.rule, k.maxSteps
	}
	p0 := k.pad(start)
	next := 0
	begin := func(j int) {
		if next >= len(out) {
			s.act &^= 1 << j
			return
		}
		l := &v.lanes[j]
		l.idx, l.ties, l.cur = next, 0, p0
		l.hi, l.lo = key.Seeds(lo + uint64(next))
		next++
		v.fill(j, t)
		l.k.path = append(l.k.path[:0], int32(p0))
		l.path, l.plen, l.pcap = unsafe.Pointer(&l.k.path[0]), 1, cap(l.k.path)
		l.plim = min(l.pcap, k.maxSteps+1)
		l.v = visitWords(l.st, p0, t, false)
		s.g[j] = s.base[j] + int32(p0)
		s.m[j] = uint32(t.asc[msbs(^l.v)])
		s.pp[j] = uintptr(l.path) + 4
		s.act |= 1 << j
	}
	finish := func(j int) {
		l := &v.lanes[j]
		l.ties, l.rd = l.ties+l.rd, 0
		l.syncPath()
		k.finishLane(l, start, msbs(^l.v) != 0, false, out)
		begin(j)
	}
	for j := range genVecLanes {
		begin(j)
	}
	for s.act != 0 {
		if next >= len(out) && bits.OnesCount64(s.act) < genVecLanes/2 {
			v.tailScalar(k, t, start, out)
			return
		}
		budget := genAsmBudget
		for j := range genVecLanes {
			if s.act>>j&1 == 0 {
				continue
			}
			l := &v.lanes[j]
			l.plen = int((s.pp[j] - uintptr(l.path)) / 4)
			for l.plen >= l.plim && s.act>>j&1 != 0 {
				if s.m[j] == 0 || l.plen > k.maxSteps {
					v.sync(j, t)
					finish(j) // ended, or stopped at the step limit with moves left
					l.plen = int((s.pp[j] - uintptr(l.path)) / 4)
					continue
				}
				l.grow(k.maxSteps)
				s.pp[j] = uintptr(l.path) + uintptr(4*l.plen)
			}
			if s.act>>j&1 != 0 {
				budget = min(budget, l.plim-l.plen)
			}
		}
		if s.act == 0 {
			break
		}
		j, reason := genVecLoop(s, budget)
		switch reason {
		case 0: // no move left
			v.sync(j, t)
			finish(j)
		case 1:
			v.refill(j, t)
		case 2: // Lemire's rejection on a tie: Go's loop walks the lane on
			v.sync(j, t)
			l := &v.lanes[j]
			l.hi, l.lo = l.stream()
			l.ties, l.rd = l.ties+l.rd, 0
			runLanesRandom(v.lanes[j:j+1], t, k.maxSteps)
			finish(j)
		}
	}
}

// tailScalar walks the wide lanes still in flight to their ends on the
// scalar lanes (generalbatch.go), once no walk is left to begin and fewer
// than half the lanes are busy: a wide round costs about the same with
// few lanes as with sixteen, a scalar step does not. Each lane's stream
// is taken to where its buffer was read (stream), its buffer refilled as
// the scalar loops read it.
func (v *genVec) tailScalar(k *genKernel, t *genTables, start int, out []Outcome) {
	n := 0
	for j := range genVecLanes {
		if v.s.act>>j&1 == 0 {
			continue
		}
		v.sync(j, t)
		l := &v.lanes[j]
		l.hi, l.lo = l.stream()
		l.ties, l.rd = l.ties+l.rd, 0
		l.dr = unsafe.Pointer(&v.draws[j*genVecRows])
		if genStepAsm {
			genFillDraws(l, t)
		}
		v.tail[n] = *l
		n++
	}
	v.s.act = 0
	act := v.tail[:n]
	for len(act) > 0 {
		var i int
		if genStepAsm {
			i = runLanesAsm(act, t, k.maxSteps, genAsmRandom, runLanesRandom)
		} else {
			i = runLanesRandom(act, t, k.maxSteps)
		}
		l := &act[i]
		l.syncPath()
		k.finishLane(l, start, msbs(^l.v) != 0, false, out)
		act[i], act[len(act)-1] = act[len(act)-1], act[i]
		act = act[:len(act)-1]
	}
}
