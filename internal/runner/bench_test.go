package runner

import (
	"context"
	"github.com/knightwalk/knightwalk/internal/config"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// BenchmarkEndToEndVsKernel runs the same 8x8 Warnsdorff/random walks twice
// on one worker, in the same benchmark: through Execute (planning, units,
// tallies, ordered hand-over, merging) and through a bare sim.Walker loop.
// It reports both rates and their ratio, which the brief asks to keep at or
// above 0.85.
func BenchmarkEndToEndVsKernel(b *testing.B) {
	bd := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	starts := make([]int, 64)
	for i := range starts {
		starts[i] = i
	}
	const walks = 20000
	s := &config.Experiment{Name: "bench", Seed: 1, Boards: []*sim.Board{bd}, Rules: []sim.Rule{r}, Starts: [][]int{starts}, Walks: walks}
	p, err := NewPlan(s)
	if err != nil {
		b.Fatal(err)
	}
	var e2e, kernel time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		ts := NewTallies()
		err := Execute(context.Background(), p, p.Units(All), Options{Workers: 1}, func(r Result) error { return ts.Add(r.Unit.Cell(), r.Tally) })
		if err != nil {
			b.Fatal(err)
		}
		e2e += time.Since(t0)

		t0 = time.Now()
		w, _ := sim.NewWalker(bd, r)
		n := 0
		var out [256]sim.Outcome // the kernel as the runner drives it
		for _, st := range starts {
			key := sim.NewKey(1, bd, r, st)
			for j := uint64(0); j < walks; j += uint64(len(out)) {
				run := out[:min(uint64(len(out)), walks-j)]
				w.WalkRange(st, key, j, run)
				for _, o := range run {
					n += o.Length
				}
			}
		}
		kernel += time.Since(t0)
		if n == 0 {
			b.Fatal("no steps")
		}
	}
	total := float64(b.N) * 64 * walks
	b.ReportMetric(total/e2e.Seconds(), "e2e-walks/s")
	b.ReportMetric(total/kernel.Seconds(), "kernel-walks/s")
	b.ReportMetric(kernel.Seconds()/e2e.Seconds(), "e2e/kernel")
}
