package count

import (
	"math/big"
	"math/bits"
)

// Count is an exact non-negative count below 2^128. The counter adds
// counts modulo 2^128 and only ever adds, so a result is exact whenever the
// true count is below 2^128, which plan.log2Bound proves before counting
// (8×8: under 2^114). 64 bits would not do: 8×8's open tours fit, but the
// bound, the only guarantee available before counting, does not.
type Count struct{ Hi, Lo uint64 }

// Add returns c+d modulo 2^128.
func (c Count) Add(d Count) Count {
	lo, carry := bits.Add64(c.Lo, d.Lo, 0)
	hi, _ := bits.Add64(c.Hi, d.Hi, carry)
	return Count{hi, lo}
}

// Mul64 returns c·m modulo 2^128.
func (c Count) Mul64(m uint64) Count {
	hi, lo := bits.Mul64(c.Lo, m)
	return Count{hi + c.Hi*m, lo}
}

// Half returns c/2, rounded down.
func (c Count) Half() Count { return Count{c.Hi >> 1, c.Lo>>1 | c.Hi<<63} }

// Big returns c as a big integer.
func (c Count) Big() *big.Int {
	x := new(big.Int).SetUint64(c.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(c.Lo))
}

// Uint64 returns c and whether it fits 64 bits.
func (c Count) Uint64() (uint64, bool) { return c.Lo, c.Hi == 0 }

func (c Count) String() string {
	if c.Hi == 0 {
		return new(big.Int).SetUint64(c.Lo).String()
	}
	return c.Big().String()
}
