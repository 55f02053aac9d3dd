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
// the board (a tie or not is a mask, see the step loops), so a
// mispredicted branch does not throw away the other walks' work. Four,
// six, eight and twelve lanes cost the same per step on 100x100; on
// 1000x1000 more than four cost more (each lane's state is a 1 MB board).
const genLaneCount = 4

// genLane is one walk in flight: a kernel of its own (its own state bytes
// and path, the board's fresh state shared) and the walk's stream. The
// step loops (runLanes*, the assembly's) keep the path in path/plen/pcap
// and hand it back to the kernel's slice when the walk ends (syncPath).
// The assembly reads and writes these fields by name (go_asm.h).
type genLane struct {
	st     unsafe.Pointer // &k.st[0]
	cur    int            // the walk's square, padded
	v      uint64         // the state bytes of cur's neighbours, the words' order (genWordMove), after visiting cur
	hi, lo uint64         // the walk's stream
	ties   int
	path   unsafe.Pointer // &k.path[0]
	plen   int            // squares in the path
	pcap   int            // cap(k.path)
	plim   int            // min(pcap, maxSteps+1): the room the assembly loops are given (runLanesAsm grows the path or stops the walk there)
	k      *genKernel
	idx    int // the walk's index in out

	// The assembly loops draw from a buffer of the stream's next outputs
	// (genFillDraws): dr points to the lane's genDrawRows outputs, of the
	// stream's steps 1 to genDrawRows on from the state (hi, lo), and rd
	// is the next unused one; so the lane's stream is (hi, lo) stepped rd
	// times (genLane.stream), and its ties ties + rd (a tie is a draw).
	// Go's loops draw from (hi, lo) directly and count ties themselves.
	dr unsafe.Pointer // &k.draws[0]
	rd int

	// TieFirst's table for the walk's next step (*[256]int32 over the
	// words' masks: the tables' firstOff, or squirrel-cull's current
	// ordering's), and the padded square whose arrival switches it
	// (squirrel-cull: its next switching square; -1 none, sct those
	// passed). The First loops read both; arriving at stop, the assembly
	// hands the lane back (reason 5) for scArrive.
	first unsafe.Pointer
	stop  int
	sct   int
}

// genDrawRows is how many of a lane's next stream outputs the assembly
// loops hold (a multiple of 8, the AVX-512 fill's rows a round).
const genDrawRows = 64

// stream returns the lane's stream as the assembly loops left it: (hi,
// lo) stepped rd times.
func (l *genLane) stream() (hi, lo uint64) {
	hi, lo = l.hi, l.lo
	for range l.rd {
		hi, lo, _ = pcgStep(hi, lo)
	}
	return hi, lo
}

// laneKernels returns the kernel's first min(walks, genLaneCount) lanes,
// each following the kernel's present rule. The first lane walks on the
// kernel's own state and path (every walk leaves them as new); the others
// are made when a batch first needs them, so a walker that only ever walks
// one walk a call (Walk: a deterministic rule's sweep, a walker per board
// up to 2000x2000) allocates no lane state at all.
func (k *genKernel) laneKernels(walks int) []genLane {
	if k.lanes == nil {
		k.lanes = make([]genLane, 1, genLaneCount)
		k.lanes[0].k = k
		k.lanes[0].st = unsafe.Pointer(&k.st[0])
		k.lanes[0].dr = unsafe.Pointer(&k.draws[0])
	}
	for len(k.lanes) < min(walks, genLaneCount) {
		l := &genKernel{b: k.b, pc: k.pc, off: k.off, fresh: k.fresh}
		l.st = append([]uint8(nil), k.fresh...)
		l.path = make([]int32, 0, min(cap(k.path), 1<<10))
		k.lanes = append(k.lanes, genLane{k: l, st: unsafe.Pointer(&l.st[0]), dr: unsafe.Pointer(&l.draws[0])})
	}
	for i := range k.lanes {
		l := k.lanes[i].k
		l.rule, l.maxSteps, l.rank = k.rule, k.maxSteps, k.rank
	}
	return k.lanes[:min(walks, len(k.lanes))]
}

// walkBatch writes to out[i] the outcome of walk lo+i from start, exactly
// what walk(start, stream lo+i) returns: each walk draws from its own
// stream, in its own order, whichever walks run beside it. Up to
// genLaneCount walks are in flight, stepped in turn by the rule's step
// loop (runLanes*) until one ends; that lane takes the next walk.
func (k *genKernel) walkBatch(start int, key Key, lo uint64, out []Outcome) {
	sc := k.sc != nil // squirrel-cull: Warnsdorff, ties to the first move of orderings switched at squares
	degrees := k.rule.Kind == Warnsdorff || sc
	if !degrees && k.genVecRandomOK(len(out)) {
		k.walkBatchVec(start, key, lo, out)
		return
	}
	lanes := k.laneKernels(len(out))
	tb := k.rule.TieBreak
	switch {
	case sc:
		tb = TieFirst
	case !degrees:
		tb = TieRandom
	}
	t := k.tables()
	p0 := k.pad(start)
	next := 0
	// The assembly loops that draw (random, warnsdorff/random) draw from
	// the lanes' buffers.
	buffered := genStepAsm && tb == TieRandom
	begin := func(l *genLane) bool {
		if next >= len(out) {
			return false
		}
		l.idx, l.ties, l.cur = next, 0, p0
		l.hi, l.lo = key.Seeds(lo + uint64(next))
		l.rd = 0
		if buffered {
			genFillDraws(l, t)
		}
		next++
		l.k.path = append(l.k.path[:0], int32(p0))
		l.path, l.plen, l.pcap = unsafe.Pointer(&l.k.path[0]), 1, cap(l.k.path)
		l.plim = min(l.pcap, k.maxSteps+1)
		l.v = visitWords(l.st, p0, t, degrees)
		l.first, l.stop = unsafe.Pointer(&t.firstOff), -1
		if sc {
			l.first, l.sct = unsafe.Pointer(&t.sc.firstWords[0]), 0
			l.scArrive(t.sc, p0)
		}
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
		case !degrees && genStepAsm:
			i = runLanesAsm(act, t, k.maxSteps, genAsmRandom, runLanesRandom)
		case !degrees:
			i = runLanesRandom(act, t, k.maxSteps)
		case tb == TieRandom && genStepAsm:
			i = runLanesAsm(act, t, k.maxSteps, genAsmWarnsdorff, runLanesWarnsdorff)
		case tb == TieRandom:
			i = runLanesWarnsdorff(act, t, k.maxSteps)
		case tb == TieFirst && genStepAsm:
			i = runLanesAsm(act, t, k.maxSteps, genAsmFirst, runLanesFirst)
		case tb == TieFirst:
			i = runLanesFirst(act, t, k.maxSteps)
		case genStepAsm:
			i = runLanesAsm(act, t, k.maxSteps, genAsmTied, runLanesTieBreak)
		default:
			i = runLanesTieBreak(act, t, k.maxSteps)
		}
		l := &act[i]
		l.syncPath()
		if sc {
			l.ties = 0 // the rule allows one square a step: no tie (its policy's count)
		}
		k.finishLane(l, start, msbs(^l.v) != 0, degrees, out)
		if !begin(l) {
			// Keep the lanes in flight at the front.
			act[i], act[len(act)-1] = act[len(act)-1], act[i]
			act = act[:len(act)-1]
		}
	}
}

// genAsmBudget is how many rounds of the lanes an assembly step loop takes
// in one call: about 40 µs, so that a long walk (10^6 steps on 1000x1000)
// still comes back to Go, where the scheduler and the collector can stop
// it.
const genAsmBudget = 1 << 10

// genAsmRandom, genAsmWarnsdorff, genAsmFirst and genAsmTied are the
// assembly step loops runLanesAsm calls: variables, so that a test can
// hand back to Go where the assembly would not.
var genAsmRandom, genAsmWarnsdorff, genAsmFirst, genAsmTied = genLanesRandom, genLanesWarnsdorff, genLanesFirst, genLanesTied

// runLanesAsm runs the assembly step loop asm until a lane's walk ends and
// returns that lane, doing in Go what the loop hands back: a step that
// Lemire's method rejects (the lane then walks to its end in the Go loop
// goLoop, the same walk), a tie of a chain (tieStep), squirrel-cull's
// switch of ordering (scArrive). The loop does not look at the paths' room: each
// call's budget of rounds is at most the room left in any lane's path
// (up to its plim), a round being at most one step a lane; a lane with no
// room left is seen to here, its path grown or its walk stopped.
func runLanesAsm(ls []genLane, t *genTables, maxSteps int, asm genAsmLoop,
	goLoop func([]genLane, *genTables, int) int) int {
	for {
		budget := genAsmBudget
		for i := range ls {
			l := &ls[i]
			if l.plen >= l.plim {
				if msbs(^l.v) == 0 || l.plen > maxSteps {
					l.ties, l.rd = l.ties+l.rd, 0
					return i // ended, or stopped at the step limit with moves left
				}
				l.grow(maxSteps)
			}
			budget = min(budget, l.plim-l.plen)
		}
		off, reason := asm(&ls[0], len(ls), t, maxSteps, budget)
		i := off / int(unsafe.Sizeof(genLane{}))
		l := &ls[i]
		switch reason {
		case 0:
			l.ties, l.rd = l.ties+l.rd, 0 // the walk's end: its stream is not needed
			return i
		case 2:
			l.hi, l.lo = l.stream()
			l.ties, l.rd = l.ties+l.rd, 0
			return i + goLoop(ls[i:i+1], t, maxSteps)
		case 4:
			l.tieStep(t) // it has a move (MOVES) and room (the budget)
		case 5:
			l.scArrive(t.sc, l.cur) // at its stop square, visited
		}
	}
}

// genAsmLoop is an assembly step loop: genLanesRandom, genLanesWarnsdorff,
// genLanesFirst, genLanesTied.
type genAsmLoop func(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)

// syncPath makes the kernel's path slice the lane's path.
func (l *genLane) syncPath() {
	l.k.path = l.k.path[:l.plen]
}

// grow makes room in the lane's path (through the kernel's slice, as
// append grows it).
func (l *genLane) grow(maxSteps int) {
	l.syncPath()
	l.k.path = append(l.k.path, 0)[:l.plen]
	l.path, l.pcap = unsafe.Pointer(&l.k.path[:1][0]), cap(l.k.path)
	l.plim = min(l.pcap, maxSteps+1)
}

// push appends p to the lane's path, growing it (rarely) through the
// kernel's slice.
func (l *genLane) push(p int) {
	if l.plen == l.pcap {
		l.grow(l.k.maxSteps)
	}
	*(*int32)(unsafe.Add(l.path, 4*l.plen)) = int32(p)
	l.plen++
}

// The step loops. Each steps the lanes in turn until a walk ends (no move
// left, or maxSteps squares visited with moves left: the caller tells the
// two apart by the lane's v) and returns that lane. A step has no branch
// that depends on the board: the draw is always computed and kept only on
// a tie (a mask, not a jump), since with one move allowed the first entry
// of selOff is that move.
//
// A square's eight neighbours lie on four rows, two on each, close enough
// for one load a row (genWords): the lane's v holds their state bytes in
// the words' order (genWordMove), and the masks made from v are over that
// order; genTables maps them back to the moves in ascending order, the
// order the draw counts in, so the walks are the same walks.

// genWordMove[j] is the move (index into k.off, ascending square order)
// whose state byte is byte j of a lane's v.
var genWordMove = [8]int{0, 2, 1, 4, 6, 3, 7, 5}

// genTables are the lookups of a kernel's step loops over masks in the
// words' order (genWordMove).
type genTables struct {
	oA, oB, oC, oD int            // the four words: row-2 col-1 (4 bytes), row-1 col-2 (8), row+1 col-2 (8), row+2 col-1 (4)
	npc, ppc       int            // -pc and pc: the assembly's words are at -2pc-1, -pc-2, pc-2, 2pc-1 (oA to oD)
	selOff         [256 * 8]int32 // [mask*8+r]: the offset of the mask's r-th move in ascending order
	asc            [256]uint8     // the mask over k.off (ascending order)
	firstOff       [256]int32     // TieFirst: the offset of the mask's move of least rank
	firstRank      [8]uint8       // the ranks firstOff was made for
	firstMade      bool
	sc             *scKernel // squirrel-cull's orderings (the kernel's), else nil

	// The stream's jumps for the draw buffers (genFillDraws), each a
	// state s taken k steps on, s·M^k + I_k mod 2^128: jt[r] holds M^k
	// high, low, I_k high, low for the rows k = 8r+1 to 8r+8 (eight rows
	// of a round of the AVX-512 fill, each from the lane's state; k = 1 is
	// the stream's own step, the scalar fill's), jR k = genDrawRows (a
	// buffer on), and the output's constants.
	jt                [genDrawRows / 8][4][8]uint64
	jR                [4]uint64
	dxsm, mask32, one uint64
	fillVec           bool // fill by AVX-512 (genFillVec)
}

// pcgJump returns M^k and I_k (high, low words) with the stream's state
// k steps on from s equal to s·M^k + I_k mod 2^128.
func pcgJump(k int) (mhi, mlo, ihi, ilo uint64) {
	mhi, mlo = 0, 1
	for range k {
		mhi, mlo, ihi, ilo = pcgJumpOn(mhi, mlo, ihi, ilo)
	}
	return
}

// pcgJumpOn returns the jump one step longer: (M·mul, I·mul + inc).
func pcgJumpOn(mhi, mlo, ihi, ilo uint64) (uint64, uint64, uint64, uint64) {
	mhi, mlo = pcgMul(mhi, mlo)
	ihi, ilo, _ = pcgStep(ihi, ilo)
	return mhi, mlo, ihi, ilo
}

// pcgMul returns (hi, lo)·mul mod 2^128, the stream's multiplication
// without its increment (pcgStep's with the increment taken off).
func pcgMul(hi, lo uint64) (nhi, nlo uint64) {
	const incHi, incLo = 6364136223846793005, 1442695040888963407
	h, l, _ := pcgStep(hi, lo)
	l, b := bits.Sub64(l, incLo, 0)
	h, _ = bits.Sub64(h, incHi, b)
	return h, l
}

// setJumps fills t's jumps.
func (t *genTables) setJumps() {
	mhi, mlo, ihi, ilo := uint64(0), uint64(1), uint64(0), uint64(0) // k = 0
	for k := range genDrawRows {
		mhi, mlo, ihi, ilo = pcgJumpOn(mhi, mlo, ihi, ilo)
		j := &t.jt[k/8]
		j[0][k%8], j[1][k%8], j[2][k%8], j[3][k%8] = mhi, mlo, ihi, ilo
	}
	t.jR = [4]uint64{mhi, mlo, ihi, ilo}
	t.dxsm, t.mask32, t.one = 0xda942042e4dd58b5, 0xffffffff, 1
	t.fillVec = genFillVec
}

func (k *genKernel) tables() *genTables {
	if k.gt == nil {
		t := &genTables{oA: -2*k.pc - 1, oB: -k.pc - 2, oC: k.pc - 2, oD: 2*k.pc - 1, npc: -k.pc, ppc: k.pc}
		// The words hold the moves genWordMove says only if k.off is
		// the ascending order of the eight moves.
		want := [8]int{-2*k.pc - 1, -2*k.pc + 1, -k.pc - 2, -k.pc + 2, k.pc - 2, k.pc + 2, 2*k.pc - 1, 2*k.pc + 1}
		if k.off != want {
			panic("sim: the general kernel's moves are not in ascending order")
		}
		for m := range 256 {
			r := 0
			for i := range 8 { // ascending order
				for j := range 8 {
					if m>>j&1 != 0 && genWordMove[j] == i {
						t.selOff[m*8+r] = int32(k.off[i])
						t.asc[m] |= 1 << i
						r++
					}
				}
			}
		}
		t.setJumps()
		k.gt = t
	}
	t := k.gt
	t.sc = k.sc
	if k.rule.Kind == Warnsdorff && k.rule.TieBreak == TieFirst && (!t.firstMade || t.firstRank != k.rank) {
		t.firstOff = k.firstOffsets(k.rank, &genWordMove)
		t.firstRank, t.firstMade = k.rank, true
	}
	return t
}

// tieMask is all ones when moves holds two or more moves, else zero.
func tieMask(moves uint8) uint64 {
	return -((uint64(moves&(moves-1)) + 255) >> 8)
}

// gatherWords returns the state bytes of p's neighbours in the words'
// order: bytes 0 and 2 of the row-2 word, 0 and 4 of the row-1 one, and so
// on (genWordMove).
func gatherWords(a uint32, b, c uint64, d uint32) uint64 {
	return uint64(a&0x00ff00ff) | (b&0xff000000ff)<<8 | (c&0xff000000ff)<<24 | uint64(d&0x00ff00ff)<<32
}

// visitWords marks p visited in the state at st and returns its
// neighbours' state bytes in the words' order; with degrees, each
// neighbour first loses one unvisited neighbour (p), one subtraction a
// word (no byte borrows: a neighbour of p counts p among its unvisited
// neighbours, and a border square starts at visitedBit|8 with at most
// four board neighbours). The words are read and written through unsafe
// pointers: the board's two-square border keeps them inside the padded
// state (a word past a row's end runs into the next row, and the last
// board row's row+1 word into the last border row), and p is always a
// board square.
func visitWords(st unsafe.Pointer, p int, t *genTables, degrees bool) uint64 {
	*(*uint8)(unsafe.Add(st, p)) |= visitedBit
	pa := (*uint32)(unsafe.Add(st, p+t.oA))
	pb := (*uint64)(unsafe.Add(st, p+t.oB))
	pc := (*uint64)(unsafe.Add(st, p+t.oC))
	pd := (*uint32)(unsafe.Add(st, p+t.oD))
	a, b, c, d := *pa, *pb, *pc, *pd
	if degrees {
		a -= 0x00010001
		b -= 0x0000000100000001
		c -= 0x0000000100000001
		d -= 0x00010001
		*pa, *pb, *pc, *pd = a, b, c, d
	}
	return gatherWords(a, b, c, d)
}

func runLanesRandom(ls []genLane, t *genTables, maxSteps int) int {
	oA, oB, oC, oD := t.oA, t.oB, t.oC, t.oD
	for {
		for i := range ls {
			l := &ls[i]
			moves := msbs(^l.v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			// drawSel's draw, written out.
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
			q := l.cur + int(t.selOff[int(moves)*8+int(uint32(prod>>32)&7)])
			l.cur = q
			l.push(q)
			// visitWords's, without degrees.
			st := l.st
			*(*uint8)(unsafe.Add(st, q)) |= visitedBit
			l.v = gatherWords(*(*uint32)(unsafe.Add(st, q+oA)), *(*uint64)(unsafe.Add(st, q+oB)),
				*(*uint64)(unsafe.Add(st, q+oC)), *(*uint32)(unsafe.Add(st, q+oD)))
		}
	}
}

// drawSel draws among moves on the lane's stream when they are two or
// more (tie all ones) and returns the chosen move's offset; with one move,
// its offset, the stream untouched.
func (l *genLane) drawSel(moves uint8, tie uint64, t *genTables) int {
	m := uint32(bits.OnesCount8(moves))
	hi, lo, x := pcgStep(l.hi, l.lo)
	prod := uint64(uint32(x)) * uint64(m)
	if uint32(prod) < m && tie != 0 { // Lemire's rejection: rare
		hi, lo, prod = uniformRetry(hi, lo, m, prod)
	}
	l.hi ^= (l.hi ^ hi) & tie
	l.lo ^= (l.lo ^ lo) & tie
	l.ties += int(tie & 1)
	return int(t.selOff[int(moves)*8+int(uint32(prod>>32)&7)])
}

// minDegree3 keeps the moves of least degree: after visiting cur every
// neighbour's degree is at most 7, three bit-planes of v.
func minDegree3(moves uint8, v uint64) uint8 {
	return uint8(keepLow(keepLow(keepLow(uint64(moves), uint64(msbs(v<<5))), uint64(msbs(v<<6))), uint64(msbs(v<<7))))
}

func runLanesWarnsdorff(ls []genLane, t *genTables, maxSteps int) int {
	for {
		for i := range ls {
			l := &ls[i]
			v := l.v
			moves := msbs(^v)
			if moves == 0 || l.plen > maxSteps {
				return i
			}
			moves = minDegree3(moves, v)
			q := l.cur + l.drawSel(moves, tieMask(moves), t)
			l.cur = q
			l.push(q)
			l.v = visitWords(l.st, q, t, true)
		}
	}
}

func runLanesFirst(ls []genLane, t *genTables, maxSteps int) int {
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
			q := l.cur + int((*[256]int32)(l.first)[moves])
			l.cur = q
			l.push(q)
			l.v = visitWords(l.st, q, t, true)
			if q == l.stop {
				l.scArrive(t.sc, q)
			}
		}
	}
}

// scArrive is walkSC's arrive for a lane on p: at the next switching
// square, that row's ordering becomes the lane's table; then its stop is
// the next switching square.
func (l *genLane) scArrive(sc *scKernel, p int) {
	if l.sct < len(sc.switch_) && p == sc.switch_[l.sct] {
		l.first = unsafe.Pointer(&sc.firstWords[l.sct])
		l.sct++
	}
	l.stop = -1
	if l.sct < len(sc.switch_) {
		l.stop = sc.switch_[l.sct]
	}
}

// runLanesTieBreak is Warnsdorff with any other tie-break: reduceTies on
// the lane's kernel (over k.off's order), then a draw among what it
// leaves.
func runLanesTieBreak(ls []genLane, t *genTables, maxSteps int) int {
	for {
		for i := range ls {
			l := &ls[i]
			if msbs(^l.v) == 0 || l.plen > maxSteps {
				return i
			}
			l.tieStep(t)
		}
	}
}

// tieStep takes the lane's step under Warnsdorff's rule with the chain of
// its kernel's rule (runLanesTieBreak's; the assembly's genLanesTied
// hands back its ties to it): the lane has a move and room for it.
func (l *genLane) tieStep(t *genTables) {
	v := l.v
	moves := t.asc[minDegree3(msbs(^v), v)]
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
	q := l.cur + l.k.off[bits.TrailingZeros8(moves)&7]
	l.cur = q
	l.push(q)
	l.v = visitWords(l.st, q, t, true)
}

// finishLane writes the lane's outcome and leaves its kernel's state as
// new, as walk does.
func (k *genKernel) finishLane(l *genLane, start int, stopped, degrees bool, out []Outcome) {
	o := Outcome{Start: start, Ties: l.ties, Stopped: stopped}
	l.k.ended(&o, l.cur, false)
	out[l.idx] = o
	l.k.clear(degrees)
}
