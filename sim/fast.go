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
	batched  bool        // WalkRange runs walkBatch: every path but PathScalar

	// The batched kernel's vector rounds (AVX-512: vec_amd64.s, AVX2:
	// vec2_amd64.s): vec is the implementation that runs, nil for the Go
	// rounds; vecRounds is the most rounds per call (tests make it small,
	// so that Go rounds run between them); nbRev is nb reversed, indexed by
	// the leading zeros of a square's bit (for the AVX-512 rounds).
	vec       *vecImpl
	vecRounds int
	nbRev     [64]uint64

	board *Board // for the tie scores computed from the geometry (corner, edge)
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
func (k *fastKernel) random(start int, src *PCG) (length, end, ties int, stopped bool) {
	nb := &k.nb
	visited := uint64(1) << start
	cur := start
	k.path[0] = int8(start)
	length = 1
	hi, lo := src.hi, src.lo // the stream's state, in registers
	for {
		cand := nb[cur] &^ visited
		if cand == 0 {
			break
		}
		if length > k.maxSteps {
			stopped = true
			break
		}
		if cand&(cand-1) != 0 {
			ties++
			// uniform(), inlined by hand: the compiler will not.
			m := uint32(bits.OnesCount64(cand))
			var x uint64
			hi, lo, x = pcgStep(hi, lo)
			prod := uint64(uint32(x)) * uint64(m)
			if uint32(prod) < m {
				hi, lo, prod = uniformRetry(hi, lo, m, prod)
			}
			cand = nthBit(cand, uint32(prod>>32))
		}
		cur = bits.TrailingZeros64(cand)
		visited |= cand
		k.path[length] = int8(cur)
		length++
	}
	src.hi, src.lo = hi, lo
	return length, cur, ties, stopped
}

func (k *fastKernel) warnsdorff(start int, src *PCG) (length, end, ties int, stopped bool) {
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
