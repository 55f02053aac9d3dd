package figures

import (
	"slices"
	"testing"

	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/plots"
	"knightwalk/stats"
)

// square is a squares-table row with what the size curve reads.
func square(n, row, col int, class string, walks, succ int64) table.SquareRow {
	return table.SquareRow{Board: "x", Rows: int32(n), Cols: int32(n), Rule: "r", StartRow: int32(row), StartCol: int32(col),
		StartClass: class, Walks: walks, Successes: succ}
}

// On odd boards the default "all starts" line pools only squares of the
// corners' colour; split draws one line per colour; even boards pool every
// square.
func TestSizeCurveParity(t *testing.T) {
	rows := []table.SquareRow{
		square(5, 0, 0, "corner", 100, 100), square(5, 0, 1, "edge", 100, 0), square(5, 2, 2, "centre", 100, 50),
		square(6, 0, 0, "corner", 100, 80), square(6, 0, 1, "edge", 100, 40),
	}
	o := config.SizeCurveOptions{Classes: []string{"all"}}
	cs := curves(rows, o)
	if len(cs) != 1 {
		t.Fatalf("curves = %d, want 1", len(cs))
	}
	l, ok := sizeLine(rows, cs[0], 0.95, stats.Wilson)
	if !ok || !slices.Equal(l.N, []float64{5, 6}) || l.Rate[0] != 0.75 || l.Rate[1] != 0.6 {
		t.Errorf("all starts, tour colour: %+v", l)
	}
	o.Parity = "split"
	cs = curves(rows, o)
	if len(cs) != 2 {
		t.Fatalf("split: %d curves, want 2", len(cs))
	}
	a, _ := sizeLine(rows, cs[0], 0.95, stats.Wilson)
	b, _ := sizeLine(rows, cs[1], 0.95, stats.Wilson)
	if a.Rate[0] != 0.75 || a.Rate[1] != 0.8 || b.Rate[0] != 0 || b.Rate[1] != 0.4 {
		t.Errorf("split: a1's colour %v, other %v", a.Rate, b.Rate)
	}
	// Default classes: those run, plus all starts when there are several.
	cs = curves(rows, config.SizeCurveOptions{})
	var names []string
	for _, c := range cs {
		names = append(names, c.name)
	}
	if !slices.Equal(names, []string{"corner starts", "edge starts (a1's colour on odd n)", "centre starts", "all starts (a1's colour on odd n)"}) {
		t.Errorf("default lines: %q", names)
	}
}

func TestReferencesOfRule(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	refs := []config.Reference{
		{Rule: "warnsdorff/random", Source: "S", N: 7, Rate: p(0.75)},
		{Rule: "warnsdorff/pohl", Source: "P", N: 8, Rate: p(0.67)},
		{Rule: "warnsdorff/random", Source: "S", N: 8, NMax: 25, AtLeast: p(0.98)},
		{Rule: "warnsdorff/random", Source: "S", N: 201, NMax: 325, Below: p(0.05)},
	}
	got := references(refs, "warnsdorff/random")
	want := []plots.Reference{{Source: "S", N: 7, Rate: 0.75, Bound: plots.About}, {Source: "S", N: 8, NMax: 25, Rate: 0.98, Bound: plots.AtLeast},
		{Source: "S", N: 201, NMax: 325, Rate: 0.05, Bound: plots.Below}}
	if !slices.Equal(got, want) {
		t.Errorf("references = %+v\nwant %+v", got, want)
	}
}

// The automatic heatmap choices: a deterministic rule gets no interval
// marks, the failure view needs failures on most squares, and the parity
// mask only hatches squares of the minority colour without successes.
func TestHeatmapChoices(t *testing.T) {
	g := group{rows: 3, cols: 3, squares: []table.SquareRow{
		square(3, 0, 0, "corner", 10, 10), square(3, 0, 1, "edge", 10, 0), square(3, 1, 1, "centre", 10, 0), square(3, 1, 0, "edge", 10, 3),
	}}
	if g.deterministic(successRate) {
		t.Error("rates 3/10 read as deterministic")
	}
	ns := g.noStart(successRate)
	if ns == nil || !ns[1] || ns[0] || ns[4] || ns[3] {
		t.Errorf("noStart = %v: want b1 only (a2 has successes, a1 and b2 are the corners' colour)", ns)
	}
	// Pooled over the squares that can start: a1, b2, a2.
	if p := g.pooled(successRate); p != 13.0/30 {
		t.Errorf("pooled = %v, want 13/30", p)
	}
	if g.mostFail(successRate) {
		t.Error("one square of four with both outcomes counted as most")
	}
	det := group{rows: 2, cols: 2, squares: []table.SquareRow{square(2, 0, 0, "corner", 5, 5), square(2, 0, 1, "corner", 5, 0)}}
	if !det.deterministic(successRate) || det.noStart(successRate) != nil {
		t.Error("0/1 rates on an even board: deterministic, no parity mask")
	}
}

func TestHeatmapViews(t *testing.T) {
	mixed := group{rows: 2, cols: 2, squares: []table.SquareRow{square(2, 0, 0, "corner", 10, 9), square(2, 0, 1, "corner", 10, 9)}}
	for _, c := range []struct {
		o               config.HeatmapOptions
		name            string
		pooled          float64
		length, failure bool
	}{
		{config.HeatmapOptions{}, "success-heatmap", 0.9, false, true},   // nearly always succeeds: add the failure view
		{config.HeatmapOptions{}, "success-heatmap", 0.5, false, false},  // neither
		{config.HeatmapOptions{}, "success-heatmap", 0.001, true, false}, // too rare to map: mean length
		{config.HeatmapOptions{}, "closed-heatmap", 0.001, false, false}, // closed rates stay rates
		{config.HeatmapOptions{Metric: "success"}, "success-heatmap", 0.001, false, false},
		{config.HeatmapOptions{Metric: "mean-length"}, "success-heatmap", 0.9, true, false},
		{config.HeatmapOptions{FailureView: "off"}, "success-heatmap", 0.9, false, false},
		{config.HeatmapOptions{FailureView: "on"}, "closed-heatmap", 0.2, false, true},
	} {
		l, f := views(c.o, c.name, mixed, successRate, c.pooled)
		if l != c.length || f != c.failure {
			t.Errorf("%+v %s pooled %v: mean length %v, failure view %v; want %v, %v", c.o, c.name, c.pooled, l, f, c.length, c.failure)
		}
	}
}
