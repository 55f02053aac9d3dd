package stats

// Claims over a set of boards: "over 85 % on most boards with
// n < 50" is a statement about how many boards meet a per-board claim, and
// Roth's "first failure at n = 428", "fails for under 1 % of sizes below
// 2000" are statements about the set of boards where a deterministic walk
// fails. These judge them from per-board results.

// Holds reports whether the rate x lies in the claimed set (false for
// NaN). It decides a claim whose rate is known without sampling error: an
// exact enumeration, or a deterministic rule's walks.
func (c Claim) Holds(x float64) bool {
	a, b, aOpen, bOpen := c.set()
	return (x > a || x == a && !aOpen) && (x < b || x == b && !bOpen)
}

// ShareResult is the share of boards whose rate meets a per-board claim:
// Point counts boards by their point estimate; [Lo, Hi] bounds the share
// by the per-board verdicts: Lo counts the boards where the claim is
// consistent, Hi those where it is not refuted. (Each board's interval has
// the run's confidence; the bounds are not simultaneous over boards.)
type ShareResult struct {
	Boards           int
	Point, Lo, Hi    float64
	Consistent, Open int // boards consistent and inconclusive
}

// Share judges per, a claim about each board's rate, on every board's
// measured interval.
func Share(per Claim, boards []Summary) ShareResult {
	r := ShareResult{Boards: len(boards)}
	if len(boards) == 0 {
		return r
	}
	var point int
	for _, s := range boards {
		if per.Holds(s.Center) {
			point++
		}
		switch Verdict(per, s) {
		case Consistent:
			r.Consistent++
		case Inconclusive:
			r.Open++
		}
	}
	n := float64(len(boards))
	r.Point, r.Lo, r.Hi = float64(point)/n, float64(r.Consistent)/n, float64(r.Consistent+r.Open)/n
	return r
}

// ShareVerdict judges "more than share of the boards meet the claim", or
// for share 1 "every board meets it": consistent when even the lower bound
// Lo is above share (for 1: is 1), refuted when the upper bound Hi is not
// (for 1: is below 1), inconclusive otherwise.
func ShareVerdict(r ShareResult, share float64) string {
	switch {
	case r.Boards == 0:
		return Inconclusive
	case share == 1 && r.Lo == 1:
		return Consistent
	case share == 1 && r.Hi < 1:
		return Refuted
	case share == 1:
		return Inconclusive
	case r.Lo > share:
		return Consistent
	case r.Hi <= share:
		return Refuted
	}
	return Inconclusive
}

// ExactVerdict is the verdict of a statement decided without sampling
// error, such as a deterministic rule's first failing size.
func ExactVerdict(holds bool) string {
	if holds {
		return Consistent
	}
	return Refuted
}

// BonferroniLevel is the confidence level each of k intervals needs for
// all k to hold at once with probability at least conf (Bonferroni's
// inequality: P(some miss) <= k · (1 − level) = 1 − conf). A claim about a
// share of k sampled boards judged on such intervals keeps its error rate:
// wrongly refuting (or confirming) it needs some interval to miss.
func BonferroniLevel(conf float64, k int) float64 {
	if k <= 1 {
		return conf
	}
	return 1 - (1-conf)/float64(k)
}
