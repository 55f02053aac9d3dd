package runner

import (
	"context"
	"iter"
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
// error or when ctx is cancelled. Units are drawn from the sequence as
// workers free up: at most 2*workers are ever taken but not handed over,
// so memory does not grow with the number of units.
func Execute(ctx context.Context, p *Plan, units iter.Seq[Unit], opts Options, done func(Result) error) error {
	workers := max(1, opts.Workers)
	g, ctx := errgroup.WithContext(ctx)
	type job struct {
		seq int
		u   Unit
	}
	type finished struct {
		seq int
		r   Result
	}
	jobs := make(chan job)
	// slots bounds the units taken but not handed over; out never blocks,
	// as it has room for all of them.
	slots := make(chan struct{}, 2*workers)
	out := make(chan finished, 2*workers)

	g.Go(func() error {
		defer close(jobs)
		seq := 0
		for u := range units {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- job{seq, u}:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq++
		}
		return nil
	})
	var running sync.WaitGroup
	for range workers {
		running.Add(1)
		g.Go(func() error {
			defer running.Done()
			walkers := map[[2]int]*sim.Walker{}
			for j := range jobs {
				u := j.u
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
				out <- finished{j.seq, r}
			}
			return nil
		})
	}
	go func() { running.Wait(); close(out) }()
	g.Go(func() error {
		pending := map[int]Result{}
		next := 0
		for f := range out {
			pending[f.seq] = f.r
			for r, ok := pending[next]; ok; r, ok = pending[next] {
				delete(pending, next)
				next++
				<-slots
				if err := done(r); err != nil {
					return err
				}
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
