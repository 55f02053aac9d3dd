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

// TestDesignSample: a dry run of a design times at most
// maxDesignCalibrated of its cells (its first and last among them; all of
// a small one) and every plain rule; the cells it does not time cost the
// mean of those it does, so every line of the 40,320 orders has a cost.
func TestDesignSample(t *testing.T) {
	s := specOf(t, "name: d\nboards: [8x8]\nstarts: [a1]\nwalks: 1\nrules:\n  - {name: warnsdorff, tie_break: first, order: all}\n  - {name: random}\n  - {name: warnsdorff, tie_break: pohl+first, order: rotations}\n")
	design, sampled := designSample(s)
	count := map[int]int{}
	for ri, d := range design {
		if sampled[ri] {
			count[d]++
		}
	}
	if count[0] != maxDesignCalibrated || !sampled[0] || !sampled[40319] || count[-1] != 1 || count[1] != 8 {
		t.Fatalf("timed per design %v; first %v, last %v", count, sampled[0], sampled[40319])
	}
	if design[40320] != -1 || design[40321] != 1 {
		t.Fatalf("designs of the rules after the first: %d, %d", design[40320], design[40321])
	}
	small := specOf(t, "name: d\nboards: [6x6]\nstarts: [a1]\nwalks: 1\nrules:\n  - {name: warnsdorff, tie_break: first, order: rotations, max_steps: [0, 9]}\n")
	est, err := EstimateRun(t.Context(), small, All, 1)
	if err != nil {
		t.Fatal(err)
	}
	timed := 0
	for _, l := range est.Lines {
		if !(l.NsPerWalk > 0) {
			t.Fatalf("%s: no cost (%v)", l.Rule.Name(), l.NsPerWalk)
		}
		if l.Sampled {
			timed++
		}
	}
	if len(est.Lines) != 16 || timed != maxDesignCalibrated {
		t.Errorf("%d lines, %d timed; want 16, %d", len(est.Lines), timed, maxDesignCalibrated)
	}
}
