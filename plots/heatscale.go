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

// ticks returns the colour bar's ticks: both ends, labelled with their exact
// values so the bar states the range of the scale, and round values between
// them that do not crowd the ends.
func (s colorScale) ticks() []plot.Tick {
	end := func(v float64, fixed bool) plot.Tick {
		if fixed {
			return plot.Tick{Value: v, Label: strconv.FormatFloat(v*s.factor, 'f', -1, 64)}
		}
		return plot.Tick{Value: v, Label: s.label(v)}
	}
	ends := []plot.Tick{end(s.lo, s.fixedLo), end(s.hi, s.fixedHi)}
	var inner []plot.Tick
	if s.log {
		inner = logTicks(s.lo*s.factor, s.hi*s.factor)
	} else {
		inner = niceTicks(s.lo*s.factor, s.hi*s.factor, 5)
	}
	out := []plot.Tick{ends[0]}
	for _, tk := range inner {
		v := tk.Value / s.factor
		if p := s.t(v); p > 0.12 && p < 0.88 {
			out = append(out, plot.Tick{Value: v, Label: tk.Label})
		}
	}
	return append(out, ends[1])
}

// logTicks labels 1, 2 and 5 times the powers of ten within [lo, hi], or
// only the powers where the range spans more than two decades.
func logTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	mults := []float64{1, 2, 5}
	if hi/lo > 100 {
		mults = mults[:1]
	}
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			ts = append(ts, plot.Tick{Value: v, Label: formatFixed(v, max(0, int(-e)))})
		}
	}
	return ts
}
