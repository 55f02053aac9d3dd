package count

import (
	"context"
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/knightwalk/knightwalk/sim"
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

// BenchmarkInsert times the storing of a step's successors alone: 2n
// successors drawn at random from n keys (about 0.86n distinct, near the
// 1.95 successors a state of 7x7's sweeps) listed by two workers in
// batches as a step makes them, and then merged (packed). 2^25 states
// (about a GiB) are far larger than the caches, as 7x7's widest layers
// are.
func BenchmarkInsert(b *testing.B) {
	for _, n := range []int{1 << 20, 1 << 25} {
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			bud := &budget{}
			for b.Loop() {
				l := newLayer(bud, false)
				var eg errgroup.Group
				for w := range 2 {
					eg.Go(func() error {
						var bufs [shards][]slot
						for i := w; i < 2*n; i += 2 {
							k := hash(uint64(i))%uint64(n) + 1
							sh := int(hash(k) >> (64 - shardBits))
							bufs[sh] = append(bufs[sh], slot{k, 1})
							if len(bufs[sh]) == batchLen {
								if _, err := l.addSlots(sh, bufs[sh], nil); err != nil {
									return err
								}
								bufs[sh] = bufs[sh][:0]
							}
						}
						for sh := range bufs {
							if _, err := l.addSlots(sh, bufs[sh], nil); err != nil {
								return err
							}
						}
						return nil
					})
				}
				if err := eg.Wait(); err != nil {
					b.Fatal(err)
				}
				w := sweep{workers: 2}
				if err := w.pack(l, shardRange{0, shards}); err != nil {
					b.Fatal(err)
				}
				l.release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/insert")
		})
	}
}
