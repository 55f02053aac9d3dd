package plots

import (
	"fmt"
	"math"
	"sort"

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
}

// LengthDistribution draws path-length distributions, one step line per
// series (per start class), for one rule: call it once per rule and set
// Plot.Title.Text to name the rule. Each length is a bar drawn as an
// outline, as wide as the smallest gap between lengths (one square for
// per-length tallies), so the success spike at the full length is as wide
// as every other bar; lengths missing from a series count as zero.
func LengthDistribution(series []Series) (*Figure, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("plots: length distribution: %w", noData("no series"))
	}
	p := newPlot()
	p.X.Label.Text = "path length (squares visited)"
	p.Y.Label.Text = "fraction of walks"
	f := &Figure{Plot: p}
	all := make([]plotter.XYs, len(series))
	for i, s := range series {
		xys, err := s.points()
		if err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		all[i] = xys
	}
	width := barWidth(all)
	xmin, xmax := 0.0, 0.0
	for i, s := range series {
		xys := all[i]
		line, err := plotter.NewLine(histogramOutline(xys, width))
		if err != nil {
			return nil, fmt.Errorf("plots: length distribution, series %d (%q): %w", i, s.Name, err)
		}
		clr, dashes, _ := seriesStyle(i)
		line.LineStyle = draw.LineStyle{Color: clr, Width: 1, Dashes: dashes}
		p.Add(line)
		f.addLegend(s.Name, line)
		if i == 0 || xys[0].X < xmin {
			xmin = xys[0].X
		}
		if i == 0 || xys[len(xys)-1].X > xmax {
			xmax = xys[len(xys)-1].X
		}
	}
	// Bars are centred on the lengths: leave half a bar on each side.
	p.X.Min, p.X.Max = xmin-width/2, xmax+width/2
	p.Y.Min = 0
	return f, nil
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
// zero where the next length is not adjacent.
func histogramOutline(xys plotter.XYs, width float64) plotter.XYs {
	h := width / 2
	out := plotter.XYs{{X: xys[0].X - h, Y: 0}}
	for i, p := range xys {
		if i > 0 && p.X-xys[i-1].X > width*(1+1e-9) { // a gap: back to zero and up again
			out = append(out, plotter.XY{X: xys[i-1].X + h, Y: 0}, plotter.XY{X: p.X - h, Y: 0})
		}
		out = append(out, plotter.XY{X: p.X - h, Y: p.Y}, plotter.XY{X: p.X + h, Y: p.Y})
	}
	return append(out, plotter.XY{X: xys[len(xys)-1].X + h, Y: 0})
}
