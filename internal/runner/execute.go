package runner

import (
	"context"
	"knightwalk/internal/config"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"knightwalk/sim"
	"knightwalk/stats"
)

// Result is what one unit produced.
type Result struct {
	Unit  Unit
	Tally *stats.Tally
	Walks []sim.Outcome // per-walk outcomes, in walk order, when asked for
}

// Options tune Execute.
type Options struct {
	Workers  int  // goroutines running units (at least 1)
	PerWalk  bool // keep every walk's outcome in Result.Walks
	Progress *atomic.Uint64
}

// Execute runs units over opts.Workers goroutines and hands each finished
// unit to done, from one goroutine at a time and in the order of units
// (a unit that finishes early waits for those before it), so what done
// writes is the same whatever the number of workers. It stops at the first
// error or when ctx is cancelled.
func Execute(ctx context.Context, p *Plan, units []Unit, opts Options, done func(Result) error) error {
	workers := max(1, opts.Workers)
	g, ctx := errgroup.WithContext(ctx)
	jobs := make(chan int)
	results := make([]chan Result, len(units))
	for i := range results {
		results[i] = make(chan Result, 1)
	}
	// At most 2*workers units may be finished but not yet handed over, so
	// per-walk outcomes held in memory stay bounded.
	slots := make(chan struct{}, 2*workers)

	g.Go(func() error {
		defer close(jobs)
		for i := range units {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	for range workers {
		g.Go(func() error {
			walkers := map[[2]int]*sim.Walker{}
			for i := range jobs {
				u := units[i]
				w := walkers[[2]int{u.Board, u.Rule}]
				if w == nil {
					var err error
					if w, err = sim.NewWalker(p.Exp.Boards[u.Board], p.Exp.Rules[u.Rule]); err != nil {
						return err
					}
					walkers[[2]int{u.Board, u.Rule}] = w
				}
				r, err := runUnit(ctx, p.Exp, u, w, opts)
				if err != nil {
					return err
				}
				results[i] <- r
			}
			return nil
		})
	}
	g.Go(func() error {
		for i := range units {
			select {
			case r := <-results[i]:
				<-slots
				if err := done(r); err != nil {
					return err
				}
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	return g.Wait()
}

// checkEvery is how many walks a unit runs between looks at ctx.
const checkEvery = 1 << 12

func runUnit(ctx context.Context, s *config.Experiment, u Unit, w *sim.Walker, opts Options) (Result, error) {
	b := s.Boards[u.Board]
	key := sim.NewKey(s.Seed, b, s.Rules[u.Rule], u.Start)
	t := stats.NewTally(b.Squares())
	r := Result{Unit: u, Tally: t}
	if opts.PerWalk {
		r.Walks = make([]sim.Outcome, 0, u.Hi-u.Lo)
	}
	var buf [256]sim.Outcome
	for lo := u.Lo; lo < u.Hi; lo += checkEvery {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		hi := min(lo+checkEvery, u.Hi)
		for i := lo; i < hi; i += uint64(len(buf)) {
			// Several walks at a time: the kernel keeps some in flight.
			out := buf[:min(uint64(len(buf)), hi-i)]
			w.WalkRange(u.Start, key, i, out)
			for _, o := range out {
				t.Add(o)
			}
			if opts.PerWalk {
				r.Walks = append(r.Walks, out...)
			}
		}
		if opts.Progress != nil {
			opts.Progress.Add(hi - lo)
		}
	}
	return r, nil
}

// Tallies collects unit results into one tally per (board, rule, start).
type Tallies struct {
	mu sync.Mutex
	m  map[Cell]*stats.Tally
}

func NewTallies() *Tallies { return &Tallies{m: map[Cell]*stats.Tally{}} }

// Add merges t into the tally of k.
func (ts *Tallies) Add(k Cell, t *stats.Tally) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	cur := ts.m[k]
	if cur == nil {
		cur = stats.NewTally(t.Squares())
		ts.m[k] = cur
	}
	return cur.Merge(t)
}

// Of returns the tally of (board, rule, start), or nil.
func (ts *Tallies) Of(board, rule, start int) *stats.Tally {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.m[Cell{board, rule, start}]
}
