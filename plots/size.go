package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Line is one success-rate curve against board size, e.g. for one rule or
// tie-break.
type Line struct {
	// Name is the legend entry, e.g. "warnsdorff/random".
	Name string
	// N holds board sizes (n for an n×n board); Rate the success rates
	// in [0, 1]; Lo and Hi the bounds of their intervals (95 % by the
	// harness's default), with Lo ≤ Rate ≤ Hi.
	N            []float64
	Rate, Lo, Hi []float64
}

// SizeOptions are the choices a caller may make for a size curve; the zero
// value draws the lines alone.
type SizeOptions struct {
	// Title is the figure's title, e.g. "warnsdorff/random: success
	// against board size".
	Title string
	// LegendTitle heads the legend and should name the rule and the
	// boards, e.g. "warnsdorff/random, n×n boards:".
	LegendTitle string
	// References are published values to draw over the measured ones.
	// Those wholly outside the measured sizes are left out (and out of
	// the legend); ranges are cut to the measured sizes.
	References []Reference
}

// Bound says how a published value bounds the rate.
type Bound int

const (
	// About: the rate is about Rate (a point, or a line over a range).
	About Bound = iota
	// AtLeast: the rate is Rate or more ("≥ 98 %"), drawn as an arrow up
	// from a point or a band from Rate to 1 over a range.
	AtLeast
	// Below: the rate is under Rate ("< 5 %"), drawn as an arrow down
	// or a band from 0 to Rate.
	Below
)

// Reference is one published value of the success rate.
type Reference struct {
	// Source is the legend entry, e.g. "Squirrel & Cull 1996";
	// references with the same Source share a style and an entry.
	Source string
	// N is the board size; NMax, if above N, makes the reference hold
	// for every size from N to NMax.
	N, NMax float64
	// Rate is the published value in [0, 1], and Bound how it bounds
	// the rate.
	Rate  float64
	Bound Bound
}

// SizeCurve draws success rate against board size with the default
// options; see SizeCurveWith.
func SizeCurve(lines []Line) (*Figure, error) {
	return SizeCurveWith(lines, SizeOptions{})
}

// SizeCurveWith draws success rate against board size with interval error
// bars, one line per series (e.g. per start class, or per square colour on
// odd boards). Markers sit on their board size n: series that overlap are
// told apart by marker shape, colour and dash pattern, never shifted off n.
// Published references are drawn in black with open markers (see Bound).
func SizeCurveWith(lines []Line, o SizeOptions) (*Figure, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("plots: size curve: %w", noData("no lines"))
	}
	nmin, nmax := math.Inf(1), math.Inf(-1)
	for i, l := range lines {
		if err := l.validate(); err != nil {
			return nil, fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
		}
		for _, n := range l.N {
			nmin, nmax = math.Min(nmin, n), math.Max(nmax, n)
		}
	}
	for i, r := range o.References {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("plots: size curve, reference %d (%q): %w", i, r.Source, err)
		}
	}

	p := newPlot()
	p.Title.Text = o.Title
	p.X.Label.Text = "board size n (n×n board)"
	p.Y.Label.Text = "success rate"
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Min, p.X.Max = nmin-0.5, nmax+0.5
	p.Y.Tick.Marker = rateTicks{}
	p.X.Tick.Marker = intTicks{}
	addGrid(p)
	f := &Figure{Plot: p}
	if o.LegendTitle != "" {
		f.addLegend(o.LegendTitle)
	}
	refs := newRefPlot(o.References, p.X.Min, p.X.Max)
	p.Add(refs)
	for i, l := range lines {
		if err := addSizeLine(p, f, i, l); err != nil {
			return nil, err
		}
	}
	for _, src := range refs.sources {
		f.addLegend(src.name, src)
	}
	return f, nil
}

func addSizeLine(p *plot.Plot, f *Figure, i int, l Line) error {
	pts := make(rateErrors, len(l.N))
	for k := range l.N {
		pts[k] = rateError{x: l.N[k], y: l.Rate[k], lo: l.Rate[k] - l.Lo[k], hi: l.Hi[k] - l.Rate[k]}
	}
	clr, dashes, glyph := seriesStyle(i)
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
	}
	bars.LineStyle = draw.LineStyle{Color: clr, Width: 0.6}
	bars.CapWidth = 2.5
	line, scatter, err := plotter.NewLinePoints(pts)
	if err != nil {
		return fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
	}
	line.LineStyle = draw.LineStyle{Color: clr, Width: 0.8, Dashes: dashes}
	scatter.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: 1.6, Shape: glyph}
	p.Add(bars, line, scatter)
	f.addLegend(l.Name, line, scatter)
	return nil
}

func (r Reference) validate() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"N", r.N}, {"NMax", r.NMax}, {"Rate", r.Rate}} {
		if err := checkValue(v.name, v.v); err != nil {
			return err
		}
	}
	switch {
	case r.Source == "":
		return fmt.Errorf("no Source: a published value needs its source")
	case r.N < 1:
		return fmt.Errorf("N = %v is not a board size", r.N)
	case r.NMax != 0 && r.NMax < r.N:
		return fmt.Errorf("NMax = %v is below N = %v", r.NMax, r.N)
	case r.Rate < 0 || r.Rate > 1:
		return fmt.Errorf("Rate = %v is not in [0, 1]", r.Rate)
	case r.Bound < About || r.Bound > Below:
		return fmt.Errorf("Bound %d is not About, AtLeast or Below", r.Bound)
	}
	return nil
}

func (l Line) validate() error {
	if len(l.N) == 0 {
		return noData("no board sizes")
	}
	if err := checkLengths(len(l.N), []string{"Rate", "Lo", "Hi"}, len(l.Rate), len(l.Lo), len(l.Hi)); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		v    []float64
	}{{"N", l.N}, {"Rate", l.Rate}, {"Lo", l.Lo}, {"Hi", l.Hi}} {
		if err := checkFinite(s.name, s.v); err != nil {
			return err
		}
	}
	for k := range l.N {
		if l.N[k] < 1 {
			return fmt.Errorf("N[%d] = %v is not a board size", k, l.N[k])
		}
		if !(0 <= l.Lo[k] && l.Lo[k] <= l.Rate[k] && l.Rate[k] <= l.Hi[k] && l.Hi[k] <= 1) {
			return fmt.Errorf("n = %v: want 0 ≤ Lo ≤ Rate ≤ Hi ≤ 1, have Lo %v, Rate %v, Hi %v", l.N[k], l.Lo[k], l.Rate[k], l.Hi[k])
		}
	}
	return nil
}

type rateError struct{ x, y, lo, hi float64 }

type rateErrors []rateError

func (r rateErrors) Len() int                        { return len(r) }
func (r rateErrors) XY(i int) (float64, float64)     { return r[i].x, r[i].y }
func (r rateErrors) YError(i int) (float64, float64) { return r[i].lo, r[i].hi }

// rateTicks labels a rate axis at 0, 0.2, …, 1 with minor ticks between.
type rateTicks struct{}

func (rateTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for k := 0; k <= 10; k++ {
		t := plot.Tick{Value: float64(k) / 10}
		if k%2 == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
		ts = append(ts, t)
	}
	return ts
}
