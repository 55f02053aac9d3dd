// Package plotcheck holds the figure referee: checks that read a figure as
// drawn, from its SVG, the way a reader sees it (tick labels at their
// values and apart, nothing outside the canvas, no line across a bar of no
// walks, every character drawable in PNG and PDF). They hold for any
// figure, so the tests run them over every figure of fresh runs
// (internal/figures), over the gallery (harness) and over figures with
// each defect planted.
package plotcheck

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"

	"github.com/knightwalk/knightwalk/plots"
)

// SVGText is one text of a figure's SVG: its start (left end of its
// baseline) in points with y upwards, its size and whether it is turned
// a quarter turn (a y axis's label).
type SVGText struct {
	X, Y, Size float64
	Rotated    bool
	Text       string
}

var (
	svgTextRE  = regexp.MustCompile(`(?s)<text x="([-\d.e+]+)" y="([-\d.e+]+)" transform="scale\(1, -1\)"\s*style="[^"]*font-size:([\d.e+]+)px">([^<]*)</text>`)
	svgSizeRE  = regexp.MustCompile(`viewBox="0 0 ([\d.]+) ([\d.]+)"`)
	svgPathRE  = regexp.MustCompile(`<path d="([^"]*)"`)
	svgPointRE = regexp.MustCompile(`[ML]([-\d.e+]+),([-\d.e+]+)`)
)

// SVGTexts returns the texts of an SVG written by plots.Figure.Encode.
func SVGTexts(svg []byte) []SVGText {
	var out []SVGText
	rot := rotatedSpans(svg)
	for _, m := range svgTextRE.FindAllSubmatchIndex(svg, -1) {
		f := func(k int) float64 {
			v, _ := strconv.ParseFloat(string(svg[m[2*k]:m[2*k+1]]), 64)
			return v
		}
		t := SVGText{X: f(1), Y: -f(2), Size: f(3), Text: html.UnescapeString(string(svg[m[8]:m[9]]))}
		for _, r := range rot {
			if m[0] > r[0] && m[0] < r[1] {
				t.Rotated = true
				// In the group turned by 90°, (x, y) stands at (−y, x).
				t.X, t.Y = -t.Y, t.X
			}
		}
		out = append(out, t)
	}
	return out
}

// rotatedSpans are the byte ranges of the SVG's rotate(90) groups.
func rotatedSpans(svg []byte) [][2]int {
	var out [][2]int
	for at := 0; ; {
		i := bytes.Index(svg[at:], []byte(`<g transform="rotate(90)">`))
		if i < 0 {
			return out
		}
		j := bytes.Index(svg[at+i:], []byte("</g>"))
		if j < 0 {
			j = len(svg) - at - i
		}
		out = append(out, [2]int{at + i, at + i + j})
		at += i + j
	}
}

func face(size float64) font.Face { return plots.Face(size) }

// tickSize is the size of the figures' tick labels.
const tickSize = plots.TickSize

// box is the extent of a text: [x0, x1] × [y0, y1], y upwards.
func (t SVGText) box() (x0, y0, x1, y1 float64) {
	fc := face(t.Size)
	w := float64(fc.Width(t.Text))
	e := fc.Extents()
	asc, desc := float64(e.Ascent), float64(e.Descent)
	if t.Rotated { // runs upwards from (X, Y); the glyphs' tops face left
		return t.X - asc, t.Y, t.X + desc, t.Y + w
	}
	return t.X, t.Y - desc, t.X + w, t.Y + asc
}

// CheckCanvas reports the texts and shapes of an SVG that stand outside
// its canvas (by more than half a point): a cut label.
func CheckCanvas(svg []byte) []string {
	m := svgSizeRE.FindSubmatch(svg)
	if m == nil {
		return []string{"no viewBox"}
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	const tol = 0.5
	var out []string
	for _, t := range SVGTexts(svg) {
		x0, y0, x1, y1 := t.box()
		if x0 < -tol || y0 < -tol || x1 > w+tol || y1 > h+tol {
			out = append(out, fmt.Sprintf("text %q spans [%.1f, %.1f] × [%.1f, %.1f], outside the %.0f × %.0f canvas", t.Text, x0, x1, y0, y1, w, h))
		}
	}
	rot := rotatedSpans(svg)
	for _, pm := range svgPathRE.FindAllSubmatchIndex(svg, -1) {
		inRot := false
		for _, r := range rot {
			inRot = inRot || pm[0] > r[0] && pm[0] < r[1]
		}
		if inRot {
			continue
		}
		for _, p := range svgPointRE.FindAllSubmatch(svg[pm[2]:pm[3]], -1) {
			x, _ := strconv.ParseFloat(string(p[1]), 64)
			y, _ := strconv.ParseFloat(string(p[2]), 64)
			if x < -tol || y < -tol || x > w+tol || y > h+tol {
				out = append(out, fmt.Sprintf("a shape reaches (%.1f, %.1f), outside the %.0f × %.0f canvas", x, y, w, h))
				break
			}
		}
	}
	return out
}

// CheckGlyphs reports the characters of the figure's texts that its PNG
// or PDF cannot draw: PNG text is set in Liberation Sans, which must
// have a glyph for each; PDF text in its Windows-1252 encoding (after the
// stand-ins of pdfText), which must hold each.
func CheckGlyphs(svg []byte) []string {
	fc := face(10)
	var buf sfnt.Buffer
	seen := map[rune]bool{}
	var out []string
	for _, t := range SVGTexts(svg) {
		for _, r := range t.Text {
			if seen[r] {
				continue
			}
			seen[r] = true
			if _, sup := plots.Superscript(r); sup {
				continue // set as raised digits in PNG and PDF
			}
			if i, err := fc.Face.GlyphIndex(&buf, r); err != nil || i == 0 {
				out = append(out, fmt.Sprintf("%q (U+%04X) in %q: no glyph in the PNG's font", r, r, t.Text))
			}
			if !plots.PDFWritable(r) {
				out = append(out, fmt.Sprintf("%q (U+%04X) in %q: not in the PDF's Windows-1252 text", r, r, t.Text))
			}
		}
	}
	return out
}

// A tickGroup is the numeric labels of one axis or colour bar: their
// value and their position along the axis, in points.
type tickGroup struct {
	where  string
	row    bool // an x axis's labels, side by side (else one above another)
	values []float64
	at     []float64
	labels []string
}

// parseTick reads a tick label as a number: "12.5", "−3", "10⁴", "10⁻³",
// "0.5 %"; ok false for words.
func parseTick(s string) (float64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	s = strings.ReplaceAll(s, "−", "-")
	if strings.HasPrefix(s, "10") && len(s) > 2 {
		exp := ""
		for _, r := range s[2:] {
			d, ok := plots.Superscript(r)
			if !ok {
				exp = ""
				break
			}
			exp += string(d)
		}
		if exp != "" {
			e, err := strconv.Atoi(exp)
			return math.Pow(10, float64(e)), err == nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// tickGroups gathers the tick labels: numbers at the tick size in one
// row (an x axis: one baseline) or one column (a y axis: one right edge;
// a colour bar: one left edge), three or more of them.
func tickGroups(ts []SVGText, marks []segment) []tickGroup {
	type key struct {
		kind string
		at   float64
	}
	groups := map[key]*tickGroup{}
	var keys []key
	add := func(k key, v, at float64, label string) {
		k.at = math.Round(k.at*2) / 2
		g := groups[k]
		if g == nil {
			g = &tickGroup{where: fmt.Sprintf("%s at %.1f", k.kind, k.at), row: k.kind == "row"}
			groups[k] = g
			keys = append(keys, k)
		}
		g.values, g.at, g.labels = append(g.values, v), append(g.at, at), append(g.labels, label)
	}
	for _, t := range ts {
		if t.Size != tickSize || t.Rotated {
			continue
		}
		v, ok := parseTick(t.Text)
		if !ok {
			continue
		}
		x0, y0, x1, y1 := t.box()
		if hasMark(marks, func(m segment) bool { // above the label: an x axis's tick
			return m.x0 == m.x1 && math.Abs(m.x0-(x0+x1)/2) < 1.5 && math.Min(m.y0, m.y1) > y1-1 && math.Min(m.y0, m.y1) < y1+6
		}) {
			add(key{"row", t.Y}, v, (x0+x1)/2, t.Text)
		}
		yc := (y0 + y1) / 2
		if hasMark(marks, func(m segment) bool { // right of the label: a y axis's tick
			return m.y0 == m.y1 && math.Abs(m.y0-yc) < 1.5 && math.Min(m.x0, m.x1) > x1-1 && math.Min(m.x0, m.x1) < x1+6
		}) {
			add(key{"right edge", x1}, v, yc, t.Text)
		}
		if hasMark(marks, func(m segment) bool { // left of the label: a colour bar's tick
			return m.y0 == m.y1 && math.Abs(m.y0-yc) < 1.5 && math.Max(m.x0, m.x1) < x0-0.9 && math.Max(m.x0, m.x1) > x0-2.1
		}) {
			add(key{"left edge", x0}, v, yc, t.Text)
		}
	}
	var out []tickGroup
	for _, k := range keys {
		g := groups[k]
		if len(g.values) < 3 || spread(g.at) < 1 {
			continue
		}
		out = append(out, *g)
	}
	return out
}

// A segment is a straight line of two points, y upwards.
type segment struct{ x0, y0, x1, y1 float64 }

// tickMarks are the SVG's short axis-parallel lines: tick marks (a
// label in a heatmap's cell has none, so it is not read as a tick).
func tickMarks(svg []byte) []segment {
	var out []segment
	for _, pm := range svgPathRE.FindAllSubmatch(svg, -1) {
		ps := svgPointRE.FindAllSubmatch(pm[1], -1)
		if len(ps) != 2 || !bytes.HasPrefix(pm[1], []byte("M")) {
			continue
		}
		var v [4]float64
		for i, p := range ps {
			v[2*i], _ = strconv.ParseFloat(string(p[1]), 64)
			v[2*i+1], _ = strconv.ParseFloat(string(p[2]), 64)
		}
		s := segment{v[0], v[1], v[2], v[3]}
		if l := math.Hypot(s.x1-s.x0, s.y1-s.y0); l > 0 && l <= 8 && (s.x0 == s.x1 || s.y0 == s.y1) {
			out = append(out, s)
		}
	}
	return out
}

// hasMark reports whether some tick mark is where next says a label's
// mark would be.
func hasMark(marks []segment, next func(segment) bool) bool {
	for _, m := range marks {
		if next(m) {
			return true
		}
	}
	return false
}

func spread(xs []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return hi - lo
}

// axisMaps are the maps from a label's value to its place that an axis
// may have: linear, logarithmic, logit of a percentage.
var axisMaps = []struct {
	name string
	f    func(float64) float64
}{
	{"linear", func(v float64) float64 { return v }},
	{"log", func(v float64) float64 { return math.Log10(v) }},
	{"logit", func(v float64) float64 { return math.Log(v / (100 - v)) }},
}

// CheckTicks reports the tick labels that do not stand at their values:
// along each axis (and colour bar) the labels' places must be an affine
// function of their values under one of axisMaps, to a point. A label
// "100" at the clipped end of a logit axis, or "0" at the end of a log
// axis, fits none.
func CheckTicks(svg []byte) []string {
	var out []string
	for _, g := range tickGroups(SVGTexts(svg), tickMarks(svg)) {
		if !fitsAnyAxis(g) {
			out = append(out, fmt.Sprintf("tick labels %v (%s) at %v: not at their values on a linear, log or logit axis",
				g.labels, g.where, roundAll(g.at)))
		}
	}
	return out
}

// CheckTickOverlap reports tick labels that run into each other along
// their axis (an axis squeezed by wide row labels drew "2060 90 98" for
// 20, 60, 90, 98): on an x axis by their widths, on a y axis or colour
// bar by their heights, as the font's metrics measure them.
func CheckTickOverlap(svg []byte) []string {
	var out []string
	fc := face(tickSize)
	e := fc.Extents()
	height := float64(e.Ascent + e.Descent)
	for _, g := range tickGroups(SVGTexts(svg), tickMarks(svg)) {
		type span struct {
			lo, hi float64
			label  string
		}
		var ss []span
		for i, at := range g.at {
			half := height / 2
			if g.row {
				half = float64(fc.Width(g.labels[i])) / 2
			}
			ss = append(ss, span{at - half, at + half, g.labels[i]})
		}
		sort.Slice(ss, func(i, j int) bool { return ss[i].lo < ss[j].lo })
		for i := 1; i < len(ss); i++ {
			if ss[i].lo < ss[i-1].hi-0.5 {
				out = append(out, fmt.Sprintf("tick labels %q and %q (%s) overlap by %.1f pt", ss[i-1].label, ss[i].label, g.where, ss[i-1].hi-ss[i].lo))
			}
		}
	}
	return out
}

func fitsAnyAxis(g tickGroup) bool {
	for _, m := range axisMaps {
		if fitsAffine(g, m.f) {
			return true
		}
	}
	return false
}

// fitsAffine reports whether at ≈ a + b·f(value) for some a and b ≠ 0,
// every label within a point of the line fitted through the two labels
// farthest apart.
func fitsAffine(g tickGroup, f func(float64) float64) bool {
	type pt struct{ u, at float64 }
	var ps []pt
	for i, v := range g.values {
		u := f(v)
		if math.IsNaN(u) || math.IsInf(u, 0) {
			return false
		}
		ps = append(ps, pt{u, g.at[i]})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].at < ps[j].at })
	a, b := ps[0], ps[len(ps)-1]
	if a.u == b.u {
		return false
	}
	slope := (b.at - a.at) / (b.u - a.u)
	for _, p := range ps {
		if math.Abs(a.at+slope*(p.u-a.u)-p.at) > 1 {
			return false
		}
	}
	return true
}

func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*10) / 10
	}
	return out
}

// Figure runs the checks that read f as drawn: its tick labels at their
// values and apart, nothing outside the canvas, no line across a bar of
// no walks, every character drawable in PNG and PDF.
func Figure(f *plots.Figure) []string {
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		return []string{err.Error()}
	}
	return SVG(buf.Bytes())
}

// SVG is Figure on an SVG already written.
func SVG(svg []byte) []string {
	var out []string
	out = append(out, CheckTicks(svg)...)
	out = append(out, CheckTickOverlap(svg)...)
	out = append(out, CheckCanvas(svg)...)
	out = append(out, CheckBridges(svg)...)
	out = append(out, CheckLevels(svg)...)
	out = append(out, CheckLegendShare(svg)...)
	return append(out, CheckGlyphs(svg)...)
}

var roundedLevelRE = regexp.MustCompile(`\b100(\.0*)? ?% (confidence |simultaneous )?intervals?\b`)

// CheckLevels reports a confidence level printed as 100 % ("100 %
// intervals"): a level short of 100 % rounded up (a Bonferroni level over
// 144 squares is 99.965 %), which reads as certainty. Texts are read
// joined, so a legend entry wrapped over two lines is read whole.
func CheckLevels(svg []byte) []string {
	var all []string
	for _, t := range SVGTexts(svg) {
		all = append(all, t.Text)
	}
	if m := roundedLevelRE.FindString(strings.Join(all, " ")); m != "" {
		return []string{fmt.Sprintf("a confidence level printed as %q: a level under 100 %% rounded up", m)}
	}
	return nil
}

// legendSize is the size of the figures' legend texts.
const legendSize = plots.LegendSize

// maxLegendShare is the most of a figure's height its legend band may
// take: more, and the legend, not the data, is what the figure shows.
const maxLegendShare = 0.25

// CheckLegendShare reports a legend band above the axes taller than a
// quarter of the figure: the texts at the legend's size that stand wholly
// above the highest tick label of a y axis or colour bar (the title,
// larger, apart). A figure without such ticks is not read.
func CheckLegendShare(svg []byte) []string {
	m := svgSizeRE.FindSubmatch(svg)
	if m == nil {
		return nil
	}
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	texts := SVGTexts(svg)
	top := math.Inf(-1)
	for _, g := range tickGroups(texts, tickMarks(svg)) {
		if !g.row {
			for _, at := range g.at {
				top = math.Max(top, at+tickSize/2)
			}
		}
	}
	if math.IsInf(top, -1) || h <= 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range texts {
		if t.Rotated || t.Size != legendSize {
			continue
		}
		_, y0, _, y1 := t.box()
		if y0 > top+1 {
			lo, hi = math.Min(lo, y0), math.Max(hi, y1)
		}
	}
	if share := (hi - lo) / h; hi > lo && share > maxLegendShare {
		return []string{fmt.Sprintf("the legend takes %.0f %% of the figure's height (at most %.0f %%)", 100*share, 100*maxLegendShare)}
	}
	return nil
}

var (
	svgStrokedRE     = regexp.MustCompile(`<path d="([^"]*)" style="fill:none;stroke:(#[0-9A-Fa-f]{6})([^"]*)"`)
	svgStrokeWidthRE = regexp.MustCompile(`stroke-width:([\d.]+)`)
)

// CheckBridges reports, on a distribution of path lengths (an x axis
// labelled "path length"), the lines that join two bars across a bar
// with no walks, as if lengths that no walk had were walked (a
// 7×7 line went from 37.5 to 41.5 across an empty 39.5, whose exact share
// is 0.15 %). It reads the figure as drawn: lengths from the x axis's
// tick labels; every coloured line within the axes, step outline or
// markers joined alike (not the thinner error bars and markers' edges);
// and the bars' width from the axis label where it says lengths are
// pooled in pairs, else from the step outlines (each top of a bar is one
// bar wide; a bar is as wide as the smallest gap between lengths). A
// segment may run along the floor of the axes (a bar of zero walks drawn
// as zero); off the floor, none may span more than one and a half bars,
// which only a line over a missing bar does.
func CheckBridges(svg []byte) []string {
	texts := SVGTexts(svg)
	pairs, lengths := false, false
	for _, t := range texts {
		if !t.Rotated && strings.HasPrefix(t.Text, "path length") {
			lengths, pairs = true, strings.Contains(t.Text, "in pairs")
		}
	}
	if !lengths {
		return nil // not a length distribution
	}
	var axis *tickGroup
	for _, g := range tickGroups(texts, tickMarks(svg)) {
		if g.row && axis == nil {
			axis = &g
		}
	}
	if axis != nil && len(axis.values) == 1 || axis == nil && !twoOnARow(texts) {
		return nil // one length labelled: every walk has it (a deterministic rule's tours), a single bar, nothing to bridge
	}
	if axis == nil || !fitsAffine(*axis, func(v float64) float64 { return v }) {
		return []string{"length distribution: no linear x axis of lengths to read its lines by"}
	}
	lo, hi := 0, 0
	for i := range axis.at {
		if axis.at[i] < axis.at[lo] {
			lo = i
		}
		if axis.at[i] > axis.at[hi] {
			hi = i
		}
	}
	perLength := (axis.at[hi] - axis.at[lo]) / (axis.values[hi] - axis.values[lo])
	length := func(x float64) float64 { return axis.values[lo] + (x-axis.at[lo])/perLength }
	bottom, top, ok := yAxisLine(svg)
	if !ok {
		return []string{"length distribution: no y axis line to find the floor of its axes by"}
	}
	type seg struct {
		colour     string
		a, b       float64 // lengths, a < b
		horizontal bool
	}
	var segs []seg
	for _, m := range svgStrokedRE.FindAllSubmatch(svg, -1) {
		if strings.EqualFold(string(m[2]), "#000000") {
			continue // axes, ticks and the legend's marks
		}
		if w := svgStrokeWidthRE.FindSubmatch(m[3]); w != nil {
			if v, _ := strconv.ParseFloat(string(w[1]), 64); v < 0.55 {
				continue // error bars and markers' outlines (0.5): the lines are wider
			}
		}
		for _, sub := range bytes.Split(m[1], []byte("M"))[1:] {
			pts := svgPointRE.FindAllSubmatch(append([]byte("M"), sub...), -1)
			for k := 1; k < len(pts); k++ {
				x0, y0 := parsePoint(pts[k-1])
				x1, y1 := parsePoint(pts[k])
				inside := func(y float64) bool { return y > bottom-0.5 && y < top+0.5 }
				floor := math.Abs(y0-bottom) < 0.5 && math.Abs(y1-bottom) < 0.5
				if !inside(y0) || !inside(y1) || floor || x0 == x1 {
					continue
				}
				segs = append(segs, seg{string(m[2]), length(math.Min(x0, x1)), length(math.Max(x0, x1)), y0 == y1})
			}
		}
	}
	width := 2.0
	if !pairs {
		width = math.Inf(1)
		for _, s := range segs {
			if s.horizontal { // a bar's top
				width = math.Min(width, s.b-s.a)
			}
		}
		if math.IsInf(width, 1) {
			width = 1
		}
		width = math.Round(width)
	}
	var out []string
	for _, s := range segs {
		if s.b-s.a > 1.5*width {
			out = append(out, fmt.Sprintf("a %s line joins lengths %.1f and %.1f, across %.0f bars of width %g with no walks", s.colour, s.a, s.b, (s.b-s.a)/width-1, width))
		}
	}
	return out
}
func parsePoint(m [][]byte) (x, y float64) {
	x, _ = strconv.ParseFloat(string(m[1]), 64)
	y, _ = strconv.ParseFloat(string(m[2]), 64)
	return x, y
}

// yAxisLine finds the axes' vertical extent from the y axis's line: the
// longest vertical black line.
func yAxisLine(svg []byte) (bottom, top float64, ok bool) {
	best := 0.0
	for _, m := range svgStrokedRE.FindAllSubmatch(svg, -1) {
		if !strings.EqualFold(string(m[2]), "#000000") {
			continue
		}
		pts := svgPointRE.FindAllSubmatch(m[1], -1)
		if len(pts) != 2 {
			continue
		}
		x0, y0 := parsePoint(pts[0])
		x1, y1 := parsePoint(pts[1])
		if x0 == x1 && math.Abs(y1-y0) > best {
			best, bottom, top, ok = math.Abs(y1-y0), math.Min(y0, y1), math.Max(y0, y1), true
		}
	}
	return bottom, top, ok
}

// twoOnARow reports whether two numeric tick labels share a baseline: an
// x axis with two lengths or more (a y axis's labels each have their own).
func twoOnARow(texts []SVGText) bool {
	seen := map[float64]bool{}
	for _, t := range texts {
		if t.Size != tickSize || t.Rotated {
			continue
		}
		if _, ok := parseTick(t.Text); !ok {
			continue
		}
		y := math.Round(t.Y*2) / 2
		if seen[y] {
			return true
		}
		seen[y] = true
	}
	return false
}
