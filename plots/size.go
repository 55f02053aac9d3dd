package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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
	// Exact, if not nil, holds the exact rate at each N where known (by
	// enumeration) and NaN elsewhere; it is drawn as a black cross in
	// place of the estimate's marker and bar (the walks only estimate
	// it), and the line runs through it.
	Exact []float64
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
	// Axis scales the rates: auto (linear, logit when most rates are at
	// least 90 %, log when every interval is under 20 %; the label says
	// which), or one forced.
	Axis RateAxis
	// LogN draws board sizes on a log axis: where sizes span a factor of
	// ten or more and the small ones crowd (5…30 beside 35…100), each
	// factor of two gets the same room.
	LogN bool
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
	// Lo and Hi, when Hi > Lo, are the interval of a published point's
	// count (75 of 100 trials), drawn as a bar: it was a sample too.
	Lo, Hi float64
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
func SizeCurveWith(lines []Line, o SizeOptions) (f *Figure, err error) {
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

	var refRates []float64
	for _, r := range o.References {
		if r.N <= nmax+0.5 && math.Max(r.N, r.NMax) >= nmin-0.5 { // drawn: within the sizes shown
			refRates = append(refRates, r.Rate)
			if r.Hi > r.Lo {
				refRates = append(refRates, r.Lo, r.Hi)
			}
		}
	}
	sc := chooseRateAxis(o.Axis, lines, refRates...)
	p := newPlot()
	p.Title.Text = o.Title
	p.X.Label.Text = "board size n (n×n board)"
	p.Y.Label.Text = sc.label()
	if note := sc.endsNote(); note != "" {
		// Too long for a vertical axis's label: in the legend.
		p.Y.Label.Text = strings.Replace(p.Y.Label.Text, note, "", 1)
		defer func() {
			if f != nil {
				f.addLegend(sc.endsLegend())
			}
		}()
	}
	p.Y.Min, p.Y.Max = sc.y(sc.lo), sc.y(sc.hi)
	// A margin of 3 % of the sizes each side, so that the end points'
	// markers and bars stand inside the frame (n = 440 was cut in half).
	margin := math.Max(0.5, 0.03*(nmax-nmin))
	p.X.Min, p.X.Max = nmin-margin, nmax+margin
	if o.LogN && nmin > 0 {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = nmin/1.06, nmax*1.06
	}
	p.Y.Tick.Marker = sc
	p.X.Tick.Marker = intTicks{}
	if o.LogN && nmin > 0 {
		p.X.Tick.Marker = sizeLogTicks{}
		p.X.Label.Text = "board size n (n×n board; log scale)"
	}
	addGrid(p)
	f = &Figure{Plot: p}
	if o.LegendTitle != "" {
		f.addLegend(o.LegendTitle)
	}
	refs := newRefPlot(o.References, p.X.Min, p.X.Max)
	refs.y = sc.y
	refs.sizes = measuredSizes(lines)
	exact := false
	for i, l := range lines {
		if err := addSizeLine(p, f, i, l, sc); err != nil {
			return nil, err
		}
		drawn, err := addExact(p, l, sc)
		if err != nil {
			return nil, err
		}
		exact = exact || drawn
	}
	if exact {
		f.addLegend(exactLegend, exactThumb{})
	}
	p.Add(refs) // over the data: a published value must not hide under it
	for _, src := range refs.sources {
		f.addLegend(src.name, src)
	}
	return f, nil
}

// measuredSizes are the board sizes of lines, sorted and distinct.
func measuredSizes(lines []Line) []float64 {
	var out []float64
	for _, l := range lines {
		out = append(out, l.N...)
	}
	sort.Float64s(out)
	return slices.Compact(out)
}

func addSizeLine(p *plot.Plot, f *Figure, i int, l Line, sc rateScale) error {
	pts := make(rateErrors, len(l.N))
	for k := range l.N {
		y := sc.y(l.Rate[k])
		pts[k] = rateError{x: l.N[k], y: y, lo: y - sc.y(l.Lo[k]), hi: sc.y(l.Hi[k]) - y}
	}
	clr, dashes, glyph := seriesStyle(i)
	if _, err := plotter.NewYErrorBars(pts); err != nil { // checks the bars as gonum would draw them
		return fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
	}
	scatter, err := plotter.NewScatter(pts)
	if err != nil {
		return fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
	}
	scatter.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: markerRadius, Shape: glyph}
	style := draw.LineStyle{Color: clr, Width: 0.8, Dashes: dashes}
	// Where the exact value is known, it is the point: its cross alone
	// (addExact), the line through it, no estimate's marker or bar.
	known := make([]bool, len(l.N))
	for k, e := range l.Exact {
		known[k] = !math.IsNaN(e)
	}
	p.Add(spacedPoints{pts: pts, skip: known, bars: draw.LineStyle{Color: clr, Width: 0.6}})
	for _, seg := range segments(l.N) {
		xys := make(plotter.XYs, len(seg))
		for j, k := range seg {
			xys[j] = plotter.XY{X: pts[k].x, Y: pts[k].y}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plots: size curve, line %d (%q): %w", i, l.Name, err)
		}
		line.LineStyle = style // odd n in the series' own style: a style of its own would need a legend entry
		p.Add(line)
	}
	p.Add(spacedPoints{pts: pts, skip: known, glyph: scatter.GlyphStyle})
	thumb := &plotter.Line{LineStyle: style}
	f.addLegend(l.Name, thumb, scatter)
	return nil
}

// markerRadius and capWidth are a point's marker and its error bar's cap
// where points stand apart; spacedPoints shrinks them where they crowd.
const (
	markerRadius = vg.Length(1.6)
	capWidth     = vg.Length(2.5)
	minRadius    = vg.Length(0.6)
)

// spacedPoints draws a line's error bars (bars set) or markers (glyph
// set), each sized by its distance on the page to its neighbours: where
// sizes run close together (n = 420, 424, … 440 on an axis to 440) the
// markers and caps shrink so that each point stays one point, not a blot.
type spacedPoints struct {
	pts   rateErrors
	skip  []bool // points not drawn (their place still spaces the others)
	bars  draw.LineStyle
	glyph draw.GlyphStyle
}

func (sp spacedPoints) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	xs := make([]vg.Length, len(sp.pts))
	for k, pt := range sp.pts {
		xs[k] = trX(pt.x)
	}
	for k, pt := range sp.pts {
		if k < len(sp.skip) && sp.skip[k] {
			continue
		}
		scale := crowdScale(xs, k)
		at := vg.Point{X: xs[k], Y: trY(pt.y)}
		if sp.glyph.Shape != nil {
			if c.Contains(at) {
				g := sp.glyph
				g.Radius = markerRadius * vg.Length(scale)
				c.DrawGlyph(g, at)
			}
			continue
		}
		lo, hi := trY(pt.y-pt.lo), trY(pt.y+pt.hi)
		c.StrokeLines(sp.bars, c.ClipLinesY([]vg.Point{{X: at.X, Y: lo}, {X: at.X, Y: hi}})...)
		w := capWidth * vg.Length(scale) / 2
		for _, y := range []vg.Length{lo, hi} {
			c.StrokeLines(sp.bars, c.ClipLinesY([]vg.Point{{X: at.X - w, Y: y}, {X: at.X + w, Y: y}})...)
		}
	}
}

// crowdScale is the size, relative to a lone point's, of point k's marker
// and cap among points at page positions xs: at most 0.45 of the gap to
// its nearest neighbour in radius, so neighbouring markers never touch,
// but never under minRadius (a point must stay visible).
func crowdScale(xs []vg.Length, k int) float64 {
	gap := vg.Length(math.Inf(1))
	for j, x := range xs {
		if d := vg.Length(math.Abs(float64(x - xs[k]))); j != k && d > 0 {
			gap = min(gap, d)
		}
	}
	return min(1, max(float64(minRadius/markerRadius), float64(0.45*gap/markerRadius)))
}

func (sp spacedPoints) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(sp.pts)
}

// exactGlyph marks exact values: a black cross, unlike any series' marker.
var exactGlyph = draw.GlyphStyle{Color: refColor, Radius: 2.6, Shape: draw.CrossGlyph{}}

// addExact draws l's exact rates and reports whether it drew any.
func addExact(p *plot.Plot, l Line, sc rateScale) (bool, error) {
	var xys plotter.XYs
	for k, e := range l.Exact {
		if !math.IsNaN(e) {
			xys = append(xys, plotter.XY{X: l.N[k], Y: sc.y(e)})
		}
	}
	if len(xys) == 0 {
		return false, nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return false, fmt.Errorf("plots: size curve, exact values of %q: %w", l.Name, err)
	}
	s.GlyphStyle = exactGlyph
	p.Add(s)
	return true, nil
}

// exactThumb is the legend thumbnail of the exact values.
type exactThumb struct{}

func (exactThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyphNoClip(exactGlyph, c.Center()) }

const exactLegend = "exact (enumeration)"

// segments returns the runs of point indices that a line joins: sizes of
// one parity (odd and even boards differ: a knight alternates colours),
// each next to the following one at the finest step of that parity, so
// that no line crosses a gap in the sizes run or joins odd with even n.
func segments(ns []float64) [][]int {
	var out [][]int
	for _, parity := range []int{1, 0} {
		var idx []int
		for k, n := range ns {
			if int(n)%2 == parity {
				idx = append(idx, k)
			}
		}
		sort.Slice(idx, func(a, b int) bool { return ns[idx[a]] < ns[idx[b]] })
		// A gap is a step more than half again as long as the steps
		// beside it: 20, 40, … 400 are one run, 400 → 420 (beside 420 →
		// 424) and 440 → 500 are gaps. One smallest step over all sizes
		// broke every run of 20s where a run of 4s was also drawn.
		diff := func(j int) float64 { return ns[idx[j]] - ns[idx[j-1]] }
		var run []int
		for j, k := range idx {
			if j > 0 {
				near := math.Inf(1)
				if j > 1 {
					near = diff(j - 1)
				}
				if j+1 < len(idx) {
					near = math.Min(near, diff(j+1))
				}
				if diff(j) > 1.5*near {
					if len(run) > 1 {
						out = append(out, run)
					}
					run = nil
				}
			}
			run = append(run, k)
		}
		if len(run) > 1 {
			out = append(out, run)
		}
	}
	return out
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
	if l.Exact != nil {
		if err := checkLengths(len(l.N), []string{"Exact"}, len(l.Exact)); err != nil {
			return err
		}
		for k, e := range l.Exact {
			if !math.IsNaN(e) && !(e >= 0 && e <= 1) {
				return fmt.Errorf("n = %v: Exact %v is not in [0, 1]", l.N[k], e)
			}
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

// sizeLogTicks labels a log axis of board sizes at 1, 2 and 5 times the
// powers of ten, with a minor tick at each other whole multiple.
type sizeLogTicks struct{}

func (sizeLogTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		p := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
