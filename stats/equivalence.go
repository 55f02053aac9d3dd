package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Inconclusive joins Reproduced and NotReproduced as the third outcome of
// a comparison with a published count (Replicate).

// PowerTarget is the power at which a run's detectable difference and the
// walks that would decide it are stated: 80 %, the convention of sample
// size planning (Cohen 1988, Statistical Power Analysis, ch. 1).
const PowerTarget = 0.8

var stdNormal = distuv.UnitNormal

// DefaultPlanningRate is the planning rate of a source that states none:
// 1/2, where a binomial count varies most, so the margin it gives is the
// widest the source's design could have (the conservative choice of sample
// size planning, Chow, Shao & Wang 2008, §4.1).
const DefaultPlanningRate = 0.5

// DefaultMargin is the equivalence margin of a source that declares none:
// the smallest difference a design of n trials could detect at two-sided
// level alpha with 80 % power, at the planning rate p0,
//
//	δ = (z_{1−α/2} + z_{0.8}) · sqrt(p0(1 − p0)/n),
//
// the usual normal-approximation detectable difference of one sample
// (Chow, Shao & Wang 2008, Sample Size Calculations in Clinical Research,
// §4.1). It depends on the design only (n and a stated p0), never on the
// count the source observed: a margin computed from the observed count
// (it used to be p̃ = (k + 2)/(n + 4)) is itself data, and the two
// one-sided tests then exceed their level (12.8 % at a true rate of 0.95
// and 100 trials, TestEquivalenceLevelAsUsed). A difference smaller than
// δ is one such a design could not have told from no difference; so
// "reproduced" means: our rate lies within what the source's design could
// resolve of theirs.
func DefaultMargin(n uint64, planning, alpha float64) float64 {
	if n == 0 || !(planning > 0 && planning < 1) {
		return math.NaN()
	}
	z := stdNormal.Quantile(1-alpha/2) + stdNormal.Quantile(PowerTarget)
	return min(0.999, z*math.Sqrt(planning*(1-planning)/float64(n)))
}

// Replicated is a comparison of our rate with a published count in three
// outcomes: the difference test (not reproduced when it rejects), the two
// one-sided tests of equivalence within ±Margin (reproduced when both
// reject), and otherwise inconclusive, with what the run could have
// detected and how many walks would decide it.
type Replicated struct {
	Replication
	Margin float64
	// PLower and PUpper are the p-values of the two one-sided tests of
	// equivalence (Schuirmann 1987, "A comparison of the two one-sided
	// tests procedure and the power approach for assessing the
	// equivalence of average bioavailability", J. Pharmacokin. Biopharm.
	// 15, 657–680): H0 d ≤ −Margin against d > −Margin, and H0 d ≥ Margin
	// against d < Margin, d our rate minus theirs. Equivalence is shown at
	// level α when both are at most α.
	PLower, PUpper float64
	// Detectable is the smallest |d| the difference test detects with
	// 80 % power at these sample sizes (at the published rate).
	Detectable float64
	// WalksNeeded is how many walks of ours would, at the observed rates,
	// decide the comparison with 80 % power (either way, the fewer); 0
	// where it is decided or our side is exact, -1 where no number of
	// walks would (the published side's own trials limit it).
	WalksNeeded int64
}

// PEquivalence is the p-value of equivalence, max(PLower, PUpper).
func (r Replicated) PEquivalence() float64 { return max(r.PLower, r.PUpper) }

// Verdict is the comparison's outcome at level alpha on its own p-values:
// not reproduced where the difference test rejects, reproduced where
// equivalence is shown and the difference is not significant, else
// inconclusive.
func (r Replicated) Verdict(alpha float64) string { return r.VerdictAt(r.PValue, alpha) }

// VerdictAt is Verdict with the difference test's p-value replaced by
// pDiff (Holm's adjustment of it within the claim's family).
func (r Replicated) VerdictAt(pDiff, alpha float64) string {
	switch {
	case math.IsNaN(pDiff):
		return Inconclusive
	case pDiff <= alpha:
		return NotReproduced
	case r.PEquivalence() <= alpha:
		return Reproduced
	}
	return Inconclusive
}

// Replicate compares our k1 of n1 with the published k2 of n2 as two
// samples: the difference by Barnard's exact unconditional test, the
// equivalence within ±margin by two one-sided exact unconditional tests
// on Farrington & Manning's score (Chan 1998), at level alpha.
//
// The one-sided tests use the restricted maximum-likelihood score
// statistic of Farrington & Manning (1990, "Test statistics and sample
// size formulae for comparative binomial trials with null hypothesis of
// non-zero risk difference or non-unity relative risk", Stat. Med. 9,
// 1447–1454), eq. (1)–(2), with the closed-form restricted estimates of
// their Appendix (Miettinen & Nurminen 1985 without the n/(n−1) factor):
//
//	Z(δ0) = (p̂1 − p̂2 − δ0) / sqrt(p̃1(1 − p̃1)/n1 + p̃2(1 − p̃2)/n2),
//
// p̃1 − p̃2 = δ0 maximising the likelihood, referred not to the normal
// distribution (whose level, tried first, reached 6.3 % at α = 5 % near
// rates of 95 %) but to its exact unconditional distribution
// (NonInferiority), so the level holds at every sample size; the slow
// test TestEquivalenceLevel computes level and power exactly, by
// enumerating every table, at the sizes runs meet (published 30 and 100
// trials, ours 40 to 10⁵).
func Replicate(ours, published Proportion, margin, alpha float64) Replicated {
	r := Replicated{Replication: Replication{Method: "barnard"}, Margin: margin}
	if ours.Trials == 0 || published.Trials == 0 {
		r.Diff = Summary{Center: math.NaN(), Lo: -1, Hi: 1, Confidence: 1 - alpha, Method: Wilson}
		r.PValue, r.PLower, r.PUpper, r.Detectable = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		r.WalksNeeded = -1
		return r
	}
	r.Diff = Compare(ours, published, 1-alpha).Diff
	r.PValue = Barnard(ours.Successes, ours.Trials, published.Successes, published.Trials)
	r.PLower, r.PUpper = Equivalence(ours, published, margin)
	r.Detectable = detectable(published, float64(ours.Trials), alpha)
	if r.Verdict(alpha) == Inconclusive {
		r.WalksNeeded = walksNeeded(ours, published, margin, alpha)
	}
	return r
}

// ReplicateExact compares the published k of n with our exact success
// probability p (or a deterministic rule's rate, which has no sampling
// error): the difference by the exact binomial test, equivalence by the
// two exact one-sided binomial tests of k against p ± margin:
// P(X ≤ k | p + margin) for H0 d ≤ −margin, P(X ≥ k | p − margin) for H0
// d ≥ margin (0 where that null holds no rate in [0, 1]).
func ReplicateExact(p float64, published Proportion, margin, alpha float64) Replicated {
	r := Replicated{Replication: CompareExact(p, published), Margin: margin}
	if published.Trials == 0 {
		r.PLower, r.PUpper, r.Detectable, r.WalksNeeded = math.NaN(), math.NaN(), math.NaN(), -1
		return r
	}
	k, n := float64(published.Successes), float64(published.Trials)
	switch q := p + margin; {
	case q < 1:
		r.PLower = distuv.Binomial{N: n, P: q}.CDF(k)
	case q == 1: // the null is the one rate 1: P(X ≤ k) is 1 only at k = n
		r.PLower = b2f(published.Successes == published.Trials)
	}
	switch q := p - margin; {
	case q > 0:
		r.PUpper = distuv.Binomial{N: n, P: q}.Survival(k - 0.5)
	case q == 0: // the null is the rate 0: P(X ≥ k) is 1 only at k = 0
		r.PUpper = b2f(published.Successes == 0)
	}
	r.Detectable = detectable(published, math.Inf(1), alpha)
	if r.Verdict(alpha) == Inconclusive {
		r.WalksNeeded = -1 // our side is exact: only more published trials could decide it
	}
	return r
}

// Equivalence returns the p-values of the two one-sided tests of
// Replicate: H0 d ≤ −margin and H0 d ≥ margin, d our rate minus theirs,
// each Chan's exact unconditional test on Farrington & Manning's score
// (NonInferiority; the second with the samples swapped).
func Equivalence(ours, published Proportion, margin float64) (pLower, pUpper float64) {
	pLower = NonInferiority(ours.Successes, ours.Trials, published.Successes, published.Trials, -margin)
	pUpper = NonInferiority(published.Successes, published.Trials, ours.Successes, ours.Trials, -margin)
	return pLower, pUpper
}

// fmScore is Farrington & Manning's score statistic of H0 p1 − p2 = d0.
func fmScore(p1, n1, p2, n2, d0 float64) float64 {
	r1, r2 := fmRestricted(p1, n1, p2, n2, d0)
	v := r1*(1-r1)/n1 + r2*(1-r2)/n2
	if v <= 0 {
		v = 1e-300
	}
	return (p1 - p2 - d0) / math.Sqrt(v)
}

// fmRestricted returns the maximum-likelihood rates p̃1, p̃2 under
// p̃1 − p̃2 = d0 (Farrington & Manning 1990, Appendix): p̃2 is the root in
// [max(0, −d0), min(1, 1 − d0)] of a cubic, in closed form.
func fmRestricted(p1, n1, p2, n2, d0 float64) (float64, float64) {
	theta := n2 / n1
	a := 1 + theta
	b := -(1 + theta + p1 + theta*p2 + d0*(theta+2))
	c := d0*d0 + d0*(2*p1+theta+1) + p1 + theta*p2
	d := -p1 * d0 * (1 + d0)
	v := b*b*b/(27*a*a*a) - b*c/(6*a*a) + d/(2*a)
	u := math.Copysign(math.Sqrt(max(0, b*b/(9*a*a)-c/(3*a))), v)
	w := 0.0
	if u != 0 {
		w = (math.Pi + math.Acos(max(-1, min(1, v/(u*u*u))))) / 3
	}
	r1 := 2*u*math.Cos(w) - b/(3*a)
	r1 = max(0, min(1, r1))
	r2 := r1 - d0
	if r2 < 0 || r2 > 1 { // rounding at the edge of the parameter space
		r2 = max(0, min(1, r2))
		r1 = r2 + d0
	}
	return r1, r2
}

// detectable is the smallest difference a two-sided level-alpha test
// detects with 80 % power with n1 walks of ours (Inf: exact) against the
// published trials, both at the published rate (Agresti-Coull adjusted).
func detectable(published Proportion, n1, alpha float64) float64 {
	p := (float64(published.Successes) + 2) / (float64(published.Trials) + 4)
	v := p * (1 - p) * (1/n1 + 1/float64(published.Trials))
	return (stdNormal.Quantile(1-alpha/2) + stdNormal.Quantile(PowerTarget)) * math.Sqrt(v)
}

// walksNeeded is the fewest walks of ours that would decide the comparison
// with 80 % power if the observed rates were the truth: the difference
// test once (z_{1−α/2} + z_{0.8})·se ≤ |d|, or equivalence once
// (z_{1−α} + z_{0.8})·se ≤ margin − |d|, se² = v1/n1 + v2/n2; -1 where
// neither happens for any n1 (v2/n2 alone is too large).
func walksNeeded(ours, published Proportion, margin, alpha float64) int64 {
	adj := func(x Proportion) float64 {
		p := (float64(x.Successes) + 2) / (float64(x.Trials) + 4)
		return p * (1 - p)
	}
	v1, v2 := adj(ours), adj(published)/float64(published.Trials)
	d := math.Abs(ours.Estimate() - published.Estimate())
	zb := stdNormal.Quantile(PowerTarget)
	need := math.Inf(1)
	for _, t := range []struct{ gap, z float64 }{
		{d, stdNormal.Quantile(1-alpha/2) + zb},
		{margin - d, stdNormal.Quantile(1-alpha) + zb},
	} {
		if t.gap <= 0 {
			continue
		}
		if room := (t.gap/t.z)*(t.gap/t.z) - v2; room > 0 {
			need = min(need, math.Ceil(v1/room))
		}
	}
	if math.IsInf(need, 1) || need > 1e15 {
		return -1
	}
	return int64(max(need, float64(ours.Trials)+1))
}
