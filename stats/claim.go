package stats

import (
	"fmt"
	"math"
	"strconv"
)

// ClaimKind is the shape of a published claim about a success rate.
type ClaimKind uint8

const (
	Rate  ClaimKind = iota // "about r" (± tolerance): [r−t, r+t], or the point r when t = 0
	Range                  // "between a and b": [a, b]
	Below                  // "below x": [0, x)
	Above                  // "above x": (x, 1]
)

var claimKindNames = [...]string{"rate", "range", "below", "above"}

func (k ClaimKind) String() string {
	if int(k) < len(claimKindNames) {
		return claimKindNames[k]
	}
	return fmt.Sprintf("ClaimKind(%d)", k)
}

// ParseClaimKind parses "rate", "range", "below" or "above".
func ParseClaimKind(s string) (ClaimKind, error) {
	for i, n := range claimKindNames {
		if s == n {
			return ClaimKind(i), nil
		}
	}
	return 0, fmt.Errorf("claim kind %q: valid kinds are rate, range, below, above", s)
}

// Claim asserts that a true rate lies in a set of rates. All values are
// fractions in [0, 1] (seed 000's "centre about 85 %" is
// Claim{Kind: Rate, Value: 0.85, Tolerance: 0.05} if read as ±5 points).
type Claim struct {
	Kind ClaimKind

	// Value is r for Rate and x for Below and Above.
	Value float64
	// Tolerance is t >= 0 for Rate; 0 makes the claim a single point.
	Tolerance float64
	// Lo and Hi are a < b for Range.
	Lo, Hi float64
}

// Validate reports a claim that names no sensible set of rates: values
// outside [0, 1] or not finite, a negative tolerance, an empty or
// single-point range (use Rate for a point), below 0 or above 1.
func (c Claim) Validate() error {
	in01 := func(x float64) bool { return x >= 0 && x <= 1 } // false for NaN
	switch c.Kind {
	case Rate:
		if !in01(c.Value) {
			return fmt.Errorf("claim %v: rate must be in [0, 1]", c)
		}
		if !(c.Tolerance >= 0) || math.IsInf(c.Tolerance, 0) {
			return fmt.Errorf("claim %v: tolerance must be finite and at least 0", c)
		}
	case Range:
		if !in01(c.Lo) || !in01(c.Hi) || !(c.Lo < c.Hi) {
			return fmt.Errorf("claim %v: range needs 0 <= lo < hi <= 1", c)
		}
	case Below:
		if !in01(c.Value) || c.Value == 0 {
			return fmt.Errorf("claim %v: below x needs 0 < x <= 1", c)
		}
	case Above:
		if !in01(c.Value) || c.Value == 1 {
			return fmt.Errorf("claim %v: above x needs 0 <= x < 1", c)
		}
	default:
		return fmt.Errorf("claim kind %v: valid kinds are rate, range, below, above", c.Kind)
	}
	return nil
}

// String prints the claim in percent, e.g. "rate 85% ± 5%", "range [70%,
// 80%]", "below 20%", "above 50%".
func (c Claim) String() string {
	// Ten significant digits: 100 × 0.0295 prints 2.95, not 2.9499999999999997.
	pct := func(x float64) string { return strconv.FormatFloat(100*x, 'g', 10, 64) + "%" }
	switch c.Kind {
	case Rate:
		if c.Tolerance == 0 {
			return "rate " + pct(c.Value)
		}
		return "rate " + pct(c.Value) + " ± " + pct(c.Tolerance)
	case Range:
		return "range [" + pct(c.Lo) + ", " + pct(c.Hi) + "]"
	case Below:
		return "below " + pct(c.Value)
	case Above:
		return "above " + pct(c.Value)
	}
	return c.Kind.String()
}

// set returns the claimed set as an interval from a to b with open or
// closed ends.
func (c Claim) set() (a, b float64, aOpen, bOpen bool) {
	switch c.Kind {
	case Rate:
		return max(c.Value-c.Tolerance, 0), min(c.Value+c.Tolerance, 1), false, false
	case Range:
		return c.Lo, c.Hi, false, false
	case Below:
		return 0, c.Value, false, true
	default: // Above
		return c.Value, 1, true, false
	}
}

// Verdicts returned by Verdict.
const (
	Consistent   = "consistent"
	Refuted      = "refuted"
	Inconclusive = "inconclusive"
)

// Verdict judges claimed against the measured confidence interval
// [measured.Lo, measured.Hi]:
//
//   - "consistent" when the interval lies wholly inside the claimed set:
//     every rate the data allow satisfies the claim;
//   - "refuted" when the interval lies wholly outside it: no rate the data
//     allow satisfies the claim;
//   - "inconclusive" otherwise: the interval straddles an end of the set,
//     and more walks would be needed to decide.
//
// Ends count exactly as the set defines them. "Below x" is [0, x), so an
// interval with Hi == x is not wholly inside it (inconclusive, or refuted
// when Lo == x too); "above x" is (x, 1], so an interval with Hi == x is
// wholly outside it (refuted). Range and Rate-with-tolerance sets are
// closed.
//
// A point claim (Rate with zero tolerance) can never contain an interval of
// positive width, so it is judged as a test instead: consistent when the
// interval contains the point (the data do not reject it), refuted
// otherwise. Because the interval has the chosen confidence, a true point
// claim is refuted with probability about 1 − confidence.
//
// An interval with a NaN end gives "inconclusive". Verdict panics on a claim
// that fails Validate or an interval with Lo > Hi: those are caught earlier.
func Verdict(claimed Claim, measured Summary) string {
	if err := claimed.Validate(); err != nil {
		panic("stats: Verdict: " + err.Error())
	}
	lo, hi := measured.Lo, measured.Hi
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return Inconclusive
	}
	if lo > hi {
		panic(fmt.Sprintf("stats: Verdict: interval [%v, %v] has lo > hi", lo, hi))
	}
	if claimed.Kind == Rate && claimed.Tolerance == 0 {
		if lo <= claimed.Value && claimed.Value <= hi {
			return Consistent
		}
		return Refuted
	}
	a, b, aOpen, bOpen := claimed.set()
	aboveA := lo > a || lo == a && !aOpen // lo inside the set's lower end
	belowB := hi < b || hi == b && !bOpen // hi inside the set's upper end
	if aboveA && belowB {
		return Consistent
	}
	if hi < a || hi == a && aOpen || lo > b || lo == b && bOpen {
		return Refuted
	}
	return Inconclusive
}

// VerdictPValue is the p-value of the decision Verdict makes on the
// proportion x with intervals of method m: the smallest α at which the
// 1 − α interval already decides the claim — refutes it, or, for a claim
// that is a set of positive width, confirms it (lies wholly inside). By
// the duality of tests and intervals (the intervals are nested in α),
// Verdict at confidence 1 − α is decisive exactly when VerdictPValue <= α,
// and a true claim is refuted (a false one confirmed) with probability at
// most α. That makes the claims of a run a family whose p-values Holm can
// adjust (Holm 1979). It is 1 when no level decides the claim (the
// estimate sits on an end of the set), and at least 1e-15.
func VerdictPValue(c Claim, x Proportion, m Method) float64 {
	decisive := func(alpha float64) bool {
		v := Verdict(c, x.Interval(1-alpha, m))
		return v == Refuted || v == Consistent && !(c.Kind == Rate && c.Tolerance == 0)
	}
	if x.Trials == 0 {
		return 1
	}
	return smallestAlpha(decisive)
}

// Proved reports whether observed walks prove claim c true or false
// without sampling error (ok), and which (holds): one success proves the
// rate above 0 and one failure proves it below 1. So "probability zero"
// (rate 0) is refuted by a success and rate 1 by a failure; "above 0" is
// confirmed by a success, "below 1" by a failure. A proof needs no
// interval and no level: it is decided by the walk, as a deterministic
// rule's verdict is.
func Proved(c Claim, successes, walks uint64) (holds, ok bool) {
	if walks == 0 || successes > walks || c.Validate() != nil {
		return false, false
	}
	// The rates the walks leave possible, O: (0, 1), (0, 1] or [0, 1).
	sawSuccess, sawFailure := successes > 0, successes < walks
	a, b, aOpen, bOpen := c.set()
	switch {
	case sawSuccess && a == 0 && b == 0 && !aOpen && !bOpen: // claimed {0}
		return false, true
	case sawFailure && a == 1 && b == 1 && !aOpen && !bOpen: // claimed {1}
		return false, true
	case a != 0 || b != 1: // the claimed set leaves out rates O holds
		return false, false
	case sawSuccess && sawFailure: // O = (0, 1) ⊆ any set from 0 to 1
		return true, true
	case sawSuccess && !bOpen: // O = (0, 1]
		return true, true
	case sawFailure && !aOpen: // O = [0, 1)
		return true, true
	}
	return false, false
}
