package figures

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// square is a squares-table row with what the size curve reads.
func square(n, row, col int, class string, walks, succ int64) table.SquareRow {
	return table.SquareRow{Board: "x", Rows: int32(n), Cols: int32(n), Rule: "r", StartRow: int32(row), StartCol: int32(col),
		StartClass: class, Walks: walks, Successes: succ, ExactSuccess: math.NaN(), ExactClosed: math.NaN()}
}

// By default a line pools every square of its class, of both colours on
// odd boards, as the classes and boards tables do; tour-colour pools only
// the corners' colour on odd boards; split draws one line per colour;
// even boards pool every square.
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
	if !ok || !slices.Equal(l.N, []float64{5, 6}) || l.Rate[0] != 0.5 || l.Rate[1] != 0.6 {
		t.Errorf("all starts, as the boards table pools them: %+v", l)
	}
	o.Parity = "tour-colour"
	if l, ok := sizeLine(rows, curves(rows, o)[0], 0.95, stats.Wilson); !ok || l.Rate[0] != 0.75 || l.Rate[1] != 0.6 {
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
	if !slices.Equal(names, []string{"corner starts", "edge starts", "centre starts", "all starts"}) {
		t.Errorf("default lines: %q", names)
	}
}

// A reference names its published statement by id; the legend entry is
// made from it (who, year, where we read it, and what the values drawn
// say), one per statement, and the caption gets the full citation with
// the published words.
func TestReferencesOfRule(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	refs := []config.Reference{
		{Rule: "warnsdorff/random", Source: "ganzfried-2004-n7", N: 7, Rate: p(0.75)},
		{Rule: "warnsdorff/pohl", Source: "ganzfried-2004-pohl-n8", N: 8, Rate: p(0.67)},
		{Rule: "warnsdorff/random", Source: "ganzfried-2004-98-to-25", N: 5, NMax: 6, AtLeast: p(0.98)},
		{Rule: "warnsdorff/random", Source: "ganzfried-2004-98-to-25", N: 8, NMax: 25, AtLeast: p(0.98)},
		{Rule: "warnsdorff/random", Source: "squirrel-cull-1996-5-over-200", N: 201, NMax: 2000, Below: p(0.05)},
		{Rule: "warnsdorff/random", Source: "squirrel-cull-1996-none-over-325", N: 326, NMax: 2000, Rate: p(0)},
	}
	got, cites := references(refs, "warnsdorff/random", 0.95)
	const (
		n7   = "Ganzfried (2004): about 75 % for n = 7"
		to25 = "Ganzfried (2004): ≥ 98 % for n = 5…6, 8…25"
		sc5  = "Squirrel & Cull (1996) via Ganzfried (2004): < 5 % for n = 201…2000"
		none = "Squirrel & Cull (1996) via Ganzfried (2004): none for n = 326…2000"
	)
	// A published point is a count (75 of 100, assumed): drawn with its
	// Wilson interval, as the claims treat it (issue 34).
	iv := stats.Proportion{Successes: 75, Trials: 100}.Interval(0.95, stats.Wilson)
	want := []plots.Reference{{Source: n7, N: 7, Rate: 0.75, Bound: plots.About, Lo: iv.Lo, Hi: iv.Hi},
		{Source: to25, N: 5, NMax: 6, Rate: 0.98, Bound: plots.AtLeast}, {Source: to25, N: 8, NMax: 25, Rate: 0.98, Bound: plots.AtLeast},
		{Source: sc5, N: 201, NMax: 2000, Rate: 0.05, Bound: plots.Below}, {Source: none, N: 326, NMax: 2000, Rate: 0, Bound: plots.About}}
	if !slices.Equal(got, want) {
		t.Errorf("references = %+v\nwant %+v", got, want)
	}
	if c := cites[n7]; c != "Ganzfried (2004), p. 4: “for n = 7 the success rate was only 75 %”" {
		t.Errorf("citation of n7: %q", c)
	}
	if c := cites[sc5]; !strings.HasPrefix(c, "Squirrel & Cull (1996), via Ganzfried (2004), p. 4: “for n > 200") {
		t.Errorf("citation of the 5 %% bound: %q", c)
	}
	// Roth's statement is Roth's, read in Ganzfried (2004), whose page we
	// have not seen: the legend says so (issue 32).
	roth, _ := references([]config.Reference{{Rule: "warnsdorff/roth", Source: "roth-1pct", N: 5, NMax: 1999, AtLeast: p(0.99)}}, "warnsdorff/roth", 0.95)
	if roth[0].Source != "Roth via Ganzfried (2004) (not verified): ≥ 99 % for n = 5…1999" {
		t.Errorf("Roth's legend entry: %q", roth[0].Source)
	}
	// "Over 85 % on most boards" is not "on each": the legend says most.
	most, _ := references([]config.Reference{{Rule: "warnsdorff/random", Source: "squirrel-cull-1996-85-under-50", N: 5, NMax: 49, AtLeast: p(0.85), Most: true}}, "warnsdorff/random", 0.95)
	// and "over", as published, not "≥" (issue 34).
	if most[0].Source != "Squirrel & Cull (1996) via Ganzfried (2004): over 85 % for most of n = 5…49" {
		t.Errorf("a bound on most sizes: %q", most[0].Source)
	}
	// A result written before references named ids keeps its words.
	old, _ := references([]config.Reference{{Rule: "random", Source: "Elsewhere 2004", N: 7, Rate: p(0.5)}}, "random", 0.95)
	if old[0].Source != "Elsewhere 2004" {
		t.Errorf("free-text source of an old manifest: %q", old[0].Source)
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
	det := group{rows: 2, cols: 2, rule: "warnsdorff/first", squares: []table.SquareRow{square(2, 0, 0, "corner", 1, 1), square(2, 0, 1, "corner", 1, 0)}}
	if !det.deterministic(successRate) || det.noStart(successRate) != nil {
		t.Error("one walk a square, 0/1 rates on an even board: deterministic, no parity mask")
	}
	sampled := group{rows: 2, cols: 2, rule: "warnsdorff/first", squares: []table.SquareRow{square(2, 0, 0, "corner", 5, 5), square(2, 0, 1, "corner", 5, 0)}}
	if sampled.deterministic(successRate) {
		t.Error("5/5 and 0/5 read as deterministic: they are samples, with intervals")
	}
	one := group{rows: 2, cols: 2, rule: "warnsdorff/random", squares: []table.SquareRow{square(2, 0, 0, "corner", 1, 1), square(2, 0, 1, "corner", 1, 0)}}
	if one.deterministic(successRate) {
		t.Error("a random rule run one walk a square read as deterministic (its pooled rates are 1/2, 1/4…)")
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
		{config.HeatmapOptions{}, "exact", 0.001, false, false},          // exact success values are drawn, however rare
		{config.HeatmapOptions{Metric: "success"}, "success-heatmap", 0.001, false, false},
		{config.HeatmapOptions{Metric: "mean-length"}, "success-heatmap", 0.9, true, false},
		{config.HeatmapOptions{FailureView: "off"}, "success-heatmap", 0.9, false, false},
		{config.HeatmapOptions{FailureView: "on"}, "closed-heatmap", 0.2, false, true},
	} {
		g := mixed
		if c.name == "exact" {
			c.name, g.squares = "success-heatmap", slices.Clone(g.squares)
			for i := range g.squares {
				g.squares[i].ExactSuccess = 0.001
			}
		}
		l, f := views(c.o, c.name, g, successRate, c.pooled)
		if l != c.length || f != c.failure {
			t.Errorf("%+v %s pooled %v: mean length %v, failure view %v; want %v, %v", c.o, c.name, c.pooled, l, f, c.length, c.failure)
		}
	}
}
