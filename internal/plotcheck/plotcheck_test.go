package plotcheck

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// plantedClaimPanel is a claim panel with a 100 % rate, whose logit axis
// is clipped short of 1.
func plantedClaimPanel(t *testing.T) *plots.Figure {
	t.Helper()
	f, err := plots.ClaimPanel("planted", []plots.ClaimRow{
		{Label: "a: consistent", ClaimedLo: 0.9, ClaimedHi: 1, Measured: 1, Lo: 0.98, Hi: 1, Exact: math.NaN()},
		{Label: "b: consistent", ClaimedLo: 0.6, ClaimedHi: 0.7, Measured: 0.65, Lo: 0.6, Hi: 0.7, Exact: math.NaN()},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Each check of the referee fails on a figure with its defect planted,
// and passes on the figure without it.
func TestRefereeCatchesPlantedDefects(t *testing.T) {
	if p := Figure(plantedClaimPanel(t)); len(p) > 0 {
		t.Fatalf("a sound figure fails: %q", p)
	}
	cases := []struct {
		name, want string
		plant      func(f *plots.Figure)
	}{
		{"100 at the clipped end of a logit axis", "tick labels", func(f *plots.Figure) {
			ts := f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max)
			f.Plot.X.Tick.Marker = plot.ConstantTicks(append(ts, plot.Tick{Value: f.Plot.X.Max, Label: "100"}))
		}},
		{"0 at the clipped end of a logit axis", "tick labels", func(f *plots.Figure) {
			ts := f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max)
			f.Plot.X.Tick.Marker = plot.ConstantTicks(append([]plot.Tick{{Value: f.Plot.X.Min, Label: "0"}}, ts...))
		}},
		{"a label rounded off its place", "tick labels", func(f *plots.Figure) {
			ts := f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max)
			ts[0].Label = "1"
			f.Plot.X.Tick.Marker = plot.ConstantTicks(ts)
		}},
		{"a title wider than the canvas, with nowhere to break", "outside the", func(f *plots.Figure) {
			f.Plot.Title.Text = strings.Repeat("unbreakable", 12)
		}},
		{"an axis label past the edges", "outside the", func(f *plots.Figure) {
			f.Plot.X.Label.Text = strings.Repeat("an axis label too long for the figure ", 3)
		}},
		{"a glyph the PNG font lacks", "no glyph in the PNG's font", func(f *plots.Figure) {
			f.Plot.Title.Text = "guide ∝ 1/√n"
		}},
		{"a character the PDF cannot write", "Windows-1252", func(f *plots.Figure) {
			f.Plot.Title.Text = "◆ exact"
		}},
	}
	for _, c := range cases {
		f := plantedClaimPanel(t)
		c.plant(f)
		problems := Figure(f)
		found := false
		for _, p := range problems {
			found = found || strings.Contains(p, c.want)
		}
		if !found {
			t.Errorf("%s: the referee says %q, want a problem with %q", c.name, problems, c.want)
		}
	}
}

func TestParseTick(t *testing.T) {
	for s, want := range map[string]float64{"12.5": 12.5, "−3": -3, "10⁴": 1e4, "10⁻³": 1e-3, "99.98": 99.98} {
		if v, ok := parseTick(s); !ok || math.Abs(v-want) > 1e-12 {
			t.Errorf("parseTick(%q) = %v, %v; want %v", s, v, ok, want)
		}
	}
	for _, s := range []string{"a", "rank", "", "1/√n"} {
		if _, ok := parseTick(s); ok {
			t.Errorf("parseTick(%q) read a number", s)
		}
	}
}

// The golden figures pass the referee.
func TestRefereeGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "plots", "testdata", "*.svg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden SVGs: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range SVG(b) {
			t.Errorf("%s: %s", f, p)
		}
	}
}

// A colour bar's label away from its value (a bottom of 95.77 written
// "96", as the bars' ends were) fails the tick check; the bar as drawn
// passes.
func TestRefereeColourBarTicks(t *testing.T) {
	h := plots.HeatmapData{Rows: 3, Cols: 3, Highlight: -1, Percent: true, Label: "success rate",
		Values: []float64{0.9577, 0.97, 0.98, 0.99, 0.995, 0.985, 0.975, 0.965, 0.999}}
	f, err := plots.Heatmap(h)
	if err != nil {
		t.Fatal(err)
	}
	if p := Figure(f); len(p) > 0 {
		t.Fatalf("the bar as drawn fails: %q", p)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	// The planted defect: the bar's bottom (the last 95.77: the first is
	// a cell's) written 96.
	svg, bottom := buf.Bytes(), []byte(">95.77</text>")
	at := bytes.LastIndex(svg, bottom)
	if at < 0 {
		t.Fatalf("no colour bar label %q to plant a defect in", bottom)
	}
	planted := append(append(append([]byte{}, svg[:at]...), ">96</text>"...), svg[at+len(bottom):]...)
	found := false
	for _, p := range SVG(planted) {
		found = found || strings.Contains(p, "tick labels")
	}
	if !found {
		t.Error("a colour bar end labelled 96 at 95.77 passes")
	}
}

// Shares of sampled walks are drawn with their intervals on every kind of
// length axis: per length, in pairs (over 30 lengths) and on a log axis.
func TestLengthSharesDrawIntervals(t *testing.T) {
	mk := func(n int, dominated bool) plots.Series {
		s := plots.Series{Name: "corner"}
		for l := 1; l <= n; l++ {
			s.X, s.Y = append(s.X, float64(l)), append(s.Y, 1/float64(2*n))
		}
		if dominated {
			s.Y[n-1] = 0.9
		}
		return s
	}
	for _, c := range []struct {
		name      string
		n         int
		dominated bool
	}{{"per length", 10, false}, {"in pairs", 40, false}, {"log axis", 40, true}} {
		paths := func(walks int64) int {
			o := plots.LengthOptions{Squares: c.n}
			f, err := plots.LengthDistributionWith(sampled(t, []plots.Series{mk(c.n, c.dominated)}, walks, o), o)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := f.Encode(&buf, "svg"); err != nil {
				t.Fatal(err)
			}
			// The bars: thin strokes in the series' colour (its line is
			// wider, the legend's thumbnail black).
			return strings.Count(buf.String(), "stroke:#0072B2;stroke-width:0.5\"")
		}
		if with := paths(1000); with < c.n/2 {
			t.Errorf("%s: %d interval strokes for %d lengths: the intervals are not drawn", c.name, with, c.n)
		}
		if without := paths(0); without != 0 {
			t.Errorf("%s: %d interval strokes without walks", c.name, without)
		}
	}
}

// TestRefereeCatchesOverlappingTicks: a claims panel whose long row
// labels leave its rate axis too narrow (as wide as the column, as it
// was drawn before it widened itself) has tick labels running together,
// which the check reports; the panel as drawn now passes.
func TestRefereeCatchesOverlappingTicks(t *testing.T) {
	rows := []plots.ClaimRow{
		{Label: "random-n8, 8x8: 99/100 ± 4.7, reproduced", ClaimedLo: 0.943, ClaimedHi: 1, Measured: 0.98, Lo: 0.975, Hi: 0.985, Exact: math.NaN()},
		{Label: "random-n100, 100x100: 35/100 ± 13.4, reproduced", ClaimedLo: 0.216, ClaimedHi: 0.484, Measured: 0.3, Lo: 0.28, Hi: 0.32, Exact: math.NaN()},
		{Label: "pohl-n50, 50x50: reproduced", ClaimedLo: 0.97, ClaimedHi: 1, Measured: 0.995, Lo: 0.99, Hi: 0.998, Exact: math.NaN()},
	}
	f, err := plots.ClaimPanel("overlap", rows)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	if got := CheckTickOverlap(buf.Bytes()); len(got) != 0 {
		t.Errorf("the panel as drawn: %v", got)
	}
	f.Width = plots.ColumnWidth // the planted defect: the old width
	buf.Reset()
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	if got := CheckTickOverlap(buf.Bytes()); len(got) == 0 {
		t.Error("tick labels squeezed together: not reported")
	} else {
		t.Logf("reported: %s", got[0])
	}
}

// TestRefereeCatchesBridgedBins: a length distribution with a bar of no
// walks in its middle passes as drawn, on a log axis (markers joined by
// lines) and on a linear one (a step outline, per length and in pairs);
// the same figure with a line planted across the empty bar, as the 7×7
// corner's 37.5 → 41.5 was drawn (issue 34, item 3), fails.
func TestRefereeCatchesBridgedBins(t *testing.T) {
	// n lengths, each a share; the length gap (and, in pairs, its partner)
	// has no walks; the full length holds full of them on a log axis.
	mk := func(n, gap int, full float64) plots.Series {
		s := plots.Series{Name: "corner"}
		for l := 1; l <= n; l++ {
			y := 1.0
			if l == n {
				y = full
			}
			if l == gap || n > 30 && l == gap-1 && (n-l)%2 == 0 {
				y = 0
			}
			s.X, s.Y = append(s.X, float64(l)), append(s.Y, y)
		}
		sum := 0.0
		for _, y := range s.Y {
			sum += y
		}
		for k := range s.Y {
			s.Y[k] /= sum // shares of the walks
		}
		return s
	}
	for _, c := range []struct {
		name        string
		s           plots.Series
		before, gap float64 // the bars either side of the empty one
	}{
		{"log axis, in pairs", mk(49, 40, 2000), 37.5, 41.5},
		{"linear, in pairs", mk(49, 40, 1), 37.5, 41.5},
		{"linear, per length", mk(20, 10, 1), 9, 11},
	} {
		o := plots.LengthOptions{Squares: len(c.s.X)}
		f, err := plots.LengthDistributionWith(sampled(t, []plots.Series{c.s}, 100000, o), o)
		if err != nil {
			t.Fatal(err)
		}
		if p := Figure(f); len(p) > 0 {
			t.Errorf("%s: the figure as drawn fails: %q", c.name, p)
		}
		// The planted defect: a line in the series' colour joining the
		// bars either side of the empty one, at their height.
		y := f.Plot.Y.Min + 0.5*(f.Plot.Y.Max-f.Plot.Y.Min)
		line, err := plotter.NewLine(plotter.XYs{{X: c.before, Y: y}, {X: c.gap, Y: y * 1.01}})
		if err != nil {
			t.Fatal(err)
		}
		line.LineStyle.Color = color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff} // the first series' colour
		f.Plot.Add(line)
		problems := Figure(f)
		if len(problems) != 1 || !strings.Contains(problems[0], "with no walks") {
			t.Errorf("%s: a line across the empty bar: the referee says %q, want one bridge", c.name, problems)
		} else {
			t.Logf("%s: %s", c.name, problems[0])
		}
	}
}

// sampled gives each series the Wilson intervals of its shares, as
// plots.LengthDistributionWith(series, o) draws them, of walks walks.
func sampled(t *testing.T, series []plots.Series, walks int64, o plots.LengthOptions) []plots.Series {
	t.Helper()
	if walks <= 0 {
		return series
	}
	bin, err := plots.LengthBins(series, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range series {
		shares := map[float64]float64{}
		var xs []float64
		for k, x := range series[i].X {
			b := bin(x)
			if _, ok := shares[b]; !ok {
				xs = append(xs, b)
			}
			shares[b] += series[i].Y[k]
		}
		for _, b := range xs {
			iv := stats.Proportion{Successes: uint64(math.Round(shares[b] * float64(walks))), Trials: uint64(walks)}.Interval(0.95, stats.Wilson)
			series[i].Bars = append(series[i].Bars, plots.ShareBar{X: b, Lo: iv.Lo, Hi: iv.Hi})
		}
	}
	return series
}

// The claims panel with its edge cases (an exact value, a rate of 0 over
// nothing, a 100 % rate at the logit axis's clipped end) passes as drawn.
func TestClaimPanelPasses(t *testing.T) {
	f, err := plots.ClaimPanel("ok", []plots.ClaimRow{
		{Label: "n7, 7x7: consistent", ClaimedLo: 0.725, ClaimedHi: 0.775, Measured: 0.74, Lo: 0.72, Hi: 0.76, Exact: 0.7369},
		{Label: "none over 325: consistent", ClaimedLo: 0, ClaimedHi: 0, Measured: 0, Lo: 0, Hi: 0.05, Exact: math.NaN()},
		{Label: "at least 98 %: consistent", ClaimedLo: 0.98, ClaimedHi: 1, Measured: 1, Lo: 0.99, Hi: 1, Exact: math.NaN()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if problems := Figure(f); len(problems) > 0 {
		t.Errorf("referee: %q", problems)
	}
}

// A level under 100 % printed as "100 %" is caught, a wrapped legend
// entry read whole; the level to its digits passes.
func TestRefereeCatchesRoundedLevel(t *testing.T) {
	svg := func(texts ...string) []byte {
		var b strings.Builder
		b.WriteString(`<svg viewBox="0 0 100 100">`)
		for i, s := range texts {
			fmt.Fprintf(&b, `<text x="1" y="-%d" transform="scale(1, -1)" style="font-size:7px">%s</text>`, 10+10*i, s)
		}
		return []byte(b.String())
	}
	for _, c := range []struct {
		texts []string
		bad   bool
	}{
		{[]string{"above / below other squares (100 % intervals, Bonferroni)"}, true},
		{[]string{"above / below other squares (100 %", "intervals, Bonferroni)"}, true},
		{[]string{"above / below other squares (99.965 % intervals, Bonferroni)"}, false},
		{[]string{"95 % intervals", "100 % drawn at the axis's top"}, false},
	} {
		if got := CheckLevels(svg(c.texts...)); (len(got) > 0) != c.bad {
			t.Errorf("%q: %q, want a problem: %v", c.texts, got, c.bad)
		}
	}
}

// A legend band over a quarter of the figure's height is caught: a size
// curve whose legend holds many published values, drawn at the 3:4 height
// plus its extra rows, as plots drew it before it grew the figure, fails;
// as plots draws it now, it passes.
func TestRefereeCatchesTallLegend(t *testing.T) {
	l := plots.Line{Name: "corner starts (400 walks a point)", N: []float64{5, 6, 7, 8, 9, 10},
		Rate: []float64{0.99, 0.99, 0.74, 0.97, 0.985, 0.99}, Lo: []float64{0.98, 0.98, 0.70, 0.95, 0.97, 0.98}, Hi: []float64{1, 1, 0.78, 0.99, 0.995, 0.997}}
	var refs []plots.Reference
	for i := range 7 {
		refs = append(refs, plots.Reference{Source: fmt.Sprintf("Author %d et al. (19%02d), read in another paper: about %d %% for n = %d", i, 60+i, 70+i, 5+i%6), N: float64(5 + i%6), Rate: 0.7 + 0.01*float64(i)})
	}
	f, err := plots.SizeCurveWith([]plots.Line{l}, plots.SizeOptions{Title: "t", LegendTitle: "n×n boards, 100 walks a start, 95 % intervals:", References: refs})
	if err != nil {
		t.Fatal(err)
	}
	var now bytes.Buffer
	if err := f.Encode(&now, "svg"); err != nil {
		t.Fatal(err)
	}
	if p := CheckLegendShare(now.Bytes()); len(p) > 0 {
		t.Errorf("as drawn: %q", p)
	}
	w, _ := f.Size()
	f.Height = w*3/4 + 60 // 3:4 plus its rows beyond two (about six of 10 points), as plots drew it before
	var before bytes.Buffer
	if err := f.Encode(&before, "svg"); err != nil {
		t.Fatal(err)
	}
	if p := CheckLegendShare(before.Bytes()); len(p) != 1 {
		t.Errorf("a legend over a quarter of the height: %q, want one problem", p)
	}
}
