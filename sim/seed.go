package sim

import "fmt"

// The random-stream contract. Every number a walk draws comes from one
// stream, derived only from (experiment seed, board, rule name, start
// square, walk index w), using 64-bit integer operations alone so that a GPU
// kernel or a notebook can replay any walk. Changing anything here changes
// every published number: don't.
//
//	mix64(z):   z ^= z>>30; z *= 0xbf58476d1ce4e5b9; z ^= z>>27;
//	            z *= 0x94d049bb133111eb; z ^= z>>31   (SplitMix64 finaliser)
//	key:        k = mix64(seed); then k = mix64(k ^ v) for v in
//	            (rows, cols, fnv1a64(rule name), start index row*cols+col)
//	stream w:   math/rand/v2 PCG (128-bit LCG, DXSM output) seeded with
//	            (mix64(k ^ w), mix64(k + w + 0x9e3779b97f4a7c15))
//	choice:     among m allowed squares in ascending square order, index
//	            Uniform(stream, m) (Lemire's multiply-shift with rejection on
//	            the low 32 bits of Uint64); no draw when m == 1.
//	tie-breaks: a Warnsdorff step's allowed squares are those of minimum
//	            degree that its tie-break chain's refining steps (pohl,
//	            roth) keep (tiebreak.go); a chain ending in random then
//	            draws once as above, one ending in first never draws. The
//	            chain is in the rule name (warnsdorff/roth+first), and
//	            pohl+random, roth+random are named pohl, roth.

// Mix64 is the SplitMix64 finaliser.
func Mix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// FNV1a64 is the 64-bit FNV-1a hash of s.
func FNV1a64(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// Key identifies the family of streams of one (seed, board, rule, start).
type Key uint64

// NewKey derives the stream key of (seed, board, rule, start square). It
// takes the typed board and rule, not their names, so that a misspelt rule
// name cannot silently select another family of streams: the name hashed is
// always rule.Name(), the one written in the tables. start must be a square
// of b (a programmer error otherwise).
func NewKey(seed uint64, b *Board, rule Rule, start int) Key {
	if start < 0 || start >= b.Squares() {
		panic(fmt.Sprintf("sim: NewKey: start %d is off the %s board", start, b))
	}
	k := Mix64(seed)
	for _, v := range [...]uint64{uint64(b.Rows), uint64(b.Cols), FNV1a64(rule.Name()), uint64(start)} {
		k = Mix64(k ^ v)
	}
	return Key(k)
}

// Seeds returns the two PCG seed words of walk w.
func (k Key) Seeds(w uint64) (hi, lo uint64) {
	return Mix64(uint64(k) ^ w), Mix64(uint64(k) + w + 0x9e3779b97f4a7c15)
}

// Stream returns a new generator for walk w. Hot loops reseed one PCG with
// Seeds instead, to avoid the allocation.
func (k Key) Stream(w uint64) *PCG {
	return NewPCG(k.Seeds(w))
}
