package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Scale is how a heatmap maps values to colours.
type Scale int

const (
	// ScaleAuto is linear, except for the failure view, where it is
	// logarithmic: failure rates of rules that nearly always succeed
	// differ by factors, not by fixed amounts.
	ScaleAuto Scale = iota
	// ScaleLinear maps equal differences to equal steps of colour.
	ScaleLinear
	// ScaleLog maps equal ratios to equal steps of colour; it needs
	// positive values (squares at zero get the lowest colour).
	ScaleLog
)

// colorScale maps the drawn quantity (a fraction for rates) to [0, 1] and
// writes it in display units (×100 for percentages).
type colorScale struct {
	lo, hi   float64 // ends of the scale, in drawn units
	log      bool
	factor   float64 // display = factor × drawn
	decimals int     // of cell labels, in display units
	// fixedLo and fixedHi record ends set by the caller, which are
	// labelled as given ("0", "1") rather than with the data's decimals.
	fixedLo, fixedHi bool
}

// t is the position of v on the scale, 0 at lo and 1 at hi, clamped.
func (s colorScale) t(v float64) float64 {
	var t float64
	if s.log {
		if v <= 0 {
			return 0
		}
		t = math.Log(v/s.lo) / math.Log(s.hi/s.lo)
	} else {
		t = (v - s.lo) / (s.hi - s.lo)
	}
	return math.Max(0, math.Min(1, t))
}

// label writes v in display units with the cell labels' decimals; an exact
// zero is "0", which tells "none" apart from "rounds to zero".
func (s colorScale) label(v float64) string {
	if v == 0 {
		return "0"
	}
	return formatFixed(v*s.factor, s.decimals)
}

// exactLabel writes v in display units like label, but with two
// significant digits where label would round a non-zero v to zero.
func (s colorScale) exactLabel(v float64) string {
	l := s.label(v)
	if x, err := strconv.ParseFloat(l, 64); err == nil && x == 0 && v != 0 {
		return strconv.FormatFloat(v*s.factor, 'g', 2, 64)
	}
	return l
}

func formatFixed(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if v == 0 || s == "-"+strconv.FormatFloat(0, 'f', decimals, 64) {
		s = strconv.FormatFloat(0, 'f', decimals, 64) // no "-0.00"
	}
	return s
}

// spreadDecimals is the number of decimals that resolve a spread of values
// (in display units) to about three significant digits, so that squares
// whose values differ by a hundredth of the spread read differently:
// a spread of 2 percentage points gives "97.96", one of 0.02 gives
// "0.9796". Capped at 6.
func spreadDecimals(spread float64) int {
	if !(spread > 0) {
		return 2
	}
	return min(6, max(0, int(math.Ceil(-math.Log10(spread)-1e-9))+2))
}

// logDecimals resolves values spanning decades: three significant digits
// of the smallest value ("2.04", "0.0113").
func logDecimals(smallest float64) int {
	if !(smallest > 0) {
		return 2
	}
	return min(6, max(0, int(math.Ceil(-math.Log10(smallest)-1e-9))+2))
}

// minBarLabels is the fewest labelled ticks a colour bar gets, ends
// included, so that a reader can read a colour off it between the ends.
const minBarLabels = 5

// Spacing of the colour bar's labels, as shares of its height: inner
// labels keep barEndGap from the end labels and barLabelGap from each other.
const (
	barEndGap   = 0.09
	barLabelGap = 0.075
)

// ticks returns the colour bar's ticks: both ends, labelled with their exact
// values so the bar states the range of the scale, and round values between
// them that do not crowd the ends or each other, at least minBarLabels in
// all: the roundest set of candidates that gives that many.
func (s colorScale) ticks() []plot.Tick {
	end := func(v float64, fixed bool) plot.Tick {
		if fixed {
			return plot.Tick{Value: v, Label: strconv.FormatFloat(v*s.factor, 'f', -1, 64)}
		}
		if s.log && v > 0 { // three significant digits of each end, not the smallest value's decimals ("11.1250")
			// more where the scale spans so little that three digits
			// would put the label off its place (37.25 as "37.3" on a
			// bar from 35.3 to 37.25).
			d := logDecimals(v * s.factor)
			l := formatFixed(v*s.factor, d)
			for x, err := strconv.ParseFloat(l, 64); err == nil && x > 0 && math.Abs(math.Log(x/(v*s.factor))) > math.Log(s.hi/s.lo)/500 && d < 12; x, err = strconv.ParseFloat(l, 64) {
				d++
				l = formatFixed(v*s.factor, d)
			}
			return plot.Tick{Value: v, Label: l}
		}
		// An end is labelled with its value to a five-hundredth of the
		// bar's range, so the label stands at its value (CheckTicks): a
		// bottom of 95.77 written "96" would sit a tenth of the bar low.
		l := s.label(v)
		d := s.decimals
		for x, err := strconv.ParseFloat(l, 64); err == nil && v != 0 && math.Abs(x-v*s.factor) > (s.hi-s.lo)*s.factor/500 && d < 12; x, err = strconv.ParseFloat(l, 64) {
			d++
			l = formatFixed(v*s.factor, d)
		}
		return plot.Tick{Value: v, Label: l}
	}
	var inner []plot.Tick
	for _, cand := range s.innerCandidates() {
		inner = s.spaced(cand)
		if len(inner)+2 >= minBarLabels {
			break
		}
	}
	out := append([]plot.Tick{end(s.lo, s.fixedLo)}, inner...)
	return append(out, end(s.hi, s.fixedHi))
}

// innerCandidates lists candidate inner ticks, in display units, from the
// roundest to the densest.
func (s colorScale) innerCandidates() [][]plot.Tick {
	lo, hi := s.lo*s.factor, s.hi*s.factor
	var out [][]plot.Tick
	if s.log {
		for _, m := range [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 5, 7}, {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9}} {
			out = append(out, logTicks(lo, hi, m))
		}
	}
	for n := 5; n <= 16; n++ {
		out = append(out, niceTicks(lo, hi, n))
	}
	return out
}

// spaced keeps, of ticks in display units, those that crowd neither the
// ends nor the tick kept before them, converted to drawn units.
func (s colorScale) spaced(ticks []plot.Tick) []plot.Tick {
	var out []plot.Tick
	last := 0.0
	for _, tk := range ticks {
		v := tk.Value / s.factor
		p := s.t(v)
		if p < barEndGap || p > 1-barEndGap || (len(out) > 0 && p-last < barLabelGap) {
			continue
		}
		out = append(out, plot.Tick{Value: v, Label: tk.Label})
		last = p
	}
	return out
}

// logTicks labels the given multiples of the powers of ten within
// [lo, hi].
func logTicks(lo, hi float64, mults []float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			d := max(0, int(-e))
			if m != math.Trunc(m) {
				d++
			}
			ts = append(ts, plot.Tick{Value: v, Label: formatFixed(v, d)})
		}
	}
	return ts
}
