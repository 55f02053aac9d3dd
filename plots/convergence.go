package plots

import (
	"fmt"
	"math"
	"strconv"

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
	p.X.Label.Text = "number of walks"
	p.Y.Label.Text = label
	p.X.Tick.Marker = log10Ticks{}
	addGrid(p)
	f := &Figure{Plot: p}

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

	if d.Exact != nil {
		ref := plotter.NewFunction(func(float64) float64 { return *d.Exact })
		ref.LineStyle = draw.LineStyle{Color: okabeVermilion, Width: 1, Dashes: seriesDashes[1]}
		p.Add(ref)
		p.Y.Min = math.Min(p.Y.Min, *d.Exact)
		p.Y.Max = math.Max(p.Y.Max, *d.Exact)
		el := d.ExactLabel
		if el == "" {
			el = "exact " + strconv.FormatFloat(*d.Exact, 'g', 4, 64)
		}
		f.addLegend(el, ref)
	}
	return f, nil
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
