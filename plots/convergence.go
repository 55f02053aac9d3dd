package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// ConvergenceData is a running estimate (e.g. the success rate from one
// start square) after growing numbers of walks, with its interval.
type ConvergenceData struct {
	Title string
	// Walks holds the number of walks behind each estimate: positive and
	// increasing (the x axis is logarithmic).
	Walks []float64
	// Estimate holds the running estimates, Lo and Hi their interval
	// bounds, with Lo ≤ Estimate ≤ Hi.
	Estimate, Lo, Hi []float64
	// Label names the y axis, e.g. "success rate"; empty gives "estimate".
	Label string
	// Level is the confidence level of [Lo, Hi], for the legend; zero
	// means 0.95.
	Level float64
	// Exact, if not nil, is drawn as a horizontal reference line, e.g. the
	// exact value from enumeration.
	Exact *float64
	// ExactLabel is the legend entry of the reference line; empty gives
	// "exact" and the value.
	ExactLabel string
	// Percent labels the y axis in percent (values stay fractions).
	Percent bool
}

// convergenceFirst is the fewest walks drawn: before it the interval
// spans most of [0, 1] and would take the figure's scale (the estimates
// before it are in the per-walk table).
const convergenceFirst = 10

// from drops the estimates before n walks, keeping at least two.
func (d ConvergenceData) from(n float64) ConvergenceData {
	k := 0
	for k < len(d.Walks)-2 && d.Walks[k] < n {
		k++
	}
	d.Walks, d.Estimate, d.Lo, d.Hi = d.Walks[k:], d.Estimate[k:], d.Lo[k:], d.Hi[k:]
	return d
}

// Convergence draws the running estimate and its interval band against the
// number of walks on a logarithmic axis, with an optional reference line.
func Convergence(d ConvergenceData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("plots: convergence %q: %w", d.Title, err)
	}
	level := d.Level
	if level == 0 {
		level = 0.95
	}
	label := d.Label
	if label == "" {
		label = "estimate"
	}

	p := newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = "number of walks n"
	p.Y.Label.Text = label
	if d.Percent {
		p.Y.Label.Text += " (%)"
		p.Y.Tick.Marker = scaledTicks{100}
	}
	p.X.Tick.Marker = log10Ticks{}
	addGrid(p)
	f := &Figure{Plot: p}
	d = d.from(convergenceFirst)

	// The x axis carries log10 of the number of walks, on a linear
	// scale labelled in powers of ten: gonum's LogScale places the axis
	// label by the arithmetic midpoint, which pads the figure oddly.
	n := len(d.Walks)
	lx := make([]float64, n)
	for i, w := range d.Walks {
		lx[i] = math.Log10(w)
	}
	band := make(plotter.XYs, 0, 2*n)
	for i := range n {
		band = append(band, plotter.XY{X: lx[i], Y: d.Hi[i]})
	}
	for i := n - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: lx[i], Y: d.Lo[i]})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, fmt.Errorf("plots: convergence %q: %w", d.Title, err)
	}
	poly.Color = lighten(okabeSkyBlue, 0.45)
	poly.LineStyle.Width = 0

	est := make(plotter.XYs, n)
	for i := range n {
		est[i] = plotter.XY{X: lx[i], Y: d.Estimate[i]}
	}
	line, err := plotter.NewLine(est)
	if err != nil {
		return nil, fmt.Errorf("plots: convergence %q: %w", d.Title, err)
	}
	line.LineStyle = draw.LineStyle{Color: okabeBlue, Width: 1}

	p.Add(poly, line)
	// The axis spans the data and no more: a decade past the last
	// estimate would suggest walks that were never run.
	p.X.Min, p.X.Max = lx[0], lx[n-1]
	if n == 1 {
		p.X.Min, p.X.Max = lx[0]-0.5, lx[0]+0.5
	}
	f.addLegend("estimate", line)
	f.addLegend(levelText(level)+" interval", poly)
	lo, hi := slices.Min(d.Lo), slices.Max(d.Hi)
	pad := (hi - lo) / 20
	p.Y.Min, p.Y.Max = lo-pad, hi+pad // the estimate never sits on the frame

	if d.Exact != nil {
		ref := plotter.NewFunction(func(float64) float64 { return *d.Exact })
		ref.LineStyle = draw.LineStyle{Color: okabeVermilion, Width: 1, Dashes: seriesDashes[1]}
		p.Add(ref)
		p.Y.Min = math.Min(p.Y.Min, *d.Exact-pad)
		p.Y.Max = math.Max(p.Y.Max, *d.Exact+pad)
		el := d.ExactLabel
		if el == "" {
			el = "exact " + strconv.FormatFloat(*d.Exact, 'g', 4, 64)
		}
		f.addLegend(el, ref)
	}
	return f, nil
}

// ConvergenceError draws, for a running estimate of a known exact value,
// the absolute error |estimate − exact| and the interval's half-width
// against the number of walks on log–log axes, with the guide
// z·√(p(1−p)/n) that an estimate of a proportion p converges along: a
// slope of −1/2 shows the Monte Carlo rate, a level line a bias.
func ConvergenceError(d ConvergenceData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("plots: convergence error %q: %w", d.Title, err)
	}
	if d.Exact == nil {
		return nil, fmt.Errorf("plots: convergence error %q: no exact value", d.Title)
	}
	level := d.Level
	if level == 0 {
		level = 0.95
	}
	ex := *d.Exact
	scale := 1.0
	unit := ""
	if d.Percent {
		scale, unit = 100, " (percentage points)"
	}
	var errs, half, guide plotter.XYs
	z := zQuantile(level)
	for i, n := range d.Walks {
		x := math.Log10(n)
		if e := math.Abs(d.Estimate[i]-ex) * scale; e > 0 {
			errs = append(errs, plotter.XY{X: x, Y: math.Log10(e)})
		}
		if h := (d.Hi[i] - d.Lo[i]) / 2 * scale; h > 0 {
			half = append(half, plotter.XY{X: x, Y: math.Log10(h)})
		}
		if g := z * math.Sqrt(ex*(1-ex)/n) * scale; g > 0 {
			guide = append(guide, plotter.XY{X: x, Y: math.Log10(g)})
		}
	}
	if len(errs) < 2 {
		return nil, fmt.Errorf("plots: convergence error %q: %w", d.Title, noData("fewer than two estimates differ from the exact value"))
	}
	p := newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = "number of walks n"
	p.Y.Label.Text = "|estimate − exact|" + unit
	p.X.Tick.Marker = log10Ticks{}
	p.Y.Tick.Marker = log10Ticks{}
	addGrid(p)
	f := &Figure{Plot: p}
	for _, s := range []struct {
		xys   plotter.XYs
		style draw.LineStyle
		name  string
	}{
		{errs, draw.LineStyle{Color: okabeBlue, Width: 1}, "|error| of the running estimate"},
		{half, draw.LineStyle{Color: okabeSkyBlue, Width: 1, Dashes: seriesDashes[1]}, levelText(level) + " interval half-width"},
		{guide, draw.LineStyle{Color: okabeVermilion, Width: 1, Dashes: seriesDashes[2]}, fmt.Sprintf("guide %.2f·√(p(1−p)/n), falling as 1/√n, p exact", z)},
	} {
		if len(s.xys) < 2 {
			continue
		}
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return nil, fmt.Errorf("plots: convergence error %q: %w", d.Title, err)
		}
		l.LineStyle = s.style
		p.Add(l)
		f.addLegend(s.name, l)
	}
	p.X.Min, p.X.Max = math.Log10(d.Walks[0]), math.Log10(d.Walks[len(d.Walks)-1])
	return f, nil
}

// zQuantile is the two-sided normal quantile of a confidence level.
func zQuantile(level float64) float64 {
	return math.Sqrt2 * math.Erfinv(level)
}

// scaledTicks labels a linear axis in units of factor × the data (percent
// for fractions).
type scaledTicks struct{ factor float64 }

func (s scaledTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := niceTicker{}.Ticks(lo*s.factor, hi*s.factor)
	for i := range ts {
		ts[i].Value /= s.factor
	}
	return ts
}

func (d ConvergenceData) validate() error {
	n := len(d.Walks)
	if n == 0 {
		return noData("no estimates")
	}
	if err := checkLengths(n, []string{"Estimate", "Lo", "Hi"}, len(d.Estimate), len(d.Lo), len(d.Hi)); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		v    []float64
	}{{"Walks", d.Walks}, {"Estimate", d.Estimate}, {"Lo", d.Lo}, {"Hi", d.Hi}} {
		if err := checkFinite(s.name, s.v); err != nil {
			return err
		}
	}
	for i := range n {
		if d.Walks[i] <= 0 {
			return fmt.Errorf("Walks[%d] = %v: the number of walks must be positive", i, d.Walks[i])
		}
		if i > 0 && d.Walks[i] <= d.Walks[i-1] {
			return fmt.Errorf("Walks[%d] = %v does not increase", i, d.Walks[i])
		}
		if !(d.Lo[i] <= d.Estimate[i] && d.Estimate[i] <= d.Hi[i]) {
			return fmt.Errorf("at %v walks: want Lo ≤ Estimate ≤ Hi, have %v, %v, %v", d.Walks[i], d.Lo[i], d.Estimate[i], d.Hi[i])
		}
	}
	if d.Exact != nil {
		if err := checkValue("Exact", *d.Exact); err != nil {
			return err
		}
	}
	if d.Level != 0 && !(d.Level > 0 && d.Level < 1) {
		return fmt.Errorf("Level %v is not in (0, 1)", d.Level)
	}
	return nil
}

// levelText writes a confidence level as a percentage: "95 %", "99.9 %".
func levelText(level float64) string {
	return strconv.FormatFloat(100*level, 'f', -1, 64) + " %"
}

var superscripts = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

// powerLabel writes 10^e with superscript digits (which Liberation Sans
// has), as "10³"; plain numbers for 1 and 10 read better.
func powerLabel(e int) string {
	switch e {
	case 0:
		return "1"
	case 1:
		return "10"
	}
	s := "10"
	if e < 0 {
		s += "⁻"
		e = -e
	}
	for _, d := range strconv.Itoa(e) {
		s += string(superscripts[d-'0'])
	}
	return s
}
