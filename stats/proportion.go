package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Proportion is a binomial count: Successes out of Trials independent
// trials (walks).
type Proportion struct{ Successes, Trials uint64 }

// Estimate returns Successes/Trials, NaN when there are no trials.
func (p Proportion) Estimate() float64 {
	if p.Trials == 0 {
		return math.NaN()
	}
	return float64(p.Successes) / float64(p.Trials)
}

// Few-trial thresholds for warnings. Below minTrials any interval is wide and
// its coverage oscillates strongly with the true rate; with fewer than
// minCount successes or failures (n·p̂ or n·(1−p̂) < 5, the textbook rule for
// normal approximations) the Wilson interval's coverage can dip below
// nominal near 0 and 1 (Brown, Cai & DasGupta 2001, §4.1.1).
const (
	minTrials = 30
	minCount  = 5
)

// Interval returns the estimate with a two-sided confidence interval at
// level conf (e.g. 0.95) by method m.
//
// With no trials the rate is undefined: Center is NaN and the interval is
// the whole range [0, 1], with a warning. [0, 1] rather than NaN bounds so
// that everything downstream stays total: a claim checked against it is
// "inconclusive" (or "consistent" when it claims nothing), and plots and
// tables show an honest full-range bar instead of a hole.
//
// It panics if conf is not in (0, 1), if Successes > Trials, or for an
// unknown method: configuration is validated before statistics run.
func (p Proportion) Interval(conf float64, m Method) Summary {
	checkConf(conf)
	if p.Successes > p.Trials {
		panic(fmt.Sprintf("stats: proportion %d/%d has more successes than trials", p.Successes, p.Trials))
	}
	s := Summary{Center: p.Estimate(), Confidence: conf, Method: m}
	if p.Trials == 0 {
		s.Lo, s.Hi = 0, 1
		s.Warnings = append(s.Warnings, "no trials: rate undefined, interval is [0, 1]")
		return s
	}
	switch m {
	case Wilson:
		s.Lo, s.Hi = wilson(p.Successes, p.Trials, conf)
	case ClopperPearson:
		s.Lo, s.Hi = clopperPearson(p.Successes, p.Trials, conf)
	case ConfidenceSequence:
		s.Lo, s.Hi = confidenceSequence(p.Successes, p.Trials, conf)
	default:
		panic(fmt.Sprintf("stats: unknown interval method %v", m))
	}
	if p.Trials < minTrials {
		s.Warnings = append(s.Warnings, fmt.Sprintf("only %d trials: interval is wide and its coverage uneven", p.Trials))
	}
	if m == Wilson && (p.Successes < minCount || p.Trials-p.Successes < minCount) {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%d successes, %d failures: Wilson coverage may fall below nominal near 0 or 1; clopper-pearson is conservative",
			p.Successes, p.Trials-p.Successes))
	}
	return s
}

func checkConf(conf float64) {
	if !(conf > 0 && conf < 1) {
		panic(fmt.Sprintf("stats: confidence level %v not in (0, 1)", conf))
	}
}

// zCrit returns the standard normal quantile z with P(|Z| <= z) = conf.
func zCrit(conf float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-conf)/2)
}

// wilson returns the Wilson score interval, written in counts,
//
//	(2x + z² ∓ z·sqrt(z² + 4x(n−x)/n)) / (2(n + z²)),
//
// which avoids forming p̂(1−p̂) by subtraction. The ends at x = 0 and x = n
// are set exactly: the formula gives them only up to rounding.
func wilson(x, n uint64, conf float64) (lo, hi float64) {
	z := zCrit(conf)
	fx, fn, z2 := float64(x), float64(n), z*z
	root := z * math.Sqrt(z2+4*fx*(fn-fx)/fn)
	den := 2 * (fn + z2)
	lo = (2*fx + z2 - root) / den
	hi = (2*fx + z2 + root) / den
	if x == 0 {
		lo = 0
	}
	if x == n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1)
}

// clopperPearson returns the exact interval from the beta quantiles
//
//	lo = B⁻¹(α/2; x, n−x+1),  hi = B⁻¹(1−α/2; x+1, n−x),
//
// with lo = 0 when x = 0 and hi = 1 when x = n, where the beta distribution
// is degenerate.
func clopperPearson(x, n uint64, conf float64) (lo, hi float64) {
	a := (1 - conf) / 2
	fx, fn := float64(x), float64(n)
	lo, hi = 0, 1
	if x > 0 {
		lo = distuv.Beta{Alpha: fx, Beta: fn - fx + 1}.Quantile(a)
	}
	if x < n {
		hi = distuv.Beta{Alpha: fx + 1, Beta: fn - fx}.Quantile(1 - a)
	}
	return lo, hi
}
