package figures

import (
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// deadEndFixture is a 5x5 group of warnsdorff/random from the four
// corners, 10 walks each, and its dead ends: from a1, 3 at b3; from e1,
// 1 at c1; from e5, 1 at d3.
func deadEndFixture() (group, []table.DeadEndRow) {
	g := group{board: "5x5", rows: 5, cols: 5, rule: "warnsdorff/random"}
	for _, s := range []struct {
		name     string
		row, col int32
		fails    int64
	}{{"a1", 0, 0, 3}, {"e1", 0, 4, 1}, {"a5", 4, 0, 0}, {"e5", 4, 4, 1}} {
		g.squares = append(g.squares, table.SquareRow{Board: "5x5", Rows: 5, Cols: 5, Rule: g.rule, Start: s.name,
			StartRow: s.row, StartCol: s.col, Walks: 10, Successes: 10 - s.fails})
	}
	de := func(start string, sr, sc int32, end string, er, ec int32, n int64) table.DeadEndRow {
		return table.DeadEndRow{Board: "5x5", Rows: 5, Cols: 5, Rule: g.rule, Start: start, StartRow: sr, StartCol: sc,
			End: end, EndRow: er, EndCol: ec, Count: n}
	}
	return g, []table.DeadEndRow{de("a1", 0, 0, "b3", 2, 1, 3), de("e1", 0, 4, "c1", 0, 2, 1), de("e5", 4, 4, "d3", 2, 3, 1)}
}

func drawerWith(pool string) *drawer {
	m := &results.Manifest{}
	if pool != "" {
		m.Config.Outputs.FigureOptions = &config.FigureOptions{Heatmap: config.HeatmapOptions{PoolSymmetric: pool}}
	}
	return &drawer{m: m}
}

// The map of all starts, pooled, gives each square the mean count of its
// orbit: b3's orbit {b3, d3, c2, c4} holds 3 + 1 dead ends, so 1 each;
// c1's {c1, c5, a3, e3} holds 1, so 0.25 each; the total stays 5, and
// counts over the total are the shares drawn.
func TestDeadEndMapPooled(t *testing.T) {
	g, rows := deadEndFixture()
	m := drawerWith("").deadEndMap(g, rows)
	if m.total != 5 || m.pooled != 8 {
		t.Fatalf("total %v, pooled over %d symmetries; want 5 over 8", m.total, m.pooled)
	}
	want := map[string]float64{"b3": 1, "d3": 1, "c2": 1, "c4": 1, "c1": 0.25, "c5": 0.25, "a3": 0.25, "e3": 0.25}
	sum := 0.0
	for i, c := range m.counts {
		name := string(rune('a'+i%5)) + string(rune('1'+i/5))
		if c != want[name] {
			t.Errorf("%s: count %v, want %v", name, c, want[name])
		}
		sum += c
	}
	if sum != m.total {
		t.Errorf("counts sum to %v, total %v", sum, m.total)
	}
	// Off, or with starts that are not symmetric (a5 left out), each
	// square keeps its own count.
	for name, d := range map[string]*drawer{"off": drawerWith("off"), "asymmetric starts": drawerWith("")} {
		gg := g
		if name == "asymmetric starts" {
			gg.squares = gg.squares[:2:2]
			gg.squares = append(gg.squares, g.squares[3])
		}
		m := d.deadEndMap(gg, rows)
		if m.pooled != 1 || m.counts[2*5+1] != 3 || m.counts[2*5+3] != 1 || m.counts[2] != 1 {
			t.Errorf("%s: pooled %d, b3 %v d3 %v c1 %v; want raw 3, 1, 1", name, m.pooled, m.counts[11], m.counts[13], m.counts[2])
		}
	}
}

// The map from a1, pooled: e5's dead end at d3 maps onto a1's frame by
// the half-turn (to b3) and by the anti-diagonal reflection (to c2);
// a1's own 3 at b3 by the identity (b3) and the diagonal reflection
// (c2); e1's c1 by the reflection in the vertical axis (c1) and by a
// quarter-turn (a3). Two symmetries fix a1, so each is halved: b3 and c2
// 2 each, c1 and a3 0.5 each, total 5 failed walks from the four corners.
func TestDeadEndMapFromPooled(t *testing.T) {
	g, rows := deadEndFixture()
	m := drawerWith("").deadEndMapFrom(g, rows, g.squares[0])
	if m.total != 5 || m.pooled != 2 || len(m.starts) != 4 {
		t.Fatalf("total %v, %d symmetries fix a1, starts %v; want 5, 2, the four corners", m.total, m.pooled, m.starts)
	}
	want := map[int]float64{2*5 + 1: 2, 1*5 + 2: 2, 2: 0.5, 2 * 5: 0.5}
	for i, c := range m.counts {
		if c != want[i] {
			t.Errorf("square %d: count %v, want %v", i, c, want[i])
		}
	}
	m = drawerWith("off").deadEndMapFrom(g, rows, g.squares[0])
	if m.total != 3 || m.counts[11] != 3 || len(m.starts) != 1 {
		t.Errorf("not pooled: total %v, b3 %v, starts %v; want a1's own 3 at b3", m.total, m.counts[11], m.starts)
	}
}
