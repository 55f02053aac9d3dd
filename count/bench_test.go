package count

import (
	"context"
	"testing"

	"knightwalk/sim"
)

// BenchmarkSweep6x6Open times the 6x6 open total sweep and reports the
// states it handles a second (summed over layers).
func BenchmarkSweep6x6Open(b *testing.B) { benchSweep(b, sim.MustBoard(6, 6), false) }

// BenchmarkSweep6x6Closed times the 6x6 closed sweep.
func BenchmarkSweep6x6Closed(b *testing.B) { benchSweep(b, sim.MustBoard(6, 6), true) }

func benchSweep(b *testing.B, bd *sim.Board, closed bool) {
	var states int
	for b.Loop() {
		r, err := Tours(context.Background(), bd, Options{Closed: closed})
		if err != nil {
			b.Fatal(err)
		}
		states = 0
		for _, l := range r.Layers {
			states += l.States
		}
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
