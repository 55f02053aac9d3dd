package stats

import "math"

// The always-valid interval of sequential runs (docs/design.md, "Running
// until decided").
//
// A sequential run looks at its counts after every round and stops when
// they decide; a fixed-n interval checked that way misses far more often
// than its level says (the more looks, the more chances to cross by
// noise). A confidence sequence is a sequence of intervals that covers the
// rate at every n at once with probability at least conf, so it stays
// valid at whatever n the run chose to stop.
//
// We use the conjugate (beta-binomial) mixture of Robbins (1970), in the
// form of Howard, Ramdas, McAuliffe & Sekhon (2021, "Time-uniform,
// nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49(2),
// §3 and Prop. 6 with the beta mixture): for i.i.d. Bernoulli(p) outcomes
// with k successes in n trials,
//
//	M_n(p) = ∫ q^k (1−q)^(n−k) dBeta(q; a, b) / (p^k (1−p)^(n−k))
//	       = B(a+k, b+n−k) / B(a, b) / (p^k (1−p)^(n−k))
//
// is a nonnegative martingale with M_0 = 1 under p, so by Ville's
// inequality P(∃n: M_n(p) ≥ 1/α) ≤ α, and
//
//	CS_n = { p : M_n(p) < 1/α },  α = 1 − conf,
//
// covers p at every n simultaneously with probability ≥ 1 − α. It is a
// function of (k, n) alone: anyone can recompute it from a table's counts,
// and it is the same for any order in which workers finished their units.
// The betting sequences of Waudby-Smith & Ramdas (2023) are somewhat
// tighter but depend on the order of the outcomes, which a run split over
// workers does not fix; we give up that margin for reproducibility.
//
// Pooled squares: a claim pools start squares with different rates p_i,
// each advanced by the same number of walks per round. Over one walk of
// each of m squares, E[∏ (q/p)^X_i ((1−q)/(1−p))^(1−X_i)] =
// ∏ (1 + c·(p_i − p)) with c = q/p − (1−q)/(1−p); with Σ(p_i − p) = 0 (p
// the pooled mean) the AM–GM inequality bounds the product by 1, so M is
// a supermartingale at round ends and Ville's inequality still holds:
// the pooled sequence covers the mean rate of the squares.
//
// The prior Beta(1/2, 1/2) puts weight near 0 and 1, where the rates of
// knight walks lie (Warnsdorff near 1, the random walk near 0).
const csPrior = 0.5

// csLogM returns log M_n(p).
func csLogM(k, n uint64, p float64) float64 {
	fk, fn := float64(k), float64(n)
	l := lbeta(csPrior+fk, csPrior+fn-fk) - lbeta(csPrior, csPrior)
	if k > 0 {
		l -= fk * math.Log(p)
	}
	if n > k {
		l -= (fn - fk) * math.Log1p(-p)
	}
	return l
}

func lbeta(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// confidenceSequence returns the ends of CS_n at level conf for k
// successes in n trials. log M_n is convex in p with its minimum at
// k/n, where M_n ≤ 1 (a mixture of likelihoods is at most the largest),
// so the set is an interval around k/n, found by bisection on each side.
func confidenceSequence(k, n uint64, conf float64) (lo, hi float64) {
	bound := -math.Log(1 - conf)
	out := func(p float64) bool { return csLogM(k, n, p) >= bound }
	c := float64(k) / float64(n)
	lo, hi = 0, 1
	if k > 0 && out(0x1p-1074) {
		lo = bisectEdge(0, c, out) // out at 0, in at c
	}
	if k < n && out(1-0x1p-53) {
		hi = bisectEdge(1, c, out)
	}
	return lo, hi
}

// bisectEdge finds the edge between x, where out holds, and c, where it
// does not, and returns the end nearest x that is still inside (so the
// interval never claims a rate it has excluded).
func bisectEdge(x, c float64, out func(float64) bool) float64 {
	for range 200 {
		mid := (x + c) / 2
		if mid == x || mid == c {
			break
		}
		if out(mid) {
			x = mid
		} else {
			c = mid
		}
	}
	return c
}
