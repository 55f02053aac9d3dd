package count

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// Layer describes the states after one step of a sweep.
type Layer struct {
	Step, Steps int   // squares added so far, of all
	States      int   // distinct states after the step
	Bytes       int64 // memory the state tables take after the step
	PeakBytes   int64 // the most they took during the step
	// DiskBytes is the size of the layer's file when spilled (see
	// Options.Spill), and Passes the passes the step took over the layer
	// before it (1 unless spilled).
	DiskBytes int64
	Passes    int
	Elapsed   time.Duration
}

// sweep is one count: cycles, or paths (with a designated end or not).
type sweep struct {
	*plan
	name     string
	spent    time.Duration // in advance, over all its calls
	closed   bool
	ends     [2]int // designated path ends (see stepper)
	wide     bool   // 128-bit counts in the tables (see slot)
	workers  int
	bud      *budget
	progress func(Layer)
	layers   []Layer
	// spillDir, when set, holds the layers on disk (see spill.go);
	// passesRun is the passes the last step took.
	spillDir  string
	passesRun int
}

// chunk is how many states a worker takes at a time; batchLen how many
// successor states it collects for one shard before taking its lock.
const (
	chunk    = 1 << 14
	batchLen = 256
)

// run sweeps the board and returns the number of Hamiltonian cycles (or
// paths) it counts.
func (w *sweep) run(ctx context.Context) (Count, error) {
	first, err := w.initial()
	if err != nil {
		return Count{}, err
	}
	_, total, err := w.advance(ctx, first, 0, w.n, true)
	return total, err
}

// runShard is run for shard sh of a closed count: the sweep to the cut
// square, then on from the states of the cut layer that sh keeps (see
// Shard). The tours completed before the cut (none: every square must be
// visited) go to shard 0.
func (w *sweep) runShard(ctx context.Context, sh Shard) (Count, error) {
	if !sh.split() {
		return w.run(ctx)
	}
	first, err := w.initial()
	if err != nil {
		return Count{}, err
	}
	cut := w.cutSquare()
	mid, before, err := w.advance(ctx, first, 0, cut, true)
	if err != nil {
		return Count{}, err
	}
	if sh.K != 0 {
		before = Count{}
	}
	sh.keepShards(mid)
	_, after, err := w.advance(ctx, mid, cut, w.n, true)
	return before.Add(after), err
}

// initial is the layer before the first square: one empty state.
func (w *sweep) initial() (*layer, error) {
	l := newLayer(w.bud, w.wide)
	if err := l.addBatch(int(hash(1)>>(64-shardBits)), []entry{{key: 1, n: Count{Lo: 1}}}); err != nil {
		return nil, w.budgetError(0, err)
	}
	if err := w.pack(l, shardRange{0, shards}); err != nil {
		return nil, w.budgetError(0, err)
	}
	return l, nil
}

// advance adds squares from, …, to-1 to the layer cur (the states after
// square from-1) and returns the layer after square to-1 (nil when to is
// the last square: it is released) and the tours completed on the way.
// cur is released when own is set, and left to the caller otherwise, so
// that sweeps can branch from a shared layer.
func (w *sweep) advance(ctx context.Context, cur *layer, from, to int, own bool) (*layer, Count, error) {
	t0 := time.Now()
	defer w.timed(t0)
	var total Count
	growth := 1.5 // states after a step per state before, as last seen
	for v := from; v < to; v++ {
		next := newLayer(w.bud, w.wide)
		w.bud.stepPeak.Store(w.bud.used.Load())
		before := cur.states()
		predicted := int(float64(before) * growth)
		var done Count
		var err error
		w.passesRun = 1
		if w.spillDir != "" {
			done, err = w.spillStep(ctx, v, cur, next, predicted)
		} else {
			done, err = w.step(ctx, v, cur, next, own, shardRange{0, shards})
			if err == nil {
				err = w.pack(next, shardRange{0, shards})
			}
		}
		total = total.Add(done)
		if own {
			cur.release() // what step has not released already
		}
		if err != nil {
			next.release()
			return nil, Count{}, w.budgetError(v, err)
		}
		cur, own = next, true
		if before > 1000 {
			growth = min(1.5, float64(cur.states())/float64(before)) // a low guess, for the passes of a spilled step: a pass that outgrows the budget is split
		}
		if n := int64(cur.states()); n > w.bud.peakStates.Load() {
			w.bud.peakStates.Store(n) // sweeps run one at a time
		}
		l := Layer{Step: v + 1, Steps: w.n, States: cur.states(), Bytes: w.bud.used.Load(), PeakBytes: w.bud.stepPeak.Load(),
			Passes: w.passesRun, Elapsed: time.Since(t0)}
		if cur.file != nil {
			l.DiskBytes = cur.file.size
		}
		w.layers = append(w.layers, l)
		if w.progress != nil {
			w.progress(l)
		}
	}
	if to == w.n {
		if own {
			cur.release()
		}
		return nil, total, nil
	}
	return cur, total, nil
}

func (w *sweep) budgetError(v int, err error) error {
	if err != ErrBudget {
		return err
	}
	// Tours prefixes "count tours on BOARD: " to what a sweep returns.
	return fmt.Errorf("the states after square %d of %d outgrew the memory budget of %.3g MiB: %w",
		v, w.n, float64(w.bud.limit)/(1<<20), err)
}

// step expands every state of cur by square v into next, in parallel, and
// returns the count of tours completed at v. Only successors bound for
// the shards in keep are kept (all of them unless spilling: see
// spill.go). With consume, each shard of cur is released as soon as its
// states are read, so that cur shrinks while next grows.
//
// The successors are listed (see addSlots), at 16 bytes each, about 31 a
// state of next at 7x7, where a packed state takes 16: so that a budget
// bounds them, the step lists at most half of what the budget has left,
// then packs the layer so far (merging what it listed with what it
// packed before) and goes on. With room for the whole step, as the
// default budget has at 7x7, there is one round.
func (w *sweep) step(ctx context.Context, v int, cur, next *layer, consume bool, keep shardRange) (Count, error) {
	type task struct{ shard, from int }
	var tasks []task
	var left [shards]atomic.Int32 // tasks of each shard not yet done
	for i := range cur.s {
		for from := 0; from < cur.s[i].n; from += chunk {
			tasks = append(tasks, task{i, from})
			left[i].Add(1)
		}
	}
	var nextTask atomic.Int64
	xs := make([]*expander, w.workers)
	for k := range xs {
		xs[k] = &expander{stepper: stepper{plan: w.plan, closed: w.closed, ends: w.ends, v: v}, next: next, keep: keep}
		xs[k].setup()
	}
	for round := 0; ; round++ {
		listCap := int64(math.MaxInt64)
		if w.bud.limit > 0 {
			listCap = max(minListRound, (w.bud.limit-w.bud.used.Load()+w.bud.pooled.Load())/2)
		}
		startTask, startPending := nextTask.Load(), 0
		for _, x := range xs {
			startPending += x.pending()
		}
		var eg errgroup.Group
		for _, x := range xs {
			eg.Go(func() error {
				if err := x.flushAll(); err != nil || x.full {
					return err // what the last round left: the pack freed too little
				}
				for !x.full && next.listBytes.Load() <= listCap {
					t := int(nextTask.Add(1) - 1)
					if t >= len(tasks) {
						break
					}
					if err := ctx.Err(); err != nil {
						return err
					}
					sh, from := tasks[t].shard, tasks[t].from
					if err := x.runChunk(cur, sh, from, min(cur.s[sh].n, from+chunk)); err != nil {
						return err
					}
					if left[sh].Add(-1) == 0 && consume {
						cur.releaseShard(sh)
					}
				}
				if !x.full {
					return x.flushAll()
				}
				return nil
			})
		}
		if err := eg.Wait(); err != nil {
			return Count{}, err
		}
		done, pending := int(nextTask.Load()) >= len(tasks), 0
		for _, x := range xs {
			pending += x.pending()
		}
		if done && pending == 0 {
			var total Count
			for _, x := range xs {
				total = total.Add(x.done)
			}
			return total, nil
		}
		if round > 0 && nextTask.Load() == startTask && pending >= startPending {
			return Count{}, ErrBudget // packing made no room for what is left
		}
		roundsPacked.Add(1)
		if err := w.pack(next, keep); err != nil {
			return Count{}, err
		}
	}
}

// minListRound is the least a round of a step may list (see step): a
// budget that leaves less after packing is too small for the layer. A
// variable for the tests, which force rounds on small boards.
var minListRound int64 = 16 << 20

// roundsPacked counts the packs between rounds of steps, for the tests.
var roundsPacked atomic.Int64

// expander is one worker of a step: it expands states and batches the
// successors per shard of the next layer.
type expander struct {
	stepper
	next *layer
	keep shardRange
	// bufs[i] batches the successors bound for shard i: their keys and
	// the counts' low words, with the high words in his[i] in a wide
	// layer.
	bufs [shards][]slot
	his  [shards][]uint64
	// full is set when a batch found the budget spent: batches then grow
	// past batchLen until the round ends and the layer is packed (see
	// step).
	full bool
	done Count
	out  [maxOut]uint64
	// e and hi hold a chunk read back from a spilled layer.
	e  []slot
	hi []uint64
}

// runChunk expands the states in slots from, …, to-1 of shard sh of cur
// (a packed layer, in memory or on disk).
func (x *expander) runChunk(cur *layer, sh, from, to int) error {
	if cur.file == nil {
		s := &cur.s[sh]
		var hi []uint64
		if cur.wide {
			hi = s.hi[from:to]
		}
		return x.run(s.e[from:to], hi)
	}
	if x.e == nil {
		x.e = make([]slot, chunk)
		if cur.wide {
			x.hi = make([]uint64, chunk)
		}
	}
	if err := cur.readChunk(sh, from, to, x.e, x.hi); err != nil {
		return err
	}
	var hi []uint64
	if cur.wide {
		hi = x.hi[:to-from]
	}
	return x.run(x.e[:to-from], hi)
}

// run expands the states e, with the counts' high words in hi in a wide
// layer.
func (x *expander) run(e []slot, hi []uint64) error {
	for j := range e {
		n := Count{Lo: e[j].lo}
		if hi != nil {
			n.Hi = hi[j]
		}
		nout, nd := x.expand(e[j].key-1, &x.out)
		if nd > 0 {
			x.done = x.done.Add(n.Mul64(uint64(nd)))
		}
		for _, k := range x.out[:nout] {
			k++
			i := int(hash(k) >> (64 - shardBits))
			if i < x.keep.lo || i >= x.keep.hi {
				continue
			}
			x.bufs[i] = append(x.bufs[i], slot{k, n.Lo})
			if x.next.wide {
				x.his[i] = append(x.his[i], n.Hi)
			} else if n.Hi != 0 {
				return errNarrow
			}
			if len(x.bufs[i]) >= batchLen && !x.full {
				if err := x.flush(i); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// flush lists shard i's batch. When the budget is spent it keeps what
// did not fit and sets full.
func (x *expander) flush(i int) error {
	if len(x.bufs[i]) == 0 {
		return nil
	}
	var hi []uint64
	if x.next.wide {
		hi = x.his[i]
	}
	n, err := x.next.addSlots(i, x.bufs[i], hi)
	x.bufs[i] = x.bufs[i][:copy(x.bufs[i], x.bufs[i][n:])]
	if x.next.wide {
		x.his[i] = x.his[i][:copy(x.his[i], x.his[i][n:])]
	}
	if err == ErrBudget {
		x.full = true
		return nil
	}
	return err
}

// flushAll lists every batch, or as many as the budget takes.
func (x *expander) flushAll() error {
	x.full = false
	for i := range x.bufs {
		if err := x.flush(i); err != nil || x.full {
			return err
		}
	}
	return nil
}

// pending is the successors the worker's batches hold.
func (x *expander) pending() int {
	n := 0
	for i := range x.bufs {
		n += len(x.bufs[i])
	}
	return n
}

// pack packs the shards r of a filled layer, in parallel.
func (w *sweep) pack(l *layer, r shardRange) error {
	next := atomic.Int64{}
	next.Store(int64(r.lo))
	var eg errgroup.Group
	for range w.workers {
		eg.Go(func() error {
			pk := packer{l: l}
			defer pk.release()
			for i := int(next.Add(1) - 1); i < r.hi; i = int(next.Add(1) - 1) {
				if err := pk.pack(i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return eg.Wait()
}
