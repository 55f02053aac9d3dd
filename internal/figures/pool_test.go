package figures

import (
	"context"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// The orbits are those of sim.Board.Symmetries: every square's orbit key
// is the smallest index among its images.
func TestOrbitMatchesBoardSymmetries(t *testing.T) {
	for _, rc := range [][2]int{{8, 8}, {5, 5}, {5, 7}, {4, 6}, {1, 3}} {
		b := sim.MustBoard(rc[0], rc[1])
		for sq := range rc[0] * rc[1] {
			want := sq
			for _, p := range b.Symmetries() {
				want = min(want, int(p[sq]))
			}
			r, c := b.RowCol(sq)
			if got := orbit(rc[0], rc[1], r, c); got != want {
				t.Errorf("%dx%d %s: orbit %d, want %d", rc[0], rc[1], plots.SquareName(rc[1], sq), got, want)
			}
		}
	}
}

func TestSymmetricRule(t *testing.T) {
	for name, want := range map[string]bool{
		"random": true, "warnsdorff/random": true, "warnsdorff/pohl": true, "warnsdorff/roth": true,
		"warnsdorff/first": false, "warnsdorff/roth+first": false, "backtrack": false, "nonsense": false,
	} {
		if got := symmetricRule(name); got != want {
			t.Errorf("symmetricRule(%q) = %v, want %v", name, got, want)
		}
	}
}

// Pooling sums the walks of an orbit: on 3x3 the four corners' 4 of 40
// walks read 10 % on every corner, and the map carries the pooled interval.
func TestRateMapPoolsOrbits(t *testing.T) {
	var rows []table.SquareRow
	for sq := range 9 {
		r, c := sq/3, sq%3
		s := table.SquareRow{Board: "3x3", Rows: 3, Cols: 3, Rule: "warnsdorff/random", StartRow: int32(r), StartCol: int32(c),
			Walks: 10, ExactSuccess: math.NaN(), ExactClosed: math.NaN()}
		if sq == 0 {
			s.Successes = 4 // the other corners none
		}
		if sq%2 == 1 {
			s.Successes = 5
		}
		s.SuccessRate = float64(s.Successes) / 10
		rows = append(rows, s)
	}
	d := &drawer{ctx: context.Background(), m: &results.Manifest{}, squares: rows}
	g := d.groups()[0]
	h := d.rateMap(g, successRate, g.pooled(successRate))
	for _, i := range []int{0, 2, 6, 8} {
		if h.Values[i] != 0.1 {
			t.Errorf("corner %d: %v, want the pooled 0.1", i, h.Values[i])
		}
		if h.Uncertainty.Lo[i] != h.Uncertainty.Lo[0] || !(h.Uncertainty.Lo[i] < 0.1) {
			t.Errorf("corner %d: interval %v, want the pooled one", i, h.Uncertainty.Lo[i])
		}
	}
	if h.Values[1] != 0.5 || h.Note != "10 walks a square, symmetric squares pooled" {
		t.Errorf("edge %v, note %q", h.Values[1], h.Note)
	}
	// Off: each square its own walks.
	d.m.Config.Outputs.FigureOptions = &config.FigureOptions{Heatmap: config.HeatmapOptions{PoolSymmetric: "off"}}
	h = d.rateMap(g, successRate, g.pooled(successRate))
	if h.Values[0] != 0.4 || h.Values[2] != 0 || h.Note != "10 walks a square" {
		t.Errorf("unpooled: a1 %v, c1 %v, note %q", h.Values[0], h.Values[2], h.Note)
	}
}

// Squares not run are drawn from a run square of their orbit; orbits with
// none run stay blank.
func TestMirrorFill(t *testing.T) {
	g := group{board: "3x3", rows: 3, cols: 3, rule: "warnsdorff/random"}
	h := plots.HeatmapData{Rows: 3, Cols: 3, Values: make([]float64, 9), Mask: []bool{false, true, true, true, true, true, true, true, true}}
	h.Values[0] = 0.25
	un := &plots.Uncertainty{Lo: make([]float64, 9), Hi: make([]float64, 9)}
	un.Lo[0], un.Hi[0] = 0.2, 0.3
	if n := mirrorFill(g, &h, nil, un); n != 3 {
		t.Errorf("filled %d squares, want the 3 other corners", n)
	}
	for _, i := range []int{2, 6, 8} {
		if h.Mask[i] || h.Values[i] != 0.25 || un.Lo[i] != 0.2 || un.Hi[i] != 0.3 {
			t.Errorf("corner %d: mask %v value %v interval [%v, %v]", i, h.Mask[i], h.Values[i], un.Lo[i], un.Hi[i])
		}
	}
	if !h.Mask[1] || !h.Mask[4] {
		t.Error("an orbit with no square run was filled")
	}
}
