package plots

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image/gif"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenHeatmap is a small heatmap that exercises every part of the figure:
// title, values in cells on dark and light colours, a masked square, the
// highlight, a fixed scale and the colour bar with its label.
func goldenHeatmap() HeatmapData {
	v := []float64{
		0.10, 0.35, 0.50, 0.35, 0.10,
		0.35, 0.70, 0.85, 0.70, 0.35,
		0.50, 0.85, math.NaN(), 0.85, 0.50,
		0.35, 0.70, 0.85, 0.70, 0.35,
		0.10, 0.35, 0.50, 0.35, 0.10,
	}
	mask := make([]bool, 25)
	mask[12] = true
	return HeatmapData{
		Title: "success rate, 5x5", Rows: 5, Cols: 5, Values: v, Mask: mask,
		Label: "success rate", Min: ptr(0), Max: ptr(1), Format: "%.2f", Highlight: 6,
	}
}

// TestGoldenSVG compares each golden figure with its SVG in testdata.
func TestGoldenSVG(t *testing.T) {
	for name, mk := range goldenFigures() {
		t.Run(name, func(t *testing.T) {
			f, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, f, filepath.Join("testdata", name+".golden.svg"))
		})
	}
}

func checkGolden(t *testing.T, f *Figure, golden string) {
	t.Helper()
	var got bytes.Buffer
	if err := f.Encode(&got, "svg"); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./plots -run Golden -update to create it)", err)
	}
	if d := lineDiff(string(want), got.String()); d != "" {
		t.Errorf("SVG differs from %s (go test ./plots -run Golden -update rewrites it after a deliberate change; look at the figure first):\n%s", golden, d)
	}
}

// TestSVGDeterministic guards the golden test: two renderings must agree
// byte for byte.
func TestSVGDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		f, err := Heatmap(goldenHeatmap())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Encode(buf, "svg"); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("two SVG renderings differ:\n%s", lineDiff(a.String(), b.String()))
	}
}

// lineDiff summarises how got differs from want line by line: the number of
// differing lines and the first few of them, or "" when they are equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "want %d lines, got %d\n", len(wl), len(gl))
	diffs := 0
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w == g {
			continue
		}
		diffs++
		if diffs <= 5 {
			fmt.Fprintf(&b, "line %d:\n  -%s\n  +%s\n", i+1, clip(w), clip(g))
		}
	}
	fmt.Fprintf(&b, "%d lines differ", diffs)
	return b.String()
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

func TestSaveWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	for name, f := range sampleFigures(t) {
		base := filepath.Join(dir, name)
		if err := f.Save(base); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, ext := range Formats {
			fi, err := os.Stat(base + "." + ext)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if fi.Size() < 1000 {
				t.Errorf("%s.%s: only %d bytes", name, ext, fi.Size())
			}
		}
	}
}

func TestSizeIsColumnWidth(t *testing.T) {
	for name, f := range sampleFigures(t) {
		w, h := f.Size()
		if w != ColumnWidth {
			t.Errorf("%s: width %v, want %v", name, w, ColumnWidth)
		}
		if h < w/2 || h > w*5/4 {
			t.Errorf("%s: height %v out of proportion with width %v", name, h, w)
		}
	}
}

func TestWalkGIFOneFramePerMove(t *testing.T) {
	for _, w := range []WalkData{sampleWalk(5, 5, 0), sampleWalk(8, 8, 10), {Rows: 3, Cols: 3, Path: []int{4}}} {
		path := filepath.Join(t.TempDir(), "walk.gif")
		if err := WalkGIF(w, path, 25); err != nil {
			t.Fatal(err)
		}
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(file)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := max(1, len(w.Path)-1)
		if len(g.Image) != want {
			t.Errorf("%dx%d walk of %d squares: %d frames, want %d", w.Rows, w.Cols, len(w.Path), len(g.Image), want)
		}
		if g.Config.Width > gifMaxSide || g.Config.Height > gifMaxSide {
			t.Errorf("frames %dx%d px, want at most %d on a side", g.Config.Width, g.Config.Height, gifMaxSide)
		}
		if len(g.Delay) > 1 && g.Delay[0] != 25 {
			t.Errorf("delay %d, want 25", g.Delay[0])
		}
	}
}

func TestSquareName(t *testing.T) {
	for _, c := range []struct {
		cols, sq int
		want     string
	}{{8, 0, "a1"}, {8, 27, "d4"}, {8, 63, "h8"}, {26, 25, "z1"}, {30, 31, "r1c1"}} {
		if got := SquareName(c.cols, c.sq); got != c.want {
			t.Errorf("SquareName(%d, %d) = %q, want %q", c.cols, c.sq, got, c.want)
		}
	}
}

func TestViridisEnds(t *testing.T) {
	if c := Viridis(0); c.R != 0x44 || c.G != 0x01 || c.B != 0x54 {
		t.Errorf("Viridis(0) = %v", c)
	}
	if c := Viridis(1); c.R != 0xfd || c.G != 0xe7 || c.B != 0x25 {
		t.Errorf("Viridis(1) = %v", c)
	}
	// matplotlib's table, entry 128 of 256: #21918c.
	if c := Viridis(128.0 / 255); c.R != 0x21 || c.G != 0x91 || c.B != 0x8c {
		t.Errorf("Viridis(128/255) = %v", c)
	}
	if textColorOn(Viridis(0)) != textColorOn(Viridis(0.1)) || textColorOn(Viridis(0)) == textColorOn(Viridis(1)) {
		t.Error("cell text does not switch from white on dark to black on light")
	}
}

// TestErrors checks that every constructor refuses NaN, Inf, empty data and
// mismatched lengths with an error (never a blank figure).
func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	heat := func(mod func(*HeatmapData)) error {
		h := sampleHeatmap()
		h.Values = append([]float64(nil), h.Values...)
		mod(&h)
		_, err := Heatmap(h)
		return err
	}
	lengths := func(mod func(*Series)) error {
		s := sampleLengths()
		mod(&s[1])
		_, err := LengthDistribution(s)
		return err
	}
	size := func(mod func(*Line)) error {
		ls := sampleSizeCurve()
		mod(&ls[2])
		_, err := SizeCurve(ls)
		return err
	}
	conv := func(mod func(*ConvergenceData)) error {
		d := sampleConvergence()
		mod(&d)
		_, err := Convergence(d)
		return err
	}
	walk := func(mod func(*WalkData)) error {
		w := sampleWalk(5, 5, 0)
		mod(&w)
		_, err := Walk(w)
		return err
	}
	walkGIF := func(mod func(*WalkData)) error {
		w := sampleWalk(5, 5, 0)
		mod(&w)
		return WalkGIF(w, filepath.Join(t.TempDir(), "w.gif"), 10)
	}

	cases := []struct {
		name string
		err  error
		want error // nil: any error
	}{
		{"heatmap NaN", heat(func(h *HeatmapData) { h.Values[3] = nan }), plotter.ErrNaN},
		{"heatmap Inf", heat(func(h *HeatmapData) { h.Values[3] = -inf }), plotter.ErrInfinity},
		{"heatmap empty", heat(func(h *HeatmapData) { h.Values = nil }), plotter.ErrNoData},
		{"heatmap short", heat(func(h *HeatmapData) { h.Values = h.Values[:63] }), ErrLength},
		{"heatmap mask length", heat(func(h *HeatmapData) { h.Mask = make([]bool, 3) }), ErrLength},
		{"heatmap all masked", heat(func(h *HeatmapData) {
			h.Mask = make([]bool, 64)
			for i := range h.Mask {
				h.Mask[i] = true
			}
		}), plotter.ErrNoData},
		{"heatmap NaN Min", heat(func(h *HeatmapData) { h.Min = ptr(nan) }), plotter.ErrNaN},
		{"heatmap Inf Max", heat(func(h *HeatmapData) { h.Max = ptr(inf) }), plotter.ErrInfinity},
		{"heatmap Min above Max", heat(func(h *HeatmapData) { h.Min, h.Max = ptr(1), ptr(0) }), nil},
		{"heatmap bad highlight", heat(func(h *HeatmapData) { h.Highlight = 64 }), nil},
		{"heatmap bad format", heat(func(h *HeatmapData) { h.Format = "%d" }), nil},
		{"heatmap no rows", heat(func(h *HeatmapData) { h.Rows = 0 }), nil},

		{"lengths NaN", lengths(func(s *Series) { s.Y[2] = nan }), plotter.ErrNaN},
		{"lengths Inf", lengths(func(s *Series) { s.X[2] = inf }), plotter.ErrInfinity},
		{"lengths empty series", lengths(func(s *Series) { s.X, s.Y = nil, nil }), plotter.ErrNoData},
		{"lengths mismatched", lengths(func(s *Series) { s.Y = s.Y[1:] }), ErrLength},
		{"lengths negative", lengths(func(s *Series) { s.Y[0] = -0.1 }), nil},
		{"lengths repeated", lengths(func(s *Series) { s.X[1] = s.X[0] }), nil},
		{"lengths no series", func() error { _, err := LengthDistribution(nil); return err }(), plotter.ErrNoData},

		{"size NaN", size(func(l *Line) { l.Rate[1] = nan }), plotter.ErrNaN},
		{"size Inf", size(func(l *Line) { l.N[1] = inf }), plotter.ErrInfinity},
		{"size empty line", size(func(l *Line) { *l = Line{Name: l.Name} }), plotter.ErrNoData},
		{"size mismatched", size(func(l *Line) { l.Hi = l.Hi[:3] }), ErrLength},
		{"size rate outside interval", size(func(l *Line) { l.Lo[0] = l.Rate[0] + 0.0001 }), nil},
		{"size rate above 1", size(func(l *Line) { l.Hi[0] = 1.5 }), nil},
		{"size no lines", func() error { _, err := SizeCurve(nil); return err }(), plotter.ErrNoData},

		{"convergence NaN", conv(func(d *ConvergenceData) { d.Estimate[4] = nan }), plotter.ErrNaN},
		{"convergence Inf", conv(func(d *ConvergenceData) { d.Hi[4] = inf }), plotter.ErrInfinity},
		{"convergence NaN exact", conv(func(d *ConvergenceData) { d.Exact = ptr(nan) }), plotter.ErrNaN},
		{"convergence empty", conv(func(d *ConvergenceData) { *d = ConvergenceData{} }), plotter.ErrNoData},
		{"convergence mismatched", conv(func(d *ConvergenceData) { d.Lo = d.Lo[1:] }), ErrLength},
		{"convergence zero walks", conv(func(d *ConvergenceData) { d.Walks[0] = 0 }), nil},
		{"convergence not increasing", conv(func(d *ConvergenceData) { d.Walks[3] = d.Walks[2] }), nil},
		{"convergence bad level", conv(func(d *ConvergenceData) { d.Level = 95 }), nil},

		{"walk empty", walk(func(w *WalkData) { w.Path = nil }), plotter.ErrNoData},
		{"walk off board", walk(func(w *WalkData) { w.Path[3] = 25 }), nil},
		{"walk revisit", walk(func(w *WalkData) { w.Path = []int{0, 7, 0} }), nil},
		{"walk not a knight move", walk(func(w *WalkData) { w.Path = []int{0, 1} }), nil},
		{"walk no board", walk(func(w *WalkData) { w.Rows = 0 }), nil},
		{"walk GIF empty", walkGIF(func(w *WalkData) { w.Path = nil }), plotter.ErrNoData},
		{"walk GIF not a knight move", walkGIF(func(w *WalkData) { w.Path = []int{0, 1} }), nil},
		{"walk GIF zero delay", func() error { return WalkGIF(sampleWalk(5, 5, 0), filepath.Join(t.TempDir(), "w.gif"), 0) }(), nil},
	}
	for _, c := range cases {
		switch {
		case c.err == nil:
			t.Errorf("%s: no error", c.name)
		case c.want != nil && !errors.Is(c.err, c.want):
			t.Errorf("%s: error %q does not wrap %q", c.name, c.err, c.want)
		case !strings.HasPrefix(c.err.Error(), "plots: "):
			t.Errorf("%s: error %q lacks the package prefix", c.name, c.err)
		}
	}
}

// TestMaskAllowsNaN checks the one place NaN is allowed: masked squares.
func TestMaskAllowsNaN(t *testing.T) {
	if _, err := Heatmap(goldenHeatmap()); err != nil {
		t.Fatal(err)
	}
	h := goldenHeatmap()
	h.Mask = nil
	if _, err := Heatmap(h); !errors.Is(err, plotter.ErrNaN) {
		t.Fatalf("NaN without a mask: got %v, want ErrNaN", err)
	}
}

// TestConstantHeatmap checks that a constant field (e.g. every start
// succeeds) still gets a usable colour scale.
func TestConstantHeatmap(t *testing.T) {
	v := make([]float64, 9)
	for i := range v {
		v[i] = 1
	}
	f, err := Heatmap(HeatmapData{Rows: 3, Cols: 3, Values: v, Highlight: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Encode(new(bytes.Buffer), "png"); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeUnknownFormat(t *testing.T) {
	f, err := Heatmap(goldenHeatmap())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Encode(new(bytes.Buffer), "bmp"); err == nil {
		t.Error("no error for an unknown format")
	}
}

func TestPDFText(t *testing.T) {
	if got := toCP1252("n×n – 95 %"); got != "n\xd7n \x96 95 %" {
		t.Errorf("toCP1252 = %q", got)
	}
	runs := splitSuperscripts("10⁻¹²")
	if len(runs) != 2 || runs[0] != (textRun{"10", false}) || runs[1] != (textRun{"-12", true}) {
		t.Errorf("splitSuperscripts = %v", runs)
	}
}

func TestPowerTicks(t *testing.T) {
	var labels []string
	for _, tk := range (log10Ticks{}).Ticks(1, 5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "10 10² 10³ 10⁴ 10⁵" {
		t.Errorf("labels %q", got)
	}
}

// Crowded size-curve points shrink so that neighbouring markers do not
// touch; points that stand apart keep their full size.
func TestCrowdScale(t *testing.T) {
	xs := []vg.Length{10, 50, 90, 200, 201.9, 203.8, 205.7, 300}
	for k := range xs {
		s := crowdScale(xs, k)
		r := markerRadius * vg.Length(s)
		switch {
		case k < 3 || k == 7:
			if s != 1 {
				t.Errorf("point %d stands apart but is scaled %v", k, s)
			}
		case 2*r >= 1.9:
			t.Errorf("point %d: radius %v, markers 1.9 pt apart touch", k, r)
		case r < minRadius:
			t.Errorf("point %d: radius %v under %v", k, r, minRadius)
		}
	}
}

// TestHeatmapAxes checks a heatmap whose cells are not board squares: its
// axis labels are the ones given, a starred cell's value carries "*", cells
// are named by their labels in errors, and labels that do not match the
// cells are refused.
func TestHeatmapAxes(t *testing.T) {
	h := HeatmapData{Title: "shapes", Rows: 2, Cols: 3, Values: []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95},
		Highlight: -1, Percent: true, Label: "success", Note: "* exact", Starred: []bool{true, false, false, false, false, false},
		Axes: &HeatmapAxes{X: "columns", Y: "rows", Cols: []string{"5", "8", "12"}, Rows: []string{"5", "7"},
			Cell: func(r, c string) string { return r + "×" + c }}}
	f, err := Heatmap(h)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, want := range []string{">columns<", ">rows<", ">12<", ">7<", ">50*<", ">60<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %s", want)
		}
	}
	if strings.Contains(svg, ">a<") || strings.Contains(svg, ">file<") {
		t.Error("SVG still has board coordinates")
	}
	if got := h.CellName(5); got != "7×12" {
		t.Errorf("cell 5 named %q, want 7×12", got)
	}
	bad := h
	bad.Values = append([]float64(nil), h.Values...)
	bad.Values[4] = math.NaN()
	if _, err := Heatmap(bad); err == nil || !strings.Contains(err.Error(), "7×8") {
		t.Errorf("NaN in cell 7×8: error %v, want it named", err)
	}
	bad = h
	bad.Axes = &HeatmapAxes{Cols: []string{"5"}, Rows: h.Axes.Rows}
	if _, err := Heatmap(bad); err == nil || !strings.Contains(err.Error(), "Axes") {
		t.Errorf("one column label for three columns: error %v", err)
	}
}
