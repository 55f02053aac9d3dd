package exact

import "math/bits"

// words is the storage of an enumeration's visited sets, chosen per board
// by its number of squares (exactWords): two words for boards of up to 128
// squares, the fastest and smallest; four, eight or ten beyond. Each is a
// separate instantiation of the enumeration, so the two-word path costs
// what it did when it was the only one (BenchmarkExact9x9Corner).
type words interface {
	[2]uint64 | [4]uint64 | [8]uint64 | [10]uint64
}

// The instantiations of words, by the boards they hold.
type (
	words128 = [2]uint64
	words256 = [4]uint64
	words512 = [8]uint64
	words640 = [10]uint64
)

// bitset is a set of squares held in the words W.
type bitset[W words] struct{ w W }

// set128 is the visited set of boards of up to 128 squares.
type set128 = bitset[words128]

func (s bitset[W]) with(sq int) bitset[W] { s.w[sq>>6] |= 1 << (sq & 63); return s }
func (s bitset[W]) has(sq int) bool       { return s.w[sq>>6]>>(sq&63)&1 == 1 }

func (s bitset[W]) andNot(t bitset[W]) bitset[W] {
	if len(s.w) == 2 { // the two-word path, unrolled (len is a constant)
		s.w[0] &^= t.w[0]
		s.w[1] &^= t.w[1]
		return s
	}
	for i := 0; i < len(s.w); i++ {
		s.w[i] &^= t.w[i]
	}
	return s
}

func (s bitset[W]) count() int {
	if len(s.w) == 2 {
		return bits.OnesCount64(s.w[0]) + bits.OnesCount64(s.w[1])
	}
	c := 0
	for i := 0; i < len(s.w); i++ {
		c += bits.OnesCount64(s.w[i])
	}
	return c
}

func (s bitset[W]) empty() bool {
	if len(s.w) == 2 {
		return s.w[0]|s.w[1] == 0
	}
	var or uint64
	for i := 0; i < len(s.w); i++ {
		or |= s.w[i]
	}
	return or == 0
}

// pop removes and returns the lowest square (the set must not be empty:
// on an empty one the index runs off the words).
func (s *bitset[W]) pop() int {
	i := 0
	for s.w[i] == 0 {
		i++
	}
	j := bits.TrailingZeros64(s.w[i])
	s.w[i] &= s.w[i] - 1
	return i<<6 | j
}

// compare orders sets by their highest differing word: the reference
// order of a layer's states.
func (s bitset[W]) compare(t bitset[W]) int {
	for i := len(s.w) - 1; i >= 0; i-- {
		if s.w[i] != t.w[i] {
			if s.w[i] < t.w[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// hashMul are the odd multipliers of stateHash, one a word; the first two
// are those of the two-word sets, so their hashes (and the memory
// estimates from them) are what they were.
var hashMul = [10]uint64{
	0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f, 0xd6e8feb86659fd93, 0xa0761d6478bd642f,
	0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3, 0x589965cc75374cc3, 0x1d8e4e27c47d124f,
	0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53,
}

// stateHash hashes a state (visited set, current square) for the
// coincidence counts of estimateExactStates.
func stateHash[W words](set bitset[W], cur int) uint64 {
	x := uint64(cur) * 0x165667b19e3779f9
	for i := 0; i < len(set.w); i++ {
		x ^= set.w[i] * hashMul[i]
	}
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>29
}
