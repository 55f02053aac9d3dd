package plots

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Published values are black with open markers, so that they read as
// "not measured here" beside the coloured, filled measurements; a bound
// over a range is its level line alone (its legend entry says which side
// it bounds: "≥ 98 %"), with no shading a reader would have to decode.
// The claims panel's bands are translucent grey, so that the measured
// points show through.
var (
	refColor     = color.RGBA{0x20, 0x20, 0x20, 0xff}
	refBandColor = color.NRGBA{0x70, 0x70, 0x70, 0x60}
	// Shapes that no series uses, so a reference never looks like a
	// measurement of another series.
	refGlyphs = []draw.GlyphDrawer{
		polygonGlyph{sides: 4, turn: 0},           // diamond
		polygonGlyph{sides: 3, turn: math.Pi / 3}, // triangle pointing down
		polygonGlyph{sides: 6, turn: 0},           // hexagon
		polygonGlyph{sides: 5, turn: 0},           // pentagon
	}
	refBandLines = [][]vg.Length{nil, {3, 1.5}, {1, 1}, {4, 1, 1, 1}, {6, 2}, {4, 1, 1, 1, 1, 1}}
)

const (
	refRadius = vg.Length(2.8) // above the series' 1.6, so both show at one point
	refArrow  = vg.Length(7)
)

// refSource is one source's style, and its legend thumbnail.
type refSource struct {
	name   string
	glyph  draw.GlyphDrawer
	dashes []vg.Length
	points bool
	lines  bool // ranges, drawn as a level line
}

// refPlot draws the published references of a size curve.
type refPlot struct {
	refs    []Reference // cut to the x range
	sources []*refSource
	style   map[string]*refSource
	y       func(rate float64) float64 // the rate axis's coordinate
	// sizes are the board sizes measured (sorted, distinct): a range's
	// ends are drawn halfway between the sizes it holds and those it
	// does not (see span).
	sizes []float64
}

// newRefPlot keeps the references within [xmin, xmax] (cutting ranges to
// it) and gives each source, in order of first use, a style.
func newRefPlot(refs []Reference, xmin, xmax float64) *refPlot {
	rp := &refPlot{style: map[string]*refSource{}, y: func(r float64) float64 { return r }}
	for _, r := range refs {
		hi := math.Max(r.N, r.NMax)
		if hi < xmin || r.N > xmax {
			continue
		}
		if r.NMax > r.N {
			r.N, r.NMax = math.Max(r.N, xmin), math.Min(r.NMax, xmax)
		}
		src := rp.style[r.Source]
		if src == nil {
			src = &refSource{name: r.Source}
			rp.style[r.Source] = src
			rp.sources = append(rp.sources, src)
		}
		if r.NMax > r.N {
			src.lines = true
		} else {
			src.points = true
		}
		rp.refs = append(rp.refs, r)
	}
	// Line styles go round the sources that draw lines, marker shapes
	// round those that draw points, so that two sources share a style
	// only past the end of the list, not where one draws points.
	var lines, points int
	for _, src := range rp.sources {
		src.glyph = refGlyphs[points%len(refGlyphs)]
		src.dashes = refBandLines[lines%len(refBandLines)]
		if src.points {
			points++
		}
		if src.lines {
			lines++
		}
	}
	return rp
}

func (rp *refPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
}

func (rp *refPlot) Plot(dc draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&dc)
	for _, r := range rp.refs {
		if r.NMax > r.N {
			x0, x1 := rp.span(r, trX)
			rp.style[r.Source].drawRange(&dc, r, x0, x1, func(v float64) vg.Length { return trY(rp.y(v)) })
		}
	}
	for _, r := range rp.refs {
		if !(r.NMax > r.N) {
			rp.style[r.Source].drawPoint(&dc, r, trX(r.N), trY(rp.y(r.Rate)), func(v float64) vg.Length { return trY(rp.y(v)) })
		}
	}
}

// span is where range r is drawn along the page: over the measured sizes
// it holds, each end halfway to the nearest measured size it does not
// hold, so that no end passes through a marker and a size left out is
// never read as inside (n = 201…400 drawn from 201 sat on the n = 200
// marker and read as starting there). An end with no measured size
// beyond it is the published end (cut to the axis); a range holding no
// measured size is drawn over its published ends.
func (rp *refPlot) span(r Reference, trX func(float64) vg.Length) (x0, x1 vg.Length) {
	x0, x1 = trX(r.N), trX(r.NMax)
	first := sort.SearchFloat64s(rp.sizes, r.N)
	last := sort.Search(len(rp.sizes), func(i int) bool { return rp.sizes[i] > r.NMax }) - 1
	if first > last { // no measured size within
		return x0, x1
	}
	if first > 0 {
		x0 = (trX(rp.sizes[first-1]) + trX(rp.sizes[first])) / 2
	}
	if last+1 < len(rp.sizes) {
		x1 = (trX(rp.sizes[last]) + trX(rp.sizes[last+1])) / 2
	}
	return x0, x1
}

func (s *refSource) drawRange(dc *draw.Canvas, r Reference, x0, x1 vg.Length, trY func(float64) vg.Length) {
	y := trY(r.Rate)
	dc.StrokeLine2(draw.LineStyle{Color: refColor, Width: 1, Dashes: s.dashes}, x0, y, x1, y)
}

func (s *refSource) drawPoint(dc *draw.Canvas, r Reference, x, y vg.Length, trY func(float64) vg.Length) {
	if r.Hi > r.Lo { // the published count's interval
		ls := draw.LineStyle{Color: refColor, Width: 0.6}
		lo, hi := trY(r.Lo), trY(r.Hi)
		dc.StrokeLines(ls, dc.ClipLinesY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}})...)
		for _, yy := range []vg.Length{lo, hi} {
			dc.StrokeLines(ls, dc.ClipLinesY([]vg.Point{{X: x - 1.5, Y: yy}, {X: x + 1.5, Y: yy}})...)
		}
	}
	gs := draw.GlyphStyle{Color: refColor, Radius: refRadius, Shape: s.glyph}
	dc.DrawGlyphNoClip(gs, vg.Point{X: x, Y: y})
	switch r.Bound {
	case AtLeast:
		arrow(dc, x, y+refRadius, math.Min(float64(y+refRadius+refArrow), float64(dc.Max.Y)))
	case Below:
		arrow(dc, x, y-refRadius, math.Max(float64(y-refRadius-refArrow), float64(dc.Min.Y)))
	}
}

// arrow draws a vertical arrow at x from y0 to y1, its head at y1.
func arrow(dc *draw.Canvas, x, y0 vg.Length, y1f float64) {
	y1 := vg.Length(y1f)
	if math.Abs(float64(y1-y0)) < 2 {
		return
	}
	ls := draw.LineStyle{Color: refColor, Width: 0.8}
	dc.StrokeLine2(ls, x, y0, x, y1)
	d := vg.Length(1.8)
	if y1 < y0 {
		d = -d
	}
	var head vg.Path
	head.Move(vg.Point{X: x - 1.6, Y: y1 - d})
	head.Line(vg.Point{X: x, Y: y1})
	head.Line(vg.Point{X: x + 1.6, Y: y1 - d})
	dc.SetLineStyle(ls)
	dc.Stroke(head)
}

// Thumbnail draws the source's line (if it has ranges) under its marker
// (if it has points).
func (s *refSource) Thumbnail(c *draw.Canvas) {
	mid := c.Center()
	if s.lines {
		c.StrokeLine2(draw.LineStyle{Color: refColor, Width: 1, Dashes: s.dashes}, c.Min.X, mid.Y, c.Max.X, mid.Y)
	}
	if s.points {
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: refColor, Radius: refRadius, Shape: s.glyph}, mid)
	}
}

// polygonGlyph is an open regular polygon with a vertex at the top, turned
// by turn radians.
type polygonGlyph struct {
	sides int
	turn  float64
}

func (g polygonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: 0.8})
	var p vg.Path
	for k := range g.sides {
		a := math.Pi/2 + g.turn + 2*math.Pi*float64(k)/float64(g.sides)
		v := vg.Point{X: pt.X + sty.Radius*vg.Length(math.Cos(a)), Y: pt.Y + sty.Radius*vg.Length(math.Sin(a))}
		if k == 0 {
			p.Move(v)
		} else {
			p.Line(v)
		}
	}
	p.Close()
	c.Stroke(p)
}
