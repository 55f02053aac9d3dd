package runner

import (
	"context"
	"github.com/knightwalk/knightwalk/internal/config"
	"iter"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// Result is what one unit produced.
type Result struct {
	Unit  Unit
	Tally *stats.Tally
	Walks []sim.Outcome // per-walk outcomes, in walk order, when asked for

	// sparse is Tally's sparse form, made by runUnit on boards of more
	// than sparseAbove squares from the bins its walks touched (nil on
	// smaller boards): the cell's tally and the checkpoint take it
	// instead of scanning the board's bins.
	sparse *sparseTally
}

// sparseTally returns r's tally in sparse form.
func (r Result) sparseTally() sparseTally {
	if r.sparse != nil {
		return *r.sparse
	}
	return sparseOf(r.Tally)
}

// tallyPool keeps the dense tallies of large boards' units for the next
// unit of the same board: allocating and clearing two histograms of 10^6
// bins for a unit of 64 walks of 1,400 squares (a random walk on
// 1000x1000) cost more than the walks. A tally comes back cleared bin by
// bin from its sparse form, in time proportional to the bins its walks
// touched.
type tallyPool struct {
	mu   sync.Mutex
	free []*stats.Tally
}

// get returns an empty tally of the given squares: a free one with room
// for them (its whole capacity is zero: put clears what a unit wrote, and
// nothing is written past a tally's length), else a new one with room for
// a board a quarter larger, so that a sweep's next sizes (n = 5..2000, a
// board a unit) take it again instead of allocating and clearing their
// own. A free tally too small is dropped.
func (p *tallyPool) get(squares int) *stats.Tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.free) > 0 {
		t := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		if cap(t.DeadEnds) >= squares && cap(t.Lengths) >= squares+1 {
			t.Lengths, t.DeadEnds = t.Lengths[:squares+1], t.DeadEnds[:squares]
			return t
		}
	}
	room := squares + squares/4
	return &stats.Tally{Lengths: make([]uint64, squares+1, room+1), DeadEnds: make([]uint64, squares, room)}
}

// put takes back the tally of r, once done has returned, when runUnit
// took it from the pool.
func (p *tallyPool) put(r Result) {
	t := r.Tally
	if r.sparse == nil || t == nil {
		return
	}
	for _, b := range r.sparse.Lengths {
		t.Lengths[b[0]] = 0
	}
	for _, b := range r.sparse.DeadEnds {
		t.DeadEnds[b[0]] = 0
	}
	*t = stats.Tally{Lengths: t.Lengths, DeadEnds: t.DeadEnds}
	p.mu.Lock()
	p.free = append(p.free, t)
	p.mu.Unlock()
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
// workers free up: at most max(2*workers, maxGroup) are ever taken but not
// handed over, so memory does not grow with the number of units. A cell's
// consecutive small random-walk units may go to one worker together
// (groupable). On boards of more
// than 1024 squares the Result's Tally is reused once done returns: done
// must copy what it keeps of it (Tallies.Add and the checkpoint keep its
// sparse form).
func Execute(ctx context.Context, p *Plan, units iter.Seq[Unit], opts Options, done func(Result) error) error {
	workers := max(1, opts.Workers)
	pool := &tallyPool{}
	g, ctx := errgroup.WithContext(ctx)
	type job struct {
		seq int
		us  []Unit // one unit, or a run of a cell's consecutive small units (groupable)
	}
	type finished struct {
		seq int
		r   Result
	}
	jobs := make(chan job)
	// slots bounds the units taken but not handed over; out never blocks,
	// as it has room for all of them.
	slots := make(chan struct{}, max(2*workers, maxGroup))
	out := make(chan finished, cap(slots))

	g.Go(func() error {
		defer close(jobs)
		next, stop := iter.Pull(units)
		defer stop()
		seq := 0
		u, ok := next()
		for ok {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			// A cell's consecutive small units go together. Waiting for
			// a slot for the next of them cannot deadlock: the group holds
			// fewer than cap(slots) (maxGroup at most), so some slot is
			// free or held by a unit already sent, which will free it.
			us := []Unit{u}
			u, ok = next()
			for ok && len(us) < maxGroup && groupable(p, us[len(us)-1], u) {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return ctx.Err()
				}
				us = append(us, u)
				u, ok = next()
			}
			select {
			case jobs <- job{seq, us}:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq += len(us)
		}
		return nil
	})
	var running sync.WaitGroup
	for range workers {
		running.Add(1)
		g.Go(func() error {
			defer running.Done()
			// Walkers are reused across the units of a board but dropped
			// when the board changes: units come board by board, and a
			// sweep over many large boards cannot hold a walker for each;
			// nor can a design of 40,320 rules on one board (units come
			// rule by rule), so at most maxWalkers are kept.
			// A unit whose rule has no walker yet takes over the last
			// one used, where it differs only in parameters
			// (sim.Walker.Retarget): a design's cells on a large board
			// then share one walker instead of building the board's
			// state for each.
			walkers, board := map[[2]int]*sim.Walker{}, -1
			var last [2]int
			for j := range jobs {
				u := j.us[0]
				if u.Board != board || len(walkers) >= maxWalkers {
					clear(walkers)
					board = u.Board
				}
				key := [2]int{u.Board, u.Rule}
				w := walkers[key]
				if w == nil {
					if prev := walkers[last]; prev != nil && prev.Retarget(p.Exp.Rules[u.Rule]) {
						delete(walkers, last)
						w = prev
					} else {
						var err error
						if w, err = sim.NewWalker(p.Exp.Boards[u.Board], p.Exp.Rules[u.Rule]); err != nil {
							return err
						}
					}
					walkers[key] = w
				}
				last = key
				if len(j.us) == 1 {
					r, err := runUnit(ctx, p.Exp, u, w, opts, pool, nil)
					if err != nil {
						return err
					}
					out <- finished{j.seq, r}
					continue
				}
				err := runGroup(ctx, p.Exp, j.us, w, opts, pool, func(i int, r Result) { out <- finished{j.seq + i, r} })
				if err != nil {
					return err
				}
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
				pool.put(r)
			}
		}
		return nil
	})
	return g.Wait()
}

// maxWalkers bounds the walkers a worker keeps for reuse.
const maxWalkers = 64

// checkEvery is how many walks a unit runs between looks at ctx.
const checkEvery = 1 << 12

// maxGroup bounds the units of a group walked together (groupable).
const maxGroup = 8

// groupable says whether unit v may join a group ending with unit u: the
// same cell, its walks next after u's, both small, of the random walk.
// A cell's units on a large board are 64 walks (minUnitWalks) whatever
// the rule, sized for Warnsdorff's walk of n squares; a random walk there
// is a few thousand squares, and the kernel keeps many in flight, so a
// batch of 64 ends on its few longest walks with the rest idle. Walked
// together (one WalkRange over their walks, then each unit's result from
// its own walks), the units' results are what they were one by one: each
// walk's outcome depends on its index only.
func groupable(p *Plan, u, v Unit) bool {
	return v.Board == u.Board && v.Rule == u.Rule && v.Start == u.Start && v.Round == u.Round && v.Lo == u.Hi &&
		u.Hi-u.Lo <= minUnitWalks && v.Hi-v.Lo <= minUnitWalks &&
		p.Exp.Rules[u.Rule].Kind == sim.RandomWalk
}

// groupHook, when set (by tests), sees each group runGroup walks.
var groupHook func([]Unit)

// runGroup walks the units us (a group, groupable) in one WalkRange and
// hands each unit's result to emit with its index in us, in order.
func runGroup(ctx context.Context, s *config.Experiment, us []Unit, w *sim.Walker, opts Options, pool *tallyPool, emit func(int, Result)) error {
	if groupHook != nil {
		groupHook(us)
	}
	first, last := us[0], us[len(us)-1]
	if err := ctx.Err(); err != nil {
		return err
	}
	outs := make([]sim.Outcome, last.Hi-first.Lo)
	key := sim.NewKey(s.Seed, s.Boards[first.Board], s.Rules[first.Rule], first.Start)
	stop := w.StopOn(ctx)
	w.WalkRange(first.Start, key, first.Lo, outs)
	stop()
	if w.Stopped() {
		if err := w.Err(); err != nil { // a rule of your own answered what no walk may take
			return err
		}
		return ctx.Err()
	}
	for i, u := range us {
		r, err := runUnit(ctx, s, u, w, opts, pool, outs[u.Lo-first.Lo:u.Hi-first.Lo])
		if err != nil {
			return err
		}
		emit(i, r)
	}
	return nil
}

// runUnit runs unit u's walks on w, or with walked set takes them from
// there (its outcomes in walk order, runGroup's), and makes its result.
func runUnit(ctx context.Context, s *config.Experiment, u Unit, w *sim.Walker, opts Options, pool *tallyPool, walked []sim.Outcome) (Result, error) {
	b := s.Boards[u.Board]
	key := sim.NewKey(s.Seed, b, s.Rules[u.Rule], u.Start)
	// On large boards the tally comes from the pool and the bins the walks
	// touch are noted (lengths, end squares), for its sparse form.
	large := b.Squares() > sparseAbove
	var t *stats.Tally
	var lens, ends []int
	if large {
		t = pool.get(b.Squares())
		lens, ends = make([]int, 0, u.Hi-u.Lo), make([]int, 0, u.Hi-u.Lo)
	} else {
		t = stats.NewTally(b.Squares())
	}
	r := Result{Unit: u, Tally: t}
	if opts.PerWalk {
		r.Walks = make([]sim.Outcome, 0, u.Hi-u.Lo)
	}
	// Several walks at a time (the kernel keeps some in flight), but no
	// more than the unit has: the buffer escapes to the heap, and 256
	// outcomes are 20 kB to allocate and clear for a unit of one walk (a
	// deterministic rule's cell), most of the time of a design's units.
	var buf []sim.Outcome
	if walked == nil {
		buf = make([]sim.Outcome, min(256, u.Hi-u.Lo))
		defer w.StopOn(ctx)()
	}
	for lo := u.Lo; lo < u.Hi; lo += checkEvery {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		hi := min(lo+checkEvery, u.Hi)
		for i := lo; i < hi; {
			var out []sim.Outcome
			if walked != nil {
				out = walked[i-u.Lo : hi-u.Lo]
			} else {
				out = buf[:min(uint64(len(buf)), hi-i)]
				w.WalkRange(u.Start, key, i, out)
				if w.Stopped() {
					if err := w.Err(); err != nil { // a rule of your own answered what no walk may take
						return Result{}, err
					}
					return Result{}, ctx.Err()
				}
			}
			i += uint64(len(out))
			for _, o := range out {
				t.Add(o)
				if large {
					lens, ends = append(lens, o.Length), append(ends, o.End)
				}
			}
			if opts.PerWalk {
				r.Walks = append(r.Walks, out...)
			}
		}
		if opts.Progress != nil {
			opts.Progress.Add(hi - lo)
		}
	}
	if large {
		sp := sparseAt(t, lens, ends)
		r.sparse = &sp
	}
	return r, nil
}

// Tallies collects unit results into one tally per (board, rule, start).
type Tallies struct {
	mu     sync.Mutex
	m      map[Cell]*stats.Tally
	sparse map[Cell]*sparseTally
	// one holds the cells of small boards that have counted one walk so
	// far, as that walk: a deterministic rule's cell (one walk decides it)
	// takes 40 bytes here instead of a dense tally's two numbers per
	// square (1 kB on 8x8), so a design's millions of cells fit. A second
	// tally of the cell moves it to m.
	one map[Cell]oneWalk

	// last is the latest dense copy Of made of a sparse cell: building the
	// tables asks for a cell several times in a row (its square, its
	// class and degree groups), and each copy of a 2000×2000 tally is 64 MB.
	last     *stats.Tally
	lastCell Cell
}

// sparseAbove is the board size (squares) above which Tallies keeps a
// cell's tally sparse between Adds: a dense tally is two numbers per square
// however few walks it counts, so every start of an n×n board held dense
// takes 16·n⁴ bytes (1.6 GB at 100x100; 200x200 with all starts was
// killed for memory). At 1024 squares the dense tallies of a
// whole board take at most 16 MiB, and merging the many units of a small
// board stays a plain addition.
const sparseAbove = 1 << 10

func NewTallies() *Tallies {
	return &Tallies{m: map[Cell]*stats.Tally{}, sparse: map[Cell]*sparseTally{}, one: map[Cell]oneWalk{}}
}

// Add merges t into the tally of k.
func (ts *Tallies) Add(k Cell, t *stats.Tally) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.Squares() > sparseAbove {
		return ts.addSparse(k, sparseOf(t))
	}
	cur := ts.m[k]
	if cur == nil {
		o, first := ts.one[k]
		if !first && t.Walks == 1 {
			if w, ok := oneWalkOf(t); ok {
				ts.one[k] = w
				return nil
			}
		}
		cur = stats.NewTally(t.Squares())
		if first {
			delete(ts.one, k)
			o.addTo(cur)
		}
		ts.m[k] = cur
	}
	return cur.Merge(t)
}

// addResult is Add of a unit's result, taking its sparse form where
// runUnit made one.
func (ts *Tallies) addResult(r Result) error {
	if r.sparse == nil {
		return ts.Add(r.Unit.Cell(), r.Tally)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.addSparse(r.Unit.Cell(), *r.sparse)
}

// addSparse merges st, the sparse tally of a board of more than
// sparseAbove squares, into the tally of k; ts.mu is held.
func (ts *Tallies) addSparse(k Cell, st sparseTally) error {
	if ts.lastCell == k {
		ts.last = nil // the cell changes: its copy is stale
	}
	if cur := ts.sparse[k]; cur != nil {
		return cur.merge(st)
	}
	// The cell's own histograms: merge adds into them in place, and st's
	// are the unit's result's.
	st.Lengths, st.DeadEnds = slices.Clone(st.Lengths), slices.Clone(st.DeadEnds)
	ts.sparse[k] = &st
	return nil
}

// Of returns the tally of (board, rule, start), or nil. The caller must
// only read it: a large board's tally is a dense copy of its sparse form,
// shared with the next Of of the same cell.
func (ts *Tallies) Of(board, rule, start int) *stats.Tally {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k := Cell{board, rule, start}
	if s := ts.sparse[k]; s != nil {
		if ts.last != nil && ts.lastCell == k {
			return ts.last
		}
		t, err := s.tally(s.Squares)
		if err != nil { // Add wrote s from a tally
			panic("runner: " + err.Error())
		}
		ts.last, ts.lastCell = t, k
		return t
	}
	if o, ok := ts.one[k]; ok {
		t := stats.NewTally(int(o.squares))
		o.addTo(t)
		return t
	}
	return ts.m[k]
}
