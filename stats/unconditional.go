package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Barnard is the two-sided exact unconditional test of p1 = p2 for two
// independent binomial samples, x1 of n1 and x2 of n2, with the pooled
// score statistic (Suissa & Shuster 1985, "Exact unconditional sample
// sizes for the 2 × 2 binomial trial", J. R. Statist. Soc. A 148,
// 317–327; Barnard 1947, Biometrika 34, 123–138):
//
//	Z(x1, x2) = (x1/n1 − x2/n2) / sqrt(p̄(1 − p̄)(1/n1 + 1/n2)),  p̄ = (x1 + x2)/(n1 + n2),
//
// p = sup over π in [0, 1] of P_π(|Z| ≥ |z_obs|), the probability, when both
// samples share the success probability π, of a table at least as extreme
// as the one observed. Unlike Fisher's test it does not condition on the
// total successes, and unlike Berger & Boos's maximisation over a
// confidence set of one side it keeps its power when one sample is small
// (40 walks against a published 100 trials). It never exceeds its level:
// for every π of the null the rejection probability is at most p.
//
// The rejection region {|Z| ≥ z} is Barnard convex (Röhmel & Mansmann
// 1999, "Unconditional non-asymptotic one-sided tests for independent
// binomial proportions when the interest lies in showing non-inferiority
// and/or superiority", Biometrical J. 41, 149–170): for each x2 it is
// x1 ≤ a(x2) or x1 ≥ b(x2), found by bisection, so P_π is a sum over x2 of
// binomial tails in x1, O(n2) per π whatever n1 (the sample with fewer
// trials plays x2). The supremum is taken over a grid of 100 values of π,
// then refined by golden-section search around the best three;
// TestBarnardAgainstEnumeration checks region and p-value against brute
// force over every table.
func Barnard(x1, n1, x2, n2 uint64) float64 {
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	if n2 > n1 { // the smaller sample is summed over, the larger by its tails
		x1, n1, x2, n2 = x2, n2, x1, n1
	}
	z := math.Abs(pooledZ(x1, n1, x2, n2))
	if z == 0 || math.IsNaN(z) {
		return 1
	}
	z *= 1 - 1e-9            // tables as extreme up to rounding count as extreme
	a := make([]int64, n2+1) // largest x1 with Z ≤ −z, −1 if none
	b := make([]int64, n2+1) // smallest x1 with Z ≥ z, n1+1 if none
	for y := uint64(0); y <= n2; y++ {
		// Z is ≥ z on an upper set of x1 and ≤ −z on a lower set.
		lo, hi := int64(-1), int64(n1)+1 // search the last x1 with Z ≤ −z
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if pooledZ(uint64(m), n1, y, n2) <= -z {
				lo = m
			} else {
				hi = m
			}
		}
		a[y] = lo
		lo, hi = -1, int64(n1)+1 // search the first x1 with Z ≥ z
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if pooledZ(uint64(m), n1, y, n2) >= z {
				hi = m
			} else {
				lo = m
			}
		}
		b[y] = hi
	}
	size := func(pi float64) float64 {
		if pi <= 0 || pi >= 1 {
			return 0 // every table has Z = 0 (undefined): none is extreme
		}
		big := distuv.Binomial{N: float64(n1), P: pi}
		small := distuv.Binomial{N: float64(n2), P: pi}
		s := 0.0
		for y := uint64(0); y <= n2; y++ {
			w := small.Prob(float64(y))
			if w < 1e-15 { // drops at most (n2 + 1)·1e-15 of the size
				continue
			}
			t := 0.0
			if a[y] >= 0 {
				t += big.CDF(float64(a[y]))
			}
			if b[y] <= int64(n1) {
				t += big.Survival(float64(b[y]) - 0.5)
			}
			s += w * min(1, t)
		}
		return s
	}
	return min(1, supremum(size, barnardGrid))
}

// barnardGrid is the number of values of π the supremum starts from.
const barnardGrid = 100

// pooledZ is the pooled score statistic of x1/n1 against x2/n2 (Barnard);
// 0 where both rates are 0 or both 1.
func pooledZ(x1, n1, x2, n2 uint64) float64 {
	f1, f2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	p := float64(x1+x2) / float64(n1+n2)
	v := p * (1 - p) * (1/float64(n1) + 1/float64(n2))
	if v <= 0 {
		return 0
	}
	return (f1 - f2) / math.Sqrt(v)
}

// supremum returns the largest value of f on (0, 1) found on a grid of g
// points, refined by golden-section search between the neighbours of the
// three best points.
func supremum(f func(float64) float64, g int) float64 { return supremumOn(f, 0, 1, g) }

// supremumOn is supremum on (a, b). Besides the g evenly spaced points
// the grid has 36 points spaced geometrically towards each end, down to
// 1e-10 of the width from it: with a large sample on one side the size
// of an unconditional test has narrow peaks at rates within 1/n of 0 or
// 1 (95,000 of 100,000 against 90 of 100 peaks at π = 0.0012), which an
// even grid steps over, giving p-values too small (0.027 for 0.109).
func supremumOn(f func(float64) float64, a, b float64, g int) float64 {
	w := b - a
	xs := make([]float64, 0, g+72)
	for i := range g {
		xs = append(xs, a+(float64(i)+0.5)*w/float64(g))
	}
	for k := range 36 { // 10^-1 … 10^-10 of the width from each end
		d := w * math.Pow(10, -1-float64(k)/4)
		xs = append(xs, a+d, b-d)
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	ys := make([]float64, len(xs))
	best := 0.0
	for i, x := range xs {
		ys[i] = f(x)
		best = max(best, ys[i])
	}
	for range 3 {
		k := 0
		for i := range ys {
			if ys[i] > ys[k] {
				k = i
			}
		}
		if ys[k] < 0 {
			break
		}
		lo, hi := a, b
		if k > 0 {
			lo = xs[k-1]
		}
		if k+1 < len(xs) {
			hi = xs[k+1]
		}
		best = max(best, goldenMax(f, max(lo, a+1e-15*w), min(hi, b-1e-15*w)))
		ys[k] = -1
	}
	return best
}

// goldenMax maximises f on [lo, hi] by golden-section search (40 steps).
func goldenMax(f func(float64) float64, lo, hi float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	c, d := hi-r*(hi-lo), lo+r*(hi-lo)
	fc, fd := f(c), f(d)
	best := max(fc, fd)
	for range 40 {
		if fc > fd {
			hi, d, fd = d, c, fc
			c = hi - r*(hi-lo)
			fc = f(c)
		} else {
			lo, c, fc = c, d, fd
			d = lo + r*(hi-lo)
			fd = f(d)
		}
		best = max(best, fc, fd)
	}
	return best
}

// NonInferiority is the exact unconditional test of H0 p1 − p2 ≤ d0
// against p1 − p2 > d0 for two independent binomial samples, x1 of n1 and
// x2 of n2 (Chan 1998, "Exact tests of equivalence and efficacy with a
// non-zero lower bound for comparative studies", Stat. Med. 17,
// 1403–1413; Röhmel & Mansmann 1999): the statistic is Farrington &
// Manning's score Z(d0), large against H0, and the p-value the supremum
// over the null's boundary p1 = p2 + d0 of P(Z ≥ z_obs), so it never
// exceeds its level (the size is largest on the boundary for this
// Barnard-convex region). As in Barnard, the region is found by
// bisection once and the size is a sum of binomial tails over the
// smaller sample, O(min(n1, n2)) per value of p2; TestNonInferiority
// checks both against brute force over every table.
func NonInferiority(x1, n1, x2, n2 uint64, d0 float64) float64 {
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	z := func(a, b uint64) float64 {
		return fmScore(float64(a)/float64(n1), float64(n1), float64(b)/float64(n2), float64(n2), d0)
	}
	zobs := z(x1, x2)
	zobs -= 1e-9 * max(1, math.Abs(zobs)) // tables as extreme up to rounding count as extreme
	lo, hi := max(0, -d0), min(1, 1-d0)   // p2 on the boundary, p1 = p2 + d0 in [0, 1]
	if !(hi > lo) {
		return math.NaN()
	}
	// Sum over the smaller sample ("sum"), take binomial tails of the
	// other ("tail"). Z rises with x1 and falls with x2, so for each x of
	// the summed sample the region is x1 ≥ t (the tail is x1) or x2 ≤ t
	// (the tail is x2).
	tailIsX1 := n2 <= n1
	nSum, nTail := n2, n1
	if !tailIsX1 {
		nSum, nTail = n1, n2
	}
	in := func(tail, sum uint64) bool {
		if tailIsX1 {
			return z(tail, sum) >= zobs
		}
		return z(sum, tail) >= zobs
	}
	t := make([]int64, nSum+1) // first x1 in the region, or last x2
	for y := uint64(0); y <= nSum; y++ {
		l, h := int64(-1), int64(nTail)+1
		for h-l > 1 {
			m := (l + h) / 2
			if in(uint64(m), y) == tailIsX1 { // in the upper set, or out of the lower one
				h = m
			} else {
				l = m
			}
		}
		t[y] = h
		if !tailIsX1 {
			t[y] = l
		}
	}
	size := func(p2 float64) float64 {
		p1 := min(1, max(0, p2+d0))
		pSum, pTail := p2, p1
		if !tailIsX1 {
			pSum, pTail = p1, p2
		}
		sum := distuv.Binomial{N: float64(nSum), P: pSum}
		tail := distuv.Binomial{N: float64(nTail), P: pTail}
		s := 0.0
		for y := uint64(0); y <= nSum; y++ {
			w := sum.Prob(float64(y))
			switch {
			case w < 1e-15:
			case tailIsX1 && t[y] <= int64(nTail):
				s += w * tail.Survival(float64(t[y])-0.5)
			case !tailIsX1 && t[y] >= 0:
				s += w * tail.CDF(float64(t[y]))
			}
		}
		return s
	}
	return min(1, supremumOn(size, lo, hi, barnardGrid))
}
