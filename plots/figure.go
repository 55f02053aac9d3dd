package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Formats are the file formats Save writes, in order: PNG for screens, SVG
// and PDF for print.
var Formats = []string{"png", "svg", "pdf"}

// A Figure is a finished figure: a gonum plot and what gonum/plot does not
// draw by itself — a legend in a band above the axes (so it never hides
// data), a colour bar beside them, and square board cells.
//
// Plot is exposed so that a caller may restyle it before saving, e.g. set
// Plot.Title.Text to name the rule of a LengthDistribution.
type Figure struct {
	Plot *plot.Plot

	// Width and Height are the printed size. Width defaults to
	// ColumnWidth; a zero Height is chosen from the content (square
	// cells for board figures, 3:4 otherwise).
	Width, Height vg.Length

	legend   []legendEntry
	colorBar *colorBar
	// aspect is the height/width ratio the data area must have (board
	// figures); zero leaves it free.
	aspect float64
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
	// own puts the entry on a row of its own: the lines of an entry
	// too wide for the figure, wrapped.
	own bool
}

// addLegend adds an entry to the legend band above the axes.
func (f *Figure) addLegend(text string, thumbs ...plot.Thumbnailer) {
	f.legend = append(f.legend, legendEntry{text: text, thumbs: thumbs})
}

// maxLegendShare is the most of a figure's height (one not of a board)
// its legend band takes.
const maxLegendShare = 0.22

const (
	figMargin     = vg.Length(3)
	legendThumb   = vg.Length(16)
	legendGap     = vg.Length(3)  // between thumbnail and text
	legendSpacing = vg.Length(10) // between entries
	bandGap       = vg.Length(4)  // below the title and the legend band
)

// Size returns the printed size of the figure.
func (f *Figure) Size() (w, h vg.Length) {
	w = f.Width
	if w <= 0 {
		w = ColumnWidth
	}
	if f.Height > 0 {
		return w, f.Height
	}
	if f.aspect <= 0 {
		// A legend of more than two rows gets its own height, so that
		// the data area keeps what a figure with a short legend has, and
		// the figure grows until the legend takes at most maxLegendShare
		// of it: the data, not the legend, is what a figure shows.
		l := f.layout(measureCanvas(w, w*3/4))
		legend := vg.Length(len(l.rows)) * l.rowH
		return w, max(w*3/4+max(0, vg.Length(len(l.rows)-2)*l.rowH), legend/maxLegendShare)
	}
	// Lay out on a very tall canvas; the data area then takes the full
	// width and the height it leaves unused is what the figure does not
	// need. Cap the height so tall boards do not make page-high figures.
	const tall = 40 * vg.Inch
	l := f.layout(measureCanvas(w, tall))
	h = tall - l.slackY
	if maxH := w * 5 / 4; h > maxH {
		h = maxH
	}
	return w, h
}

// measureCanvas is a canvas that records nothing of interest; layouts are
// computed on it without drawing.
func measureCanvas(w, h vg.Length) draw.Canvas {
	return draw.NewCanvas(new(recorder.Canvas), w, h)
}

type figLayout struct {
	plot, data draw.Canvas
	legend     vg.Rectangle
	rows       [][]int
	rowH       vg.Length
	bar        vg.Rectangle
	slackY     vg.Length
	titleAt    vg.Point
}

func (f *Figure) bare() *plot.Plot {
	pp := *f.Plot
	pp.Title.Text = ""
	return &pp
}

func (f *Figure) titleStyle() text.Style {
	sty := f.Plot.Title.TextStyle
	sty.XAlign = draw.XCenter
	sty.YAlign = draw.YTop
	return sty
}

func (f *Figure) legendStyle() text.Style {
	sty := f.Plot.Legend.TextStyle
	sty.XAlign = draw.XLeft
	sty.YAlign = draw.YCenter
	return sty
}

func (f *Figure) entryWidth(e legendEntry) vg.Length {
	w := f.legendStyle().Width(e.text)
	if len(e.thumbs) > 0 {
		w += legendThumb + legendGap
	}
	return w
}

func (f *Figure) layout(c draw.Canvas) figLayout {
	var l figLayout
	in := draw.Crop(c, figMargin, -figMargin, figMargin, -figMargin)

	if t := f.Plot.Title.Text; t != "" {
		sty := f.titleStyle()
		// A title wider than the figure is wrapped (a fallback map's
		// title ran off both edges).
		t = wrapToWidth(sty, t, in.Size().X)
		f.Plot.Title.Text = t
		l.titleAt = vg.Point{X: in.Center().X, Y: in.Max.Y}
		in.Max.Y -= sty.Height(t) + bandGap
	}

	if len(f.legend) > 0 {
		sty := f.legendStyle()
		f.wrapLegend(in.Size().X)
		l.rowH = sty.FontExtents().Height + 2
		var row []int
		var rowW vg.Length
		for i, e := range f.legend {
			w := f.entryWidth(e)
			if len(row) > 0 && (rowW+legendSpacing+w > in.Size().X || e.own || f.legend[row[len(row)-1]].own) {
				l.rows = append(l.rows, row)
				row, rowW = nil, 0
			}
			if len(row) > 0 {
				rowW += legendSpacing
			}
			row = append(row, i)
			rowW += w
		}
		l.rows = append(l.rows, row)
		h := l.rowH * vg.Length(len(l.rows))
		l.legend = vg.Rectangle{
			Min: vg.Point{X: in.Min.X, Y: in.Max.Y - h},
			Max: in.Max,
		}
		in.Max.Y -= h + bandGap
	}

	var barW vg.Length
	if f.colorBar != nil {
		// The bar's label runs up beside it: lines longer than the
		// board is high are wrapped (a 5x9 board's note was cut).
		avail := in.Size().Y
		if f.aspect > 0 {
			avail = min(avail, (in.Size().X-f.colorBar.width())*vg.Length(f.aspect))
		}
		f.colorBar.label = wrapToWidth(f.colorBar.lab, f.colorBar.label, avail-2*figMargin)
		barW = f.colorBar.width()
		in.Max.X -= barW
	}

	p := f.bare()
	data := p.DataCanvas(in)
	if f.aspect > 0 {
		dw, dh := data.Size().X, data.Size().Y
		if want := dw * vg.Length(f.aspect); dh > want {
			// Too tall: give the spare height back at the bottom.
			l.slackY = dh - want
			in.Min.Y += l.slackY
		} else {
			// Too wide: centre the board horizontally.
			excess := dw - dh/vg.Length(f.aspect)
			in.Min.X += excess / 2
			in.Max.X -= excess / 2
		}
		data = p.DataCanvas(in)
	}
	l.plot, l.data = in, data

	if f.colorBar != nil {
		x := in.Max.X + colorBarGap
		l.bar = vg.Rectangle{
			Min: vg.Point{X: x, Y: data.Min.Y},
			Max: vg.Point{X: x + colorBarW, Y: data.Max.Y},
		}
	}
	return l
}

// wrapLegend breaks each legend entry wider than w into lines, each on
// a row of its own, the thumbnails on the first (an entry wider than the
// figure ran off both edges).
func (f *Figure) wrapLegend(w vg.Length) {
	var out []legendEntry
	for _, e := range f.legend {
		if f.entryWidth(e) <= w {
			out = append(out, e)
			continue
		}
		room := w
		if len(e.thumbs) > 0 {
			room -= legendThumb + legendGap
		}
		for k, line := range strings.Split(wrapToWidth(f.legendStyle(), e.text, room), "\n") {
			next := legendEntry{text: line, own: true}
			if k == 0 {
				next.thumbs = e.thumbs
			}
			out = append(out, next)
		}
	}
	f.legend = out
}

// Draw draws the figure onto c.
func (f *Figure) Draw(c draw.Canvas) {
	f.draw(c)
}

// draw draws the figure and returns its layout, which the GIF writer uses
// to draw moves onto the same board.
func (f *Figure) draw(c draw.Canvas) figLayout {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	l := f.layout(c)
	if t := f.Plot.Title.Text; t != "" {
		c.FillText(f.titleStyle(), l.titleAt, t)
	}
	if len(l.rows) > 0 {
		f.drawLegend(c, l)
	}
	f.bare().Draw(l.plot)
	if f.colorBar != nil {
		f.colorBar.draw(c, l.bar)
	}
	return l
}

func (f *Figure) drawLegend(c draw.Canvas, l figLayout) {
	sty := f.legendStyle()
	y := l.legend.Max.Y
	for _, row := range l.rows {
		var w vg.Length
		for k, i := range row {
			if k > 0 {
				w += legendSpacing
			}
			w += f.entryWidth(f.legend[i])
		}
		x := l.legend.Min.X + (l.legend.Size().X-w)/2
		mid := y - l.rowH/2
		for _, i := range row {
			e := f.legend[i]
			if len(e.thumbs) > 0 {
				tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: x, Y: mid - l.rowH/2},
					Max: vg.Point{X: x + legendThumb, Y: mid + l.rowH/2},
				}}
				for _, t := range e.thumbs {
					t.Thumbnail(&tc)
				}
				x += legendThumb + legendGap
			}
			c.FillText(sty, vg.Point{X: x, Y: mid}, e.text)
			x += sty.Width(e.text) + legendSpacing
		}
		y -= l.rowH
	}
}

// Encode writes the figure in format ("png", "svg" or "pdf") to w.
func (f *Figure) Encode(w io.Writer, format string) error {
	width, height := f.Size()
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = pngCanvas{vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(PNGDPI))}}
	case "svg":
		c = vgsvg.New(width, height)
	case "pdf":
		c = pdfCanvas{vgpdf.New(width, height)}
	default:
		return fmt.Errorf("plots: unknown format %q (want png, svg or pdf)", format)
	}
	f.Draw(draw.New(c))
	if format != "svg" {
		_, err := c.WriteTo(w)
		return err
	}
	// vgsvg names only Liberation Sans, which many machines lack; add its
	// metric-compatible stand-ins so text keeps its width (and its place)
	// in any viewer, without embedding the font.
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	_, err := w.Write(bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"), []byte(svgFontFamily)))
	return err
}

const svgFontFamily = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"

// Save writes the figure to base+".png", base+".svg" and base+".pdf". The
// directory must exist.
func (f *Figure) Save(base string) error {
	var errs []error
	for _, format := range Formats {
		errs = append(errs, f.saveAs(base+"."+format, format))
	}
	return errors.Join(errs...)
}

func (f *Figure) saveAs(path, format string) (err error) {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	defer func() {
		if cerr := file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("plots: %w", cerr)
		}
	}()
	if err := f.Encode(file, format); err != nil {
		return fmt.Errorf("plots: writing %s: %w", path, err)
	}
	return nil
}

// wrapToWidth breaks the lines of s at spaces so that each fits w in
// style sty, where it can.
func wrapToWidth(sty text.Style, s string, w vg.Length) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		full := sty.Width(line)
		if full <= w {
			out = append(out, line)
			continue
		}
		// As few lines as fit w, of about equal length: the narrowest
		// target that needs no more lines than that.
		k := int(math.Ceil(float64(full / w)))
		lines := greedyLines(sty, line, w)
		for target := full / vg.Length(k); target < w; target *= 1.05 {
			if try := greedyLines(sty, line, target); len(try) <= k {
				lines = try
				break
			}
		}
		out = append(out, lines...)
	}
	return strings.Join(out, "\n")
}

// greedyLines breaks s at spaces into lines no wider than w (a word
// wider than w is a line of its own).
func greedyLines(sty text.Style, s string, w vg.Length) []string {
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		next := strings.TrimSpace(cur + " " + word)
		if cur != "" && sty.Width(next) > w {
			out = append(out, cur)
			next = word
		}
		cur = next
	}
	return append(out, cur)
}
