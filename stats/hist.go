package stats

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// LengthStats describes a distribution of path lengths given as a histogram.
// Every field is a function of the integer counts alone, computed exactly
// and rounded once, so it does not depend on the order in which shards were
// merged.
type LengthStats struct {
	N uint64 // walks counted

	// Mean is the arithmetic mean length. SD is the sample standard
	// deviation (divisor N−1): the walks are a sample from the rule's length
	// distribution, and N−1 makes the variance unbiased for it. Mean is NaN
	// when N == 0; SD is NaN when N < 2.
	Mean, SD float64

	// Min, Max and the quantiles are lengths that occurred; all are 0 when
	// N == 0. See Quantile for the rule.
	Min, Max                   int
	P05, P25, Median, P75, P95 int
}

// SummarizeLengths computes LengthStats from hist, where hist[L] counts walks of
// length L (a Tally's Lengths; hist[0], length 0, is allowed but never
// occurs for walks).
//
// Sums are accumulated in 128-bit integers (Σc·L < 2^89 and Σc·L² < 2^112
// for lengths below 2^24 and counts below 2^64) and combined with math/big,
// so the mean is the correctly rounded N⁻¹·ΣcL and the variance the
// correctly rounded (N·ΣcL² − (ΣcL)²) / (N(N−1)).
func SummarizeLengths(hist []uint64) LengthStats {
	var (
		n             uint64
		s1Hi, s1Lo    uint64 // Σ c·L
		s2Hi, s2Lo    uint64 // Σ c·L²
		minL, maxL    = -1, -1
		carry, hi, lo uint64
	)
	for l := NextNonZero(hist, 0); l < len(hist); l = NextNonZero(hist, l+1) {
		c := hist[l]
		if minL < 0 {
			minL = l
		}
		maxL = l
		n += c
		L := uint64(l)
		hi, lo = bits.Mul64(c, L)
		s1Lo, carry = bits.Add64(s1Lo, lo, 0)
		s1Hi += hi + carry
		hi, lo = bits.Mul64(c, L*L)
		s2Lo, carry = bits.Add64(s2Lo, lo, 0)
		s2Hi += hi + carry
	}
	if n == 0 {
		return LengthStats{Mean: math.NaN(), SD: math.NaN()}
	}
	s1, s2 := u128(s1Hi, s1Lo), u128(s2Hi, s2Lo)
	bn := new(big.Int).SetUint64(n)
	mean, _ := new(big.Rat).SetFrac(s1, bn).Float64()

	sd := math.NaN()
	if n >= 2 {
		num := new(big.Int).Mul(bn, s2)
		num.Sub(num, new(big.Int).Mul(s1, s1))
		den := new(big.Int).Mul(bn, new(big.Int).SetUint64(n-1))
		v, _ := new(big.Rat).SetFrac(num, den).Float64()
		sd = math.Sqrt(v)
	}
	// The quantiles lie in [minL, maxL]: searched there alone, a tally
	// of one walk on a board of 183,184 squares is one bin, not five
	// scans of all of them.
	in := hist[minL : maxL+1]
	q := func(num uint64) int { return minL + Quantile(in, num, 100) }
	return LengthStats{
		N: n, Mean: mean, SD: sd, Min: minL, Max: maxL,
		P05: q(5), P25: q(25), Median: q(50), P75: q(75), P95: q(95),
	}
}

func u128(hi, lo uint64) *big.Int {
	x := new(big.Int).SetUint64(hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(lo))
}

// Quantile returns the q-quantile, q = num/den, of the lengths counted in
// hist: the smallest length L whose cumulative count reaches q·N,
//
//	Q(q) = min{ L : hist[0] + … + hist[L] >= q·N },
//
// taking the first length when q = 0. This is the inverse of the empirical
// distribution function, type 1 of Hyndman & Fan (1996): the
// ⌈q·N⌉-th smallest length, always a length that occurred, never an
// interpolation. q is a fraction of integers so that the comparison is exact
// (m·cum >= k·N in 128-bit integers): a float q such as 0.05 is not exactly
// 1/20 and would move the rank by one whenever q·N is a whole number.
//
// It returns 0 for an empty histogram and panics unless 0 <= num <= den and
// den > 0.
func Quantile(hist []uint64, num, den uint64) int {
	if den == 0 || num > den {
		panic(fmt.Sprintf("stats: quantile %d/%d not in [0, 1]", num, den))
	}
	var n uint64
	for _, c := range hist {
		n += c
	}
	if n == 0 {
		return 0
	}
	needHi, needLo := bits.Mul64(num, n) // q·N·den
	var cum uint64
	for l, c := range hist {
		if c == 0 {
			continue
		}
		cum += c
		hi, lo := bits.Mul64(den, cum)
		if hi > needHi || hi == needHi && lo >= needLo {
			return l
		}
	}
	panic("stats: unreachable: cumulative count never reached q·N")
}

// NextNonZero returns the least index i' >= i with h[i'] != 0, or len(h)
// when there is none. It passes over zero bins eight at a time: the
// histograms of a tally are as long as the board has squares (4 million
// on 2000x2000), and a sweep's tally of one walk has two non-zero bins,
// so a loop over every bin was most of the time of making its tables.
//
//	for i := NextNonZero(h, 0); i < len(h); i = NextNonZero(h, i+1) { ... h[i] ... }
func NextNonZero(h []uint64, i int) int {
	for ; i < len(h) && i&7 != 0; i++ {
		if h[i] != 0 {
			return i
		}
	}
	for ; i+8 <= len(h); i += 8 {
		c := h[i : i+8 : i+8]
		if c[0]|c[1]|c[2]|c[3]|c[4]|c[5]|c[6]|c[7] != 0 {
			for j, x := range c {
				if x != 0 {
					return i + j
				}
			}
		}
	}
	for ; i < len(h); i++ {
		if h[i] != 0 {
			return i
		}
	}
	return len(h)
}
