package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WalkData is one walk on a board.
type WalkData struct {
	Title      string
	Rows, Cols int
	// Path holds the visited squares in order, start first, as indices
	// row*Cols+col. Consecutive squares must be a knight's move apart and
	// no square may repeat.
	Path []int
	// HideNumbers leaves out the move numbers, which are otherwise written
	// on boards up to 12×12 (larger boards never get them: they would be
	// too small to read).
	HideNumbers bool
}

// Walk draws one walk on a light checkerboard: the path as segments between
// square centres, the squares numbered in visit order (1 = start) on boards
// up to 12×12, the start and the end marked, board coordinates on the axes.
func Walk(w WalkData) (*Figure, error) {
	if err := w.validate(); err != nil {
		return nil, fmt.Errorf("plots: walk %q: %w", w.Title, err)
	}
	return w.figure(len(w.Path)), nil
}

// figure draws the first upto squares of the walk; the legend always
// describes the whole walk, so frames of an animation differ only on the
// board.
func (w WalkData) figure(upto int) *Figure {
	p := newPlot()
	p.Title.Text = w.Title
	boardAxes(p, w.Rows, w.Cols)
	wp := &walkPlotter{w: w, upto: upto, numbers: !w.HideNumbers && w.Rows <= autoValuesMax && w.Cols <= autoValuesMax}
	p.Add(wp)
	f := &Figure{Plot: p, aspect: float64(w.Rows) / float64(w.Cols)}

	last := len(w.Path) - 1
	f.addLegend("start "+SquareName(w.Cols, w.Path[0]), walkThumb{wp, 0})
	end := "dead end "
	if len(w.Path) == w.Rows*w.Cols {
		end = "end "
	}
	if last > 0 {
		f.addLegend(end+SquareName(w.Cols, w.Path[last]), walkThumb{wp, last})
	}
	f.addLegend(fmt.Sprintf("%d of %d squares visited", len(w.Path), w.Rows*w.Cols))
	return f
}

func (w WalkData) validate() error {
	if len(w.Path) == 0 {
		return noData("empty path")
	}
	if w.Rows < 1 || w.Cols < 1 {
		return fmt.Errorf("board %dx%d: rows and cols must be at least 1", w.Rows, w.Cols)
	}
	n := w.Rows * w.Cols
	seen := make([]bool, n)
	for i, sq := range w.Path {
		if sq < 0 || sq >= n {
			return fmt.Errorf("Path[%d] = %d is not a square of the %dx%d board", i, sq, w.Rows, w.Cols)
		}
		if seen[sq] {
			return fmt.Errorf("Path[%d] revisits %s", i, SquareName(w.Cols, sq))
		}
		seen[sq] = true
		if i > 0 {
			prev := w.Path[i-1]
			dr, dc := abs(sq/w.Cols-prev/w.Cols), abs(sq%w.Cols-prev%w.Cols)
			if !(dr == 1 && dc == 2 || dr == 2 && dc == 1) {
				return fmt.Errorf("Path[%d]: %s to %s is not a knight's move", i, SquareName(w.Cols, prev), SquareName(w.Cols, sq))
			}
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var (
	darkSquare  = color.Gray{Y: 0xd9}
	lightSquare = color.Gray{Y: 0xf5}
	pathColor   = okabeBlue
	startColor  = okabeGreen
	endColor    = okabeVermilion
)

// walkPlotter draws the board and the first upto squares of the walk.
type walkPlotter struct {
	w       WalkData
	upto    int
	numbers bool
}

func (wp *walkPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(wp.w.Cols), 0, float64(wp.w.Rows)
}

// centre returns the centre of square sq on the data canvas.
func (wp *walkPlotter) centre(dc draw.Canvas, sq int) vg.Point {
	cols, rows := wp.w.Cols, wp.w.Rows
	r, c := sq/cols, sq%cols
	return vg.Point{
		X: dc.Min.X + dc.Size().X*(vg.Length(c)+0.5)/vg.Length(cols),
		Y: dc.Min.Y + dc.Size().Y*(vg.Length(r)+0.5)/vg.Length(rows),
	}
}

func (wp *walkPlotter) cell(dc draw.Canvas) vg.Length {
	return min(dc.Size().X/vg.Length(wp.w.Cols), dc.Size().Y/vg.Length(wp.w.Rows))
}

func (wp *walkPlotter) Plot(dc draw.Canvas, _ *plot.Plot) {
	w := wp.w
	cw := dc.Size().X / vg.Length(w.Cols)
	ch := dc.Size().Y / vg.Length(w.Rows)
	dc.SetColor(lightSquare)
	dc.Fill(dc.Rectangle.Path())
	dc.SetColor(darkSquare)
	for r := range w.Rows {
		for c := range w.Cols {
			if (r+c)%2 == 0 { // a1 is a dark square
				x, y := dc.Min.X+cw*vg.Length(c), dc.Min.Y+ch*vg.Length(r)
				dc.Fill(rectPath(x, y, x+cw, y+ch))
			}
		}
	}
	frame := draw.LineStyle{Color: color.Black, Width: 0.5}
	dc.SetLineStyle(frame)
	dc.Stroke(rectPath(dc.Min.X, dc.Min.Y, dc.Max.X, dc.Max.Y))

	cell := wp.cell(dc)
	path := make([]vg.Point, wp.upto)
	for i := range path {
		path[i] = wp.centre(dc, w.Path[i])
	}
	if len(path) > 1 {
		width := min(max(cell*0.06, 0.4), 1.2)
		dc.StrokeLines(draw.LineStyle{Color: pathColor, Width: width}, path)
	}
	if wp.numbers {
		for i := range path {
			wp.numbered(dc, i, path[i], cell, true)
		}
		return
	}
	wp.marker(dc, 0, path[0], cell)
	if wp.upto > 1 {
		wp.marker(dc, wp.upto-1, path[wp.upto-1], cell)
	}
}

// role colours square i of the drawn part: the start, the last drawn square
// (the end, or the knight's current square in an animation), or another.
func (wp *walkPlotter) role(i int) (fill color.Color, ring color.Color) {
	switch {
	case i == 0:
		return startColor, color.Black
	case i == wp.upto-1:
		return endColor, color.Black
	}
	return color.White, pathColor
}

// numbered draws a disc on the square's centre with move number i+1 in it
// when withText.
func (wp *walkPlotter) numbered(dc draw.Canvas, i int, at vg.Point, cell vg.Length, withText bool) {
	r := min(cell*0.32, 7)
	fill, ring := wp.role(i)
	dc.SetColor(fill)
	dc.Fill(disc(at, r))
	dc.SetLineStyle(draw.LineStyle{Color: ring, Width: 0.6})
	dc.Stroke(disc(at, r))
	if !withText {
		return
	}

	label := strconv.Itoa(i + 1)
	sty := textStyle(1)
	widest := sty.Width(strconv.Itoa(len(wp.w.Path)))
	size := min(6.5, 1.5*r/widest, 1.1*r)
	sty = textStyle(size)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	sty.Color = textColorOn(fill)
	dc.FillText(sty, at, label)
}

// marker draws the start or the end on boards too large for numbers.
func (wp *walkPlotter) marker(dc draw.Canvas, i int, at vg.Point, cell vg.Length) {
	fill, _ := wp.role(i)
	r := min(max(cell*0.4, 2), 4)
	var shape draw.GlyphDrawer = draw.CircleGlyph{}
	if i != 0 {
		shape = draw.BoxGlyph{}
	}
	dc.DrawGlyph(draw.GlyphStyle{Color: color.Black, Radius: r + 0.5, Shape: shape}, at)
	dc.DrawGlyph(draw.GlyphStyle{Color: fill, Radius: r, Shape: shape}, at)
}

func disc(at vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: at.X + r, Y: at.Y})
	p.Arc(at, r, 0, 2*math.Pi)
	p.Close()
	return p
}

// walkThumb is the legend thumbnail of the start (i = 0) or the end.
type walkThumb struct {
	wp *walkPlotter
	i  int
}

func (t walkThumb) Thumbnail(c *draw.Canvas) {
	full := *t.wp
	full.upto = len(full.w.Path) // the legend describes the whole walk
	at := c.Center()
	cell := c.Size().Y / 0.7
	if full.numbers {
		full.numbered(*c, t.i, at, cell, false) // too small for a number
		return
	}
	full.marker(*c, t.i, at, cell)
}
