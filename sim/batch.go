package sim

import "math/bits"

// The batched bitboard kernel: several walks in flight in one goroutine.
//
// One walk is a chain of dependent steps (load a neighbour mask, count,
// draw, select a square, load again), so a core running one walk at a time
// waits on latency most of the time. The batched kernel keeps batchLanes
// independent walks (each on its own stream, so nothing changes in what a
// walk draws) and advances each by one step per round, in three passes
// over the lanes: move and find the allowed squares; draw for the lanes
// that must choose; select the chosen squares. The out-of-order core
// overlaps the lanes' chains, and the passes carry no branch the
// predictor could miss often: only the lanes with a tie are drawn for
// (their indices are gathered without branching), and the select is one
// PDEP per lane.
//
// The Go rounds select by PDEP (PathPDEP16, and the rounds the vector
// paths hand over) or, on every CPU, by knightSelect's multiply hash
// (PathScalar; nthBit on boards wider than 15 columns), for only the lanes
// that drew. With nthBit for every lane they once measured slower than
// walking one walk at a time (0.75× for Warnsdorff, 0.88× for the random
// walk); with the hash for the lanes that drew, and Warnsdorff's pass
// calling nothing, they measured 1.36× (Warnsdorff, 286 against 390 CPU ns
// per walk) and 1.16× (random walk, 198 against 229) the one-at-a-time
// kernel (BenchmarkKernel8x8*ScalarPath against *Scalar, best of three
// alternating runs on the 2-core Zen 5), so every path now runs them. Which path is fastest is measured
// (autopath.go) unless KernelEnv forces one.
//
// Where the CPU has AVX-512 or AVX2, Warnsdorff with random ties and the
// random walk can run their rounds in vec_amd64.s (AVX-512, eight lanes
// per register) or vec2_amd64.s (AVX2, four) instead: the same three
// steps per round, the PCG step from 32-bit products and the select as
// "drop the lowest allowed square while the index is larger". These rounds
// stop before a round in which a walk ends or a draw meets Lemire's rare
// rejection, having stored nothing of it: vecRounds finishes the ended
// walks in Go and the Go rounds below run the rest, so they remain the
// reference. On this project's 2-core AMD EPYC the AVX-512 rounds cut the
// 8x8 kernels from 507 to 248 CPU ns per walk (Warnsdorff) and from 230 to
// 138 (random walk) against the Go rounds, same go test -bench run
// (BenchmarkKernel8x8*GoRounds and *AVX512; *AVX2 for the AVX2 rounds).
//
// Walks start in index order; each outcome lands in its own slot of the
// output, so the caller sees them in index order whatever order they end in.

// batchLanes is the number of walks in flight per goroutine.
const batchLanes = 16

// lanes holds the walks in flight, one array element per lane (arrays of
// fields rather than an array of structs: each pass touches the same few
// fields of every lane).
type lanes struct {
	visited [batchLanes]uint64 // its popcount is the walk's length
	ties    [batchLanes]int
	slot    [batchLanes]int       // index in the output; -1 for a filler walk past the end
	hi, lo  [batchLanes]uint64    // each walk's stream
	planes  [4][batchLanes]uint64 // Warnsdorff: bit-plane i of every square's degree

	// set holds each lane's allowed squares, then (after choose) the
	// chosen square as a one-bit mask, which the next round moves to; idx
	// is the index of the chosen square among the allowed ones.
	set [batchLanes]uint64
	idx [batchLanes]uint32

	// The lanes that must draw this round come first in draw.
	draw [batchLanes]uint8

	at [batchLanes]uint8 // the square each lane moved into this round

	inv uint64 // ^0 while the planes are complemented (invert), else 0
}

// batch runs the walks of a run of consecutive indices from one start.
type batch struct {
	k     *fastKernel
	start int
	key   Key
	lo    uint64
	out   []Outcome
	next  int // next slot to start
	done  int // slots filled
}

// walkBatch writes the outcome of walk lo+i from start to out[i] for every
// i, exactly as walk would with the stream key.Seeds(lo+i). Paths are not
// kept.
func (k *fastKernel) walkBatch(start int, key Key, lo uint64, out []Outcome) {
	if len(out) == 0 {
		return
	}
	if k.nb[start] == 0 {
		// No move from start: every walk is the start alone, and draws
		// nothing (the lanes below assume each walk makes a first step).
		for i := range out {
			out[i] = k.walk(start, &PCG{}, false)
		}
		return
	}
	bt := batch{k: k, start: start, key: key, lo: lo, out: out}
	var ls lanes
	for j := range batchLanes {
		bt.begin(&ls, j)
	}
	if k.rule.Kind == RandomWalk && k.hashChoose && k.hasKS && k.maxSteps >= k.n {
		bt.randomFused(&ls)
	} else if k.rule.Kind == RandomWalk {
		bt.random(&ls)
	} else {
		bt.warnsdorff(&ls)
	}
}

// begin starts the next walk in lane j, or a filler walk when every walk
// has started (fillers keep the passes free of per-lane activity checks;
// their outcomes are dropped). The lane is left just before the start
// square, with the start as its chosen square, so that the next move
// enters it.
func (bt *batch) begin(ls *lanes, j int) {
	k := bt.k
	slot := -1
	if bt.next < len(bt.out) {
		slot = bt.next
		bt.next++
	}
	ls.slot[j] = slot
	ls.hi[j], ls.lo[j] = bt.key.Seeds(bt.lo + uint64(slot))
	ls.visited[j] = 0
	ls.set[j] = 1 << bt.start
	ls.ties[j] = 0
	for i := range ls.planes {
		ls.planes[i][j] = k.planes[i] ^ ls.inv
	}
}

// invert complements every lane's degree planes: the Go rounds of
// Warnsdorff keep them complemented (a square's bit is 1 where its degree
// has a 0), the vector rounds as they are.
func (ls *lanes) invert() {
	for i := range ls.planes {
		for j := range batchLanes {
			ls.planes[i][j] = ^ls.planes[i][j]
		}
	}
	ls.inv = ^ls.inv
}

// finish records the outcome of lane j's walk, which ended at cur (one
// that ended with squares still allowed was stopped by MaxSteps), and
// starts the lane's next walk. It reports false when every slot is filled.
func (bt *batch) finish(ls *lanes, j, cur int, stopped bool) bool {
	k := bt.k
	if slot := ls.slot[j]; slot >= 0 {
		o := &bt.out[slot]
		*o = Outcome{Start: bt.start, Length: bits.OnesCount64(ls.visited[j]), End: cur, Ties: ls.ties[j], Stopped: stopped}
		o.Success = o.Length == k.n
		o.Closed = o.Success && k.n > 1 && k.nb[bt.start]>>cur&1 != 0
		bt.done++
		if bt.done == len(bt.out) {
			return false
		}
	}
	bt.begin(ls, j)
	return true
}

// needs stores lane j's allowed set and, when it has more than one
// square, lists the lane among those that must draw: ndraw lanes so far,
// one more returned (a count kept in a register by the callers: through
// memory, each lane would wait on the previous lane's store).
func (ls *lanes) needs(j int, set uint64, ndraw int) int {
	ls.set[j] = set
	ls.draw[ndraw&(batchLanes-1)] = uint8(j)
	return ndraw + b2i(set&(set-1) != 0)
}

// drawAll draws, for every lane that must choose, the index of the chosen
// square among its allowed ones from its stream (Uniform's method inlined).
func (ls *lanes) drawAll(ndraw int) {
	for _, j := range ls.draw[:ndraw] {
		j &= batchLanes - 1
		m := uint32(bits.OnesCount64(ls.set[j]))
		var x uint64
		hi, lo := ls.hi[j], ls.lo[j]
		hi, lo, x = pcgStep(hi, lo)
		prod := uint64(uint32(x)) * uint64(m)
		if uint32(prod) < m {
			hi, lo, prod = uniformRetry(hi, lo, m, prod)
		}
		ls.hi[j], ls.lo[j] = hi, lo
		ls.idx[j] = uint32(prod >> 32)
	}
}

// drawChoose draws for every lane that must choose (drawAll) and turns
// every lane's allowed set into its chosen square: by PDEP (for the random
// walk on every lane, for Warnsdorff, which draws for few lanes, on those
// that drew), or where k.hashChoose by knightSelect (no PDEP needed) for
// the lanes that drew, in the same loop (the others have one allowed
// square).
func (ls *lanes) drawChoose(k *fastKernel, ndraw int) {
	if !k.hashChoose {
		if k.rule.Kind != RandomWalk {
			ls.drawAll(ndraw)
			pdepSelectDrawn(ls, ndraw) // Warnsdorff draws for few lanes
			return
		}
		// Most lanes draw: PDEP on all of them, branch-free.
		ls.idx = [batchLanes]uint32{} // the lanes that do not draw take their one square
		ls.drawAll(ndraw)
		pdepSelect(&ls.set, &ls.idx)
		return
	}
	if k.hasKS {
		// The hash gives the number of allowed squares too: no popcount.
		ks := &k.ks
		for _, j := range ls.draw[:ndraw] {
			j &= batchLanes - 1
			cand, cur := ls.set[j], int(ls.at[j])
			h := bits.RotateLeft64(cand, ks.base-cur) * ks.magic >> 56 & 255
			m := uint32(ks.count[h])
			var x uint64
			hi, lo := ls.hi[j], ls.lo[j]
			hi, lo, x = pcgStep(hi, lo)
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				hi, lo, prod = uniformRetry(hi, lo, m, prod)
			}
			ls.hi[j], ls.lo[j] = hi, lo
			ls.set[j] = 1 << ((cur + int(ks.off[h][prod>>32&7])) & 63)
		}
		return
	}
	for _, j := range ls.draw[:ndraw] {
		j &= batchLanes - 1
		cand, cur := ls.set[j], int(ls.at[j])
		m := uint32(bits.OnesCount64(cand))
		var x uint64
		hi, lo := ls.hi[j], ls.lo[j]
		hi, lo, x = pcgStep(hi, lo)
		prod := uint64(uint32(x)) * uint64(m)
		if uint32(prod) < m {
			hi, lo, prod = uniformRetry(hi, lo, m, prod)
		}
		ls.hi[j], ls.lo[j] = hi, lo
		ls.set[j] = 1 << (k.next(cand, cur, k.hash(cand, cur), uint32(prod>>32)) & 63)
	}
}

// The Go rounds of Warnsdorff's rule: one pass over the lanes that moves
// each into its chosen square and finds its allowed squares
// (warnsdorffPass), the draws and the select. Between the pass and the
// draws, max_steps ends walks (stopAll), the walks that ended are recorded
// and the lanes' next walks make their first move (endPass), the lanes
// that must draw count a tie (countTies) and tie-break chains narrow the
// ties (reduceAll). The pass calls nothing, so that the compiler keeps its
// values in registers (with the walk ends handled in it, as the random
// walk's rounds do, it spilled them); a lane whose walk ended stays on its
// last square through the pass (one allowed square: no draw).

// random keeps the rounds as they were before the passes below: moved to
// a pass like Warnsdorff's, they measured about 6% slower.
func (bt *batch) random(ls *lanes) {
	nb := &bt.k.nb
	maxSteps := bt.k.maxSteps
	limit := maxSteps < bt.k.n // else no walk can exceed it
	for {
		if v := bt.k.vec; v != nil && !bt.vecRounds(ls, v, v.random) {
			return
		}
		ndraw := 0
		for j := range batchLanes {
			var cand uint64
			for {
				b := ls.set[j]
				cur := bits.TrailingZeros64(b|1<<63) & 63 // b has one square: the OR drops the test for 0
				visited := ls.visited[j] | b
				ls.visited[j] = visited
				ls.at[j] = uint8(cur)
				cand = nb[cur] &^ visited
				if cand != 0 && (!limit || bits.OnesCount64(visited) <= maxSteps) {
					break
				}
				if !bt.finish(ls, j, cur, cand != 0) {
					return
				}
			}
			ls.ties[j] += b2i(cand&(cand-1) != 0)
			ndraw = ls.needs(j, cand, ndraw)
		}
		ls.drawChoose(bt.k, ndraw)
	}
}

// randomFused is the random walk's round on PathScalar (knightSelect's
// select, no PDEP) without max_steps: one pass that moves each lane, draws and selects,
// with no list of the lanes that draw. Every lane computes the next
// output of its stream; a lane with one allowed square keeps its stream
// as it was (a select by mask, no branch), so it draws nothing, as the
// stream contract says. With one allowed square the index is 0 whatever
// the output (Lemire's product of a 32-bit number and 1 has a high word
// of 0), and the select finds that square. The hash gives the number of
// allowed squares too (knightSelect.count), so the round needs no
// popcount (a call where the CPU lacks POPCNT, around which the compiler
// keeps the lanes' values in memory). Against the two passes of
// random (a pass, then the draws for the lanes listed), it drops the list,
// its indirect loads and the branch on whether a lane draws, and the
// out-of-order core overlaps the lanes' whole steps.
func (bt *batch) randomFused(ls *lanes) {
	k := bt.k
	nb := &k.nb
	ks := &k.ks
	for {
		for j := range batchLanes {
			var cand uint64
			var cur int
			for {
				b := ls.set[j]
				cur = bits.TrailingZeros64(b|1<<63) & 63 // b has one square: the OR drops the test for 0
				visited := ls.visited[j] | b
				ls.visited[j] = visited
				cand = nb[cur] &^ visited
				if cand != 0 {
					break
				}
				if !bt.finish(ls, j, cur, false) {
					return
				}
			}
			h := bits.RotateLeft64(cand, ks.base-cur) * ks.magic >> 56 & 255
			m := uint32(ks.count[h])
			tie := uint64(b2i(m > 1))
			ls.ties[j] += int(tie)
			hi, lo := ls.hi[j], ls.lo[j]
			nhi, nlo, x := pcgStep(hi, lo)
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				nhi, nlo, prod = uniformRetry(nhi, nlo, m, prod)
			}
			keep := -tie // all ones where the lane drew
			ls.hi[j] = hi ^ (hi^nhi)&keep
			ls.lo[j] = lo ^ (lo^nlo)&keep
			ls.set[j] = 1 << ((cur + int(ks.off[h][prod>>32&7])) & 63)
		}
	}
}

func (bt *batch) warnsdorff(ls *lanes) {
	k := bt.k
	limit := k.maxSteps < k.n // else no walk can exceed it
	reduce := k.rule.TieBreak != TieRandom
	v := k.vec
	if v == nil {
		ls.invert() // for good: no vector rounds
	}
	for {
		if v != nil {
			if !bt.vecRounds(ls, v, v.warnsdorff) {
				return
			}
			ls.invert() // for this round
		}
		ndraw, ended := ls.warnsdorffPass(&k.nb)
		if v != nil {
			ls.topPlane(&k.nb) // kept only for the vector rounds
		}
		if limit {
			ndraw, ended = ls.stopAll(k.maxSteps, ended)
		}
		if ended != 0 {
			var ok bool
			if ndraw, ok = bt.endPass(ls, ended, ndraw); !ok {
				return
			}
		}
		ls.countTies(ndraw)
		if reduce && ndraw != 0 {
			ndraw = ls.reduceAll(k, ndraw)
		}
		ls.drawChoose(k, ndraw)
		if v != nil {
			ls.invert()
		}
	}
}

// warnsdorffPass is Warnsdorff's pass: it returns the number of lanes
// that must draw (listed in ls.draw) and the lanes whose walk ended (a bit
// each). It keeps three of the four degree planes (topPlane the fourth).
func (ls *lanes) warnsdorffPass(nb *[64]uint64) (ndraw int, ended uint32) {
	for j := range batchLanes {
		b := ls.set[j]
		cur := bits.TrailingZeros64(b|1<<63) & 63 // b has one square: the OR drops the test for 0
		visited := ls.visited[j] | b
		ls.visited[j] = visited
		ls.at[j] = uint8(cur)
		// The move: cur's neighbours lose one unvisited neighbour.
		// The planes are complemented (invert): a bit-sliced decrement
		// without a complement per plane (&^ is two instructions before
		// GOAMD64=v3).
		n := nb[cur]
		d := n
		q0, q1, q2 := ls.planes[0][j], ls.planes[1][j], ls.planes[2][j]
		q0, d = q0^d, d&q0
		q1, d = q1^d, d&q1
		q2 ^= d
		ls.planes[0][j], ls.planes[1][j], ls.planes[2][j] = q0, q1, q2
		cand := n &^ visited
		if cand == 0 {
			ended |= 1 << j
			cand = b
		} else {
			// A candidate neighbours cur, which is visited: its degree is
			// at most 7, so the top plane is 0 for every candidate.
			cand = keepIn(keepIn(keepIn(cand, q2), q1), q0)
		}
		ndraw = ls.needs(j, cand, ndraw)
	}
	return ndraw, ended
}

// topPlane brings the top degree plane up to date after warnsdorffPass:
// the move into square s borrows from the top plane at the neighbours of s
// whose lower three bits went from 0 to 7, which (complemented) are now 0
// in all three planes.
func (ls *lanes) topPlane(nb *[64]uint64) {
	for j := range batchLanes {
		n := nb[ls.at[j]&63]
		ls.planes[3][j] ^= n &^ (ls.planes[0][j] | ls.planes[1][j] | ls.planes[2][j])
	}
}

// stopAll ends, as stopped by max_steps, the walks of the lanes not in
// ended that have visited more than maxSteps squares (the passes leave
// this check out: it is needed only when max_steps is set), and returns
// the pass's results as they then are.
func (ls *lanes) stopAll(maxSteps int, ended uint32) (int, uint32) {
	ndraw := 0
	for j := range batchLanes {
		if ended>>j&1 == 0 && bits.OnesCount64(ls.visited[j]) > maxSteps {
			ended |= 1 << j
			ls.set[j] = 1 << ls.at[j]
		}
		ndraw = ls.needs(j, ls.set[j], ndraw)
	}
	return ndraw, ended
}

// countTies counts a tie decision for each of the ndraw lanes in ls.draw
// (before a tie-break chain: the primary criterion tied).
func (ls *lanes) countTies(ndraw int) {
	for _, j := range ls.draw[:ndraw] {
		ls.ties[j&(batchLanes-1)]++
	}
}

// reduceAll applies the rule's tie-break chain to the ndraw tied lanes in
// ls.draw and returns the number of lanes that must still draw, listed
// again in ls.draw.
func (ls *lanes) reduceAll(k *fastKernel, ndraw int) int {
	for _, j := range ls.draw[:ndraw] {
		j &= batchLanes - 1
		ls.set[j] = k.reduceTies(ls.set[j], int(ls.at[j]), ls.visited[j])
	}
	ndraw = 0
	for j := range batchLanes {
		ndraw = ls.needs(j, ls.set[j], ndraw)
	}
	return ndraw
}

// endPass records the walks that ended in the pass (the lanes in ended,
// each still on its last square), starts the lanes' next walks and makes
// their first move, as the pass would have: it returns the number of
// lanes that must draw with those lanes added, and false when every slot
// is filled.
func (bt *batch) endPass(ls *lanes, ended uint32, ndraw int) (int, bool) {
	k := bt.k
	for ; ended != 0; ended &= ended - 1 {
		j := bits.TrailingZeros32(ended)
		cur := int(ls.at[j])
		if !bt.finish(ls, j, cur, k.nb[cur]&^ls.visited[j] != 0) {
			return 0, false
		}
		// The first move, into the start (which has a move: walkBatch).
		cur = bt.start
		ls.visited[j] = 1 << cur
		ls.at[j] = uint8(cur)
		cand := k.nb[cur]
		d := cand
		for i := range 4 { // complemented planes, as warnsdorffPass
			q := ls.planes[i][j]
			ls.planes[i][j], d = q^d, d&q
		}
		cand = keepIn(keepIn(keepIn(cand, ls.planes[2][j]), ls.planes[1][j]), ls.planes[0][j])
		ndraw = ls.needs(j, cand, ndraw)
	}
	return ndraw, true
}

// vecRounds advances the lanes by the vector rounds of v (rounds is one
// of its functions) for as long as they can go, finishing and restarting
// in Go the walks that end. It returns when a round must run in Go (a draw
// met Lemire's rejection, or the rounds allowed per call, k.vecRounds, are
// used up), reporting false when every slot is filled.
func (bt *batch) vecRounds(ls *lanes, v *vecImpl, rounds func(*lanes, *[64]uint64, uint64, int) uint64) bool {
	k := bt.k
	nb := &k.nb
	if v.reversed {
		nb = &k.nbRev
	}
	maxSteps := uint64(64) // no limit: no walk visits more than 64 squares
	if k.maxSteps < k.n {
		maxSteps = uint64(k.maxSteps)
	}
	for {
		ended := rounds(ls, nb, maxSteps, k.vecRounds) & (1<<batchLanes - 1)
		if ended == 0 {
			return true
		}
		for ; ended != 0; ended &= ended - 1 {
			// The lane is as before the round that would move it into
			// ls.set[j]: make the move, then finish the walk there.
			j := bits.TrailingZeros64(ended)
			b := ls.set[j]
			cur := bits.TrailingZeros64(b)
			visited := ls.visited[j] | b
			ls.visited[j] = visited
			if !bt.finish(ls, j, cur, k.nb[cur]&^visited != 0) {
				return false
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// minDegree keeps the squares of cand of minimum degree, given the degree
// bit-planes from the top down: from the top plane down, it drops those
// with a 1 wherever some candidate has a 0.
func minDegree(cand, p3, p2, p1, p0 uint64) uint64 {
	return keepLow(keepLow(keepLow(keepLow(cand, p3), p2), p1), p0)
}

// keepIn keeps the squares of cand in q, if there are any.
func keepIn(cand, q uint64) uint64 {
	t := cand & q
	if t == 0 {
		t = cand
	}
	return t
}
