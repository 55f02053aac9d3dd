package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// TestShapeMap checks the shape map's layout and pooling: rows bottom to
// top and columns left to right by size; a cell pools the squares that can
// start a tour (the minority colour of an odd board left out); exact where
// every pooled square is exact (starred), the estimate with its interval
// elsewhere; unrun shapes blank; the caption names the extremes drawn.
func TestShapeMap(t *testing.T) {
	nan := math.NaN()
	sq := func(rows, cols, row, col int32, walks, succ int64, exact float64) table.SquareRow {
		return table.SquareRow{Rule: "warnsdorff/random", Rows: rows, Cols: cols, StartRow: row, StartCol: col,
			Walks: walks, Successes: succ, ExactSuccess: exact, ExactLower: nan, ExactUpper: nan}
	}
	rows := []table.SquareRow{
		sq(5, 5, 0, 0, 100, 90, 0.9), sq(5, 5, 0, 1, 100, 0, 0), // b1 on 5x5: minority, left out
		sq(5, 5, 0, 2, 100, 70, 0.7),
		sq(5, 8, 0, 0, 200, 150, nan), sq(5, 8, 0, 1, 200, 170, nan),
		sq(6, 8, 0, 0, 300, 300, nan),
		// 6x5 is not run: blank
	}
	rules, cells := results.ShapeCells(rows, exactSuccess)
	if len(rules) != 1 {
		t.Fatalf("rules %v", rules)
	}
	h, caption := shapeMap(rules[0], cells[rules[0]], []int{5, 6}, []int{5, 8}, 0.95, stats.Wilson)
	if h.Rows != 2 || h.Cols != 2 || strings.Join(h.Axes.Rows, ",") != "5,6" || strings.Join(h.Axes.Cols, ",") != "5,8" {
		t.Fatalf("layout %dx%d rows %v cols %v", h.Rows, h.Cols, h.Axes.Rows, h.Axes.Cols)
	}
	// Cell 0: 5x5, exact mean of a1 and c1 (b1 is the minority colour).
	if got := h.Values[0]; math.Abs(got-0.8) > 1e-15 || !h.Starred[0] || h.Uncertainty.Lo[0] != got || h.Uncertainty.Hi[0] != got {
		t.Errorf("5x5 cell %v starred %v interval [%v, %v], want exact 0.8", got, h.Starred[0], h.Uncertainty.Lo[0], h.Uncertainty.Hi[0])
	}
	// Cell 1: 5x8 pooled estimate 320/400 with its Wilson interval.
	iv := stats.Proportion{Successes: 320, Trials: 400}.Interval(0.95, stats.Wilson)
	if h.Values[1] != 0.8 || h.Starred[1] || h.Uncertainty.Lo[1] != iv.Lo || h.Uncertainty.Hi[1] != iv.Hi {
		t.Errorf("5x8 cell %v [%v, %v], want 0.8 [%v, %v]", h.Values[1], h.Uncertainty.Lo[1], h.Uncertainty.Hi[1], iv.Lo, iv.Hi)
	}
	if !h.Mask[2] || h.Mask[3] || h.Values[3] != 1 {
		t.Errorf("6x5 should be blank and 6x8 drawn at 1: mask %v values %v", h.Mask, h.Values)
	}
	if h.CellName(3) != "6×8" {
		t.Errorf("cell 3 named %q", h.CellName(3))
	}
	for _, p := range checkHeatmap(h) {
		t.Error(p)
	}
	for _, p := range checkCaption(h, caption) {
		t.Error(p)
	}
	if !strings.Contains(caption, "6×8") || !strings.Contains(caption, "* exact (1 of 3 boards)") {
		t.Errorf("caption %q", caption)
	}
}
