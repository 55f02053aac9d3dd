package runner

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestCalibrationSample: a dry run over many boards measures at most
// maxCalibrated of them, the smallest and largest among them, and gives
// the others values interpolated by their squares (exact for a cost
// linear in the squares); a few boards are all measured.
func TestCalibrationSample(t *testing.T) {
	var boards []*sim.Board
	for n := 2000; n >= 5; n-- { // not in order of size: the sample orders them
		boards = append(boards, sim.MustBoard(n, n))
	}
	sample := calibrationSample(boards)
	if len(sample) != maxCalibrated || !sample[0] || !sample[len(boards)-1] {
		t.Fatalf("sample of %d boards: %d boards, largest %v, smallest %v", len(boards), len(sample), sample[0], sample[len(boards)-1])
	}
	cost := func(b *sim.Board) float64 { return 7 + 3*float64(b.Squares()) }
	v := map[int]float64{}
	for bi := range sample {
		v[bi] = cost(boards[bi])
	}
	for bi, b := range boards {
		if got := bySquares(boards, v, bi); math.Abs(got-cost(b)) > 1e-6*cost(b) {
			t.Fatalf("%s: %g, want %g", b, got, cost(b))
		}
	}
	few := boards[:maxCalibrated]
	if got := calibrationSample(few); len(got) != len(few) {
		t.Errorf("%d boards: %d measured, want all", len(few), len(got))
	}
}
