package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Comparison compares two independent proportions, e.g. corner and centre
// starts, or two rules on the same starts.
type Comparison struct {
	// Diff is p1 − p2 with Newcombe's hybrid score interval (method 10 of
	// Newcombe 1998, "Interval estimation for the difference between
	// independent proportions: comparison of eleven methods", Stat Med 17,
	// 873–890). Diff.Method is Wilson: the hybrid is built from the two
	// Wilson intervals. It is chosen over the Wald interval p1−p2 ± z·se
	// because Wald degenerates to a zero-width interval when a rate is 0 or
	// 1 — common here, where a rule may never or always succeed — and
	// under-covers for small counts; the hybrid keeps near-nominal coverage
	// and its ends within [−1, 1].
	Diff Summary

	// Z is the pooled two-proportion z statistic (the square root of
	// Pearson's chi-square for the 2×2 table, sign of p1 − p2) and PValue
	// its two-sided p-value for H0: p1 = p2, from the standard normal.
	Z, PValue float64
}

// Compare compares a and b at confidence level conf. With no trials on
// either side the difference is undefined: Diff.Center, Z and PValue are NaN
// and the interval is [−1, 1]. When the pooled rate is 0 or 1 (both sides
// all failures or all successes) the z statistic is 0/0; the samples agree
// exactly, so Z = 0 and PValue = 1. It panics, like Proportion.Interval, on
// an invalid conf or a count with more successes than trials.
func Compare(a, b Proportion, conf float64) Comparison {
	sa, sb := a.Interval(conf, Wilson), b.Interval(conf, Wilson)
	var warn []string
	for _, w := range sa.Warnings {
		warn = append(warn, "first: "+w)
	}
	for _, w := range sb.Warnings {
		warn = append(warn, "second: "+w)
	}
	c := Comparison{Diff: Summary{Confidence: conf, Method: Wilson, Warnings: warn}}
	if a.Trials == 0 || b.Trials == 0 {
		c.Diff.Center, c.Diff.Lo, c.Diff.Hi = math.NaN(), -1, 1
		c.Z, c.PValue = math.NaN(), math.NaN()
		return c
	}
	p1, p2 := sa.Center, sb.Center
	d := p1 - p2
	// Newcombe's method 10: each side's distance to its own Wilson limit,
	// combined in quadrature.
	lo := d - math.Hypot(p1-sa.Lo, sb.Hi-p2)
	hi := d + math.Hypot(sa.Hi-p1, p2-sb.Lo)
	c.Diff.Center, c.Diff.Lo, c.Diff.Hi = d, max(lo, -1), min(hi, 1)

	x, n := float64(a.Successes+b.Successes), float64(a.Trials+b.Trials)
	pool := x / n
	if a.Successes+b.Successes == 0 || a.Successes+b.Successes == a.Trials+b.Trials {
		c.Z, c.PValue = 0, 1
		return c
	}
	se := math.Sqrt(pool * (1 - pool) * (1/float64(a.Trials) + 1/float64(b.Trials)))
	c.Z = d / se
	// 2·Φ(−|z|) rather than 2·(1 − Φ(|z|)): no cancellation for large |z|.
	c.PValue = 2 * distuv.UnitNormal.CDF(-math.Abs(c.Z))
	return c
}
