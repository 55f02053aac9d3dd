package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ClaimRow is one published claim against what a run measured: the
// statement as a range of rates, and the estimate with its interval.
type ClaimRow struct {
	// Label names the claim, e.g. "ganzfried-7, 7x7: reproduced".
	Label string
	// ClaimedLo and ClaimedHi bound the published statement: [0, 0.05]
	// for "below 5 %", [0.725, 0.775] for "75 % ± 2.5".
	ClaimedLo, ClaimedHi float64
	// Measured, Lo and Hi are the run's estimate and its interval.
	Measured, Lo, Hi float64
	// Exact is the exact value by enumeration, NaN where not computed.
	Exact float64
	// AlwaysValid marks a sequential run's interval: the always-valid one
	// that decided the verdict (the legend says so).
	AlwaysValid bool
}

// ClaimPanel draws each claim as a row: a grey band over the published
// range, the measured rate with its interval over it, and the exact value
// as a cross, on one rate axis (logit, so that "99 %" and "0.5 %" claims
// both resolve). Rows are drawn top to bottom in the given order.
func ClaimPanel(title string, rows []ClaimRow) (*Figure, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("plots: claim panel %q: %w", title, noData("no claims"))
	}
	for i, r := range rows {
		for _, v := range []float64{r.ClaimedLo, r.ClaimedHi, r.Measured, r.Lo, r.Hi} {
			if err := checkValue(fmt.Sprintf("row %d (%q)", i, r.Label), v); err != nil {
				return nil, fmt.Errorf("plots: claim panel %q: %w", title, err)
			}
		}
		if !(0 <= r.Lo && r.Lo <= r.Measured && r.Measured <= r.Hi && r.Hi <= 1) || !(0 <= r.ClaimedLo && r.ClaimedLo <= r.ClaimedHi && r.ClaimedHi <= 1) {
			return nil, fmt.Errorf("plots: claim panel %q: row %d (%q): want rates 0 ≤ Lo ≤ Measured ≤ Hi ≤ 1 and 0 ≤ ClaimedLo ≤ ClaimedHi ≤ 1", title, i, r.Label)
		}
	}
	// The axis spans every rate strictly between 0 and 1 (published and
	// measured); 0 and 1 sit on its edges.
	lo, hi := 0.5, 0.5
	sc := rateScale{kind: RateAxisLogit, labels: 6} // a horizontal axis beside long row labels
	for _, r := range rows {
		for _, v := range []float64{r.ClaimedLo, r.ClaimedHi, r.Measured, r.Lo, r.Hi, r.Exact} {
			if v > 0 && v < 1 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			sc.atZero, sc.atOne = sc.atZero || v == 0, sc.atOne || v == 1
		}
	}
	sc.lo, sc.hi = pad(lo, hi)
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "success rate (%, logit scale)"
	p.Y.Label.Text = "claim (id, board: verdict)"
	p.X.Tick.Marker = sc
	p.X.Min, p.X.Max = sc.y(sc.lo), sc.y(sc.hi)
	f := &Figure{Plot: p, Height: vg.Length(max(200, 110+22*len(rows)))} // room for the title, legend and axis above and below the rows
	// The rows' labels stand left of the data area: a figure as wide as
	// the column with long labels left the rate axis too narrow for its
	// tick labels (they ran together). Widen it so that the data area
	// keeps at least 2.2 inches.
	widest := vg.Length(0)
	for _, r := range rows {
		widest = max(widest, p.Y.Tick.Label.Width(r.Label))
	}
	f.Width = max(ColumnWidth, widest+p.Y.Label.TextStyle.Height(p.Y.Label.Text)+2.2*vg.Inch+40)
	ticks := make([]plot.Tick, len(rows))
	var est, exact plotter.XYs
	var bars rateErrors
	for i, r := range rows {
		y := float64(len(rows) - 1 - i)
		ticks[i] = plot.Tick{Value: y, Label: r.Label}
		x := sc.y(r.Measured)
		est = append(est, plotter.XY{X: x, Y: y})
		bars = append(bars, rateError{x: x, y: y, lo: x - sc.y(r.Lo), hi: sc.y(r.Hi) - x})
		if !math.IsNaN(r.Exact) {
			exact = append(exact, plotter.XY{X: sc.y(r.Exact), Y: y})
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	p.Add(claimBands{rows: rows, sc: sc})
	eb, err := plotter.NewXErrorBars(xErrors(bars))
	if err != nil {
		return nil, fmt.Errorf("plots: claim panel %q: %w", title, err)
	}
	eb.LineStyle = draw.LineStyle{Color: okabeBlue, Width: 0.8}
	eb.CapWidth = 4
	pts, err := plotter.NewScatter(est)
	if err != nil {
		return nil, fmt.Errorf("plots: claim panel %q: %w", title, err)
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: okabeBlue, Radius: 2, Shape: draw.CircleGlyph{}}
	p.Add(eb, pts)
	f.addLegend("the claim's statement: a bound, a value ± its tolerance, or k/n ± its margin", claimBandThumb{})
	legend := "measured, with interval"
	for _, r := range rows {
		if r.AlwaysValid {
			legend = "measured, with the interval that decided (sequential: always valid)"
			break
		}
	}
	f.addLegend(legend, &plotter.Line{LineStyle: eb.LineStyle}, pts)
	if note := sc.endsNote(); note != "" { // where 0 and 100 % stand, which the axis cannot label
		f.addLegend(sc.endsLegend())
	}
	if len(exact) > 0 {
		ex, err := plotter.NewScatter(exact)
		if err != nil {
			return nil, fmt.Errorf("plots: claim panel %q: %w", title, err)
		}
		ex.GlyphStyle = exactGlyph
		p.Add(ex)
		f.addLegend(exactLegend, ex)
	}
	return f, nil
}

// xErrors reads rateErrors as horizontal error bars.
type xErrors rateErrors

func (r xErrors) Len() int                        { return len(r) }
func (r xErrors) XY(i int) (float64, float64)     { return r[i].x, r[i].y }
func (r xErrors) XError(i int) (float64, float64) { return r[i].lo, r[i].hi }

// claimBands draws each row's published range as a grey band.
type claimBands struct {
	rows []ClaimRow
	sc   rateScale
}

func (b claimBands) Plot(dc draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&dc)
	n := len(b.rows)
	for i, r := range b.rows {
		y := float64(n - 1 - i)
		x0, x1 := trX(b.sc.y(r.ClaimedLo)), trX(b.sc.y(r.ClaimedHi))
		if x1-x0 < 1.5 { // a point claim: keep it visible
			x0, x1 = x0-0.75, x1+0.75
		}
		dc.SetColor(refBandColor)
		dc.Fill(rectPath(x0, trY(y-0.3), x1, trY(y+0.3)))
	}
}

type claimBandThumb struct{}

func (claimBandThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(refBandColor)
	c.Fill(c.Rectangle.Path())
}
