package rare

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/knightwalk/knightwalk/sim"
)

// PlainResult is a plain Monte Carlo estimate of the same probability, for
// comparing costs at the same precision.
type PlainResult struct {
	Walks, Hits int64
	Steps       int64
	Estimate    float64
	StdErr      float64 // binomial: √(p(1-p)/n)
	RelStdErr   float64 // StdErr / Estimate (+Inf when no walk reached the target)
}

// Plain runs walks plain walks 0, 1, … of o's (seed, board, rule, start),
// the very walks `experiment run` draws, and counts those that reach
// o.Target. Only o's board, rule, start, seed, target and workers are used.
func Plain(ctx context.Context, o Options, walks int64) (PlainResult, error) {
	o.Particles, o.Replicates = 1, 2 // not used here
	if err := o.check(); err != nil {
		return PlainResult{}, err
	}
	if walks < 1 {
		return PlainResult{}, fmt.Errorf("plain walks %d: want at least 1", walks)
	}
	key := sim.NewKey(o.Seed, o.Board, o.Rule, o.Start)
	var next, hits, steps atomic.Int64
	var failed atomic.Pointer[error] // a rule of your own's RuleError
	var wg sync.WaitGroup
	const chunk = 256
	for range o.Workers {
		w, err := sim.NewWalker(o.Board, o.Rule)
		if err != nil {
			return PlainResult{}, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]sim.Outcome, chunk)
			for ctx.Err() == nil {
				lo := next.Add(chunk) - chunk
				if lo >= walks {
					return
				}
				part := out[:min(chunk, walks-lo)]
				w.WalkRange(o.Start, key, uint64(lo), part)
				if w.Stopped() {
					if err := w.Err(); err != nil {
						failed.CompareAndSwap(nil, &err)
					}
					return
				}
				var h, s int64
				for _, x := range part {
					s += int64(x.Length - 1)
					if x.Length >= o.Target {
						h++
					}
				}
				hits.Add(h)
				steps.Add(s)
			}
		}()
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		return PlainResult{}, *err
	}
	if err := ctx.Err(); err != nil {
		return PlainResult{}, err
	}
	r := PlainResult{Walks: walks, Hits: hits.Load(), Steps: steps.Load()}
	r.Estimate = float64(r.Hits) / float64(walks)
	r.StdErr = math.Sqrt(r.Estimate * (1 - r.Estimate) / float64(walks))
	r.RelStdErr = math.Inf(1)
	if r.Hits > 0 {
		r.RelStdErr = r.StdErr / r.Estimate
	}
	return r, nil
}
