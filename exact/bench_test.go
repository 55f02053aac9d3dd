package exact

import (
	"context"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// BenchmarkExact8x8AllSquares enumerates Warnsdorff/random exactly from all
// 64 squares of 8x8 (one goroutine).
func BenchmarkExact8x8AllSquares(b *testing.B) {
	bd := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	for i := 0; i < b.N; i++ {
		var nodes int64
		for s := 0; s < 64; s++ {
			e, err := Walk(context.Background(), bd, r, s, 0)
			if err != nil {
				b.Fatal(err)
			}
			nodes += e.Nodes
		}
		b.ReportMetric(float64(nodes), "states")
	}
}

// BenchmarkExact9x9Corner enumerates Warnsdorff/random exactly from a
// corner of 9x9: about 1.2e8 nodes of the unmerged tie tree.
func BenchmarkExact9x9Corner(b *testing.B) {
	bd := sim.MustBoard(9, 9)
	r, _ := sim.ParseRule("warnsdorff/random")
	for i := 0; i < b.N; i++ {
		e, err := Walk(context.Background(), bd, r, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(e.Nodes), "states")
		b.ReportMetric(e.TreeNodes, "tree-nodes")
		b.ReportMetric(e.PSuccess, "p-success")
	}
}

// BenchmarkExact9x9CornerTwoThreads is BenchmarkExact9x9Corner with two
// goroutines on the one start (Walks with two workers).
func BenchmarkExact9x9CornerTwoThreads(b *testing.B) {
	bd := sim.MustBoard(9, 9)
	r, _ := sim.ParseRule("warnsdorff/random")
	for i := 0; i < b.N; i++ {
		e, err := Walks(context.Background(), bd, r, []int{0}, Options{Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(e[0].Nodes), "states")
	}
}

// BenchmarkExact9x9CornerSpilled is BenchmarkExact9x9Corner with its
// layers spilled to disk within 64 MiB of states (up to 5 passes a step),
// on one goroutine and on two (two lanes): what spilling and its passes
// cost, and what the second goroutine gains.
func BenchmarkExact9x9CornerSpilled(b *testing.B) {
	bd := sim.MustBoard(9, 9)
	r, _ := sim.ParseRule("warnsdorff/random")
	for _, threads := range []int{1, 2} {
		b.Run(map[int]string{1: "one", 2: "two"}[threads], func(b *testing.B) {
			dir := b.TempDir()
			for i := 0; i < b.N; i++ {
				e, err := exactWalk(context.Background(), bd, r, 0, exactLimits{spill: dir, mem: &memoryBudget{limit: 64 << 20}, threads: threads})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(e.Nodes), "states")
			}
		})
	}
}

// BenchmarkExactWideBounds is Bounds from a1 with a budget of 2
// million states on boards of 11x11 (two words a visited set), 12x12
// (four), 17x17 (eight) and 25x25 (ten): what the wider sets cost a state.
func BenchmarkExactWideBounds(b *testing.B) {
	r, _ := sim.ParseRule("warnsdorff/random")
	for _, n := range []int{11, 12, 17, 25} {
		bd := sim.MustBoard(n, n)
		b.Run(bd.String(), func(b *testing.B) {
			var states int64
			for b.Loop() {
				e, err := Bounds(context.Background(), bd, r, 0, 2_000_000)
				if err != nil {
					b.Fatal(err)
				}
				states += e.Nodes
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/state")
		})
	}
}
