package plots

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// goldenFigures are the figures whose SVG is kept in testdata: one per
// view, each small enough to read in a diff.
func goldenFigures() map[string]func() (*Figure, error) {
	return map[string]func() (*Figure, error){
		"heatmap_5x5":         func() (*Figure, error) { return Heatmap(goldenHeatmap()) },
		"heatmap_5x5_failure": func() (*Figure, error) { return Heatmap(sampleFailure5()) },
		"heatmap_4x4_percent": func() (*Figure, error) { return Heatmap(samplePercent4()) },
		"length_log": func() (*Figure, error) {
			return LengthDistributionWith(sampleSpike(), LengthOptions{Title: "6x6, warnsdorff/random", Squares: 36})
		},
		"size_references": func() (*Figure, error) {
			return SizeCurveWith(sampleSizeClasses(), SizeOptions{
				Title: "warnsdorff/random", LegendTitle: "n×n boards:", References: sampleReferences(),
			})
		},
		"convergence": func() (*Figure, error) { return Convergence(sampleConvergence()) },
	}
}

// sampleFailure5 is a 5x5 success map seen as failure rates on the
// (default) log scale, with the minority colour unable to start a tour
// and interval marks.
func sampleFailure5() HeatmapData {
	h := HeatmapData{Title: "5x5, warnsdorff/random: failures", Rows: 5, Cols: 5, Label: "failure rate",
		Highlight: -1, Failure: true, Percent: true}
	h.Values = make([]float64, 25)
	h.NoStart = make([]bool, 25)
	iv := &IntervalCue{Pooled: 0.96, Lo: make([]float64, 25), Hi: make([]float64, 25)}
	for i := range h.Values {
		r, c := i/5, i%5
		if (r+c)%2 == 1 {
			h.NoStart[i], h.Values[i] = true, math.NaN()
			iv.Lo[i], iv.Hi[i] = math.NaN(), math.NaN()
			continue
		}
		d := math.Abs(float64(r)-2) + math.Abs(float64(c)-2)
		h.Values[i] = 0.99 - 0.012*d*d/2
		iv.Lo[i], iv.Hi[i] = h.Values[i]-0.01, h.Values[i]+0.005
	}
	h.Interval = iv
	return h
}

// samplePercent4 is a 4x4 map with the real 8x8 spread (corner 97.96 %,
// edge 98.67 %, centre 97.20 %) on a scale from the data.
func samplePercent4() HeatmapData {
	v := []float64{
		0.9796, 0.9867, 0.9867, 0.9796,
		0.9867, 0.9720, 0.9721, 0.9867,
		0.9866, 0.9722, 0.9720, 0.9868,
		0.9796, 0.9867, 0.9866, 0.9797,
	}
	lo, hi := make([]float64, 16), make([]float64, 16)
	for i := range v {
		lo[i], hi[i] = v[i]-0.003, v[i]+0.003
	}
	return HeatmapData{Title: "4x4 sample", Rows: 4, Cols: 4, Values: v, Label: "success rate", Percent: true,
		Highlight: 0, Interval: &IntervalCue{Pooled: 0.9810, Lo: lo, Hi: hi}}
}

// sampleSpike is a Warnsdorff-like length distribution: nearly every walk
// is a full tour of 36 squares, with rare failures below it.
func sampleSpike() []Series {
	var out []Series
	for k, name := range []string{"corner", "centre"} {
		s := Series{Name: name}
		rest := 0.0
		for l := 20; l < 36; l += 2 {
			y := math.Pow(10, -5+float64(l-20)/5) * float64(k+1)
			s.X, s.Y = append(s.X, float64(l)), append(s.Y, y)
			rest += y
		}
		s.X, s.Y = append(s.X, 36), append(s.Y, 1-rest)
		out = append(out, s)
	}
	return out
}

// sampleSizeClasses are corner and centre series on n = 5..12, the odd
// boards' centre series for the colour that can start a tour only.
func sampleSizeClasses() []Line {
	mk := func(name string, f func(n float64) float64) Line {
		l := Line{Name: name}
		for n := 5.0; n <= 12; n++ {
			p := f(n)
			l.N, l.Rate = append(l.N, n), append(l.Rate, p)
			l.Lo, l.Hi = append(l.Lo, math.Max(0, p-0.02)), append(l.Hi, math.Min(1, p+0.01))
		}
		return l
	}
	return []Line{
		mk("corner", func(n float64) float64 { return 0.98 - 0.23*b2f(n == 7) }),
		mk("centre", func(n float64) float64 { return 0.97 - 0.01*n/12 }),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func sampleReferences() []Reference {
	return []Reference{
		{Source: "Squirrel & Cull 1996", N: 5, NMax: 25, Rate: 0.98, Bound: AtLeast},
		{Source: "Squirrel & Cull 1996", N: 7, Rate: 0.75},
		{Source: "Squirrel & Cull 1996", N: 8, Rate: 0.99},
		{Source: "Ganzfried 2004", N: 11, Rate: 0.9, Bound: AtLeast},
		{Source: "Ganzfried 2004", N: 200, NMax: 325, Rate: 0.05, Bound: Below}, // beyond the data: left out
		{Source: "Pohl 1967", N: 8, Rate: 0.67},
	}
}

func TestDecimals(t *testing.T) {
	for _, c := range []struct {
		spread float64
		want   int
	}{{2.04, 2}, {0.0204, 4}, {20, 1}, {200, 0}, {1, 2}, {0, 2}} {
		if got := spreadDecimals(c.spread); got != c.want {
			t.Errorf("spreadDecimals(%v) = %d, want %d", c.spread, got, c.want)
		}
	}
	if got := logDecimals(1.08); got != 2 {
		t.Errorf("logDecimals(1.08) = %d, want 2", got)
	}
	// The real 8x8 spread reads "97.96" and "98.67"; a tail of zeros in
	// every label is dropped.
	labels := func(h HeatmapData) []string {
		sc, err := h.validate()
		if err != nil {
			t.Fatal(err)
		}
		c := &heatCells{h: h, sc: sc}
		var out []string
		for i := range h.Values {
			out = append(out, c.label(i))
		}
		return out
	}
	if got := labels(samplePercent4()); got[0] != "97.96" || got[1] != "98.67" || got[5] != "97.20" {
		t.Errorf("percent labels %v", got)
	}
	zeros := HeatmapData{Rows: 1, Cols: 3, Values: []float64{0, 0.000005, 0}, Percent: true, Highlight: -1}
	if got := strings.Join(labels(zeros), " "); got != "0 0.0005 0" {
		t.Errorf("labels %q, want \"0 0.0005 0\"", got)
	}
	// Failure rates bunched near 100 % still read apart.
	most := HeatmapData{Rows: 1, Cols: 2, Values: []float64{0, 0.000005}, Failure: true, Percent: true, Highlight: -1}
	if got := strings.Join(labels(most), " "); got != "100.0000 99.9995" {
		t.Errorf("labels %q, want \"100.0000 99.9995\"", got)
	}
	fail := HeatmapData{Rows: 1, Cols: 3, Values: []float64{0.9796, 0.9892, 1}, Failure: true, Percent: true, Highlight: -1}
	if got := strings.Join(labels(fail), " "); got != "2.04 1.08 0" {
		t.Errorf("failure labels %q, want \"2.04 1.08 0\"", got)
	}
}

func TestColorScale(t *testing.T) {
	h := samplePercent4()
	sc, err := h.validate()
	if err != nil {
		t.Fatal(err)
	}
	if sc.lo != 0.9720 || sc.hi != 0.9868 || sc.log {
		t.Errorf("scale %+v, want linear 0.9720 to 0.9868 (the data's range)", sc)
	}
	ticks := sc.ticks()
	if first, last := ticks[0], ticks[len(ticks)-1]; first.Label != "97.20" || last.Label != "98.68" {
		t.Errorf("colour bar ends %q and %q, want the data's range 97.20 and 98.68", first.Label, last.Label)
	}
	// Failure view: log scale by default, over the failure rates.
	sc, err = sampleFailure5().validate()
	if err != nil {
		t.Fatal(err)
	}
	if !sc.log || math.Abs(sc.lo-0.01) > 1e-12 || math.Abs(sc.hi-0.106) > 1e-12 {
		t.Errorf("failure scale %+v, want log 0.01 to 0.106", sc)
	}
	if got := sc.t(math.Sqrt(sc.lo * sc.hi)); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("log scale puts the geometric mean at %v, want 0.5", got)
	}
	// A fixed scale is labelled as given.
	g := goldenHeatmap()
	sc, _ = g.validate()
	if ts := sc.ticks(); ts[0].Label != "0" || ts[len(ts)-1].Label != "1" {
		t.Errorf("fixed scale ends %q, %q", ts[0].Label, ts[len(ts)-1].Label)
	}
	// Linear override of the failure view.
	f := sampleFailure5()
	f.Scale = ScaleLinear
	if sc, _ = f.validate(); sc.log {
		t.Error("ScaleLinear ignored")
	}
}

func TestIntervalMarks(t *testing.T) {
	h := HeatmapData{Rows: 1, Cols: 4, Values: []float64{0.5, 0.6, 0.4, 0.5}, Highlight: -1,
		NoStart:  []bool{false, false, false, true},
		Interval: &IntervalCue{Pooled: 0.5, Lo: []float64{0.45, 0.55, 0.3, 0.6}, Hi: []float64{0.55, 0.65, 0.45, 0.7}}}
	if got := h.Interval.marks(h); !equalInts(got, []int{0, 1, -1, 0}) {
		t.Errorf("marks %v, want [0 1 -1 0]", got)
	}
	h.Failure = true // above in success is below in failure
	if got := h.Interval.marks(h); !equalInts(got, []int{0, -1, 1, 0}) {
		t.Errorf("failure marks %v, want [0 -1 1 0]", got)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLengthAxes(t *testing.T) {
	f, err := LengthDistributionWith(sampleSpike(), LengthOptions{Squares: 36})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Plot
	if p.X.Min != 18 || p.X.Max != 38 {
		t.Errorf("x axis %v to %v, want 18 to 38 (the lengths in the data, 20..36, with a pair of lengths each side)", p.X.Min, p.X.Max)
	}
	if p.Y.Min != -3 || !(p.Y.Max > 2) {
		t.Errorf("log y axis (log10 of percent) %v to %v, want -3 (10⁻⁵ as 10⁻³ %%) to above 2 (100 %%)", p.Y.Min, p.Y.Max)
	}
	if got := labelsOf(p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)); got[0] != "20" || got[len(got)-1] != "36" {
		t.Errorf("x labels %v, want 20 … 36 (shortest walk … full tour)", got)
	}
	f, err = LengthDistributionWith(sampleSpike(), LengthOptions{Squares: 36, LogY: LogOff})
	if err != nil {
		t.Fatal(err)
	}
	if f.Plot.Y.Min != 0 || f.Plot.Y.Max <= 99 {
		t.Errorf("linear y axis %v to %v", f.Plot.Y.Min, f.Plot.Y.Max)
	}
	// A smooth distribution (the random walk's) stays linear.
	if dominated([]plotter.XYs{{{X: 1, Y: 0.2}, {X: 2, Y: 0.3}, {X: 3, Y: 0.5}}}) {
		t.Error("a smooth distribution counted as dominated")
	}
	if !dominated([]plotter.XYs{{{X: 1, Y: 0.001}, {X: 2, Y: 0.009}, {X: 3, Y: 0.99}}}) {
		t.Error("a spike not counted as dominated")
	}
}

func TestHistogramFloor(t *testing.T) {
	got := histogramOutline(plotter.XYs{{X: 1, Y: 0.5}, {X: 3, Y: 0}}, 1, 0.01)
	want := plotter.XYs{{X: 0.5, Y: 0.01}, {X: 0.5, Y: 0.5}, {X: 1.5, Y: 0.5}, {X: 1.5, Y: 0.01}, {X: 2.5, Y: 0.01},
		{X: 2.5, Y: 0.01}, {X: 3.5, Y: 0.01}, {X: 3.5, Y: 0.01}}
	if len(got) != len(want) {
		t.Fatalf("outline %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("outline %v, want %v", got, want)
		}
	}
}

func labelsOf(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestTicks(t *testing.T) {
	if got := strings.Join(labelsOf(intTicks{}.Ticks(4.5, 12.5)), " "); got != "6 8 10 12" {
		t.Errorf("intTicks(4.5, 12.5) = %q", got)
	}
	if got := strings.Join(labelsOf(intTicks{}.Ticks(4.5, 100.5)), " "); got != "20 40 60 80 100" {
		t.Errorf("intTicks(4.5, 100.5) = %q", got)
	}
	// Less than two decades labelled: 2× and 5× get labels too.
	if got := strings.Join(labelsOf(log10Ticks{}.Ticks(math.Log10(150), math.Log10(3000))), " "); got != "200 500 10³ 2000" {
		t.Errorf("log10Ticks(150, 3000) = %q", got)
	}
	if got := strings.Join(labelsOf(log10Ticks{}.Ticks(-3, 0.1)), " "); got != "10⁻³ 10⁻² 10⁻¹ 1" {
		t.Errorf("log10Ticks(1e-3, 1.26) = %q", got)
	}
	// Fourteen decades: every second power.
	if got := strings.Join(labelsOf(log10Ticks{}.Ticks(-13, 0.1)), " "); got != "10⁻¹² 10⁻¹⁰ 10⁻⁸ 10⁻⁶ 10⁻⁴ 10⁻² 1" {
		t.Errorf("log10Ticks(1e-13, 1.26) = %q", got)
	}
}

func TestConvergenceAxisEndsAtData(t *testing.T) {
	d := sampleConvergence()
	f, err := Convergence(d)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := math.Pow(10, f.Plot.X.Min), math.Pow(10, f.Plot.X.Max); math.Abs(lo-d.Walks[0]) > 1e-9*lo || math.Abs(hi-d.Walks[len(d.Walks)-1]) > 1e-9*hi {
		t.Errorf("x axis %v to %v walks, want the data's %v to %v", lo, hi, d.Walks[0], d.Walks[len(d.Walks)-1])
	}
}

func TestReferencesCut(t *testing.T) {
	rp := newRefPlot(sampleReferences(), 4.5, 12.5)
	if len(rp.refs) != 5 {
		t.Fatalf("%d references kept, want 5 (the n = 200..325 band is beyond the data)", len(rp.refs))
	}
	if r := rp.refs[0]; r.N != 5 || r.NMax != 12.5 {
		t.Errorf("range cut to %v..%v, want 5..12.5", r.N, r.NMax)
	}
	var names []string
	for _, s := range rp.sources {
		names = append(names, s.name)
	}
	if got := strings.Join(names, "|"); got != "Squirrel & Cull 1996|Ganzfried 2004|Pohl 1967" {
		t.Errorf("legend sources %q", got)
	}
	if !rp.sources[0].lines || !rp.sources[0].points || rp.sources[2].lines {
		t.Error("sources' thumbnails do not match what they draw")
	}
}

// TestNoStartAllowsNaN: squares that cannot start a tour carry no value.
func TestNoStartAllowsNaN(t *testing.T) {
	if _, err := Heatmap(sampleFailure5()); err != nil {
		t.Fatal(err)
	}
	h := sampleFailure5()
	h.NoStart = nil
	if _, err := Heatmap(h); !errors.Is(err, plotter.ErrNaN) {
		t.Fatalf("NaN without NoStart: got %v, want ErrNaN", err)
	}
}

// TestNewViewErrors checks that the new options refuse bad input with an
// error, never a misleading figure.
func TestNewViewErrors(t *testing.T) {
	nan := math.NaN()
	heat := func(mod func(*HeatmapData)) error {
		h := samplePercent4()
		iv := *h.Interval
		iv.Lo, iv.Hi = append([]float64(nil), iv.Lo...), append([]float64(nil), iv.Hi...)
		h.Interval = &iv
		mod(&h)
		_, err := Heatmap(h)
		return err
	}
	size := func(mod func(*Reference)) error {
		refs := sampleReferences()
		mod(&refs[1])
		_, err := SizeCurveWith(sampleSizeClasses(), SizeOptions{References: refs})
		return err
	}
	length := func(o LengthOptions, s []Series) error {
		_, err := LengthDistributionWith(s, o)
		return err
	}
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"failure view of a value above 1", heat(func(h *HeatmapData) { h.Failure, h.Values[2] = true, 1.2 }), nil},
		{"log scale of zeros", heat(func(h *HeatmapData) { h.Scale = ScaleLog; h.Values = make([]float64, 16) }), nil},
		{"log scale with Min 0", heat(func(h *HeatmapData) { h.Scale, h.Min = ScaleLog, ptr(0) }), nil},
		{"bad scale", heat(func(h *HeatmapData) { h.Scale = 7 }), nil},
		{"interval short", heat(func(h *HeatmapData) { h.Interval.Lo = h.Interval.Lo[:3] }), ErrLength},
		{"interval NaN", heat(func(h *HeatmapData) { h.Interval.Hi[4] = nan }), plotter.ErrNaN},
		{"interval NaN pooled", heat(func(h *HeatmapData) { h.Interval.Pooled = nan }), plotter.ErrNaN},
		{"interval Lo above Hi", heat(func(h *HeatmapData) { h.Interval.Lo[4] = 2 }), nil},
		{"interval bad level", heat(func(h *HeatmapData) { h.Interval.Level = 95 }), nil},
		{"no-start length", heat(func(h *HeatmapData) { h.NoStart = make([]bool, 3) }), ErrLength},
		{"every square no-start", heat(func(h *HeatmapData) {
			h.NoStart = make([]bool, 16)
			for i := range h.NoStart {
				h.NoStart[i] = true
			}
		}), plotter.ErrNoData},

		{"reference NaN", size(func(r *Reference) { r.Rate = nan }), plotter.ErrNaN},
		{"reference without source", size(func(r *Reference) { r.Source = "" }), nil},
		{"reference rate above 1", size(func(r *Reference) { r.Rate = 1.5 }), nil},
		{"reference range reversed", size(func(r *Reference) { r.NMax = 3 }), nil},
		{"reference bad bound", size(func(r *Reference) { r.Bound = 9 }), nil},

		{"length beyond the board", length(LengthOptions{Squares: 30}, sampleSpike()), nil},
		{"length bad LogY", length(LengthOptions{LogY: 5}, sampleSpike()), nil},
		{"length all zero", length(LengthOptions{}, []Series{{Name: "x", X: []float64{1, 2}, Y: []float64{0, 0}}}), plotter.ErrNoData},
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

// TestReferenceRangeEnds: a published range's ends stand halfway between
// the measured sizes it holds and those it does not, never on a marker
// (issue 34, item 12: n = 201…400 drawn from 201 sat on the n = 200
// marker and read as starting at 200).
func TestReferenceRangeEnds(t *testing.T) {
	rp := &refPlot{sizes: []float64{180, 200, 220, 240, 400, 420, 424}}
	id := func(v float64) vg.Length { return vg.Length(v) }
	for _, c := range []struct {
		n, nmax, x0, x1 float64
	}{
		{201, 400, 210, 410}, // 220…400 held: from between 200 and 220 to between 400 and 420
		{200, 400, 190, 410}, // 200 held: the end moves left of its marker
		{150, 225, 150, 230}, // nothing measured below 150: its end; 240 left out: halfway from 220
		{241, 399, 241, 399}, // no measured size within: its published ends
		{421, 500, 422, 500}, // 424 held, 420 not; nothing measured beyond
	} {
		x0, x1 := rp.span(Reference{N: c.n, NMax: c.nmax}, id)
		if float64(x0) != c.x0 || float64(x1) != c.x1 {
			t.Errorf("n = %v…%v drawn over %v…%v, want %v…%v", c.n, c.nmax, x0, x1, c.x0, c.x1)
		}
	}
}
