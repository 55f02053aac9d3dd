package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Verdicts on a published claim: the words a replication uses.
// Each is said under a named reading of the published statement.
const (
	Reproduced    = "reproduced"
	NotReproduced = "not reproduced"
)

// Replication compares our success count with a published one.
type Replication struct {
	// Diff is our rate minus the published rate. Two samples: Newcombe's
	// hybrid score interval (method 10 of Newcombe 1998, Stat Med 17,
	// 873–890), which describes the size of the difference. One sample
	// (our side exact): a point, Lo = Hi = Center.
	Diff Summary
	// PValue is the two-sided p-value of "the published count comes from
	// our success probability": Barnard's test of two samples
	// (Replicate), or the exact binomial test of the published k of n
	// against our exact p (CompareExact).
	PValue float64
	Method string // "barnard" (two samples) or "binomial" (our side exact)
}

// BergerBoosGamma is the level of the confidence set for our rate over
// which a p-value is maximised (Berger & Boos, "P values maximised over a
// confidence set for the nuisance parameter", JASA 89, 1994, 1012–1016):
// their suggested 0.001, spent from α, so a p-value is never below it.
// The count readings of share claims use it (CountShare).
const BergerBoosGamma = 0.001

// smallestAlpha returns the smallest α in (0, 1) at which decisive(α)
// holds, for decisive monotone in α (false below some α, true above it),
// by bisection on log α; 1 when it never holds.
func smallestAlpha(decisive func(alpha float64) bool) float64 {
	const lo, hi = 1e-15, 1 - 1e-9
	if !decisive(hi) {
		return 1
	}
	if decisive(lo) {
		return lo
	}
	a, b := math.Log(lo), math.Log(hi)
	for range 60 {
		mid := (a + b) / 2
		if decisive(math.Exp(mid)) {
			b = mid
		} else {
			a = mid
		}
	}
	return math.Exp(b)
}

// CompareExact compares the published k of n with our exact success
// probability p: Diff is the point p − k/n, PValue the two-sided exact
// binomial test of k under Binomial(n, p).
func CompareExact(p float64, published Proportion) Replication {
	r := Replication{Method: "binomial"}
	if published.Trials == 0 {
		r.Diff = Summary{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
		r.PValue = math.NaN()
		return r
	}
	d := p - published.Estimate()
	r.Diff = Summary{Center: d, Lo: d, Hi: d}
	r.PValue = BinomialTest(published.Successes, published.Trials, p)
	return r
}

// BinomialTest is the two-sided exact binomial test of k successes in n
// trials against success probability p: the probability under
// Binomial(n, p) of every outcome no more likely than k (the
// "minimum-likelihood" two-sided p-value of R's binom.test; Hollander &
// Wolfe, Nonparametric Statistical Methods). Outcomes whose probability
// equals P(k) up to a relative 1e-7 count as no more likely, so that
// rounding does not drop a tie.
func BinomialTest(k, n uint64, p float64) float64 {
	if k > n || !(p >= 0 && p <= 1) {
		panic("stats: BinomialTest needs k ≤ n and 0 ≤ p ≤ 1")
	}
	switch {
	case p == 0:
		return b2f(k == 0)
	case p == 1:
		return b2f(k == n)
	}
	b := distuv.Binomial{N: float64(n), P: p}
	pk := b.LogProb(float64(k))
	sum := 0.0
	for x := uint64(0); x <= n; x++ {
		if lp := b.LogProb(float64(x)); lp <= pk+1e-7 {
			sum += math.Exp(lp)
		}
	}
	return min(sum, 1)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
