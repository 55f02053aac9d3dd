package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ColumnWidth is the width of a single-column figure in a two-column paper.
const ColumnWidth = 3.5 * vg.Inch

// PNGDPI is the resolution of the PNG files that Save writes: sharp on
// high-density screens and in slides, still small on disk.
const PNGDPI = 200

// Text sizes for figures printed at ColumnWidth: a caption in the paper is
// typically 8-9 pt, so the figure's text stays at or just below it.
const (
	titleSize  = 9
	labelSize  = 8
	tickSize   = 7
	legendSize = 7
)

// sansFont is the typeface of every text in a figure. Liberation Sans is
// embedded in gonum/plot, so widths (and thus layouts and SVG goldens) do not
// depend on the fonts installed on the machine.
var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

func textStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(sansFont, size),
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot with the package's fonts and sizes.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(sansFont, titleSize)
	p.Title.Padding = 3
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sansFont, labelSize)
		ax.Label.Padding = 2
		ax.Tick.Label.Font = font.From(sansFont, tickSize)
		ax.Tick.Length = 3
		ax.Padding = 2
		ax.Tick.Marker = niceTicker{}
	}
	p.Legend.TextStyle.Font = font.From(sansFont, legendSize)
	return p
}

// Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"),
// distinguishable under the common colour-vision deficiencies. The order puts
// the colours that read well as thin lines on white first; yellow, which does
// not, is left out of line styles.
var (
	okabeBlack     = color.RGBA{0x00, 0x00, 0x00, 0xff}
	okabeOrange    = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	okabeSkyBlue   = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	okabeGreen     = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	okabeBlue      = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	okabeVermilion = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	okabePurple    = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
)

// seriesColors is the order in which lines and categories take colours.
var seriesColors = []color.RGBA{
	okabeBlue, okabeVermilion, okabeGreen, okabePurple,
	okabeOrange, okabeSkyBlue, okabeBlack,
}

// seriesDashes gives each series a dash pattern as well as a colour, so lines
// stay apart in greyscale and for readers who cannot tell the colours apart.
var seriesDashes = [][]vg.Length{
	nil,
	{4, 1.5},
	{1, 1.2},
	{4, 1.2, 1, 1.2},
	{6, 2},
	{2, 1.5},
	{6, 1.5, 1, 1.5, 1, 1.5},
}

// seriesGlyphs gives each series a marker shape of its own.
var seriesGlyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{},
}

// seriesStyle returns the colour, dashes and marker of series i.
func seriesStyle(i int) (color.RGBA, []vg.Length, draw.GlyphDrawer) {
	return seriesColors[i%len(seriesColors)],
		seriesDashes[i%len(seriesDashes)],
		seriesGlyphs[i%len(seriesGlyphs)]
}

// lighten mixes c with white; f = 0 gives c, f = 1 white.
func lighten(c color.RGBA, f float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f + 0.5) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// addGrid adds light horizontal grid lines at the major y ticks, which help
// to read values off a curve without competing with the data.
func addGrid(p *plot.Plot) {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal = draw.LineStyle{Color: color.Gray{Y: 0xdd}, Width: 0.4}
	p.Add(g)
}

// TickSize is the size, in points, of the figures' tick labels.
const TickSize = tickSize

// LegendSize is the size, in points, of the figures' legend texts.
const LegendSize = legendSize

// Face is the face every text of a figure is set in, at size points: the
// metrics a text's extent on the canvas is measured by.
func Face(size float64) font.Face {
	return font.DefaultCache.Lookup(sansFont, vg.Length(size))
}
