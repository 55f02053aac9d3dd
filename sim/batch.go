package sim

import "math/bits"

// The batched bitboard kernel: several walks in flight in one goroutine.
//
// One walk is a chain of dependent steps (load a neighbour mask, count,
// draw, select a square, load again), so a core running one walk at a time
// waits on latency most of the time. The batched kernel keeps batchLanes
// independent walks (each on its own stream, so nothing changes in what a
// walk draws) and advances each by one step in turn; the out-of-order core
// overlaps their chains. Each step is branch-free apart from the end of a
// walk and Lemire's rare rejection: whether a step draws is a data value
// that selects the stream's next state, not a branch the predictor has to
// guess. The next draw of each stream is computed one draw ahead, so that
// it is ready before the step that may consume it.
//
// Walks start in index order; each outcome lands in its own slot of the
// output, so the caller sees them in index order whatever order they end in.

// batchLanes is the number of walks in flight per goroutine.
const batchLanes = 8

// lanes holds the walks in flight, one array element per lane (arrays of
// fields rather than an array of structs: each step touches the same few
// fields of every lane).
type lanes struct {
	visited [batchLanes]uint64
	cur     [batchLanes]int
	length  [batchLanes]int
	ties    [batchLanes]int
	slot    [batchLanes]int    // index in the output; -1 for a filler walk past the end
	hi, lo  [batchLanes]uint64 // each stream's state after the output in x
	x       [batchLanes]uint64 // each stream's next output, not consumed yet
	planes  [4][batchLanes]uint64 // Warnsdorff: bit-plane j of every square's degree

	// Per step: the allowed squares, and the index of the chosen one
	// among them; after the select, the chosen square as a one-bit mask.
	set [batchLanes]uint64
	idx [batchLanes]uint32
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
	if k.rule.Kind == RandomWalk {
		bt.random(&ls)
	} else {
		bt.warnsdorff(&ls)
	}
}

// begin starts the next walk in lane j, or a filler walk when every walk
// has started (fillers keep the loop free of per-lane activity checks;
// their outcomes are dropped).
func (bt *batch) begin(ls *lanes, j int) {
	k := bt.k
	slot := -1
	if bt.next < len(bt.out) {
		slot = bt.next
		bt.next++
	}
	ls.slot[j] = slot
	hi, lo := bt.key.Seeds(bt.lo + uint64(slot))
	ls.hi[j], ls.lo[j], ls.x[j] = pcgStep(hi, lo)
	ls.visited[j] = 1 << bt.start
	ls.cur[j] = bt.start
	ls.length[j], ls.ties[j] = 1, 0
	if k.rule.Kind != RandomWalk {
		b := k.nb[bt.start]
		p0, p1, p2, p3 := k.planes[0], k.planes[1], k.planes[2], k.planes[3]
		p0, b = p0^b, b&^p0
		p1, b = p1^b, b&^p1
		p2, b = p2^b, b&^p2
		p3 ^= b
		ls.planes[0][j], ls.planes[1][j], ls.planes[2][j], ls.planes[3][j] = p0, p1, p2, p3
	}
}

// finish records the outcome of lane j's walk (one that ended with squares
// still allowed was stopped by MaxSteps), starts the lane's next walk and
// returns its first allowed set. It reports false when every slot is
// filled.
func (bt *batch) finish(ls *lanes, j int, stopped bool) (uint64, bool) {
	k := bt.k
	if slot := ls.slot[j]; slot >= 0 {
		o := &bt.out[slot]
		*o = Outcome{Start: bt.start, Length: ls.length[j], End: ls.cur[j], Ties: ls.ties[j], Stopped: stopped}
		o.Success = o.Length == k.n
		o.Closed = o.Success && k.n > 1 && k.nb[bt.start]>>ls.cur[j]&1 != 0
		bt.done++
		if bt.done == len(bt.out) {
			return 0, false
		}
	}
	bt.begin(ls, j)
	return k.nb[bt.start] &^ ls.visited[j], true
}

// draw consumes lane j's next output when the allowed set has m > 1
// squares and records in ls.idx[j] the index of the chosen square among
// them (0 when m == 1). Whether it draws is computed, not branched on: the
// stream moves on to its next output only when this one was consumed.
func (ls *lanes) draw(j int, m uint32) {
	prod := uint64(uint32(ls.x[j])) * uint64(m)
	hi, lo := ls.hi[j], ls.lo[j]
	if uint32(prod) < m && m > 1 {
		hi, lo, prod = uniformRetry(hi, lo, m, prod)
	}
	nhi, nlo, nx := pcgStep(hi, lo)
	var keep uint64 // all ones when nothing was drawn
	if m <= 1 {
		keep = ^uint64(0)
	}
	ls.hi[j] = nhi ^ (nhi^ls.hi[j])&keep
	ls.lo[j] = nlo ^ (nlo^ls.lo[j])&keep
	ls.x[j] = nx ^ (nx^ls.x[j])&keep
	ls.idx[j] = uint32(prod >> 32)
}

// choose turns every lane's allowed set into its chosen square.
func (ls *lanes) choose() {
	if usePDEP {
		pdepSelect(&ls.set, &ls.idx)
		return
	}
	for j := range batchLanes {
		ls.set[j] = nthBit(ls.set[j], ls.idx[j])
	}
}

func (bt *batch) random(ls *lanes) {
	nb := &bt.k.nb
	maxSteps := bt.k.maxSteps
	for {
		for j := range batchLanes {
			cand := nb[ls.cur[j]&63] &^ ls.visited[j]
			if cand == 0 || ls.length[j] > maxSteps {
				var more bool
				if cand, more = bt.finish(ls, j, cand != 0); !more {
					return
				}
			}
			m := uint32(bits.OnesCount64(cand))
			ls.ties[j] += b2i(m > 1)
			ls.set[j] = cand
			ls.draw(j, m)
		}
		ls.choose()
		for j := range batchLanes {
			b := ls.set[j]
			ls.cur[j] = bits.TrailingZeros64(b)
			ls.visited[j] |= b
			ls.length[j]++
		}
	}
}

func (bt *batch) warnsdorff(ls *lanes) {
	k := bt.k
	nb := &k.nb
	maxSteps := k.maxSteps
	for {
		for j := range batchLanes {
			cand := nb[ls.cur[j]&63] &^ ls.visited[j]
			if cand == 0 || ls.length[j] > maxSteps {
				var more bool
				if cand, more = bt.finish(ls, j, cand != 0); !more {
					return
				}
			}
			cand = minDegree(cand, ls.planes[3][j], ls.planes[2][j], ls.planes[1][j], ls.planes[0][j])
			tie := cand&(cand-1) != 0
			ls.ties[j] += b2i(tie)
			if k.rule.TieBreak != TieRandom && tie {
				cand = k.reduceTies(cand, ls.cur[j], ls.visited[j])
			}
			ls.set[j] = cand
			ls.draw(j, uint32(bits.OnesCount64(cand)))
		}
		ls.choose()
		for j := range batchLanes {
			b := ls.set[j]
			cur := bits.TrailingZeros64(b)
			ls.cur[j] = cur
			ls.visited[j] |= b
			ls.length[j]++
			b = nb[cur&63]
			p0, p1, p2, p3 := ls.planes[0][j], ls.planes[1][j], ls.planes[2][j], ls.planes[3][j]
			p0, b = p0^b, b&^p0
			p1, b = p1^b, b&^p1
			p2, b = p2^b, b&^p2
			p3 ^= b
			ls.planes[0][j], ls.planes[1][j], ls.planes[2][j], ls.planes[3][j] = p0, p1, p2, p3
		}
	}
}

// minDegree keeps the squares of cand of minimum degree, given the degree
// bit-planes from the top down: from the top plane down, it drops those
// with a 1 wherever some candidate has a 0.
func minDegree(cand, p3, p2, p1, p0 uint64) uint64 {
	if t := cand &^ p3; t != 0 {
		cand = t
	}
	if t := cand &^ p2; t != 0 {
		cand = t
	}
	if t := cand &^ p1; t != 0 {
		cand = t
	}
	if t := cand &^ p0; t != 0 {
		cand = t
	}
	return cand
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// usePDEP selects the PDEP instruction for choose: set once, to
// haveFastPDEP; tests and benchmarks switch it to compare both paths.
var usePDEP = haveFastPDEP
