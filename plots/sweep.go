package plots

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SweepRow is one deterministic sweep: a rule from one start position over
// a range of board sizes, and the sizes where its single walk fails.
type SweepRow struct {
	// Name labels the row, e.g. "roth+first r0c0".
	Name string
	// Swept holds every size n that was run; Failing those where the walk
	// failed, a subset of Swept.
	Swept, Failing []float64
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
	for _, r := range rows {
		if len(r.Swept) == 0 {
			return nil, fmt.Errorf("plots: sweep strip %q: row %q swept no sizes", title, r.Name)
		}
		for _, n := range r.Swept {
			lo, hi = math.Min(lo, n), math.Max(hi, n)
		}
	}
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "board size n (n×n)"
	addGrid(p)
	f := &Figure{Plot: p, Height: vg.Length(40+14*len(rows)) + 40}
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
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	p.X.Min, p.X.Max = lo-0.5, hi+0.5
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
		marks.GlyphStyle = draw.GlyphStyle{Color: okabeVermilion, Radius: 5, Shape: stripGlyph{}}
		p.Add(marks)
		f.addLegend("walk fails", marks)
		if err := addClusterCounts(p, rows, (hi-lo)/clusterShare); err != nil {
			return nil, fmt.Errorf("plots: sweep strip %q: %w", title, err)
		}
	}
	return f, nil
}

// clusterShare: failing sizes closer than the axis's width over this many
// draw as one thick stroke, so such a cluster carries its count above it.
const clusterShare = 120

// addClusterCounts writes, above each run of failing sizes that lie
// within gap of each other, how many sizes it holds, where strokes merge.
func addClusterCounts(p *plot.Plot, rows []SweepRow, gap float64) error {
	var xys plotter.XYs
	var labels []string
	for i, r := range rows {
		y := float64(len(rows)-1-i) + 0.42
		fails := append([]float64(nil), r.Failing...)
		sort.Float64s(fails)
		for j := 0; j < len(fails); {
			k := j + 1
			for k < len(fails) && fails[k]-fails[k-1] <= gap {
				k++
			}
			if k-j > 1 {
				xys = append(xys, plotter.XY{X: (fails[j] + fails[k-1]) / 2, Y: y})
				labels = append(labels, fmt.Sprint(k-j))
			}
			j = k
		}
	}
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i] = textStyle(6)
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].Color = okabeVermilion
	}
	p.Add(l)
	return nil
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
