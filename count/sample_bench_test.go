package count

import (
	"fmt"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// BenchmarkSampleProposals measures what chooses the default proposal:
// the relative variance of one walk's weight (cv2/walk, the block
// variance over the squared mean, per walk) times the CPU time of a walk
// (µs/walk): their product (cv2·µs) is the relative variance an estimate
// has after one CPU-second, times 10^6. Smaller is better. Each
// iteration draws one chunk of whole blocks; run with -benchtime=20s or
// more, since the weights' tail needs many walks to show:
//
//	go test ./count -run '^$' -bench SampleProposals -benchtime 20s
func BenchmarkSampleProposals(b *testing.B) {
	for _, n := range []int{6, 7, 8} {
		for _, p := range []struct {
			prop Proposal
			tail int
		}{{Proposal{}, 0}, {Proposal{}, DefaultTail}, {Proposal{Beta: 0.3}, 12}, {DefaultProposal, DefaultTail}, {Proposal{Beta: 0.5}, DefaultTail}, {Proposal{Beta: 1}, DefaultTail}} {
			b.Run(fmt.Sprintf("%dx%d/%s/tail=%d", n, n, p.prop.Name(), p.tail), func(b *testing.B) {
				bd := sim.MustBoard(n, n)
				s, err := newSampler(bd, SampleOptions{Start: -1, Proposal: p.prop, Tail: p.tail, Seed: 1, Workers: 1, Confidence: 0.95, Samples: 1})
				if err != nil {
					b.Fatal(err)
				}
				k := newWalker(bd, p.prop)
				k.tail = p.tail
				rng := sim.NewPCG(0, 0)
				var s1, s2 float64
				var blocks, walks int64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c := s.chunk(k, i, rng)
					s1 += c.s1
					s2 += c.s2
					blocks += c.blocks
					walks += c.walks
				}
				mean := s1 / float64(blocks)
				cv2 := (s2/float64(blocks) - mean*mean) / (mean * mean) * float64(walks) / float64(blocks)
				us := float64(b.Elapsed().Microseconds()) / float64(walks)
				if math.IsNaN(cv2) {
					cv2 = math.Inf(1)
				}
				b.ReportMetric(us*1000, "ns/walk")
				b.ReportMetric(cv2, "cv2/walk")
				b.ReportMetric(cv2*us, "cv2·µs")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
