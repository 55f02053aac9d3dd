package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one distribution of path lengths, e.g. of the walks from one
// start class.
type Series struct {
	// Name is the legend entry, e.g. "corner".
	Name string
	// X holds path lengths (squares visited, start included) and Y the
	// fraction of walks (or the density) with that length. The points
	// may come in any order; lengths must be distinct and Y non-negative.
	X, Y []float64
	// Bars, if set, are the intervals of the shares as drawn (each pair
	// pooled where the figure pools lengths in pairs: LengthBins), so that
	// a share resting on one walk is not read as a measurement; the caller
	// computes them. None draws no intervals (exact series).
	Bars []ShareBar
}

// ShareBar is the interval of one drawn share of a Series: at X, the
// length or the centre of the pair of lengths its bar is drawn at
// (LengthBins), from Lo to Hi, fractions like Y.
type ShareBar struct {
	X, Lo, Hi float64
}

// LogAxis chooses between a linear and a logarithmic axis.
type LogAxis int

const (
	// LogAuto lets the figure choose from the data (see each figure).
	LogAuto LogAxis = iota
	// LogOn always draws the axis on a log scale.
	LogOn
	// LogOff always draws the axis on a linear scale.
	LogOff
)

// LengthOptions are the choices a caller may make for a length
// distribution; the zero value chooses everything from the data.
type LengthOptions struct {
	// Title names the rule and board, e.g. "8x8, warnsdorff/random".
	Title string
	// Squares is the number of squares of the board (rows·cols). When
	// set, the x axis shows every possible length, 1 to Squares, and
	// labels both ends; else it spans the lengths in the data.
	Squares int
	// LogY sets the y axis. LogAuto draws it logarithmic when one bin
	// dominates (in some series, the largest bin is at least
	// dominance times the next), as the full-tour spike of Warnsdorff's
	// rule does: on a linear axis its failure lengths are flat at zero.
	LogY LogAxis
	// Exact, if set, holds per series (same index; a series with no X for
	// none) the exact share of each length, by enumeration, drawn as
	// crosses over the measured distribution, pooled in pairs like it.
	Exact []Series
	// Level is the confidence of the shares' intervals; 0 means 0.95.
	Level float64
	// BarsLabel, if set, is the legend entry of the intervals in place of
	// "bars: 95 % Wilson interval of each share" (a share pooled over
	// starts that ran unequal walks has another interval).
	BarsLabel string
}

// dominance is how many times the largest bin must exceed the next for a
// log y axis (LogAuto).
const dominance = 10

// LengthDistribution draws path-length distributions with the default
// options; see LengthDistributionWith.
func LengthDistribution(series []Series) (*Figure, error) {
	return LengthDistributionWith(series, LengthOptions{})
}

// LengthDistributionWith draws path-length distributions, one step line per
// series (per start class), for one rule. Each length is a bar drawn as an
// outline, as wide as the smallest gap between lengths (one square for
// per-length tallies), so the success spike at the full length is as wide
// as every other bar; lengths missing from a series count as zero.
func LengthDistributionWith(series []Series, o LengthOptions) (*Figure, error) {
	all, err := lengthPoints(series, o)
	if err != nil {
		return nil, err
	}
	logY := o.LogY == LogOn || (o.LogY == LogAuto && dominated(all))
	p := newPlot()
	p.Title.Text = o.Title
	p.X.Label.Text = "path length (squares visited)"
	p.Y.Label.Text = "share of walks (%)"
	f := &Figure{Plot: p}
	width := barWidth(all)
	floor := 0.0
	if logY {
		floor = logFloor(all)
	}
	ymax := 0.0
	for _, xys := range all {
		for _, xy := range xys {
			ymax = math.Max(ymax, xy.Y)
		}
	}
	if logY {
		if err := addRareLengths(p, f, series, all, o.Squares, floor, o.level()); err != nil {
			return nil, err
		}
		setLengthX(p, all, 2, o.Squares)
	}
	paired := !logY && spanOf(all) > pairAbove
	if paired {
		top := float64(o.Squares)
		if top == 0 {
			top = lastLength(all)
		}
		for i := range all {
			all[i] = pairLengths(all[i], top)
		}
		width = 2
		p.X.Label.Text = "path length (squares visited; short of a tour, in pairs)"
		ymax = 0
		for _, xys := range all {
			for _, xy := range xys {
				ymax = math.Max(ymax, xy.Y)
			}
		}
	}
	for i, s := range series {
		if logY {
			break
		}
		outline := histogramOutline(all[i], width, floor)
		line, err := plotter.NewLine(outline)
		if err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		clr, dashes, glyph := seriesStyle(i)
		line.LineStyle = draw.LineStyle{Color: clr, Width: 1, Dashes: dashes}
		// A marker on each bar, shifted within it by series, so that
		// series with equal bars (say two classes that always tour) are
		// both seen, not one hidden under the other.
		var tops plotter.XYs
		for _, xy := range all[i] {
			if xy.Y > 0 && !paired {
				shift := (float64(i) - float64(len(series)-1)/2) * width / float64(len(series)+1)
				tops = append(tops, plotter.XY{X: xy.X + shift, Y: xy.Y})
			}
		}
		p.Add(line)
		// Each share's interval, shifted within its bar by series like
		// the markers, so that the series' bars stand side by side.
		at := func(x float64) float64 {
			return x + (float64(i)-float64(len(series)-1)/2)*width/float64(len(series)+1)
		}
		if err := addShareErrors(p, all[i], s.Bars, clr, at, floor, false); err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		if len(tops) == 0 {
			f.addLegend(s.Name, line)
			continue
		}
		sc, err := plotter.NewScatter(tops)
		if err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: 1.6, Shape: glyph}
		p.Add(sc)
		f.addLegend(s.Name, line, sc)
	}
	if intervals(series) {
		label := o.BarsLabel
		if label == "" {
			label = fmt.Sprintf("bars: %s Wilson interval of each share", levelText(o.level()))
		}
		f.addLegend(label, errorThumb{})
	}
	if err := addExactLengths(p, f, o, logY, paired); err != nil {
		return nil, err
	}
	if !logY {
		setLengthX(p, all, width, o.Squares)
	}
	if logY {
		// The data are drawn as log10(y) on a linear axis labelled in
		// powers of ten: gonum's LogScale places the axis label's glyph
		// box at the arithmetic midpoint, which on a log axis pads the
		// top of the figure with blank space.
		p.Y.Tick.Marker = log10Ticks{}
		p.Y.Min = math.Log10(floor)
		// Headroom of a fifth of a decade above the tallest bar.
		p.Y.Max = math.Max(math.Ceil(math.Log10(ymax)), math.Log10(ymax)+0.2)
	} else {
		// Headroom, so that the top of the tallest bar (and of its
		// interval) is not the frame.
		for _, s := range series {
			for _, b := range s.Bars {
				ymax = math.Max(ymax, 100*b.Hi)
			}
		}
		p.Y.Min, p.Y.Max = 0, 1.05*ymax
	}
	return f, nil
}

func lengthPoints(series []Series, o LengthOptions) ([]plotter.XYs, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("plots: length distribution: %w", noData("no series"))
	}
	if o.Squares < 0 {
		return nil, fmt.Errorf("plots: length distribution: Squares %d is negative", o.Squares)
	}
	if o.LogY < LogAuto || o.LogY > LogOff {
		return nil, fmt.Errorf("plots: length distribution: LogY %d is not LogAuto, LogOn or LogOff", o.LogY)
	}
	all := make([]plotter.XYs, len(series))
	positive := false
	for i, s := range series {
		xys, err := s.points()
		if err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		if o.Squares > 0 && (xys[0].X < 1 || xys[len(xys)-1].X > float64(o.Squares)) {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): lengths %v to %v are not within 1 to Squares = %d",
				i, s.Name, xys[0].X, xys[len(xys)-1].X, o.Squares)
		}
		for k := range xys {
			positive = positive || xys[k].Y > 0
			xys[k].Y *= 100 // drawn in percent
		}
		all[i] = xys
	}
	if !positive {
		return nil, fmt.Errorf("plots: length distribution: %w", noData("every fraction is zero"))
	}
	return all, nil
}

// dominated reports whether, in some series, the largest bin is at least
// dominance times the next largest (or the only positive one among several
// lengths).
func dominated(all []plotter.XYs) bool {
	for _, xys := range all {
		first, second := 0.0, 0.0
		for _, xy := range xys {
			switch {
			case xy.Y > first:
				first, second = xy.Y, first
			case xy.Y > second:
				second = xy.Y
			}
		}
		if len(xys) > 1 && first > 0 && first >= dominance*second {
			return true
		}
	}
	return false
}

// spanOf is the number of lengths from the shortest to the longest.
func spanOf(all []plotter.XYs) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, xys := range all {
		lo, hi = math.Min(lo, xys[0].X), math.Max(hi, xys[len(xys)-1].X)
	}
	return hi - lo + 1
}

// lastLength is the longest length of any series.
func lastLength(all []plotter.XYs) float64 {
	hi := math.Inf(-1)
	for _, xys := range all {
		hi = math.Max(hi, xys[len(xys)-1].X)
	}
	return hi
}

// logFloor is the bottom of a log y axis: the power of ten at or below the
// smallest positive fraction. Zero bins are drawn down to it.
func logFloor(all []plotter.XYs) float64 {
	lo := math.Inf(1)
	for _, xys := range all {
		for _, xy := range xys {
			if xy.Y > 0 {
				lo = math.Min(lo, xy.Y)
			}
		}
	}
	return math.Pow(10, math.Floor(math.Log10(lo)))
}

// setLengthX sets the x axis over the lengths in the data, with a bar to
// spare each side so that no bar touches the frame; with squares set, it
// labels the shortest length and the full length (squares) at its ends.
func setLengthX(p *plot.Plot, all []plotter.XYs, width float64, squares int) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, xys := range all {
		xmin = math.Min(xmin, xys[0].X)
		xmax = math.Max(xmax, xys[len(xys)-1].X)
	}
	if squares > 0 {
		xmax = float64(squares)
		p.X.Tick.Marker = endTicks{lo: math.Floor(xmin), hi: xmax}
	}
	p.X.Min, p.X.Max = xmin-width, xmax+width
}

// pairLengths pools the lengths short of top in pairs (top−1, top−2),
// (top−3, top−4)…, each at its centre; top keeps its own bin.
func pairLengths(xys plotter.XYs, top float64) plotter.XYs {
	pairs := map[float64]float64{}
	for _, xy := range xys {
		x := xy.X
		if x < top {
			x = top - 1.5 - 2*math.Floor((top-1-x)/2)
		}
		pairs[x] += xy.Y
	}
	out := make(plotter.XYs, 0, len(pairs))
	for x, y := range pairs {
		out = append(out, plotter.XY{X: x, Y: y})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].X < out[b].X })
	return out
}

// pairAbove is the number of lengths in a distribution above which its
// bars are pooled in pairs: odd and even lengths alternate (a knight
// alternates colours), a comb that hides the shape.
const pairAbove = 30

// addRareLengths draws distributions dominated by one bin (the full
// tours of Warnsdorff's rule) on the log axis as markers joined by thin
// lines, one shape per series, so that series on top of each other stay
// apart; lengths short of the full tour are pooled in pairs (n−1, n−2),
// (n−3, n−4)…, which removes the comb of odd against even lengths (a
// knight alternates colours) and most empty bins; a pair with no walks is
// left out, not drawn down to the floor.
func addRareLengths(p *plot.Plot, f *Figure, series []Series, all []plotter.XYs, squares int, floor, level float64) error {
	top := 0.0
	for _, xys := range all {
		top = math.Max(top, xys[len(xys)-1].X)
	}
	if squares > 0 {
		top = float64(squares)
	}
	var markers []*plotter.Scatter
	for i, s := range series {
		var xys plotter.XYs
		for _, xy := range pairLengths(all[i], top) {
			if xy.Y > 0 {
				xys = append(xys, plotter.XY{X: xy.X, Y: math.Log10(xy.Y)})
			}
		}
		clr, dashes, glyph := seriesStyle(i)
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: 2, Shape: glyph}
		style := draw.LineStyle{Color: clr, Width: 0.6, Dashes: dashes}
		// Lines join adjacent pairs only: a pair with no walks between
		// two others is a gap, not bridged as if it had walks.
		for _, run := range adjacentRuns(xys, 2) {
			if len(run) < 2 {
				continue
			}
			line, err := plotter.NewLine(run)
			if err != nil {
				return fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
			}
			line.LineStyle = style
			p.Add(line)
		}
		markers = append(markers, sc)
		f.addLegend(s.Name, &plotter.Line{LineStyle: style}, sc)
		if err := addShareErrors(p, pairLengths(all[i], top), s.Bars, clr, func(x float64) float64 { return x }, floor, true); err != nil {
			return fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
	}
	// Markers last, those of the series with the fewest points on top: a
	// class whose every walk is a full tour has one point, where the
	// others have theirs too, and drawn first it vanished under them (a
	// 12x12 figure showed 3 of its 4 classes); the others keep their
	// other points in view.
	order := make([]int, len(markers))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return markers[order[a]].Len() > markers[order[b]].Len() })
	for _, k := range order {
		p.Add(markers[k])
	}
	p.X.Label.Text = "path length (squares; short of a tour, in pairs)"
	return nil
}

func (s Series) points() (plotter.XYs, error) {
	if len(s.X) == 0 && len(s.Y) == 0 {
		return nil, noData("no points")
	}
	if err := checkLengths(len(s.X), []string{"Y"}, len(s.Y)); err != nil {
		return nil, err
	}
	if err := checkFinite("X", s.X); err != nil {
		return nil, err
	}
	if err := checkFinite("Y", s.Y); err != nil {
		return nil, err
	}
	xys := make(plotter.XYs, len(s.X))
	for i := range s.X {
		if s.Y[i] < 0 {
			return nil, fmt.Errorf("Y[%d] = %v is negative", i, s.Y[i])
		}
		xys[i].X, xys[i].Y = s.X[i], s.Y[i]
	}
	sort.SliceStable(xys, func(i, j int) bool { return xys[i].X < xys[j].X })
	for i := 1; i < len(xys); i++ {
		if xys[i].X == xys[i-1].X {
			return nil, fmt.Errorf("length %v appears twice", xys[i].X)
		}
	}
	return xys, nil
}

// barWidth is the smallest positive gap between the lengths of any series,
// or 1 when every series has a single length.
func barWidth(all []plotter.XYs) float64 {
	w := math.Inf(1)
	for _, xys := range all {
		for i := 1; i < len(xys); i++ {
			w = math.Min(w, xys[i].X-xys[i-1].X)
		}
	}
	if math.IsInf(w, 1) {
		return 1
	}
	return w
}

// histogramOutline returns the outline of bars of the given width centred
// on the sorted points: up at the left edge of a bar, across, and down to
// the floor (zero, or the bottom of a log axis) where the next length is not
// adjacent. Bars below the floor are drawn at it.
func histogramOutline(xys plotter.XYs, width, floor float64) plotter.XYs {
	h := width / 2
	out := plotter.XYs{{X: xys[0].X - h, Y: floor}}
	for i, p := range xys {
		if i > 0 && p.X-xys[i-1].X > width*(1+1e-9) { // a gap: back to the floor and up again
			out = append(out, plotter.XY{X: xys[i-1].X + h, Y: floor}, plotter.XY{X: p.X - h, Y: floor})
		}
		y := math.Max(p.Y, floor)
		out = append(out, plotter.XY{X: p.X - h, Y: y}, plotter.XY{X: p.X + h, Y: y})
	}
	return append(out, plotter.XY{X: xys[len(xys)-1].X + h, Y: floor})
}

// addExactLengths draws the exact shares of o.Exact as crosses at the
// lengths (or length pairs) the measured series are drawn at.
func addExactLengths(p *plot.Plot, f *Figure, o LengthOptions, logY, paired bool) error {
	drawn := false
	for i, s := range o.Exact {
		if len(s.X) == 0 {
			continue
		}
		var pts plotter.XYs
		xys, err := s.points()
		if err != nil {
			return fmt.Errorf("plots: length distribution, exact series %d (%q): %w", i, s.Name, err)
		}
		for k := range xys {
			xys[k].Y *= 100
		}
		if logY || paired {
			top := float64(o.Squares)
			if top == 0 {
				top = xys[len(xys)-1].X
			}
			xys = pairLengths(xys, top)
		}
		for _, xy := range xys {
			switch {
			case xy.Y <= 0:
			case logY:
				pts = append(pts, plotter.XY{X: xy.X, Y: math.Log10(xy.Y)})
			default:
				pts = append(pts, xy)
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("plots: length distribution, exact: %w", err)
		}
		// In its class's colour, so that which class a cross belongs to
		// can be told.
		sc.GlyphStyle = exactGlyph
		sc.GlyphStyle.Color, _, _ = seriesStyle(i)
		p.Add(sc)
		drawn = true
	}
	if drawn {
		f.addLegend("exact (enumeration), in its class's colour", &plotter.Scatter{GlyphStyle: exactGlyph})
	}
	return nil
}

func (o LengthOptions) level() float64 {
	if o.Level > 0 && o.Level < 1 {
		return o.Level
	}
	return 0.95
}

func intervals(series []Series) bool {
	for _, s := range series {
		if len(s.Bars) > 0 {
			return true
		}
	}
	return false
}

// adjacentRuns cuts sorted points into runs whose x differ by step.
func adjacentRuns(xys plotter.XYs, step float64) []plotter.XYs {
	var out []plotter.XYs
	for i, xy := range xys {
		if i == 0 || xy.X-xys[i-1].X > step*(1+1e-9) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], xy)
	}
	return out
}

// addShareErrors draws the interval of each share of xys (in percent)
// that bars give, as a vertical bar at at(x), on a log10 axis when logY
// (clipped at floor, the axis's bottom); shares of 0 are left out.
func addShareErrors(p *plot.Plot, xys plotter.XYs, bars []ShareBar, clr color.Color, at func(float64) float64, floor float64, logY bool) error {
	if len(bars) == 0 {
		return nil
	}
	byX := map[float64]ShareBar{}
	for _, b := range bars {
		byX[b.X] = b
	}
	var errs rateErrors
	for _, xy := range xys {
		b, ok := byX[xy.X]
		if xy.Y <= 0 || !ok {
			continue
		}
		lo, hi, y := 100*b.Lo, 100*b.Hi, xy.Y
		if logY {
			lo, hi, y = math.Log10(math.Max(lo, floor)), math.Log10(hi), math.Log10(y)
		} else {
			lo = math.Max(lo, floor)
		}
		errs = append(errs, rateError{x: at(xy.X), y: y, lo: math.Max(0, y-lo), hi: math.Max(0, hi-y)})
	}
	if len(errs) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(errs)
	if err != nil {
		return err
	}
	eb.LineStyle = draw.LineStyle{Color: clr, Width: 0.5}
	eb.CapWidth = 1.5
	p.Add(eb)
	return nil
}

// LengthBins returns where LengthDistributionWith(series, o) draws the
// share of each length: at the length itself, or at the centre of its
// pair where the figure pools lengths in pairs (a log axis, or more than
// pairAbove lengths), so that a caller can give each drawn share its
// interval (Series.Bars).
func LengthBins(series []Series, o LengthOptions) (func(length float64) float64, error) {
	all, err := lengthPoints(series, o)
	if err != nil {
		return nil, err
	}
	logY := o.LogY == LogOn || (o.LogY == LogAuto && dominated(all))
	if !logY && spanOf(all) <= pairAbove {
		return func(x float64) float64 { return x }, nil
	}
	top := float64(o.Squares)
	if top == 0 {
		top = lastLength(all)
	}
	return func(x float64) float64 { return pairLengths(plotter.XYs{{X: x, Y: 1}}, top)[0].X }, nil
}

// errorThumb is the legend's thumbnail of an interval: a vertical bar.
type errorThumb struct{}

func (errorThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: 0.5}, x, c.Min.Y+1, x, c.Max.Y-1)
}
