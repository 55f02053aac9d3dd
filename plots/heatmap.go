package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatmapData is one value per board square.
type HeatmapData struct {
	Title      string
	Rows, Cols int
	// Values holds Rows*Cols values, row-major: index row*Cols+col, row 0
	// being rank 1 at the bottom.
	Values []float64
	// Mask, if not nil, has Rows*Cols entries; true marks a missing
	// square (say, a start that was not simulated). Missing squares are
	// drawn blank and their values are ignored, so they may be NaN.
	// NaN or ±Inf anywhere else is an error: a hole in the data must be
	// declared, never produced by accident.
	Mask []bool
	// Label names the colour bar, e.g. "success rate".
	Label string
	// Counts, if not nil (Rows*Cols entries), are written in brackets
	// under each cell's value: the events a share or rate of rare events
	// rests on, so that "2.5 %" of 16 is not read as a measurement. A
	// count averaged over squares equal by symmetry may be fractional; it
	// is written to two decimals (CountLabel).
	Counts []float64
	// Note, if set, is a second line under Label on the colour bar: what
	// the values rest on, e.g. "300 walks a square".
	Note string
	// Min and Max fix the colour scale (e.g. 0 and 1 for rates, so
	// figures can be compared); nil takes the data's range. Values outside
	// a fixed scale get the end colours.
	Min, Max *float64
	// ShowValues writes each value in its cell. Boards up to 12×12 get
	// values unless HideValues is set; larger boards only with ShowValues
	// (and only where the cells can hold legible text).
	ShowValues bool
	HideValues bool
	// Format is the fmt verb for the values in cells, e.g. "%.3f". Empty
	// chooses one from the values: "%.0f" for integers, else two decimals
	// below 10, one below 100, none above.
	Format string
	// Highlight is a square index to outline (e.g. the chosen start), or
	// -1 for none. Note that the zero value outlines a1.
	Highlight int

	// Scale maps values to colours: linear by default, logarithmic for
	// the failure view (see Scale). Min and Max, if set, are in the
	// units drawn (after Failure, before Percent); a log scale needs them
	// positive.
	Scale Scale
	// Failure draws 1 − value: Values are success rates in [0, 1] and
	// the map shows failure rates, which for rules that nearly always
	// succeed spread over decades where success rates bunch under 1.
	Failure bool
	// Percent writes values as percentages (×100) in the cells and on the
	// colour bar, and appends " (%)" to Label.
	Percent bool
	// Interval, if not nil, marks the squares whose interval excludes
	// the board's pooled rate with a triangle pointing up (above) or down
	// (below), in the direction of the quantity drawn.
	Interval *IntervalCue
	// NoStart, if not nil, has Rows*Cols entries; true marks a square
	// from which no tour can start (on odd boards, the squares of the
	// minority colour). Such squares are hatched grey with a legend
	// note, not drawn as 0; their values are ignored and may be NaN.
	NoStart []bool
	// NoStartNote is NoStart's legend note; empty gives "cannot start a
	// tour".
	NoStartNote string
	// Binary draws values that can only be 0 or 1 (a deterministic
	// rule's one walk from each square: it tours or it does not) in two
	// colours with a legend, not on a continuous colour bar; every drawn
	// value must then be 0 or 1.
	Binary bool
	// Uncertainty, if not nil, holds each square's interval: the colour
	// scale (when Min and Max are not set) is then never narrower than the
	// median interval, and squares whose interval spans more than half of
	// it are washed out with a legend note, so that noise is not drawn as
	// structure.
	Uncertainty *Uncertainty
	// Axes, if not nil, labels the cells with something other than board
	// coordinates: a matrix of board shapes, say, whose columns are board
	// widths and whose rows are board heights. Cells are then named by
	// their row and column labels (CellName) in errors and legends.
	Axes *HeatmapAxes
	// Starred, if not nil (Rows*Cols entries), writes a "*" after the
	// values of the cells it marks: exact values among estimates, say.
	// Note or the caption must say what the star means.
	Starred []bool
}

// HeatmapAxes names a heatmap's rows and columns when its cells are not a
// board's squares.
type HeatmapAxes struct {
	X, Y       string   // axis titles, e.g. "columns", "rows"
	Cols, Rows []string // one label per column (left to right) and per row (bottom to top)
	// Cell, if set, names a cell from its row and column labels (for
	// example "5×7"); nil writes "row, column".
	Cell func(row, col string) string
}

// CellName names cell i: its board square (SquareName), or, with Axes, its
// row and column labels.
func (h HeatmapData) CellName(i int) string {
	if h.Axes == nil {
		return SquareName(h.Cols, i)
	}
	r, c := h.Axes.Rows[i/h.Cols], h.Axes.Cols[i%h.Cols]
	if h.Axes.Cell != nil {
		return h.Axes.Cell(r, c)
	}
	return r + ", " + c
}

// IntervalCue holds what a heatmap needs to mark the squares that differ
// from the whole board beyond chance.
type IntervalCue struct {
	// Pooled is the board's pooled rate, in the units of Values.
	Pooled float64
	// Lo and Hi are each square's interval bounds (Rows*Cols entries, in
	// the units of Values); a square is marked when Lo > Pooled or
	// Hi < Pooled. Entries of masked and NoStart squares are ignored.
	Lo, Hi []float64
	// Level is the intervals' confidence level, for the legend; zero
	// means 0.95.
	Level float64
	// Others, when set (Rows*Cols entries), is what each square is
	// compared with instead of Pooled: the pooled rate of the other
	// squares, so that a square is not tested against itself.
	Others []float64
	// Legend, when set, is the marks' legend text instead of the default.
	Legend string
}

// autoValuesMax is the largest board side whose cells get their values
// written without asking.
const autoValuesMax = 12

// rasterCells is the number of squares above which a heatmap is drawn as an
// image rather than one rectangle per square, to keep SVG and PDF files small.
const rasterCells = 64 * 64

// Heatmap draws one value per board square in viridis, with board
// coordinates on the axes and a colour bar. By default the colour scale
// runs from the smallest to the largest value, so that small differences
// between squares show in colour, and the colour bar's end labels state
// that range.
func Heatmap(h HeatmapData) (*Figure, error) {
	sc, err := h.validate()
	if err != nil {
		return nil, fmt.Errorf("plots: heatmap %q: %w", h.Title, err)
	}
	p := newPlot()
	p.Title.Text = wrapTitle(h.Title)
	boardAxes(p, h.Rows, h.Cols)
	if a := h.Axes; a != nil {
		p.X.Tick.Marker, p.Y.Tick.Marker = labelTicks(a.Cols), labelTicks(a.Rows)
		p.X.Label.Text, p.Y.Label.Text = a.X, a.Y
	}
	cells := &heatCells{
		h:      h,
		sc:     sc,
		values: h.ShowValues || (!h.HideValues && h.Rows <= autoValuesMax && h.Cols <= autoValuesMax),
	}
	if h.Interval != nil {
		cells.marks = h.Interval.marks(h)
	}
	if h.Uncertainty != nil {
		cells.unresolved = h.Uncertainty.unresolved(h, sc)
	}
	p.Add(cells)

	f := &Figure{Plot: p, aspect: float64(h.Rows) / float64(h.Cols)}
	label := h.Label
	if h.Percent {
		label += " (%)"
	}
	if h.Note != "" {
		label += "\n" + h.Note
	}
	if h.Binary {
		if err := h.binaryLegend(f); err != nil {
			return nil, fmt.Errorf("plots: heatmap %q: %w", h.Title, err)
		}
	} else {
		f.colorBar = newColorBar(sc, Viridis, label)
	}
	h.addLegends(f, sc, cells.marks)
	if slices.Contains(cells.unresolved, true) {
		level := h.Uncertainty.Level
		if level == 0 {
			level = 0.95
		}
		f.addLegend(fmt.Sprintf("washed out: %s interval over half the colour range", levelText(level)), unresolvedThumb{})
	}
	return f, nil
}

func (h HeatmapData) addLegends(f *Figure, sc colorScale, marks []int) {
	if h.Highlight >= 0 {
		f.addLegend("outlined: "+h.CellName(h.Highlight), highlightThumb{})
	}
	if slices.Contains(marks, 1) || slices.Contains(marks, -1) {
		iv := h.Interval
		level := iv.Level
		if level == 0 {
			level = 0.95
		}
		unit := ""
		if h.Percent {
			unit = " %"
		}
		text := fmt.Sprintf("%s interval above / below pooled %s%s", levelText(level), sc.exactLabel(h.drawn(iv.Pooled)), unit)
		if iv.Legend != "" {
			text = iv.Legend
		}
		f.addLegend(text, markThumb{})
	}
	if slices.Contains(h.NoStart, true) {
		note := h.NoStartNote
		if note == "" {
			note = "cannot start a tour"
		}
		f.addLegend(note, noStartThumb{})
	}
	if slices.Contains(h.Mask, true) {
		f.addLegend("blank: no data", blankThumb{})
	}
}

// drawn is the quantity drawn for a value: v, or 1 − v in the failure view.
func (h HeatmapData) drawn(v float64) float64 {
	if h.Failure {
		return 1 - v
	}
	return v
}

func (h HeatmapData) validate() (colorScale, error) {
	var sc colorScale
	if err := h.validateShape(); err != nil {
		return sc, err
	}
	lo, hi, posLo := math.Inf(1), math.Inf(-1), math.Inf(1)
	for i, v := range h.Values {
		if h.skip(i) {
			continue
		}
		if err := checkValue(fmt.Sprintf("Values[%d] (%s)", i, h.CellName(i)), v); err != nil {
			return sc, err
		}
		if h.Failure && !(v >= 0 && v <= 1) {
			return sc, fmt.Errorf("Values[%d] (%s) = %v: the failure view needs success rates in [0, 1]", i, h.CellName(i), v)
		}
		q := h.drawn(v)
		lo, hi = math.Min(lo, q), math.Max(hi, q)
		if q > 0 {
			posLo = math.Min(posLo, q)
		}
	}
	if lo > hi {
		return sc, noData("every square is masked")
	}
	if err := h.validateOptions(); err != nil {
		return sc, err
	}
	sc.log = h.Scale == ScaleLog || (h.Scale == ScaleAuto && h.Failure)
	sc.factor = 1
	if h.Percent {
		sc.factor = 100
	}
	if sc.log {
		if math.IsInf(posLo, 1) && h.Min == nil {
			return sc, fmt.Errorf("a log colour scale needs a positive value, and every square is %v or less (set Scale to ScaleLinear)", hi)
		}
		lo = posLo
	}
	if h.Uncertainty != nil && h.Min == nil && h.Max == nil {
		dlo, dhi := lo, hi
		lo, hi = h.Uncertainty.resolvedEnds(h, dlo, dhi, sc.log)
		sc.lo, sc.hi = h.scaleEnds(lo, hi, sc.log)
		// The scale spans the squares it resolves: a washed-out square's
		// value is noise, and letting it set an end would squeeze the
		// squares that are measured into a few hues. It keeps its colour
		// at the nearer end, its value in the cell.
		// (Where the median interval already widened the range, it is
		// noise's width about the data's middle, set by no one square.)
		if rlo, rhi, ok := h.resolvedRange(sc); ok && lo == dlo && hi == dhi && (rlo > dlo || rhi < dhi) {
			lo, hi = h.Uncertainty.resolvedEnds(h, rlo, rhi, sc.log)
		}
	}
	sc.lo, sc.hi = h.scaleEnds(lo, hi, sc.log)
	sc.fixedLo, sc.fixedHi = h.Min != nil, h.Max != nil
	sc.decimals = h.decimals(sc, lo, hi)
	return sc, nil
}

// resolvedRange is the range of the drawn values of the squares that scale
// sc resolves (positive ones on a log scale); ok is false where none is.
func (h HeatmapData) resolvedRange(sc colorScale) (lo, hi float64, ok bool) {
	un := h.Uncertainty.unresolved(h, sc)
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, v := range h.Values {
		if h.skip(i) || un[i] {
			continue
		}
		q := h.drawn(v)
		if sc.log && q <= 0 {
			continue
		}
		lo, hi = math.Min(lo, q), math.Max(hi, q)
	}
	return lo, hi, lo <= hi
}

// scaleEnds applies Min and Max to the data's range [lo, hi] and widens a
// range of zero width.
func (h HeatmapData) scaleEnds(lo, hi float64, log bool) (float64, float64) {
	if h.Min != nil {
		lo = *h.Min
	}
	if h.Max != nil {
		hi = *h.Max
	}
	if hi-lo > 1e-9*math.Max(math.Abs(lo), math.Abs(hi)) {
		return lo, hi
	}
	// A constant field (up to rounding: exact values of 1 summed in
	// different orders differ in the last bit), or data beyond one fixed
	// end.
	if h.Min == nil && h.Max == nil {
		lo, hi = (lo+hi)/2, (lo+hi)/2
		if h.Percent && !log { // a rate: widen by 10 points, within [0, 1]
			return max(0, min(lo-0.05, 0.9)), min(1, max(hi+0.05, 0.1))
		}
	}
	switch {
	case log && h.Max == nil && h.Percent && !h.Failure && lo*10 > 1 && lo < 0.99: // a share: the bar ends at 100 %
		return lo, 1
	case log && h.Max == nil:
		return lo, lo * 10
	case log:
		return hi / 10, hi
	case h.Min != nil && h.Max == nil:
		return lo, lo + 1
	case h.Max != nil && h.Min == nil:
		return hi - 1, hi
	case lo == 0:
		return 0, 1
	}
	return lo - math.Abs(lo)/2, hi + math.Abs(hi)/2
}

// decimals chooses the decimals of the labels from the data: none for
// whole numbers, else enough to resolve the data's spread (linear scale) or
// its smallest value and its spread (log scale), less any last decimal that is 0 in every
// label ("0.000500" becomes "0.0005").
func (h HeatmapData) decimals(sc colorScale, lo, hi float64) int {
	var shown []float64
	for i, v := range h.Values {
		if !h.skip(i) {
			shown = append(shown, h.drawn(v)*sc.factor)
		}
	}
	var d int
	switch {
	case sc.log:
		d = max(logDecimals(lo*sc.factor), spreadDecimals((hi-lo)*sc.factor))
	case hi > lo:
		d = spreadDecimals((hi - lo) * sc.factor)
	default:
		d = spreadDecimals(math.Abs(hi*sc.factor) / 10)
	}
	for d > 0 && allEndInZero(shown, d) {
		d--
	}
	return d
}

// allEndInZero reports whether every value written with d decimals ends in
// a zero digit.
func allEndInZero(vs []float64, d int) bool {
	for _, v := range vs {
		if s := formatFixed(v, d); s[len(s)-1] != '0' {
			return false
		}
	}
	return true
}

func (h HeatmapData) validateShape() error {
	if len(h.Values) == 0 {
		return noData("no values")
	}
	if h.Rows < 1 || h.Cols < 1 {
		return fmt.Errorf("board %dx%d: rows and cols must be at least 1", h.Rows, h.Cols)
	}
	n := h.Rows * h.Cols
	if err := checkLengths(n, []string{"Values"}, len(h.Values)); err != nil {
		return err
	}
	for _, m := range []struct {
		name string
		v    []bool
	}{{"Mask", h.Mask}, {"NoStart", h.NoStart}, {"Starred", h.Starred}} {
		if m.v != nil {
			if err := checkLengths(n, []string{m.name}, len(m.v)); err != nil {
				return err
			}
		}
	}
	if a := h.Axes; a != nil && (len(a.Cols) != h.Cols || len(a.Rows) != h.Rows) {
		return fmt.Errorf("Axes: %d column and %d row labels for %d columns and %d rows", len(a.Cols), len(a.Rows), h.Cols, h.Rows)
	}
	if h.Highlight < -1 || h.Highlight >= n {
		return fmt.Errorf("Highlight %d is not -1 or a square of the %dx%d board", h.Highlight, h.Rows, h.Cols)
	}
	if h.Format != "" && strings.Contains(fmt.Sprintf(h.Format, 1.5), "%!") {
		return fmt.Errorf("Format %q does not format a float64", h.Format)
	}
	if h.Scale < ScaleAuto || h.Scale > ScaleLog {
		return fmt.Errorf("Scale %d is not ScaleAuto, ScaleLinear or ScaleLog", h.Scale)
	}
	if h.Counts != nil {
		if err := checkLengths(n, []string{"Counts"}, len(h.Counts)); err != nil {
			return err
		}
	}
	if h.Uncertainty != nil {
		if err := h.Uncertainty.validate(h); err != nil {
			return err
		}
	}
	if h.Interval != nil {
		return h.Interval.validate(h)
	}
	return nil
}

func (h HeatmapData) validateOptions() error {
	for _, b := range []struct {
		name string
		v    *float64
	}{{"Min", h.Min}, {"Max", h.Max}} {
		if b.v == nil {
			continue
		}
		if err := checkValue(b.name, *b.v); err != nil {
			return err
		}
		if (h.Scale == ScaleLog || (h.Scale == ScaleAuto && h.Failure)) && *b.v <= 0 {
			return fmt.Errorf("%s %v: a log colour scale needs positive ends", b.name, *b.v)
		}
	}
	if h.Min != nil && h.Max != nil && !(*h.Min < *h.Max) {
		return fmt.Errorf("scale Min %v must be below Max %v", *h.Min, *h.Max)
	}
	return nil
}

func (h HeatmapData) missing(i int) bool { return h.Mask != nil && h.Mask[i] }

func (h HeatmapData) noStart(i int) bool { return h.NoStart != nil && h.NoStart[i] }

// skip reports whether square i has no value to draw.
func (h HeatmapData) skip(i int) bool { return h.missing(i) || h.noStart(i) }

func (iv *IntervalCue) validate(h HeatmapData) error {
	n := h.Rows * h.Cols
	if iv.Others != nil {
		if err := checkLengths(n, []string{"Interval.Others"}, len(iv.Others)); err != nil {
			return err
		}
	}
	if err := checkLengths(n, []string{"Interval.Lo", "Interval.Hi"}, len(iv.Lo), len(iv.Hi)); err != nil {
		return err
	}
	if err := checkValue("Interval.Pooled", iv.Pooled); err != nil {
		return err
	}
	if iv.Level != 0 && !(iv.Level > 0 && iv.Level < 1) {
		return fmt.Errorf("Interval.Level %v is not in (0, 1)", iv.Level)
	}
	for i := range n {
		if h.skip(i) {
			continue
		}
		sq := h.CellName(i)
		if err := checkValue(fmt.Sprintf("Interval.Lo[%d] (%s)", i, sq), iv.Lo[i]); err != nil {
			return err
		}
		if err := checkValue(fmt.Sprintf("Interval.Hi[%d] (%s)", i, sq), iv.Hi[i]); err != nil {
			return err
		}
		if iv.Lo[i] > iv.Hi[i] {
			return fmt.Errorf("Interval at %s: Lo %v above Hi %v", sq, iv.Lo[i], iv.Hi[i])
		}
	}
	return nil
}

// ref is what square i is compared with.
func (iv *IntervalCue) ref(i int) float64 {
	if iv.Others != nil {
		return iv.Others[i]
	}
	return iv.Pooled
}

// marks returns, per square, +1 where the drawn quantity is above the
// pooled rate beyond its interval, -1 where below, else 0.
func (iv *IntervalCue) marks(h HeatmapData) []int {
	out := make([]int, len(h.Values))
	for i := range out {
		switch {
		case h.skip(i):
		case iv.Lo[i] > iv.ref(i):
			out[i] = 1
		case iv.Hi[i] < iv.ref(i):
			out[i] = -1
		}
		if h.Failure {
			out[i] = -out[i]
		}
	}
	return out
}

// heatCells draws the squares, their values, the interval marks and the
// highlight.
type heatCells struct {
	h      HeatmapData
	sc     colorScale
	values bool
	marks  []int // per square: +1 above, -1 below the pooled rate, or nil
	// unresolved marks the squares drawn washed out (nil: none).
	unresolved []bool
}

func (c *heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(c.h.Cols), 0, float64(c.h.Rows)
}

func (c *heatCells) color(i int) color.RGBA {
	if c.h.Binary {
		return binaryColor(c.h.drawn(c.h.Values[i]))
	}
	clr := Viridis(c.sc.t(c.h.drawn(c.h.Values[i])))
	if c.unresolved != nil && c.unresolved[i] {
		return washed(clr)
	}
	return clr
}

// label is the text of square i's cell.
func (c *heatCells) label(i int) string {
	q := c.h.drawn(c.h.Values[i])
	star := ""
	if c.h.Starred != nil && c.h.Starred[i] {
		star = "*"
	}
	if c.h.Format != "" {
		return fmt.Sprintf(c.h.Format, q*c.sc.factor) + star
	}
	return c.sc.label(q) + star
}

func (c *heatCells) Plot(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	trX, trY := p.Transforms(&dc)
	if h.Rows*h.Cols > rasterCells {
		c.raster(dc)
	} else {
		c.fillCells(dc, p)
		c.gridLines(dc, p)
	}
	if c.values {
		c.drawValues(dc, p)
	}
	c.drawMarks(dc, p)

	frame := draw.LineStyle{Color: color.Black, Width: 0.5}
	dc.SetLineStyle(frame)
	dc.Stroke(rectPath(dc.Min.X, dc.Min.Y, dc.Max.X, dc.Max.Y))

	if h.Highlight >= 0 {
		row, col := h.Highlight/h.Cols, h.Highlight%h.Cols
		outline(&dc, trX(float64(col)), trY(float64(row)), trX(float64(col+1)), trY(float64(row+1)))
	}
}

func (c *heatCells) fillCells(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	trX, trY := p.Transforms(&dc)
	for i := range h.Values {
		if h.missing(i) {
			continue
		}
		row, col := i/h.Cols, i%h.Cols
		x0, y0 := trX(float64(col)), trY(float64(row))
		x1, y1 := trX(float64(col+1)), trY(float64(row+1))
		if h.noStart(i) {
			hatch(&dc, x0, y0, x1, y1)
			continue
		}
		dc.SetColor(c.color(i))
		dc.Fill(rectPath(x0, y0, x1, y1))
	}
}

// gridLines strokes thin white lines between the cells: abutting cells
// would otherwise show uneven anti-aliased seams, and cells widened to
// hide them overlap their neighbours' text.
func (c *heatCells) gridLines(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	if h.Rows > autoValuesMax*2 || h.Cols > autoValuesMax*2 {
		return // small cells: the lines would grey the map
	}
	trX, trY := p.Transforms(&dc)
	sty := draw.LineStyle{Color: color.White, Width: 0.6}
	for col := 1; col < h.Cols; col++ {
		x := trX(float64(col))
		dc.StrokeLine2(sty, x, dc.Min.Y, x, dc.Max.Y)
	}
	for row := 1; row < h.Rows; row++ {
		y := trY(float64(row))
		dc.StrokeLine2(sty, dc.Min.X, y, dc.Max.X, y)
	}
}

// raster draws large boards as one image, upscaled by a whole factor so the
// cells keep sharp edges when a viewer interpolates.
func (c *heatCells) raster(dc draw.Canvas) {
	h := c.h
	k := max(1, 1024/max(h.Rows, h.Cols))
	img := image.NewRGBA(image.Rect(0, 0, h.Cols*k, h.Rows*k))
	for i := range h.Values {
		if h.missing(i) {
			continue
		}
		row, col := i/h.Cols, i%h.Cols
		clr := noStartGrey
		if !h.noStart(i) {
			clr = c.color(i)
		}
		y0 := (h.Rows - 1 - row) * k // image rows run top down
		for y := y0; y < y0+k; y++ {
			for x := col * k; x < (col+1)*k; x++ {
				img.SetRGBA(x, y, clr)
			}
		}
	}
	dc.DrawImage(dc.Rectangle, img)
}

// maxCellText is the largest size of the values written in cells; the text
// shrinks to fit smaller cells and is left out below minCellText, where it
// could not be read anyway.
const (
	maxCellText = 7
	minCellText = 3.5
)

func (c *heatCells) drawValues(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	cellW := dc.Size().X / vg.Length(h.Cols)
	cellH := dc.Size().Y / vg.Length(h.Rows)
	labels := make([]string, len(h.Values))
	sty := textStyle(1)
	var widest vg.Length
	for i := range h.Values {
		if h.skip(i) {
			continue
		}
		labels[i] = c.label(i)
		widest = max(widest, sty.Width(labels[i]))
		if h.Counts != nil {
			widest = max(widest, countShrink*sty.Width(countLabel(h.Counts[i])))
		}
	}
	lines := vg.Length(1)
	if h.Counts != nil {
		lines = 1.9
	}
	size := min(vg.Length(maxCellText), 0.78*cellW/widest, 0.55*cellH/lines)
	if size < minCellText {
		return
	}
	sty = textStyle(size)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	small := textStyle(size * countShrink)
	small.XAlign, small.YAlign = draw.XCenter, draw.YCenter
	trX, trY := p.Transforms(&dc)
	for i, s := range labels {
		if h.skip(i) {
			continue
		}
		row, col := i/h.Cols, i%h.Cols
		pt := vg.Point{X: trX(float64(col) + 0.5), Y: trY(float64(row) + 0.5)}
		sty.Color = textColorOn(c.color(i))
		if h.Counts == nil {
			dc.FillText(sty, pt, s)
			continue
		}
		small.Color = sty.Color
		dc.FillText(sty, vg.Point{X: pt.X, Y: pt.Y + size*0.5}, s)
		dc.FillText(small, vg.Point{X: pt.X, Y: pt.Y - size*0.55}, countLabel(h.Counts[i]))
	}
}

// countShrink is the size of a cell's count relative to its value.
const countShrink = 0.8

// countLabel writes a cell's count under its value: "(17)", "(2.25)".
func countLabel(n float64) string { return "(" + CountLabel(n) + ")" }

// CountLabel writes a count: a whole number as it is, a count averaged
// over symmetric squares (a multiple of 1/8 at most) to two decimals,
// trailing zeros dropped.
func CountLabel(n float64) string {
	if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	s := strings.TrimRight(strconv.FormatFloat(n, 'f', 2, 64), "0")
	return strings.TrimSuffix(s, ".")
}

// outline marks a square with a black and a white ring, visible on every
// colour of the map.
func outline(c *draw.Canvas, x0, y0, x1, y1 vg.Length) {
	outer := draw.LineStyle{Color: color.Black, Width: 1.6}
	inner := draw.LineStyle{Color: color.White, Width: 0.8}
	c.SetLineStyle(outer)
	c.Stroke(rectPath(x0+0.8, y0+0.8, x1-0.8, y1-0.8))
	c.SetLineStyle(inner)
	c.Stroke(rectPath(x0+2, y0+2, x1-2, y1-2))
}

// highlightThumb is the legend thumbnail of the outlined square.
type highlightThumb struct{}

func (highlightThumb) Thumbnail(c *draw.Canvas) {
	s := c.Size().Y
	x := c.Center().X - s/2
	c.SetColor(Viridis(0.5))
	c.Fill(rectPath(x, c.Min.Y, x+s, c.Max.Y))
	outline(c, x, c.Min.Y, x+s, c.Max.Y)
}

// blankThumb is the legend thumbnail of a missing square.
type blankThumb struct{}

func (blankThumb) Thumbnail(c *draw.Canvas) {
	s := c.Size().Y
	x := c.Center().X - s/2
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: 0.5})
	c.Stroke(rectPath(x, c.Min.Y, x+s, c.Max.Y))
}

// titleFits is about the most characters a title keeps on one line above a
// square map with its colour bar at the figures' size.
const titleFits = 48

// wrapTitle breaks a title too long for one line after its first ": "
// ("warnsdorff/pohlmin+random on 8x8:" / "success rate by start square"),
// so that it is not cut off at the figure's edges.
func wrapTitle(t string) string {
	if len(t) <= titleFits {
		return t
	}
	if i := strings.Index(t, ": "); i > 0 {
		return t[:i+1] + "\n" + t[i+2:]
	}
	return t
}

// binaryColor is the colour of a 0 or 1 of a Binary map: the ends of
// the colour map, so that they read as the rates 0 and 100 %.
func binaryColor(v float64) color.RGBA {
	if v >= 0.5 {
		return Viridis(1)
	}
	return Viridis(0)
}

// binaryLegend checks that a Binary map's drawn values are 0 or 1 and
// adds the legend of its two colours (and its note).
func (h HeatmapData) binaryLegend(f *Figure) error {
	seen := [2]bool{}
	for i, v := range h.Values {
		if h.skip(i) {
			continue
		}
		q := h.drawn(v)
		if q != 0 && q != 1 {
			return fmt.Errorf("Binary, but square %s is %v, not 0 or 1", h.CellName(i), q)
		}
		seen[int(q)] = true
	}
	for _, v := range []int{1, 0} {
		if !seen[v] {
			continue
		}
		text := fmt.Sprintf("%s %d", h.Label, v)
		if h.Percent {
			text = fmt.Sprintf("%s %d %%", h.Label, 100*v)
		}
		f.addLegend(text, swatchThumb{binaryColor(float64(v))})
	}
	if h.Note != "" {
		f.addLegend(h.Note)
	}
	return nil
}

type swatchThumb struct{ c color.RGBA }

func (s swatchThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(s.c)
	c.Fill(c.Rectangle.Path())
}
