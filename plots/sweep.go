package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SweepRow is one deterministic sweep: a rule from one start position over
// a range of board sizes, and the sizes where its single walk fails.
type SweepRow struct {
	// Name labels the row, e.g. "roth+first r0c0"; it may span lines.
	Name string
	// Swept holds every size n that was run; Failing those where the walk
	// failed, a subset of Swept.
	Swept, Failing []float64
	// Group sets rows apart: a rule is drawn between two adjacent rows
	// of different groups (e.g. rows from two results, or two move orders).
	Group int
}

// SweepStrip draws one horizontal strip per sweep, n on the x axis: a pale
// band where sizes were swept and a dark tick at each failing n, so which
// variants fail where (and which first fail at a published n) reads at a
// glance. Rows are drawn top to bottom in the given order.
func SweepStrip(title string, rows []SweepRow) (*Figure, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("plots: sweep strip %q: no rows", title)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	lines := 1
	for _, r := range rows {
		if len(r.Swept) == 0 {
			return nil, fmt.Errorf("plots: sweep strip %q: row %q swept no sizes", title, r.Name)
		}
		for _, n := range r.Swept {
			lo, hi = math.Min(lo, n), math.Max(hi, n)
		}
		lines = max(lines, strings.Count(r.Name, "\n")+1)
	}
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "board size n (n×n)"
	// A row is tall enough for its label's lines and for the counts
	// written above its failing sizes.
	pitch := max(sweepRowMin, vg.Length(lines)*tickSize*1.25+6)
	f := &Figure{Plot: p, Height: pitch*vg.Length(len(rows)) + 70}
	if hi-lo > 400 { // one point of axis would hold several sizes at column width
		f.Width = 2 * ColumnWidth
	}
	swept := plotter.XYs{}
	fail := plotter.XYs{}
	ticks := make([]plot.Tick, len(rows))
	for i, r := range rows {
		y := float64(len(rows) - 1 - i)
		ticks[i] = plot.Tick{Value: y, Label: r.Name}
		for _, n := range r.Swept {
			swept = append(swept, plotter.XY{X: n, Y: y})
		}
		for _, n := range r.Failing {
			fail = append(fail, plotter.XY{X: n, Y: y})
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	p.X.Min, p.X.Max = lo-0.5, hi+0.5
	p.Add(groupRules{rows})
	band, err := plotter.NewScatter(swept)
	if err != nil {
		return nil, fmt.Errorf("plots: sweep strip %q: %w", title, err)
	}
	band.GlyphStyle = draw.GlyphStyle{Color: lighten(okabeSkyBlue, 0.55), Radius: 3, Shape: stripGlyph{}}
	p.Add(band)
	f.addLegend("swept: walk succeeds", band)
	if len(fail) > 0 {
		marks, err := plotter.NewScatter(fail)
		if err != nil {
			return nil, fmt.Errorf("plots: sweep strip %q: %w", title, err)
		}
		marks.GlyphStyle = draw.GlyphStyle{Color: okabeVermilion, Radius: sweepFailHalf, Shape: stripGlyph{}}
		p.Add(marks)
		f.addLegend("walk fails", marks)
		cc := clusterCounts{rows}
		p.Add(cc)
		if cc.brackets(f) { // a legend names only what is drawn
			f.addLegend("number of failing sizes under the bracket", bracketThumb{})
		}
	}
	return f, nil
}

// brackets reports whether cc draws a bracket in figure f as laid out:
// some row's failing sizes lie close enough on the page to be grouped.
// The page's x positions depend on the figure's width alone, not on the
// legend's rows, so the answer holds once the entry is added.
func (cc clusterCounts) brackets(f *Figure) bool {
	w, h := f.Size()
	l := f.layout(measureCanvas(w, h))
	trX, _ := f.bare().Transforms(&l.data)
	sty := textStyle(countSize)
	for _, r := range cc.rows {
		xs := make([]vg.Length, len(r.Failing))
		for j, n := range r.Failing {
			xs[j] = trX(n)
		}
		for _, g := range countGroups(xs, func(k int) vg.Length { return sty.Width(fmt.Sprint(k)) }) {
			if g.n >= 2 {
				return true
			}
		}
	}
	return false
}

const (
	sweepRowMin   = vg.Length(26) // room for a band, a bracket and its count
	sweepFailHalf = vg.Length(5)  // half the height of a failure's stroke
	// strokeMerge: failing sizes nearer than this on the page draw as one
	// stroke; labelPad: the least space between two counts' footprints, so
	// that neighbouring counts never read as one number ("3" "2" as 32).
	strokeMerge = vg.Length(2)
	labelPad    = vg.Length(6)
	countSize   = vg.Length(6.5)
)

// clusterCounts writes, above each group of failing sizes that lie too
// close to tell apart on the page, a bracket spanning the group and how
// many sizes it holds. It works on the page (points, not n), where the
// question "do these merge?" is asked.
type clusterCounts struct{ rows []SweepRow }

func (cc clusterCounts) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := textStyle(countSize)
	sty.XAlign = draw.XCenter
	sty.Color = okabeVermilion
	line := draw.LineStyle{Color: okabeVermilion, Width: 0.5}
	for i, r := range cc.rows {
		y := trY(float64(len(cc.rows) - 1 - i))
		xs := make([]vg.Length, len(r.Failing))
		for j, n := range r.Failing {
			xs[j] = trX(n)
		}
		for _, g := range countGroups(xs, func(k int) vg.Length { return sty.Width(fmt.Sprint(k)) }) {
			if g.n < 2 {
				continue
			}
			yb := y + sweepFailHalf + 1.5
			left, right := g.lo-0.5, g.hi+0.5
			c.StrokeLines(line, []vg.Point{{X: left, Y: yb - 1.5}, {X: left, Y: yb}, {X: right, Y: yb}, {X: right, Y: yb - 1.5}})
			c.FillText(sty, vg.Point{X: (g.lo + g.hi) / 2, Y: yb + 1}, fmt.Sprint(g.n))
		}
	}
}

// countGroup is a run of failing sizes drawn together: from lo to hi on
// the page, n sizes.
type countGroup struct {
	lo, hi vg.Length
	n      int
}

// countGroups groups page positions xs: positions within strokeMerge of
// each other merge (their strokes touch), and so do neighbouring groups
// whose footprints — the strokes and, for two or more sizes, the count
// centred above them (width(n) wide) — come within labelPad. So every
// count stands over exactly the strokes its bracket spans, and no two
// counts run together.
func countGroups(xs []vg.Length, width func(n int) vg.Length) []countGroup {
	xs = append([]vg.Length(nil), xs...)
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	var gs []countGroup
	for _, x := range xs {
		if k := len(gs) - 1; k >= 0 && x-gs[k].hi <= strokeMerge {
			gs[k].hi, gs[k].n = x, gs[k].n+1
			continue
		}
		gs = append(gs, countGroup{x, x, 1})
	}
	foot := func(g countGroup) (vg.Length, vg.Length) {
		if g.n < 2 {
			return g.lo, g.hi
		}
		m, w := (g.lo+g.hi)/2, width(g.n)/2
		return min(g.lo, m-w), max(g.hi, m+w)
	}
	for merged := true; merged; {
		merged = false
		for k := 0; k+1 < len(gs); k++ {
			_, r := foot(gs[k])
			l, _ := foot(gs[k+1])
			if (gs[k].n > 1 || gs[k+1].n > 1) && l-r < labelPad {
				gs[k] = countGroup{gs[k].lo, gs[k+1].hi, gs[k].n + gs[k+1].n}
				gs = append(gs[:k+1], gs[k+2:]...)
				merged = true
			}
		}
	}
	return gs
}

func (cc clusterCounts) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
}

// groupRules draws a thin grey rule between adjacent rows of different
// groups.
type groupRules struct{ rows []SweepRow }

func (gr groupRules) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	line := draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: 0.6}
	for i := 1; i < len(gr.rows); i++ {
		if gr.rows[i].Group != gr.rows[i-1].Group {
			y := trY(float64(len(gr.rows)-i) - 0.5)
			c.StrokeLine2(line, c.Min.X, y, c.Max.X, y)
		}
	}
}

func (gr groupRules) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
}

// bracketThumb is the legend's picture of a count's bracket.
type bracketThumb struct{}

func (bracketThumb) Thumbnail(c *draw.Canvas) {
	line := draw.LineStyle{Color: okabeVermilion, Width: 0.5}
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLines(line, []vg.Point{{X: c.Min.X + 2, Y: y - 2}, {X: c.Min.X + 2, Y: y}, {X: c.Max.X - 2, Y: y}, {X: c.Max.X - 2, Y: y - 2}})
}

// stripGlyph is a vertical bar the glyph's height, one line wide: a
// failing size stays visible however many sizes share the axis.
type stripGlyph struct{}

func (stripGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y - sty.Radius})
	p.Line(vg.Point{X: pt.X, Y: pt.Y + sty.Radius})
	c.Stroke(p)
}
