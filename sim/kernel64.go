package sim

import "math/bits"

// fastKernel walks boards of at most 64 squares with the visited set in one
// word. Warnsdorff keeps every square's degree (its number of unvisited
// neighbours) as four bit-planes, so marking a square visited is a
// bit-sliced decrement of its neighbours' counters and finding the
// minimum-degree candidates is four mask steps: no per-candidate loop.
type fastKernel struct {
	n        int
	rule     Rule
	maxSteps int
	nb       [64]uint64  // neighbour masks
	planes   [4]uint64   // initial degree bit-planes (bit i of plane j: bit j of deg(i))
	moveTo   [64][8]int8 // target of canonical move i from a square, -1 when off the board
	order    [8]uint8    // the rule's move order as canonical indices
	dist2    [64]int32   // Roth: 4×squared distance from the centre
	path     [64]int8    // the current walk
	ties     fastTies    // scores tied squares for tie-break chains
	kpath    KernelPath  // how WalkRange runs (setPath)
	batched  bool        // WalkRange runs walkBatch (every path; the previous walker does not)
	// hashChoose makes the batched kernel select by knightSelect, not PDEP
	// (PathScalar).
	hashChoose bool

	// The batched kernel's vector rounds (AVX-512: vec_amd64.s, AVX2:
	// vec2_amd64.s): vec is the implementation that runs, nil for the Go
	// rounds; vecRounds is the most rounds per call (tests make it small,
	// so that Go rounds run between them); nbRev is nb reversed, indexed by
	// the leading zeros of a square's bit (for the AVX-512 rounds).
	vec       *vecImpl
	vecRounds int
	nbRev     [64]uint64

	board *Board // for the tie scores computed from the geometry (corner, edge)

	// ks is the scalar kernel's select on the board's width, where hasKS.
	ks    knightSelect
	hasKS bool
}

// newFastKernel returns the bitboard kernel of r on b, running on path p
// (one this CPU can run, not PathAuto).
func newFastKernel(b *Board, r Rule, p KernelPath) *fastKernel {
	k := &fastKernel{n: b.Squares(), rule: r, maxSteps: r.MaxSteps}
	if k.maxSteps == 0 || k.maxSteps > k.n {
		k.maxSteps = k.n
	}
	for sq := 0; sq < k.n; sq++ {
		row, col := b.RowCol(sq)
		for i, m := range CanonicalMoves {
			k.moveTo[sq][i] = -1
			if b.On(row+m.DR, col+m.DC) {
				t := b.Square(row+m.DR, col+m.DC)
				k.nb[sq] |= 1 << t
				k.moveTo[sq][i] = int8(t)
			}
		}
		d := b.Degree(sq)
		for j := range k.planes {
			k.planes[j] |= uint64(d>>j&1) << sq
		}
		k.dist2[sq] = int32(b.CentreDist2(sq))
		k.board = b
	}
	for i, m := range r.orderOn(b) {
		k.order[i] = uint8(moveIndex(m))
	}
	for sq := range 64 {
		k.nbRev[63-sq] = k.nb[sq]
	}
	k.hasKS = k.ks.init(b.Cols)
	k.setPath(p)
	k.vecRounds = 1 << 62
	k.ties.k = k
	return k
}

func (k *fastKernel) walk(start int, src *PCG, keep bool) Outcome {
	var length, end, ties int
	var stopped bool
	if k.rule.Kind == RandomWalk {
		length, end, ties, stopped = k.random(start, src)
	} else {
		length, end, ties, stopped = k.warnsdorff(start, src)
	}
	o := Outcome{Start: start, Length: length, End: end, Ties: ties, Stopped: stopped}
	o.Success = length == k.n
	o.Closed = o.Success && k.n > 1 && k.nb[start]>>end&1 != 0
	if keep {
		o.Path = make([]int32, length)
		for i := range o.Path {
			o.Path[i] = int32(k.path[i])
		}
	}
	return o
}

// random is the uniformly random walk: any unvisited neighbour, drawn in
// ascending square order.
//
// The loop is one dependent chain per step (load the neighbour mask,
// count, draw, select, load again), kept short: the stream runs one output
// ahead (the state does not depend on the walk, only on how many draws it
// made, so the output can be computed before the step that takes it) and
// the select is knightSelect's. The loop calls nothing and keeps few
// values, so that the compiler keeps them all in registers.
func (k *fastKernel) random(start int, src *PCG) (length, end, ties int, stopped bool) {
	visited := uint64(1) << start
	cur := start
	k.path[0] = int8(start)
	length = 1
	hi, lo, x := pcgStep(src.hi, src.lo) // x, the next output, and the state after it
	for {
		cand := k.nb[cur&63] &^ visited
		if cand == 0 {
			break
		}
		if length > k.maxSteps {
			stopped = true
			break
		}
		h := k.hash(cand, cur)
		var j uint32
		if m := uint32(bits.OnesCount64(cand)); m > 1 {
			ties++
			// uniform() on the stream one output ahead, inline (a call
			// here would make the compiler keep the loop's values in
			// memory), Lemire's rare rejection included.
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				for thresh := -m % m; uint32(prod) < thresh; {
					hi, lo, x = pcgStep(hi, lo)
					prod = uint64(uint32(x)) * uint64(m)
				}
			}
			hi, lo, x = pcgStep(hi, lo)
			j = uint32(prod >> 32)
		}
		cur = k.next(cand, cur, h, j)
		visited |= 1 << (cur & 63)
		k.path[length&63] = int8(cur)
		length++
	}
	src.hi, src.lo = pcgBack(hi, lo)
	return length, cur, ties, stopped
}

// warnsdorff is Warnsdorff's rule. With random ties the degrees are kept
// as three bit-planes (degree mod 8: a candidate neighbours the current
// square, which is visited, so its degree is at most 7 and mod 8 is
// exact; the vector rounds keep a fourth) and ties are drawn as random
// draws, one output ahead. Tie-break chains run warnsdorffChain.
func (k *fastKernel) warnsdorff(start int, src *PCG) (length, end, ties int, stopped bool) {
	if k.rule.TieBreak != TieRandom {
		return k.warnsdorffChain(start, src)
	}
	p0, p1, p2 := k.planes[0], k.planes[1], k.planes[2]
	// Mark start visited: its neighbours lose one unvisited neighbour.
	b := k.nb[start&63]
	p0, b = p0^b, b&^p0
	p1, b = p1^b, b&^p1
	p2 ^= b
	visited := uint64(1) << start
	cur := start
	k.path[0] = int8(start)
	length = 1
	hi, lo, x := pcgStep(src.hi, src.lo)
	for {
		n := k.nb[cur&63]
		cand := n &^ visited
		if cand == 0 {
			break
		}
		if length > k.maxSteps {
			stopped = true
			break
		}
		// Keep the candidates of minimum degree: from the top bit-plane
		// down, drop those with a 1 wherever some candidate has a 0.
		cand = keepLow(keepLow(keepLow(cand, p2), p1), p0)
		var j uint32
		var h uint64
		if cand&(cand-1) != 0 {
			ties++
			h = k.hash(cand, cur)
			m := uint32(bits.OnesCount64(cand))
			// As in random.
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				for thresh := -m % m; uint32(prod) < thresh; {
					hi, lo, x = pcgStep(hi, lo)
					prod = uint64(uint32(x)) * uint64(m)
				}
			}
			hi, lo, x = pcgStep(hi, lo)
			j = uint32(prod >> 32)
		}
		if j == 0 {
			cur = bits.TrailingZeros64(cand)
		} else {
			cur = k.next(cand, cur, h, j)
		}
		visited |= 1 << (cur & 63)
		b := k.nb[cur&63]
		p0, b = p0^b, b&^p0
		p1, b = p1^b, b&^p1
		p2 ^= b
		k.path[length&63] = int8(cur)
		length++
	}
	src.hi, src.lo = pcgBack(hi, lo)
	return length, cur, ties, stopped
}

// hash returns the hash of cand, a non-empty set of neighbours of cur,
// on boards with a knightSelect (for next).
func (k *fastKernel) hash(cand uint64, cur int) uint64 {
	return bits.RotateLeft64(cand, k.ks.base-cur) * k.ks.magic >> 56
}

// next returns the j-th lowest square of cand, a non-empty set of
// neighbours of cur whose hash is h: by knightSelect on boards
// of 2 to 15 columns, else by clearing the lowest squares (boards of at
// most four rows).
func (k *fastKernel) next(cand uint64, cur int, h uint64, j uint32) int {
	if k.hasKS {
		return cur + int(k.ks.off[h&255][j&7])
	}
	for ; j > 0; j-- {
		cand &= cand - 1
	}
	return bits.TrailingZeros64(cand)
}

// breakTie picks one square (returned as a one-bit mask) from the tied
// minimum-degree squares in tied.
func (k *fastKernel) breakTie(tied uint64, cur int, visited uint64, src *PCG) uint64 {
	tied = k.reduceTies(tied, cur, visited)
	if tied&(tied-1) == 0 {
		return tied
	}
	return nthBit(tied, Uniform(src, uint32(bits.OnesCount64(tied))))
}

// reduceTies narrows the tied minimum-degree squares in tied (two or more)
// by the rule's tie-break; a draw decides among what it leaves. It is the
// one place where the bitboard kernels (scalar and batched) apply a
// tie-break.
func (k *fastKernel) reduceTies(tied uint64, cur int, visited uint64) uint64 {
	if k.rule.TieBreak != TieRandom {
		return k.narrowTies(tied, cur, visited) // tiebreak.go
	}
	return tied
}

// nthBit returns the n-th lowest set bit of m (n from 0) as a mask,
// without branches (a loop clearing low bits costs a mispredicted exit on
// nearly every random draw): byte popcounts summed by one multiplication
// locate the byte, a table the bit within it.
func nthBit(m uint64, n uint32) uint64 {
	s := m - (m>>1)&0x5555555555555555
	s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
	s = (s + s>>4) & 0x0f0f0f0f0f0f0f0f
	cum := s * 0x0101010101010101 // byte i: set bits in bytes 0..i
	// Bytes whose cumulative count is at most n lie wholly before the bit.
	le := (uint64(n)*0x0101010101010101 | 0x8080808080808080) - cum
	i := uint(bits.OnesCount64(le & 0x8080808080808080))
	before := uint32(cum<<8>>(8*i)) & 0xff
	return 1 << (8*i + uint(selectInByte[uint8(m>>(8*i))][n-before]))
}

// selectInByte[b][j] is the position of the j-th set bit of b.
var selectInByte = func() (t [256][8]uint8) {
	for b := range 256 {
		j := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				t[b][j] = uint8(i)
				j++
			}
		}
	}
	return t
}()

// hasVecRounds reports a rule that vec_amd64.s implements: the random walk
// and Warnsdorff with random ties (other tie-breaks run narrowTies).
func hasVecRounds(r Rule) bool {
	return r.Kind == RandomWalk || r.Kind == Warnsdorff && r.TieBreak == TieRandom
}

// warnsdorffChain is Warnsdorff's rule with a tie-break chain (reduceTies
// before the draw), one walk at a time, with four bit-planes.
func (k *fastKernel) warnsdorffChain(start int, src *PCG) (length, end, ties int, stopped bool) {
	nb := &k.nb
	p0, p1, p2, p3 := k.planes[0], k.planes[1], k.planes[2], k.planes[3]
	// Mark start visited: its neighbours lose one unvisited neighbour.
	b := nb[start]
	p0, b = p0^b, b&^p0
	p1, b = p1^b, b&^p1
	p2, b = p2^b, b&^p2
	p3 ^= b
	visited := uint64(1) << start
	cur := start
	k.path[0] = int8(start)
	length = 1
	for {
		cand := nb[cur] &^ visited
		if cand == 0 {
			break
		}
		if length > k.maxSteps {
			stopped = true
			break
		}
		// Keep the candidates of minimum degree: from the top bit-plane
		// down, drop those with a 1 wherever some candidate has a 0.
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
		if cand&(cand-1) != 0 {
			ties++
			cand = k.breakTie(cand, cur, visited, src)
		}
		cur = bits.TrailingZeros64(cand)
		visited |= cand
		b := nb[cur]
		p0, b = p0^b, b&^p0
		p1, b = p1^b, b&^p1
		p2, b = p2^b, b&^p2
		p3 ^= b
		k.path[length] = int8(cur)
		length++
	}
	return length, cur, ties, stopped
}

// keepLow keeps the squares of cand not in p, if there are any.
func keepLow(cand, p uint64) uint64 {
	t := cand &^ p
	if t == 0 {
		t = cand
	}
	return t
}
