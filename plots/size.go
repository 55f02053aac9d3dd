package plots

import (
	"fmt"
	"math"
	"sort"
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

// SizeCurve draws success rate against board size with interval error bars,
// one line per rule or tie-break. When several lines share a board size
// their points are set slightly apart horizontally (spread over less than
// 0.4 of the smallest gap between sizes) so that the error bars do not hide
// each other.
func SizeCurve(lines []Line) (*Figure, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("plots: size curve: %w", noData("no lines"))
	}
	for i, l := range lines {
		if err := l.validate(); err != nil {
			return nil, fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
		}
	}

	p := newPlot()
	p.X.Label.Text = "board size n (n×n board)"
	p.Y.Label.Text = "success rate"
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = rateTicks{}
	addGrid(p)
	f := &Figure{Plot: p}

	dodge := dodgeStep(lines)
	for i, l := range lines {
		off := dodge * (float64(i) - float64(len(lines)-1)/2)
		pts := make(rateErrors, len(l.N))
		for k := range l.N {
			pts[k] = rateError{x: l.N[k] + off, y: l.Rate[k], lo: l.Rate[k] - l.Lo[k], hi: l.Hi[k] - l.Rate[k]}
		}
		clr, dashes, glyph := seriesStyle(i)
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
		}
		bars.LineStyle = draw.LineStyle{Color: clr, Width: 0.6}
		bars.CapWidth = 2.5
		line, scatter, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
		}
		line.LineStyle = draw.LineStyle{Color: clr, Width: 0.8, Dashes: dashes}
		scatter.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: 1.6, Shape: glyph}
		p.Add(bars, line, scatter)
		f.addLegend(l.Name, line, scatter)
	}
	return f, nil
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

// dodgeStep is the horizontal distance between the points of neighbouring
// lines at one board size: 0.4 of the smallest gap between sizes, shared
// among the lines, or zero for a single line.
func dodgeStep(lines []Line) float64 {
	if len(lines) < 2 {
		return 0
	}
	var ns []float64
	for _, l := range lines {
		ns = append(ns, l.N...)
	}
	sort.Float64s(ns)
	gap := math.Inf(1)
	for i := 1; i < len(ns); i++ {
		if d := ns[i] - ns[i-1]; d > 0 && d < gap {
			gap = d
		}
	}
	if math.IsInf(gap, 1) {
		gap = 1
	}
	return 0.4 * gap / float64(len(lines))
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
