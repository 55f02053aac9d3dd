package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

const (
	colorBarGap    = vg.Length(6) // between the axes and the bar
	colorBarW      = vg.Length(8)
	colorBarTick   = vg.Length(2.5)
	colorBarStrips = 128
)

// colorBar is a vertical colour scale drawn to the right of a heatmap, with
// ticks and its label on its right, as readers expect from matplotlib.
type colorBar struct {
	sc    colorScale
	cmap  func(float64) color.RGBA
	label string
	ticks []plot.Tick
	tick  text.Style
	lab   text.Style
}

func newColorBar(sc colorScale, cmap func(float64) color.RGBA, label string) *colorBar {
	b := &colorBar{sc: sc, cmap: cmap, label: label}
	b.ticks = sc.ticks()
	b.tick = textStyle(tickSize)
	b.tick.XAlign, b.tick.YAlign = draw.XLeft, draw.YCenter
	b.lab = textStyle(labelSize)
	b.lab.XAlign, b.lab.YAlign = draw.XCenter, draw.YTop
	b.lab.Rotation = math.Pi / 2
	return b
}

func (b *colorBar) tickLabelWidth() vg.Length {
	var w vg.Length
	for _, t := range b.ticks {
		w = max(w, b.tick.Width(t.Label))
	}
	return w
}

// width is the horizontal space the bar needs beside the axes.
func (b *colorBar) width() vg.Length {
	w := colorBarGap + colorBarW + colorBarTick + 1.5 + b.tickLabelWidth()
	if b.label != "" {
		w += 3 + b.lab.Height(b.label)
	}
	return w
}

func (b *colorBar) draw(c draw.Canvas, r vg.Rectangle) {
	h := r.Size().Y
	for i := range colorBarStrips {
		y0 := r.Min.Y + h*vg.Length(i)/colorBarStrips
		y1 := r.Min.Y + h*vg.Length(i+1)/colorBarStrips
		if i < colorBarStrips-1 {
			y1 += h / colorBarStrips / 2 // overlap: no hairline gaps when anti-aliased
		}
		c.SetColor(b.cmap((float64(i) + 0.5) / colorBarStrips))
		c.Fill(rectPath(r.Min.X, y0, r.Max.X, y1))
	}
	frame := draw.LineStyle{Color: color.Black, Width: 0.5}
	c.SetLineStyle(frame)
	c.Stroke(rectPath(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y))
	for _, t := range b.ticks {
		y := r.Min.Y + h*vg.Length(b.sc.t(t.Value))
		c.StrokeLine2(frame, r.Max.X, y, r.Max.X+colorBarTick, y)
		c.FillText(b.tick, vg.Point{X: r.Max.X + colorBarTick + 1.5, Y: y}, t.Label)
	}
	if b.label != "" {
		x := r.Max.X + colorBarTick + 1.5 + b.tickLabelWidth() + 3
		c.FillText(b.lab, vg.Point{X: x, Y: r.Min.Y + h/2}, b.label)
	}
}

func rectPath(x0, y0, x1, y1 vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: y0})
	p.Line(vg.Point{X: x1, Y: y0})
	p.Line(vg.Point{X: x1, Y: y1})
	p.Line(vg.Point{X: x0, Y: y1})
	p.Close()
	return p
}

// ColorBarLabels returns the labels of the colour bar's ticks, bottom to
// top (nil for a figure without one), for checks of what a reader can
// read off the bar.
func (f *Figure) ColorBarLabels() []string {
	if f.colorBar == nil {
		return nil
	}
	var out []string
	for _, t := range f.colorBar.ticks {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}
