package plots

import (
	"cmp"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// RateAxis is how a size curve's rate axis is scaled.
type RateAxis int

const (
	// RateAxisAuto picks the axis from the data (see chooseRateAxis).
	RateAxisAuto RateAxis = iota
	// RateAxisLinear runs from 0 to 100 %.
	RateAxisLinear
	// RateAxisLogit spreads rates near 100 % (and near 0) by their odds:
	// 99 % and 99.9 % lie as far apart as 50 % and 90 %.
	RateAxisLogit
	// RateAxisLog spreads small rates by decades.
	RateAxisLog
)

// Thresholds of the automatic rate axis.
const (
	// crowdHigh: when at least half the points are at or above it, and
	// none is 0, the axis is logit (rates bunched under 100 %).
	crowdHigh = 0.9
	// crowdLow: when every interval ends at or below it and some rate is
	// above 0, the axis is logarithmic (rates bunched over 0).
	crowdLow = 0.2
)

// rateScale maps rates to the coordinate drawn: the identity, log10 or
// logit, clamped to [lo, hi] so that rates of exactly 0 or 1, which a
// logit or log axis cannot show, sit on the axis's edge.
type rateScale struct {
	kind   RateAxis
	lo, hi float64 // in rate units
	rule   string  // the axis chosen, for the label
	// atZero and atOne record values of exactly 0 and 1, which a logit
	// axis draws on its edges, labelled "0" and "100" there.
	atZero, atOne bool
	// labels is about how many labels fit along the axis (0: 9, for a
	// vertical axis; a narrow horizontal one takes fewer).
	labels int
}

// chooseRateAxis picks the axis for the points (rates and interval ends).
func chooseRateAxis(forced RateAxis, lines []Line, refs ...float64) rateScale {
	var all, hiValues []float64
	high, zero, positive := 0, false, false
	maxHi, points := 0.0, 0
	for _, l := range lines {
		for k := range l.N {
			points++
			r := l.Rate[k]
			all = append(all, r, l.Lo[k], l.Hi[k])
			if r >= crowdHigh {
				high++
			}
			zero = zero || r == 0
			positive = positive || r > 0
			maxHi = math.Max(maxHi, l.Hi[k])
			for _, v := range []float64{r, l.Lo[k], l.Hi[k]} {
				if v < 1 {
					hiValues = append(hiValues, v)
				}
			}
		}
	}
	kind := forced
	rule := ""
	sampled := false // some point has an interval
	for _, l := range lines {
		for k := range l.N {
			sampled = sampled || l.Hi[k] > l.Lo[k]
		}
	}
	if kind == RateAxisAuto {
		kind = RateAxisLinear
		switch {
		case !sampled:
			// Shares of a few starts of a deterministic rule (0, 25, …,
			// 100 % of 4 corners): the plain 0-100 scale, on which 100 %
			// is a value, not the end of a logit axis.
		case maxHi <= crowdLow && positive:
			kind, rule = RateAxisLog, "log scale"
		case 2*high >= points && !zero && len(hiValues) > 0:
			kind, rule = RateAxisLogit, "logit scale"
		}
	}
	s := rateScale{kind: kind, lo: 0, hi: 1, rule: rule}
	for _, v := range all {
		s.atZero, s.atOne = s.atZero || v == 0, s.atOne || v == 1
	}
	switch kind {
	case RateAxisLogit:
		// The axis spans the rates and their intervals, and the
		// references, except the interval of a rate of exactly 0 or 1:
		// 2000 of 2000 walks give [99.8, 100] %, sampling resolution, not
		// data, which gave 99.8-100 % the axis's top 40 %. Such a point sits
		// on the axis's end, its bar clipped there.
		lo, top := 1.0, 0.0
		add := func(v float64) {
			if v > 0 && v < 1 {
				lo, top = math.Min(lo, v), math.Max(top, v)
			}
		}
		for _, l := range lines {
			for k := range l.N {
				add(l.Rate[k])
				if l.Rate[k] > 0 && l.Rate[k] < 1 {
					add(l.Lo[k])
					add(l.Hi[k])
				}
			}
		}
		for _, r := range refs {
			add(r)
		}
		if lo == 1 {
			lo = 0.5
		}
		s.lo, s.hi = pad(lo, top)
	case RateAxisLog:
		lo := maxHi
		for _, v := range all {
			if v > 0 {
				lo = math.Min(lo, v)
			}
		}
		s.lo, s.hi = lo/2, math.Min(1, maxHi*1.5)
	}
	return s
}

// pad widens [lo, hi] on a logit scale by a tenth of its width each way.
func pad(lo, hi float64) (float64, float64) {
	a, b := logit(math.Min(lo, 0.5)), logit(math.Max(hi, lo))
	if b <= a {
		b = a + 1
	}
	w := (b - a) / 10
	return expit(a - w), expit(b + w)
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }
func expit(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// y is the coordinate of rate r.
func (s rateScale) y(r float64) float64 {
	r = math.Max(s.lo, math.Min(s.hi, r))
	switch s.kind {
	case RateAxisLogit:
		return logit(r)
	case RateAxisLog:
		return math.Log10(r)
	}
	return r
}

// label is the axis label: percent, and the scale where the auto rule
// chose one (the caption states the rule).
func (s rateScale) label() string {
	if s.rule != "" {
		return "success rate (%, " + s.rule + s.endsNote() + ")"
	}
	return "success rate (%" + s.endsNote() + ")"
}

// endsNote says, on a logit or log axis, where rates of exactly 0 and 1
// are drawn: at its ends, which stand for the last rates the axis shows
// (the axis itself reaches neither 0 % nor, on a logit axis, 100 %).
func (s rateScale) endsNote() string {
	if s.kind != RateAxisLogit && s.kind != RateAxisLog {
		return ""
	}
	switch {
	case s.atZero && s.atOne && s.lo > 0 && s.hi < 1:
		return "; rates of 0 % and 100 % drawn at its ends"
	case s.atZero && s.lo > 0:
		return "; rates of 0 % drawn at its low end"
	case s.atOne && s.hi < 1:
		return "; rates of 100 % drawn at its high end"
	}
	return ""
}

// endsLegend is endsNote as a legend entry, in words and percent.
func (s rateScale) endsLegend() string {
	switch s.endsNote() {
	case "":
		return ""
	case "; rates of 0 % and 100 % drawn at its ends":
		return "0 % and 100 % drawn at the axis's ends"
	case "; rates of 0 % drawn at its low end":
		return "0 % drawn at the axis's low end"
	}
	return "100 % drawn at the axis's top" // short, to share a legend row
}

// Ticks labels the axis in percent: 0, 20, …, 100 on a linear axis;
// round percentages spread by the scale otherwise.
func (s rateScale) Ticks(min, max float64) []plot.Tick {
	if s.kind == RateAxisLinear || s.kind == RateAxisAuto {
		var ts []plot.Tick
		for k := 0; k <= 10; k++ {
			t := plot.Tick{Value: float64(k) / 10}
			if k%2 == 0 {
				t.Label = strconv.Itoa(10 * k)
			}
			ts = append(ts, t)
		}
		return ts
	}
	cands := []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 98, 99, 99.5, 99.8, 99.9, 99.95, 99.98, 99.99}
	var ts []plot.Tick
	last := math.Inf(-1)
	gap := (max - min) / float64(cmp.Or(s.labels, 9))
	for _, c := range cands {
		v := s.y(c / 100)
		if c/100 < s.lo || c/100 > s.hi || v-last < gap {
			continue
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(c, 'f', -1, 64)})
		last = v
	}
	// Rates of exactly 0 or 1, which a logit or log axis cannot place,
	// sit on its ends; the ends are not labelled "0" or "100", which
	// would put those labels at the rates the ends stand for (81.9 %, say),
	// and the axis label says where such rates are drawn (endsNote).
	return ts
}

// RateAxisFor says which rate axis SizeCurveWith draws for lines under
// forced (RateAxisAuto: the data's choice), for captions: "linear",
// "logit" or "log".
func RateAxisFor(forced RateAxis, lines []Line) string {
	switch chooseRateAxis(forced, lines).kind {
	case RateAxisLogit:
		return "logit"
	case RateAxisLog:
		return "log"
	}
	return "linear"
}
