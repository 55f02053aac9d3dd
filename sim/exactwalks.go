package sim

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

// ExactWalks runs ExactWalk for every square of starts on at most workers
// goroutines and returns the results in the order of starts.
//
// A failure (say a start over budget) stops the pool, and the error returned
// is always that of the earliest start in starts that fails on its own, so
// the message does not depend on scheduling: a failing start cancels only
// the starts after it, and starts are launched in order, so the earliest
// failing one always runs to its own error. Cancellation of ctx is returned
// as ctx's error.
func ExactWalks(ctx context.Context, b *Board, r Rule, starts []int, budget int64, workers int) ([]Exact, error) {
	if workers < 1 {
		return nil, fmt.Errorf("exact on %s: workers = %d, want at least 1", b, workers)
	}
	res := make([]Exact, len(starts))
	errs := make([]error, len(starts))
	var mu sync.Mutex
	cancels := make([]context.CancelFunc, len(starts))
	failed := -1 // index of the earliest start that failed on its own
	var g errgroup.Group
	g.SetLimit(workers)
	for i, s := range starts {
		mu.Lock()
		stop := failed >= 0
		sctx, cancel := context.WithCancel(ctx)
		cancels[i] = cancel
		mu.Unlock()
		if stop || ctx.Err() != nil {
			cancel()
			break
		}
		g.Go(func() error {
			defer cancel()
			res[i], errs[i] = ExactWalk(sctx, b, r, s, budget)
			if errs[i] == nil || errors.Is(errs[i], context.Canceled) || errors.Is(errs[i], context.DeadlineExceeded) {
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			if failed < 0 || i < failed {
				failed = i
			}
			for _, c := range cancels[i+1:] {
				if c != nil {
					c()
				}
			}
			return nil
		})
	}
	_ = g.Wait() // the tasks report through errs
	if failed >= 0 {
		return nil, errs[failed]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}
