package count

import (
	"context"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestRoundsAgree checks steps that list their successors in several
// rounds, packing the layer between them (see step), against the same
// sweeps in one round: the same count from every square and the same
// states after every step, within a budget of four fifths of what one
// round took. Mostly one worker, so that the peak of one round, and so
// the rounds, are the same every time.
func TestRoundsAgree(t *testing.T) {
	defer func(m int64) { minListRound = m }(minListRound)
	minListRound = 4 << 10
	for _, c := range []struct {
		board string
		opt   Options
	}{
		{"6x6", Options{Closed: true, Workers: 1}},
		{"6x6", Options{Closed: true, wide: true, Workers: 1}},
		{"5x7", Options{Workers: 1}},
		{"6x6", Options{Closed: true, Workers: 2}}, // steady enough with two
	} {
		b, _ := sim.ParseBoard(c.board)
		c.opt.Starts = allSquares(b)
		one, err := Tours(context.Background(), b, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		opt := c.opt
		opt.MaxMemory = one.PeakBytes * 4 / 5
		before := roundsPacked.Load()
		got, err := Tours(context.Background(), b, opt)
		if err != nil {
			t.Fatalf("%s %+v in %d bytes: %v", c.board, c.opt, opt.MaxMemory, err)
		}
		if roundsPacked.Load() == before {
			t.Errorf("%s %+v: no step took two rounds in four fifths of the memory", c.board, c.opt)
		}
		sameCounts(t, c.board+" in rounds", b, got, one)
		if got.PeakBytes > opt.MaxMemory {
			t.Errorf("%s: peaked at %d bytes, budget %d", c.board, got.PeakBytes, opt.MaxMemory)
		}
	}
}

// sameCounts checks a count made another way (what) against want: the
// total, the count from every square and the states after every step.
func sameCounts(t *testing.T, what string, b *sim.Board, got, want Result) {
	t.Helper()
	if got.Tours != want.Tours {
		t.Errorf("%s: %v, want %v", what, got.Tours, want.Tours)
	}
	for sq := range want.PerStart {
		if got.PerStart[sq] != want.PerStart[sq] {
			t.Errorf("%s from %s: %v, want %v", what, b.SquareName(sq), got.PerStart[sq], want.PerStart[sq])
		}
	}
	for i, l := range got.Layers {
		if l.States != want.Layers[i].States {
			t.Errorf("%s step %d: %d states, want %d", what, l.Step, l.States, want.Layers[i].States)
		}
	}
}
