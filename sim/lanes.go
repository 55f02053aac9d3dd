package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// Rules of your own in lanes (docs/rules.md, "A rule in lanes: 16 walks a
// call").
//
// A Policy answers one position a call: on 8×8 the call, Moves, a Degree
// per neighbour and the branches that compare them cost about ten times a
// step of the built-in kernels, which keep 16 walks in flight. A policy
// that also implements LanePolicy is handed LaneCount walks in flight at
// once, as bitboards, with every square's degree kept by the kernel as
// bit-planes (the built-ins' representation): its answer for a walk is a
// subset of that walk's free squares, a few word operations. The kernel
// draws among the allowed squares exactly as the policy kernel does (in
// ascending square order, one draw from the walk's stream when there are
// two or more), so the two forms of one rule walk the same walks; the
// guard holds the rule to that (the replay asks both forms the same
// positions).
//
// Only Monte Carlo walks on boards of at most 64 squares (Walker.WalkRange
// without paths) run in lanes; everything else (larger boards, paths,
// exact enumeration, splitting, backtracking, a Stateful policy) asks
// Allowed, which a LanePolicy still implements.

// LaneCount is the number of walks a LanePolicy is handed at once.
const LaneCount = batchLanes

// LanePolicy is a Policy that can also answer LaneCount walks at once on
// boards of at most 64 squares. AllowedLanes sets l.Allowed[j], for every
// lane j, to the squares the rule allows next in lane j's walk: a subset
// of l.Free[j] (bit s: square s), the empty set to end the walk. Its
// answer for a lane must be the set of squares Allowed answers for that
// lane's position (the replay checks on a few walks), and, like Allowed,
// depend on the position alone.
type LanePolicy interface {
	Policy
	AllowedLanes(l *Lanes)
}

// Lanes is LaneCount walks in flight on one board of at most 64 squares,
// all from one start, as bitboards: bit s of a word is square s. Lane j's
// position is Cur[j] and Visited[j]; the kernel keeps Free and Degree up
// to date as the walks move. A rule reads them and writes Allowed.
type Lanes struct {
	Cur     [LaneCount]int    // the square each walk is on
	Visited [LaneCount]uint64 // the squares visited, the current one included
	Free    [LaneCount]uint64 // the unvisited knight neighbours of Cur: what a rule may allow
	// Degree holds every square's degree (its number of unvisited knight
	// neighbours, 0 to 8) as four bit-planes: bit s of Degree[i][j] is
	// bit i of square s's degree in lane j's walk. MinDegree and DegreeOf
	// read them.
	Degree  [4][LaneCount]uint64
	Allowed [LaneCount]uint64 // the answer, one set a lane

	board *Board
	start int
	nb    *[64]uint64
}

// Board returns the board.
func (l *Lanes) Board() *Board { return l.board }

// Start returns the square every walk in flight started on.
func (l *Lanes) Start() int { return l.start }

// Neighbours returns the knight neighbours of sq, visited or not, as a
// bitboard.
func (l *Lanes) Neighbours(sq int) uint64 { return l.nb[sq&63] }

// DegreeOf returns the degree of sq in lane j's walk: its unvisited
// knight neighbours (Position.Degree).
func (l *Lanes) DegreeOf(j, sq int) int {
	s := uint(sq) & 63
	return int(l.Degree[0][j]>>s&1 | (l.Degree[1][j]>>s&1)<<1 | (l.Degree[2][j]>>s&1)<<2 | (l.Degree[3][j]>>s&1)<<3)
}

// MinDegree returns the squares of set of least degree in lane j's walk
// (Warnsdorff's rule: l.Allowed[j] = l.MinDegree(j, l.Free[j])): from the
// top plane down it drops the squares with a 1 wherever some square of the
// set has a 0. An empty set gives the empty set.
func (l *Lanes) MinDegree(j int, set uint64) uint64 {
	return minDegree(set, l.Degree[3][j], l.Degree[2][j], l.Degree[1][j], l.Degree[0][j])
}

// MinDegrees sets dst[j] to MinDegree(j, set[j]) for every lane j, in one
// loop (dst may be set): Warnsdorff's rule is l.MinDegrees(&l.Allowed,
// &l.Free).
func (l *Lanes) MinDegrees(dst, set *[LaneCount]uint64) {
	d := &l.Degree
	for j := range LaneCount {
		dst[j] = minDegree(set[j], d[3][j], d[2][j], d[1][j], d[0][j])
	}
}

// DegreeIs returns the squares of set whose degree in lane j's walk is d.
func (l *Lanes) DegreeIs(j int, set uint64, d int) uint64 {
	for i := range 4 {
		p := l.Degree[i][j]
		if d>>i&1 == 0 {
			p = ^p
		}
		set &= p
	}
	return set
}

// laneKernel is the lanes of a LanePolicy on one board and its scratch
// state, kept by the policy kernel (policyKernel.walkLanes).
type laneKernel struct {
	l        Lanes
	pol      LanePolicy
	nb       [64]uint64
	planes   [4]uint64 // every square's degree with nothing visited
	n        int
	maxSteps int
	pdep     bool // select by PDEP (else nthBit)
	avx512   bool // the check and the move by AVX-512 (lanes_amd64.s)

	// The walks as the kernel keeps them: l shows a copy, rewritten by
	// every move, so that a rule that writes to it changes nothing but
	// its own answer (checked against free).
	cur     [LaneCount]int
	visited [LaneCount]uint64
	free    [LaneCount]uint64
	degree  [4][LaneCount]uint64

	hi, lo [LaneCount]uint64 // each walk's stream
	ties   [LaneCount]int
	slot   [LaneCount]int    // index in the output; -1 for a filler walk past the end
	set    [LaneCount]uint64 // the allowed squares, then the square to move into
	idx    [LaneCount]uint32 // the index drawn among the allowed squares
	draw   [LaneCount]uint8  // the lanes that draw this round
	out    []Outcome         // the walks of this call of walkLanes
	next   int               // next slot to start
	done   int               // slots filled

	rc    *replayCheck       // nil: no walk replayed
	track uint32             // the lanes whose walk is replayed (sampledStream, or walk 0)
	paths [LaneCount][]int32 // their squares, start first
}

// newLaneKernel returns the lanes of pol on b (at most 64 squares).
func newLaneKernel(b *Board, pol LanePolicy, maxSteps int) *laneKernel {
	k := &laneKernel{pol: pol, n: b.Squares(), maxSteps: maxSteps}
	for sq := range k.n {
		for _, t := range b.Neighbours(nil, sq) {
			k.nb[sq] |= 1 << t
		}
		d := bits.OnesCount64(k.nb[sq])
		for i := range k.planes {
			k.planes[i] |= uint64(d>>i&1) << sq
		}
	}
	k.l.board, k.l.nb = b, &k.nb
	p, _ := KernelPathFromEnv() // an unknown path failed NewWalker already
	k.pdep = cpuHas.bmi2 && p != PathScalar
	k.avx512 = cpuHas.avx512 && cpuHas.bmi2 && (p == PathAuto || p == PathAVX512)
	return k
}

// begin starts the next walk in lane j (a filler when every walk has
// started), just before its start square: the next move enters it.
func (k *laneKernel) begin(j int, start int, key Key, lo uint64) {
	slot := -1
	if k.next < len(k.out) {
		slot = k.next
		k.next++
	}
	k.slot[j] = slot
	k.hi[j], k.lo[j] = key.Seeds(lo + uint64(slot))
	if k.rc != nil {
		if slot >= 0 && (lo+uint64(slot) == 0 || sampledStream(k.hi[j])) {
			k.track |= 1 << j
			k.paths[j] = k.paths[j][:0]
		} else {
			k.track &^= 1 << j
		}
	}
	k.ties[j] = 0
	k.visited[j] = 0
	for i := range 4 {
		k.degree[i][j] = k.planes[i]
	}
	k.set[j] = 1 << start
	k.idx[j] = 0
}

// walkLanes writes the outcome of walk lo+i from start to out[i] for every
// i, as walk would with the stream key.Seeds(lo+i), LaneCount walks at a
// time through the rule's AllowedLanes, behind the guard: every answer
// checked (a subset of the lane's free squares; one square at most from a
// Deterministic rule), a panic recovered once a call of walkLanes, and each
// round marked for the call watch by one release store.
func (pk *policyKernel) walkLanes(start int, key Key, lo uint64, out []Outcome) {
	k, g := pk.lanes, pk.g
	k.l.start = start
	k.out, k.next, k.done = out, 0, 0
	k.track = 0
	if g.start != start {
		g.start = start
		g.w.start.Store(int64(start))
	}
	g.w.seq.Add(1)
	defer func() {
		g.w.seq.Add(1)
		k.out = nil
		if v := recover(); v != nil {
			pk.err = g.lanesError(fmt.Sprintf("panicked in its AllowedLanes: %v", v), start,
				"the fault is in the rule's code, not the run: fix its AllowedLanes so that it answers every lane")
		}
	}()
	for j := range LaneCount {
		k.begin(j, start, key, lo)
	}
	k.moveAll()
	k.trackMoves()
	l, nb := &k.l, &k.nb
	limit := k.maxSteps < k.n
	det := g.det
	for round := uint64(0); ; round++ {
		storeRelease(&g.w.at, callLanes<<60|noSquare<<30|round&noSquare)
		k.pol.AllowedLanes(l)
		var ended uint32
		var nd int
		if k.avx512 {
			maxSteps := uint64(64) // no limit
			if limit {
				maxSteps = uint64(k.maxSteps)
			}
			e, draw, bad := laneCheckAVX512(k, maxSteps)
			if bad&1 != 0 || det && bad&2 != 0 {
				pk.err = k.problem(pk, det)
				return
			}
			ended = uint32(e)
			for ; draw != 0; draw &= draw - 1 {
				k.draw[nd] = uint8(bits.TrailingZeros64(draw))
				nd++
			}
		} else {
			if nd, ended = k.check(limit, det); nd < 0 {
				pk.err = k.problem(pk, det)
				return
			}
		}
		for _, j := range k.draw[:nd] {
			j &= LaneCount - 1
			m := uint32(bits.OnesCount64(k.set[j]))
			h, s, x := pcgStep(k.hi[j], k.lo[j])
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				h, s, prod = uniformRetry(h, s, m, prod)
			}
			k.hi[j], k.lo[j] = h, s
			k.idx[j] = uint32(prod >> 32)
			k.ties[j]++
		}
		for ; ended != 0; ended &= ended - 1 {
			j := bits.TrailingZeros32(ended)
			if slot := k.slot[j]; slot >= 0 {
				o := &out[slot]
				cur := k.cur[j]
				*o = Outcome{Start: start, Length: bits.OnesCount64(k.visited[j]), End: cur, Ties: k.ties[j], Stopped: k.set[j] != 0}
				o.Success = o.Length == k.n
				o.Closed = o.Success && k.n > 1 && nb[start]>>cur&1 != 0
				if k.track>>j&1 != 0 {
					k.rc.keepLaneWalk(slot, k.paths[j])
				}
				if k.done++; k.done == len(out) {
					return
				}
			}
			k.begin(j, start, key, lo)
		}
		if k.pdep && nd > 3 { // PDEP on every lane (most drew: the random walk)
			pdepSelect(&k.set, &k.idx)
			k.idx = [LaneCount]uint32{} // the lanes that do not draw take their one square
		} else {
			for _, j := range k.draw[:nd] {
				j &= LaneCount - 1
				k.set[j] = nthBit(k.set[j], k.idx[j])
				k.idx[j] = 0
			}
		}
		k.moveAll()
		k.trackMoves()
	}
}

// trackMoves appends to the path of each lane whose walk is replayed the
// square it has just moved into.
func (k *laneKernel) trackMoves() {
	for t := k.track; t != 0; t &= t - 1 {
		j := bits.TrailingZeros32(t)
		k.paths[j] = append(k.paths[j], int32(k.cur[j]))
	}
}

// check is laneCheckAVX512 in Go: it copies every lane's answer to k.set,
// lists the lanes that must draw in k.draw and returns how many, and the
// lanes whose walk ends; -1 when some answer is one that no walk may take.
func (k *laneKernel) check(limit, det bool) (nd int, ended uint32) {
	l := &k.l
	var bad, multi uint64
	for j := range LaneCount {
		a := l.Allowed[j]
		bad |= a &^ k.free[j]
		multi |= a & (a - 1)
		end := a == 0
		if limit {
			end = end || bits.OnesCount64(k.visited[j]) > k.maxSteps
		}
		ended |= uint32(b2i(end)) << j
		k.draw[nd&(LaneCount-1)] = uint8(j)
		nd += b2i(a&(a-1) != 0 && !end)
		k.set[j] = a
	}
	if bad != 0 || det && multi != 0 {
		return -1, 0
	}
	return nd, ended
}

// moveAll is move, by AVX-512 where k.avx512.
func (k *laneKernel) moveAll() {
	if k.avx512 {
		laneMoveAVX512(k)
		return
	}
	k.move()
}

// move moves every lane into its square in k.set (one bit), bringing
// Cur, Visited, Free and the degree planes up to date.
func (k *laneKernel) move() {
	l, nb := &k.l, &k.nb
	for j := range LaneCount {
		b := k.set[j]
		cur := bits.TrailingZeros64(b|1<<63) & 63 // b has one square: the OR drops the test for 0
		v := k.visited[j] | b
		k.visited[j], l.Visited[j] = v, v
		k.cur[j], l.Cur[j] = cur, cur
		n := nb[cur]
		k.free[j], l.Free[j] = n&^v, n&^v
		// cur's neighbours lose one unvisited neighbour: a bit-sliced
		// decrement of their degrees
		p0, p1, p2, p3 := k.degree[0][j], k.degree[1][j], k.degree[2][j], k.degree[3][j]
		p0, n = p0^n, n&^p0
		p1, n = p1^n, n&^p1
		p2, n = p2^n, n&^p2
		p3 ^= n
		k.degree[0][j], k.degree[1][j], k.degree[2][j], k.degree[3][j] = p0, p1, p2, p3
		l.Degree[0][j], l.Degree[1][j], l.Degree[2][j], l.Degree[3][j] = p0, p1, p2, p3
	}
}

// problem is the *RuleError of the first lane whose answer no walk may
// take, named as the policy kernel names it (answerProblem).
func (k *laneKernel) problem(pk *policyKernel, det bool) error {
	l := &k.l
	for j := range LaneCount {
		a := l.Allowed[j]
		if a&^k.free[j] == 0 && (!det || a&(a-1) == 0) {
			continue
		}
		p := k.position(pk.pos, j)
		var sqs []int
		for u := a; u != 0; u &= u - 1 {
			sqs = append(sqs, bits.TrailingZeros64(u))
		}
		err := answerProblem(&pk.g.rule, p, sqs, det)
		if e, ok := err.(*RuleError); ok {
			e.Problem = "in AllowedLanes " + e.Problem
			if e.Fix == "" {
				e.Fix = "a rule's AllowedLanes must set each l.Allowed[j] to a subset of l.Free[j], the unvisited knight neighbours of l.Cur[j]"
			}
			return e
		}
	}
	return pk.g.lanesError("answered what no walk may take", l.start, "")
}

// position sets p to lane j's position.
func (k *laneKernel) position(p *Position, j int) *Position {
	v := k.visited[j]
	p.setVisited(func(sq int) bool { return v>>sq&1 != 0 }, k.cur[j], k.l.start)
	return p
}

// lanesError is a *RuleError about a call of AllowedLanes (no one position).
func (g *guard) lanesError(problem string, start int, fix string) *RuleError {
	where := fmt.Sprintf("%s board, %d walks from %s in flight", g.b, LaneCount, g.b.SquareName(start))
	return &RuleError{Rule: g.name, Square: -1, Position: where, Problem: problem, Fix: fix}
}

// setLanes makes lane j of l the position p (the replay), degrees counted
// afresh.
func setLanes(l *Lanes, j int, p *Position) {
	v := p.vis[0]
	l.Cur[j], l.Visited[j] = p.cur, v
	l.Free[j] = l.nb[p.cur] &^ v
	for i := range 4 {
		l.Degree[i][j] = 0
	}
	for sq := range p.board.Squares() {
		d := bits.OnesCount64(l.nb[sq] &^ v)
		for i := range 4 {
			l.Degree[i][j] |= uint64(d>>i&1) << sq
		}
	}
	l.Allowed[j] = 0
}

// allowedLanes calls pol's AllowedLanes on l through the guard (the call
// watched, a panic recovered).
func (g *guard) allowedLanes(pol LanePolicy, l *Lanes) (err error) {
	g.w.enter(callLanes, nil)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.lanesError(fmt.Sprintf("panicked in its AllowedLanes: %v", v), l.start,
				"the fault is in the rule's code, not the run: fix its AllowedLanes so that it answers every lane")
		}
	}()
	pol.AllowedLanes(l)
	return nil
}

// replayLanes asks a fresh policy's AllowedLanes the positions at (n of
// them, of one walk, LaneCount at a time) and compares its answers with want, what
// Allowed answered there (the replay).
func replayLanes(g *guard, pol LanePolicy, n int, at func(i int) *Position, want func(i int) []int) error {
	b := g.b
	l := &Lanes{board: b}
	var nb [64]uint64
	for sq := range b.Squares() {
		for _, t := range b.Neighbours(nil, sq) {
			nb[sq] |= 1 << t
		}
	}
	l.nb = &nb
	for i0 := 0; i0 < n; i0 += LaneCount {
		for j := range LaneCount {
			p := at(min(i0+j, n-1))
			l.start = p.start // the positions of one walk: one start
			setLanes(l, j, p)
		}
		if err := g.allowedLanes(pol, l); err != nil {
			return err
		}
		for j := range min(LaneCount, n-i0) {
			w := want(i0 + j)
			var mask uint64
			for _, sq := range w {
				mask |= 1 << sq
			}
			if got := l.Allowed[j]; got != mask {
				p := at(i0 + j)
				var sqs []int
				for u := got; u != 0; u &= u - 1 {
					sqs = append(sqs, bits.TrailingZeros64(u))
				}
				return &RuleError{Rule: g.name, Square: -1, Position: p.String(),
					Problem: fmt.Sprintf("answered %s there in AllowedLanes and %s in Allowed", squareNames(b, sqs), squareNames(b, slices.Sorted(slices.Values(w)))),
					Fix:     "a rule's two forms must agree: AllowedLanes must allow, in each lane, exactly the squares Allowed allows at that lane's position (Monte Carlo walks on boards of up to 64 squares ask AllowedLanes, everything else Allowed)"}
			}
		}
	}
	return nil
}

// laneMinWalks is the fewest walks a WalkRange runs in lanes.
const laneMinWalks = 8
