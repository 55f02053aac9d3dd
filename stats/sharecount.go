package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// Share-of-boards statements read as what the source observed.
// "At least 98 % on every n ≤ 25, 100 trials per n" says that on each
// size the source counted at least 98 successes of 100: a statement about
// their counts, which carry their own sampling error, not about the true
// rate. Each size is tested by the probability, under our rate there, of
// a count meeting the statement; the sizes are combined so that the
// verdict "not reproduced" is wrong with probability at most α
// (CountShare).

// CountSet is the counts Lo..Hi (of Trials) whose rate meets a per-board
// statement: the counts a source could have seen on a board where the
// statement held.
type CountSet struct{ Lo, Hi, Trials uint64 }

// CountsMeeting returns the counts x of trials whose rate x/trials meets c
// (c's set is an interval of rates, so they are an interval of counts);
// ok is false where no count does.
func CountsMeeting(c Claim, trials uint64) (s CountSet, ok bool) {
	s = CountSet{Trials: trials}
	found := false
	for x := uint64(0); x <= trials; x++ {
		if !c.Holds(float64(x) / float64(trials)) {
			continue
		}
		if !found {
			s.Lo, found = x, true
		}
		s.Hi = x
	}
	return s, found
}

// String writes the set as counts: "≥ 98 of 100", "≤ 4 of 100",
// "70–80 of 100", "0 of 100".
func (s CountSet) String() string {
	switch {
	case s.Lo == s.Hi:
		return fmt.Sprintf("%d of %d", s.Lo, s.Trials)
	case s.Hi == s.Trials:
		return fmt.Sprintf("≥ %d of %d", s.Lo, s.Trials)
	case s.Lo == 0:
		return fmt.Sprintf("≤ %d of %d", s.Hi, s.Trials)
	}
	return fmt.Sprintf("%d–%d of %d", s.Lo, s.Hi, s.Trials)
}

// Prob is P(Lo ≤ X ≤ Hi) for X ~ Binomial(Trials, p): the chance that a
// source whose success probability is p saw a count in the set. Tails are
// regularized incomplete beta functions (P(X ≥ k) = I_p(k, n−k+1)), each
// computed on the side where it is small, so a tiny probability keeps its
// relative precision.
func (s CountSet) Prob(p float64) float64 {
	if !(p >= 0 && p <= 1) || s.Lo > s.Hi || s.Hi > s.Trials {
		panic(fmt.Sprintf("stats: CountSet%v.Prob(%v): want 0 ≤ p ≤ 1 and Lo ≤ Hi ≤ Trials", s, p))
	}
	n := s.Trials
	switch {
	case p == 0:
		return b2f(s.Lo == 0)
	case p == 1:
		return b2f(s.Hi == n)
	}
	mean := p * float64(n)
	switch {
	case s.Lo == 0 && s.Hi == n:
		return 1
	case float64(s.Lo) > mean: // wholly or mostly in the upper tail
		return max(0, atLeast(s.Lo, n, p)-atLeast(s.Hi+1, n, p))
	case float64(s.Hi) < mean:
		return max(0, atMost(s.Hi, n, p)-atMostBelow(s.Lo, n, p))
	}
	return max(0, 1-atMostBelow(s.Lo, n, p)-atLeast(s.Hi+1, n, p))
}

// atLeast is P(X ≥ k) for X ~ Binomial(n, p), 0 < p < 1.
func atLeast(k, n uint64, p float64) float64 {
	switch {
	case k == 0:
		return 1
	case k > n:
		return 0
	}
	return mathext.RegIncBeta(float64(k), float64(n-k+1), p)
}

// atMost is P(X ≤ k).
func atMost(k, n uint64, p float64) float64 {
	if k >= n {
		return 1
	}
	return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)
}

// atMostBelow is P(X < k) = P(X ≤ k − 1).
func atMostBelow(k, n uint64, p float64) float64 {
	if k == 0 {
		return 0
	}
	return atMost(k-1, n, p)
}

// MaxProb is the largest Prob(π) over π in [a, b]. Prob is unimodal in π:
// its derivative n·(b(Lo−1; n−1, π) − b(Hi; n−1, π)) changes sign once,
// where the two binomial terms are equal, at the log-odds
// (ln C(n−1, Lo−1) − ln C(n−1, Hi)) / (Hi − Lo + 1); an upper tail (Hi = n)
// only rises, a lower one (Lo = 0) only falls. So the maximum is at that
// mode clamped into [a, b].
func (s CountSet) MaxProb(a, b float64) float64 {
	if !(0 <= a && a <= b && b <= 1) {
		panic(fmt.Sprintf("stats: CountSet.MaxProb(%v, %v): want 0 ≤ a ≤ b ≤ 1", a, b))
	}
	var mode float64
	switch n := float64(s.Trials); {
	case s.Lo == 0 && s.Hi == s.Trials:
		return 1
	case s.Hi == s.Trials:
		mode = 1
	case s.Lo == 0:
		mode = 0
	default:
		logOdds := (lchoose(n-1, float64(s.Lo)-1) - lchoose(n-1, float64(s.Hi))) / float64(s.Hi-s.Lo+1)
		mode = 1 / (1 + math.Exp(-logOdds))
	}
	return s.Prob(min(max(mode, a), b))
}

// MinProb is the smallest Prob(π) over π in [a, b]: Prob is unimodal, so
// it is at an end.
func (s CountSet) MinProb(a, b float64) float64 {
	if !(0 <= a && a <= b && b <= 1) {
		panic(fmt.Sprintf("stats: CountSet.MinProb(%v, %v): want 0 ≤ a ≤ b ≤ 1", a, b))
	}
	return min(s.Prob(a), s.Prob(b))
}

func lchoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}

// CountBoard is our side of one board of a count-share statement: an
// exact success probability (an enumeration, or a deterministic rule's
// count of starts), or our walks.
type CountBoard struct {
	Exact bool
	Rate  float64    // the exact probability, where Exact
	Ours  Proportion // our walks, where not
}

// CountShareResult is the verdict of "on more than a share s of the N
// boards the source counted a number of successes in CountSet", judged
// jointly: the statement is one event E of the source's N counts (at
// least Needed = ⌊sN⌋ + 1 of them in the set; N for share 1), and its
// probability under our rates decides it.
//
//   - P[i] is board i's probability of such a count under our rate: exact
//     (CountSet.Prob), or for a sampled board its largest value over our
//     rate's confidence set at level 1 − γ/S (S sampled boards, γ =
//     BergerBoosGamma; Clopper-Pearson, or the always-valid interval in a
//     sequential run) — Berger & Boos's maximisation over a confidence set
//     for the nuisance parameter (JASA 89, 1994). Least[i] is its smallest
//     value there (exact: P[i]).
//   - Joint is P(E) with board i's probability P[i], the counts
//     independent (a Poisson-binomial tail, JointTail); it is the largest
//     P(E) over the product of the boards' confidence sets, since P(E)
//     rises with every board's probability. JointLeast is P(E) at
//     Least: the smallest.
//   - Not reproduced (refuted) where Joint ≤ α: PValue = Joint. Reproduced
//     (consistent) where JointLeast > α: every rate our data allow makes
//     the source's pattern of counts plausible as a whole, not only each
//     size alone (a count of ≥ 86 of 100 on 5 of 8 sizes whose rates are
//     77–83 % is plausible on each size, P ≈ 0.05, but jointly has
//     probability 0.00025). Inconclusive otherwise.
//
// Guarantees. If every board's count came from our true rate: (1) the
// chance that the source could make the statement and we say "not
// reproduced" is at most α: E is an event of their counts, independent of
// our walks, so that chance is P(E)·P(reject); at most α where P(E) ≤ α,
// and where P(E) > α a rejection needs some board's confidence set to miss
// its rate, chance at most γ < α. (2) The chance of "reproduced" where
// P(E) ≤ α (a statement our rates make implausible) is at most γ: with
// every set covering, JointLeast ≤ P(E) ≤ α. With every board exact
// neither errs. TestCountShareHoldsItsLevel and
// TestCountShareJointGuarantee simulate both.
//
// Per board, for the report: Adjusted[i] = min(1, Miss·P[i]) with Miss =
// N − Needed + 1 (a true statement cannot miss all of any Miss boards), a
// board is rejected where Adjusted ≤ α and plausible alone where
// Miss·Least[i] > α; Lo and Hi are the shares of boards plausible alone and
// not rejected, Point the share whose point estimate passes. They describe
// the boards; the verdict is the joint one. (The verdict used to be these
// per-board outcomes, each size judged alone at α/Miss, never jointly:
// the 5-of-8 statement above was "reproduced". Joint ≤ Miss·P_(Miss)
// always, so the joint test rejects wherever that one did.)
type CountShareResult struct {
	Boards, Needed, Miss int
	P, Adjusted, Least   []float64
	Joint, JointLeast    float64
	Decided              []bool // board rejected or reproduced
	IsExact              []bool // board decided without sampling on our side
	Point, Lo, Hi        float64
	Rejected, Reproduced int
	PValue               float64
	Exact                bool // every board exact: no sampling on our side
	alpha                float64
}

// CountShare judges a count-share statement on boards at confidence conf;
// sequential says the walks stopped when their counts decided (the
// confidence sets are then always-valid intervals, so the test stays valid
// under optional stopping).
func CountShare(set CountSet, boards []CountBoard, share, conf float64, sequential bool) CountShareResult {
	n := len(boards)
	r := CountShareResult{Boards: n, Exact: true, PValue: math.NaN(), alpha: 1 - conf}
	if n == 0 {
		return r
	}
	alpha := 1 - conf
	r.Needed = n
	if share < 1 {
		r.Needed = 1
		for float64(r.Needed)/float64(n) <= share {
			r.Needed++
		}
	}
	r.Miss = n - r.Needed + 1
	sampled := 0
	for _, b := range boards {
		if !b.Exact {
			sampled++
			r.Exact = false
		}
	}
	nuisance := ClopperPearson
	if sequential {
		nuisance = ConfidenceSequence
	}
	r.P, r.Adjusted, r.Least, r.Decided, r.IsExact = make([]float64, n), make([]float64, n), make([]float64, n), make([]bool, n), make([]bool, n)
	point := 0
	for i, b := range boards {
		r.IsExact[i] = b.Exact
		center := b.Rate
		least := 0.0 // the count's smallest probability over our rates
		if b.Exact {
			r.P[i] = set.Prob(b.Rate)
			least = r.P[i]
		} else {
			ci := b.Ours.Interval(1-BergerBoosGamma/float64(sampled), nuisance)
			r.P[i] = set.MaxProb(ci.Lo, ci.Hi)
			least = set.MinProb(ci.Lo, ci.Hi)
			center = b.Ours.Estimate()
		}
		r.Least[i] = least
		r.Adjusted[i] = min(1, float64(r.Miss)*r.P[i])
		switch {
		case r.Adjusted[i] <= alpha:
			r.Rejected++
			r.Decided[i] = true
		case float64(r.Miss)*least > alpha:
			r.Reproduced++
			r.Decided[i] = true
		}
		if !math.IsNaN(center) && float64(r.Miss)*set.Prob(center) > alpha {
			point++
		}
	}
	r.Joint, r.JointLeast = JointTail(r.P, r.Needed), JointTail(r.Least, r.Needed)
	r.PValue = r.Joint
	nf := float64(n)
	r.Point, r.Lo, r.Hi = float64(point)/nf, float64(r.Reproduced)/nf, float64(n-r.Rejected)/nf
	return r
}

// JointTail is the probability that at least m of independent events
// with probabilities q happen (the upper tail of the Poisson-binomial
// distribution), by the recurrence over the events (O(N·m)).
func JointTail(q []float64, m int) float64 {
	if m <= 0 {
		return 1
	}
	if m > len(q) {
		return 0
	}
	// f[j] is P(exactly j so far) for j < m, tail P(at least m so far).
	f := make([]float64, m)
	f[0] = 1
	tail := 0.0
	for _, p := range q {
		tail += f[m-1] * p
		for j := m - 1; j >= 1; j-- {
			f[j] = f[j]*(1-p) + f[j-1]*p
		}
		f[0] *= 1 - p
	}
	return min(1, max(0, tail))
}

// Verdict is the share statement's verdict in the words of ShareVerdict:
// refuted where Joint ≤ α (exactly where PValue ≤ α), consistent where
// JointLeast > α, inconclusive otherwise. share is the claim's (the result
// already holds what it implies).
func (r CountShareResult) Verdict(share float64) string {
	return r.verdictOf(r.Joint, r.JointLeast)
}

func (r CountShareResult) verdictOf(most, least float64) string {
	switch {
	case r.Boards == 0 || math.IsNaN(most):
		return Inconclusive
	case most <= r.alpha:
		return Refuted
	case least > r.alpha:
		return Consistent
	}
	return Inconclusive
}

// SettledAt reports whether the claim needs no more walks on any board:
// it is shown plausible (JointLeast > α), or refuted at level alpha (the
// level its Holm family settles it at, at most α). With always-valid
// intervals either is safe to stop on.
func (r CountShareResult) SettledAt(alpha float64) bool {
	return r.Boards > 0 && (r.JointLeast > r.alpha || r.Joint <= alpha)
}

// DecidedByExact reports whether the verdict stands whatever the sampled
// boards show: the same with every sampled board's probability 0 and with
// every one 1 (P(E) is monotone in each).
func (r CountShareResult) DecidedByExact(share float64) bool {
	v := r.Verdict(share)
	if v == Inconclusive {
		return false
	}
	lo, hi := slices.Clone(r.P), slices.Clone(r.P)
	for i, exact := range r.IsExact {
		if !exact {
			lo[i], hi[i] = 0, 1
		}
	}
	return r.verdictOf(JointTail(hi, r.Needed), JointTail(lo, r.Needed)) == v
}
