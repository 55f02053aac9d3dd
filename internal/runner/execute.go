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
	Tally *stats.Tally // nil when sparse is set
	// sparse is the tally of a unit on a board above sparseAbove squares,
	// counted in the worker's reused buffer and handed over sparse, so a
	// sweep over many large boards allocates no histograms per unit.
	sparse *sparseTally
	Walks  []sim.Outcome // per-walk outcomes, in walk order, when asked for
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
			// Walkers are reused across the units of a board but dropped
			// when the board changes: units come board by board, and a
			// sweep over many large boards cannot hold a walker for each.
			walkers, board := map[[2]int]*sim.Walker{}, -1
			var buf scratch
			for i := range jobs {
				u := units[i]
				if u.Board != board {
					clear(walkers)
					board = u.Board
				}
				w := walkers[[2]int{u.Board, u.Rule}]
				if w == nil {
					var err error
					if w, err = sim.NewWalker(p.Exp.Boards[u.Board], p.Exp.Rules[u.Rule]); err != nil {
						return err
					}
					walkers[[2]int{u.Board, u.Rule}] = w
				}
				r, err := runUnit(ctx, p.Exp, u, w, opts, &buf)
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

func runUnit(ctx context.Context, s *config.Experiment, u Unit, w *sim.Walker, opts Options, buf *scratch) (Result, error) {
	b := s.Boards[u.Board]
	key := sim.NewKey(s.Seed, b, s.Rules[u.Rule], u.Start)
	r := Result{Unit: u}
	var t *stats.Tally
	if b.Squares() > sparseAbove {
		t = buf.tally(b.Squares())
	} else {
		t = stats.NewTally(b.Squares())
		r.Tally = t
	}
	if opts.PerWalk {
		r.Walks = make([]sim.Outcome, 0, u.Hi-u.Lo)
	}
	for lo := u.Lo; lo < u.Hi; lo += checkEvery {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		hi := min(lo+checkEvery, u.Hi)
		for i := lo; i < hi; i++ {
			o := w.Walk(u.Start, key, i)
			t.Add(o)
			if opts.PerWalk {
				r.Walks = append(r.Walks, o)
			}
		}
		if opts.Progress != nil {
			opts.Progress.Add(hi - lo)
		}
	}
	if r.Tally == nil {
		r.sparse = toSparse(t)
	}
	return r, nil
}

// scratch is a worker's reused histogram storage for units on large
// boards: a fresh pair of dense histograms per unit of a 2000×2000 board
// is 64 MB, and a sweep allocating one per board grew the heap to GBs.
type scratch struct{ lengths, deadEnds []uint64 }

// tally returns an empty tally of n squares over the scratch storage,
// valid until the next call.
func (b *scratch) tally(n int) *stats.Tally {
	if cap(b.deadEnds) < n {
		b.lengths, b.deadEnds = make([]uint64, n+1), make([]uint64, n)
	}
	t := &stats.Tally{Lengths: b.lengths[:n+1], DeadEnds: b.deadEnds[:n]}
	clear(t.Lengths)
	clear(t.DeadEnds)
	return t
}

// Tallies collects unit results into one tally per (board, rule, start).
// A tally of a large board is kept in sparse form between Adds: its dense
// histograms are two numbers per square however few walks it counts, and
// a sweep of one walk per start over n = 5..2000 would otherwise hold
// about 16 bytes × 2.7×10⁹ squares per start (issue 16).
type Tallies struct {
	mu     sync.Mutex
	m      map[Cell]*stats.Tally
	sparse map[Cell]*sparseTally

	// last is the latest dense copy Of made of a sparse cell: building the
	// tables asks for a cell several times in a row (its square, its
	// class and degree groups), and each copy of a 2000×2000 tally is 64 MB.
	last     *stats.Tally
	lastCell Cell
}

// sparseAbove is the board size (squares) above which Tallies keeps a
// cell's tally sparse; below it the dense tally is small and merging the
// many units of a small board stays a plain addition.
const sparseAbove = 1 << 14

func NewTallies() *Tallies {
	return &Tallies{m: map[Cell]*stats.Tally{}, sparse: map[Cell]*sparseTally{}}
}

// Add merges t into the tally of k.
func (ts *Tallies) Add(k Cell, t *stats.Tally) error {
	if t.Squares() > sparseAbove {
		return ts.addSparse(k, toSparse(t))
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	cur := ts.m[k]
	if cur == nil {
		cur = stats.NewTally(t.Squares())
		ts.m[k] = cur
	}
	return cur.Merge(t)
}

// AddResult merges a unit's tally into the tally of its cell.
func (ts *Tallies) AddResult(r Result) error {
	if r.sparse != nil {
		return ts.addSparse(r.Unit.Cell(), r.sparse)
	}
	return ts.Add(r.Unit.Cell(), r.Tally)
}

func (ts *Tallies) addSparse(k Cell, t *sparseTally) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.lastCell == k {
		ts.last = nil // the cell changes: its copy is stale
	}
	cur := ts.sparse[k]
	if cur == nil {
		ts.sparse[k] = t
		return nil
	}
	return cur.merge(t)
}

// Of returns the tally of (board, rule, start), or nil. The caller must
// only read it; a large board's tally is a dense copy of its sparse form,
// shared with the next Of of the same cell.
func (ts *Tallies) Of(board, rule, start int) *stats.Tally {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k := Cell{board, rule, start}
	if s := ts.sparse[k]; s != nil {
		if ts.last != nil && ts.lastCell == k {
			return ts.last
		}
		t, err := s.dense()
		if err != nil { // Add wrote s from a tally
			panic("runner: " + err.Error())
		}
		ts.last, ts.lastCell = t, k
		return t
	}
	return ts.m[k]
}
