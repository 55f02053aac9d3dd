package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
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
}

// autoValuesMax is the largest board side whose cells get their values
// written without asking.
const autoValuesMax = 12

// rasterCells is the number of squares above which a heatmap is drawn as an
// image rather than one rectangle per square, to keep SVG and PDF files small.
const rasterCells = 64 * 64

const cellOverlap = vg.Length(0.3)

// Heatmap draws one value per board square in viridis, with board
// coordinates on the axes and a colour bar.
func Heatmap(h HeatmapData) (*Figure, error) {
	lo, hi, err := h.validate()
	if err != nil {
		return nil, fmt.Errorf("plots: heatmap %q: %w", h.Title, err)
	}
	format := h.Format
	if format == "" {
		format = h.autoFormat()
	}

	p := newPlot()
	p.Title.Text = h.Title
	boardAxes(p, h.Rows, h.Cols)
	cells := &heatCells{
		h:      h,
		lo:     lo,
		hi:     hi,
		format: format,
		values: h.ShowValues || (!h.HideValues && h.Rows <= autoValuesMax && h.Cols <= autoValuesMax),
	}
	p.Add(cells)

	f := &Figure{Plot: p, aspect: float64(h.Rows) / float64(h.Cols)}
	f.colorBar = newColorBar(lo, hi, Viridis, h.Label)
	if h.Highlight >= 0 {
		f.addLegend("outlined: "+SquareName(h.Cols, h.Highlight), highlightThumb{})
	}
	if slices.Contains(h.Mask, true) {
		f.addLegend("blank: no data", blankThumb{})
	}
	return f, nil
}

func (h HeatmapData) validate() (lo, hi float64, err error) {
	if len(h.Values) == 0 {
		return 0, 0, noData("no values")
	}
	if h.Rows < 1 || h.Cols < 1 {
		return 0, 0, fmt.Errorf("board %dx%d: rows and cols must be at least 1", h.Rows, h.Cols)
	}
	n := h.Rows * h.Cols
	if err := checkLengths(n, []string{"Values"}, len(h.Values)); err != nil {
		return 0, 0, err
	}
	if h.Mask != nil {
		if err := checkLengths(n, []string{"Mask"}, len(h.Mask)); err != nil {
			return 0, 0, err
		}
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, v := range h.Values {
		if h.missing(i) {
			continue
		}
		if err := checkValue(fmt.Sprintf("Values[%d] (%s)", i, SquareName(h.Cols, i)), v); err != nil {
			return 0, 0, err
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		return 0, 0, noData("every square is masked")
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"Min", h.Min}, {"Max", h.Max}} {
		if b.v != nil {
			if err := checkValue(b.name, *b.v); err != nil {
				return 0, 0, err
			}
		}
	}
	if h.Min != nil && h.Max != nil && !(*h.Min < *h.Max) {
		return 0, 0, fmt.Errorf("scale Min %v must be below Max %v", *h.Min, *h.Max)
	}
	if h.Highlight < -1 || h.Highlight >= n {
		return 0, 0, fmt.Errorf("Highlight %d is not -1 or a square of the %dx%d board", h.Highlight, h.Rows, h.Cols)
	}
	if h.Format != "" && strings.Contains(fmt.Sprintf(h.Format, 1.5), "%!") {
		return 0, 0, fmt.Errorf("Format %q does not format a float64", h.Format)
	}

	if h.Min != nil {
		lo = *h.Min
	}
	if h.Max != nil {
		hi = *h.Max
	}
	if hi <= lo { // a constant field, or data beyond one fixed end
		switch {
		case h.Min != nil && h.Max == nil:
			hi = lo + 1
		case h.Max != nil && h.Min == nil:
			lo = hi - 1
		default:
			lo, hi = lo-0.5, hi+0.5
		}
	}
	return lo, hi, nil
}

func (h HeatmapData) missing(i int) bool { return h.Mask != nil && h.Mask[i] }

func (h HeatmapData) autoFormat() string {
	integral, maxAbs := true, 0.0
	for i, v := range h.Values {
		if h.missing(i) {
			continue
		}
		integral = integral && v == math.Trunc(v)
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	switch {
	case integral:
		return "%.0f"
	case maxAbs < 10:
		return "%.2f"
	case maxAbs < 100:
		return "%.1f"
	}
	return "%.0f"
}

// heatCells draws the squares, their values and the highlight.
type heatCells struct {
	h      HeatmapData
	lo, hi float64
	format string
	values bool
}

func (c *heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(c.h.Cols), 0, float64(c.h.Rows)
}

func (c *heatCells) color(i int) color.RGBA {
	return Viridis((c.h.Values[i] - c.lo) / (c.hi - c.lo))
}

func (c *heatCells) Plot(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	trX, trY := p.Transforms(&dc)
	if h.Rows*h.Cols > rasterCells {
		c.raster(dc)
	} else {
		for i := range h.Values {
			if h.missing(i) {
				continue
			}
			row, col := i/h.Cols, i%h.Cols
			x1, y1 := trX(float64(col+1)), trY(float64(row+1))
			// Overlap the next cells a little: anti-aliased edges of
			// abutting rectangles otherwise show hairline seams.
			if col+1 < h.Cols && !h.missing(i+1) {
				x1 += cellOverlap
			}
			if row+1 < h.Rows && !h.missing(i+h.Cols) {
				y1 += cellOverlap
			}
			dc.SetColor(c.color(i))
			dc.Fill(rectPath(trX(float64(col)), trY(float64(row)), x1, y1))
		}
	}

	if c.values {
		c.drawValues(dc, p)
	}

	frame := draw.LineStyle{Color: color.Black, Width: 0.5}
	dc.SetLineStyle(frame)
	dc.Stroke(rectPath(dc.Min.X, dc.Min.Y, dc.Max.X, dc.Max.Y))

	if h.Highlight >= 0 {
		row, col := h.Highlight/h.Cols, h.Highlight%h.Cols
		outline(&dc, trX(float64(col)), trY(float64(row)), trX(float64(col+1)), trY(float64(row+1)))
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
		clr := c.color(i)
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
	for i, v := range h.Values {
		if h.missing(i) {
			continue
		}
		labels[i] = fmt.Sprintf(c.format, v)
		widest = max(widest, sty.Width(labels[i]))
	}
	size := min(vg.Length(maxCellText), 0.78*cellW/widest, 0.55*cellH)
	if size < minCellText {
		return
	}
	sty = textStyle(size)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	trX, trY := p.Transforms(&dc)
	for i, s := range labels {
		if h.missing(i) {
			continue
		}
		row, col := i/h.Cols, i%h.Cols
		sty.Color = textColorOn(c.color(i))
		dc.FillText(sty, vg.Point{X: trX(float64(col) + 0.5), Y: trY(float64(row) + 0.5)}, s)
	}
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
