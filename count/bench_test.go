package count

import (
	"context"
	"testing"

	"knightwalk/sim"
)

// BenchmarkSweep6x6Open times 6x6's open tours from every square (the
// default single-end sweeps) and reports the widest layer.
func BenchmarkSweep6x6Open(b *testing.B) { benchSweep(b, sim.MustBoard(6, 6), Options{}) }

// BenchmarkSweep6x6OpenPaired is the same count by paired ends.
func BenchmarkSweep6x6OpenPaired(b *testing.B) {
	benchSweep(b, sim.MustBoard(6, 6), Options{PairedEnds: true})
}

// BenchmarkSweep6x6Closed times 6x6's closed tours.
func BenchmarkSweep6x6Closed(b *testing.B) { benchSweep(b, sim.MustBoard(6, 6), Options{Closed: true}) }

func benchSweep(b *testing.B, bd *sim.Board, opt Options) {
	var r Result
	for b.Loop() {
		var err error
		if r, err = Tours(context.Background(), bd, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.PeakStates), "peak-states")
	b.ReportMetric(float64(r.PeakBytes)/(1<<20), "peak-MiB")
}
