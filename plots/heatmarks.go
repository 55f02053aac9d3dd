package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Squares that cannot start a tour are light grey with darker diagonal
// hatching: plainly not a colour of the scale, and not blank (which means
// "no data").
var (
	noStartGrey  = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
	noStartHatch = draw.LineStyle{Color: color.Gray{Y: 0x90}, Width: 0.4}
)

const hatchSpacing = vg.Length(2.2)

// hatch fills a cell in grey and strokes rising diagonals across it.
func hatch(c *draw.Canvas, x0, y0, x1, y1 vg.Length) {
	c.SetColor(noStartGrey)
	c.Fill(rectPath(x0, y0, x1, y1))
	w, h := x1-x0, y1-y0
	c.SetLineStyle(noStartHatch)
	// Lines y − y0 = x − x0 − d, each clipped to the cell.
	for d := -h + hatchSpacing/2; d < w; d += hatchSpacing {
		t0, t1 := max(0, -d), min(h, w-d)
		if t1 <= t0 {
			continue
		}
		c.StrokeLine2(noStartHatch, x0+d+t0, y0+t0, x0+d+t1, y0+t1)
	}
}

// minMarkCell is the smallest cell (in points) that gets an interval mark.
const minMarkCell = vg.Length(4)

// drawMarks puts a small triangle in the top right corner of each square
// whose interval excludes the pooled rate: pointing up above it, down below.
func (c *heatCells) drawMarks(dc draw.Canvas, p *plot.Plot) {
	h := c.h
	if c.marks == nil {
		return
	}
	cell := min(dc.Size().X/vg.Length(h.Cols), dc.Size().Y/vg.Length(h.Rows))
	if cell < minMarkCell {
		return
	}
	a := min(cell*0.24, 5.5)
	trX, trY := p.Transforms(&dc)
	for i, m := range c.marks {
		if m == 0 {
			continue
		}
		row, col := i/h.Cols, i%h.Cols
		x1, y1 := trX(float64(col+1)), trY(float64(row+1))
		dc.SetColor(textColorOn(c.color(i)))
		dc.Fill(triangle(x1-a*0.85, y1-a*0.75, a, m > 0))
	}
}

// triangle is an equilateral-ish triangle of side a centred on (x, y).
func triangle(x, y, a vg.Length, up bool) vg.Path {
	hh := a * 0.43
	if !up {
		hh = -hh
	}
	var p vg.Path
	p.Move(vg.Point{X: x - a/2, Y: y - hh})
	p.Line(vg.Point{X: x + a/2, Y: y - hh})
	p.Line(vg.Point{X: x, Y: y + hh})
	p.Close()
	return p
}

// markThumb is the legend thumbnail of the interval marks: both triangles.
type markThumb struct{}

func (markThumb) Thumbnail(c *draw.Canvas) {
	s := c.Size().Y
	mid := c.Center()
	c.SetColor(color.Black)
	a := s * 0.6
	c.Fill(triangle(mid.X-a*0.6, mid.Y, a, true))
	c.Fill(triangle(mid.X+a*0.6, mid.Y, a, false))
}

// noStartThumb is the legend thumbnail of a square that cannot start a tour.
type noStartThumb struct{}

func (noStartThumb) Thumbnail(c *draw.Canvas) {
	s := c.Size().Y
	x := c.Center().X - s/2
	hatch(c, x, c.Min.Y, x+s, c.Max.Y)
}
