package sim

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// genKernel walks boards of any size. The board is padded with a two-square
// border of permanently visited squares so that a move needs no bounds
// check. Each square's state is one byte: bit 7 visited, the low bits its
// number of unvisited neighbours, kept up to date incrementally. A walk
// touches only the squares it visits and their neighbours (undone from the
// path afterwards), so its cost per step does not grow with the board.
type genKernel struct {
	b        *Board
	rule     Rule
	maxSteps int
	pc       int                 // padded columns: cols+4
	off      [8]int              // padded offsets of sortedMoves (ascending square order)
	rank     [8]uint8            // position of sortedMoves[i] in the rule's move order
	st       []uint8             // padded state bytes
	fresh    []uint8             // st before any walk, for resets by copying
	path     []int32             // padded indices of the current walk
	tied     [8]int32            // scratch: tied candidates, ascending (Backtrack)
	lanes    []genLane           // walks in flight in WalkRange (generalbatch.go)
	vec      *genVec             // the random walk's wide lanes (genvec.go), made on first use
	gt       *genTables          // their lookups
	draws    [genDrawRows]uint64 // the first lane's draw buffer (genLane.dr)
	sc       *scKernel           // squirrel-cull's orderings (generalsc.go), else nil

	// Backtrack scratch, allocated only for that rule.
	cands []int32 // 8 candidate slots per depth
	ncand []uint8
	next  []uint8

	// stop, when set, asks a search in progress to give up (Walker.StopOn);
	// stopped says the last walk did, so its outcome is no result.
	stop    *atomic.Bool
	stopped bool
}

const visitedBit = 0x80

func newGenKernel(b *Board, r Rule) *genKernel {
	k := &genKernel{b: b, pc: b.Cols + 4}
	n := b.Squares()
	k.setRule(r)
	for i, m := range sortedMoves {
		k.off[i] = m.DR*k.pc + m.DC
	}
	k.st = make([]uint8, (b.Rows+4)*k.pc)
	k.fillState()
	k.fresh = append([]uint8(nil), k.st...)
	k.path = make([]int32, 0, n)
	if r.Kind == Backtrack {
		k.cands = make([]int32, 8*n)
		k.ncand = make([]uint8, n)
		k.next = make([]uint8, n)
	}
	return k
}

// fillState lays out the fresh state: every border byte visited (with
// room for 8 decrements), every board square its degree. Copied row by
// row from the few distinct rows (a board's rows 2 to rows-3 have one
// pattern of degrees), since a sweep to n = 2000 makes a kernel of up to
// 4 million squares a board and a square at a time took as long as the
// walk.
func (k *genKernel) fillState() {
	st, rows, cols := k.st, k.b.Rows, k.b.Cols
	st[0] = visitedBit | 8
	for i := 1; i < len(st); i *= 2 {
		copy(st[i:], st[:i])
	}
	row := func(r int) []uint8 {
		t := make([]uint8, cols)
		for c := range t {
			t[c] = uint8(KnightDegree(rows, cols, r, c))
		}
		return t
	}
	var inner []uint8 // the degrees of the rows with two rows on either side
	for r := range rows {
		t := inner
		if r < 2 || r >= rows-2 {
			t = row(r)
		} else if t == nil {
			inner = row(r)
			t = inner
		}
		copy(st[(r+2)*k.pc+2:], t)
	}
}

// setRule makes r the kernel's rule: its step limit and move order. The
// board's state does not depend on the rule, so a kernel between walks can
// take another rule of the same kind (retarget).
func (k *genKernel) setRule(r Rule) {
	k.rule, k.maxSteps = r, r.MaxSteps
	if n := k.b.Squares(); k.maxSteps == 0 || k.maxSteps > n {
		k.maxSteps = n
	}
	k.rank = ranksOf(r.orderOn(k.b))
}

// ranksOf returns the position in order of each of sortedMoves.
func ranksOf(order []Move) (rank [8]uint8) {
	for i, m := range sortedMoves {
		for j, o := range order {
			if o == m {
				rank[i] = uint8(j)
			}
		}
	}
	return rank
}

// firstOffsets returns, for every non-empty mask whose bit j is move
// bitMove[j] (an index into k.off), the offset of its move of least rank:
// TieFirst's choice among ties.
func (k *genKernel) firstOffsets(rank [8]uint8, bitMove *[8]int) (t [256]int32) {
	for m := 1; m < 256; m++ {
		best := -1
		for j := range 8 {
			if m>>j&1 != 0 && (best < 0 || rank[bitMove[j]] < rank[bitMove[best]]) {
				best = j
			}
		}
		t[m] = int32(k.off[bitMove[best]])
	}
	return t
}

func (k *genKernel) pad(sq int) int {
	r, c := k.b.RowCol(sq)
	return (r+2)*k.pc + c + 2
}

func (k *genKernel) unpad(p int32) int {
	return k.b.Square(int(p)/k.pc-2, int(p)%k.pc-2)
}

// visit marks p visited; with degrees, its neighbours lose one unvisited
// neighbour.
func (k *genKernel) visit(p int, degrees bool) {
	st := k.st
	st[p] |= visitedBit
	if degrees {
		for _, o := range k.off {
			st[p+o]--
		}
	}
	k.path = append(k.path, int32(p))
}

// reset undoes the walk in k.path, leaving the state as new. The path's
// squares are board squares, their neighbours inside the padded state, so
// the bytes are reached through an unsafe pointer without a bounds check
// (the reset was a twentieth of a 1000x1000 random-walk run).
func (k *genKernel) reset(degrees bool) {
	st := unsafe.Pointer(&k.st[0])
	if !degrees {
		for _, p := range k.path {
			*(*uint8)(unsafe.Add(st, p)) &^= visitedBit
		}
	} else {
		o0, o1, o2, o3, o4, o5, o6, o7 := k.off[0], k.off[1], k.off[2], k.off[3], k.off[4], k.off[5], k.off[6], k.off[7]
		for _, p32 := range k.path {
			p := int(p32)
			*(*uint8)(unsafe.Add(st, p)) &^= visitedBit
			*(*uint8)(unsafe.Add(st, p+o0))++
			*(*uint8)(unsafe.Add(st, p+o1))++
			*(*uint8)(unsafe.Add(st, p+o2))++
			*(*uint8)(unsafe.Add(st, p+o3))++
			*(*uint8)(unsafe.Add(st, p+o4))++
			*(*uint8)(unsafe.Add(st, p+o5))++
			*(*uint8)(unsafe.Add(st, p+o6))++
			*(*uint8)(unsafe.Add(st, p+o7))++
		}
	}
	k.path = k.path[:0]
}

func (k *genKernel) walk(start int, src *PCG, keep bool) Outcome {
	if k.rule.Kind == Backtrack {
		return k.backtrack(start, src, keep)
	}
	degrees := k.rule.Kind == Warnsdorff
	o := Outcome{Start: start}
	k.visit(k.pad(start), degrees)
	cur := k.pad(start)
	for {
		// The allowed moves as a mask over k.off, whose squares ascend.
		moves := k.allowed(cur, degrees)
		if moves == 0 {
			break
		}
		if len(k.path) > k.maxSteps {
			o.Stopped = true
			break
		}
		if moves&(moves-1) != 0 {
			o.Ties++
			if degrees && k.rule.TieBreak != TieRandom {
				moves = k.reduceTies(moves, cur)
			}
			if moves&(moves-1) != 0 {
				moves = 1 << selectInByte[moves][Uniform(src, uint32(bits.OnesCount8(moves)))]
			}
		}
		cur += k.off[bits.TrailingZeros8(moves)&7]
		k.visit(cur, degrees)
	}
	k.ended(&o, cur, keep)
	k.clear(degrees)
	return o
}

// ended fills in o's length, end, success and closed (and with keep its
// path) from the walk in k.path, which ends on cur (padded).
func (k *genKernel) ended(o *Outcome, cur int, keep bool) {
	o.Length = len(k.path)
	o.End = k.unpad(int32(cur))
	o.Success = o.Length == k.b.Squares()
	o.Closed = o.Success && o.Length > 1 && k.b.Adjacent(o.Start, o.End)
	if keep {
		o.Path = k.realPath()
	}
}

// clear leaves the state as new after a walk: undoes it along its path,
// or on long walks copies the fresh state back, cheaper than 9 updates per
// visited square once the walk covers more than a small part of the board.
func (k *genKernel) clear(degrees bool) {
	cost := 1
	if degrees {
		cost = 9
	}
	if len(k.path)*cost*16 >= len(k.st) {
		copy(k.st, k.fresh)
		k.path = k.path[:0]
	} else {
		k.reset(degrees)
	}
}

// allowed returns the moves allowed from p, as a mask over k.off: those to
// unvisited squares, and with degrees only those of minimum degree. It
// gathers the eight neighbours' state bytes into one word and works on all
// of them at once, without a branch per neighbour: the bits of the state
// bytes become eight-bit masks, and the minimum is found on them as
// fastKernel does on the board's bit-planes.
func (k *genKernel) allowed(p int, degrees bool) uint8 {
	st, off := k.st, &k.off
	v := uint64(st[p+off[0]]) | uint64(st[p+off[1]])<<8 | uint64(st[p+off[2]])<<16 | uint64(st[p+off[3]])<<24 |
		uint64(st[p+off[4]])<<32 | uint64(st[p+off[5]])<<40 | uint64(st[p+off[6]])<<48 | uint64(st[p+off[7]])<<56
	moves := msbs(^v) // unvisited: bit 7 clear
	if !degrees {
		return moves
	}
	// Degrees are at most 8: four bits, moved in turn to bit 7.
	return uint8(minDegree(uint64(moves), uint64(msbs(v<<4)), uint64(msbs(v<<5)), uint64(msbs(v<<6)), uint64(msbs(v<<7))))
}

// msbs packs the top bit of each byte of x into one byte, byte i's into
// bit i: the multiplication moves bit 8i+7 to bit 56+i, and no two of its
// partial products meet.
func msbs(x uint64) uint8 {
	return uint8((x & 0x8080808080808080) * 0x0002040810204081 >> 56)
}

func (k *genKernel) realPath() []int32 {
	out := make([]int32, len(k.path))
	for i, p := range k.path {
		out[i] = int32(k.unpad(p))
	}
	return out
}

// reduceTies narrows the tied moves from cur (two or more, a mask over
// k.off) by the rule's tie-break, exactly as fastKernel.reduceTies does; a
// draw decides among what it leaves. It is the one place where the general
// kernel applies a tie-break to walks.
func (k *genKernel) reduceTies(moves uint8, cur int) uint8 {
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		k.tied[n] = int32(cur + k.off[bits.TrailingZeros8(m)])
		n++
	}
	tied := k.tied[:n]
	if k.rule.Kind == Warnsdorff && k.rule.TieBreak != TieRandom {
		n = narrowTies(k.rule.TieBreak.chain(), tied, k) // tiebreak.go
	}
	moves = 0
	for _, p := range tied[:n] {
		moves |= k.moveMask(cur, int(p))
	}
	return moves
}

// moveMask returns the bit of the move from cur to p.
func (k *genKernel) moveMask(cur, p int) uint8 {
	for i, off := range k.off {
		if cur+off == p {
			return 1 << i
		}
	}
	panic("sim: moveMask: not a knight move")
}

// neighbourDegreeSum is Pohl's second-level score: the sum of the degrees
// of p's unvisited neighbours.
func (k *genKernel) neighbourDegreeSum(p int32) int {
	s := 0
	for _, off := range k.off {
		if v := k.st[int(p)+off]; v < visitedBit {
			s += int(v)
		}
	}
	return s
}
