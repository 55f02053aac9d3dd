package sim

import "math/bits"

// PCG is math/rand/v2's PCG generator (a 128-bit LCG with the DXSM
// output function), written out here so that the kernels can keep its
// state in registers: calling rand.PCG through a pointer costs a load and
// a store of the state per draw. TestPCGMatchesStdlib checks that both
// produce the same numbers from the same seeds, so the stream contract
// still names math/rand/v2's PCG. It implements math/rand/v2.Source.
type PCG struct{ hi, lo uint64 }

// NewPCG returns a PCG seeded like rand.NewPCG(seed1, seed2).
func NewPCG(seed1, seed2 uint64) *PCG { return &PCG{seed1, seed2} }

// Seed resets the state like rand.PCG.Seed.
func (p *PCG) Seed(seed1, seed2 uint64) { p.hi, p.lo = seed1, seed2 }

// Uint64 returns the next 64-bit output.
func (p *PCG) Uint64() uint64 {
	var x uint64
	p.hi, p.lo, x = pcgStep(p.hi, p.lo)
	return x
}

// pcgStep advances the state (hi, lo) and returns the new state and the
// output, exactly as math/rand/v2's PCG.next and PCG.Uint64 do.
func pcgStep(hi, lo uint64) (nhi, nlo, out uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	x := h
	x ^= x >> 32
	x *= 0xda942042e4dd58b5
	x ^= x >> 48
	x *= l | 1
	return h, l, x
}

// uniform draws an index in [0, m) from the state (hi, lo) by Uniform's
// method, returning the new state.
func uniform(hi, lo uint64, m uint32) (nhi, nlo uint64, r uint32) {
	var x uint64
	hi, lo, x = pcgStep(hi, lo)
	prod := uint64(uint32(x)) * uint64(m)
	if uint32(prod) < m {
		hi, lo, prod = uniformRetry(hi, lo, m, prod)
	}
	return hi, lo, uint32(prod >> 32)
}

// uniformRetry is the rare rejection path of Lemire's method, out of line.
func uniformRetry(hi, lo uint64, m uint32, prod uint64) (uint64, uint64, uint64) {
	thresh := -m % m
	for uint32(prod) < thresh {
		var x uint64
		hi, lo, x = pcgStep(hi, lo)
		prod = uint64(uint32(x)) * uint64(m)
	}
	return hi, lo, prod
}

// Uniform returns a uniform integer in [0, m) for 1 <= m < 2^32, from the
// low 32 bits of src's outputs by Lemire's multiply-shift with rejection,
// which is exactly uniform. It always draws at least once; callers skip it
// when m == 1.
func Uniform(src *PCG, m uint32) uint32 {
	var r uint32
	src.hi, src.lo, r = uniform(src.hi, src.lo, m)
	return r
}

// pcgBack undoes one pcgStep: it returns the state (hi, lo) came from.
// The scalar kernels keep the stream one step ahead (the next output
// computed before the walk needs it) and step back once at the end.
func pcgBack(hi, lo uint64) (uint64, uint64) {
	const (
		// The inverse of the multiplier mod 2^128 (TestPCGBack).
		invHi = 0x07dda22b93979860
		invLo = 0x98abc8b0716eac8d
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	lo, b := bits.Sub64(lo, incLo, 0)
	hi, _ = bits.Sub64(hi, incHi, b)
	h, l := bits.Mul64(lo, invLo)
	h += hi*invLo + lo*invHi
	return h, l
}
