package count

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// Layer describes the states after one step of a sweep.
type Layer struct {
	Step, Steps int   // squares added so far, of all
	States      int   // distinct states after the step
	Bytes       int64 // memory the state tables take after the step
	Elapsed     time.Duration
}

// sweep is one count: cycles, or paths (with a designated end or not).
type sweep struct {
	*plan
	closed   bool
	ends     [2]int // designated path ends (see stepper)
	wide     bool   // 128-bit counts in the tables (see slot)
	workers  int
	bud      *budget
	progress func(Layer)
	layers   []Layer
}

// chunk is how many table slots a worker takes at a time; batch how many
// successor states it collects for one shard before taking its lock.
const (
	chunk = 1 << 14
	batch = 256
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

// initial is the layer before the first square: one empty state.
func (w *sweep) initial() (*layer, error) {
	l := newLayer(w.bud, w.wide)
	if err := l.addBatch(int(hash(1)>>(64-shardBits)), []entry{{key: 1, n: Count{Lo: 1}}}); err != nil {
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
	var total Count
	growth := 1.5 // states after a step per state before, as last seen
	for v := from; v < to; v++ {
		next := newLayer(w.bud, w.wide)
		before := cur.states()
		err := next.presize(int(float64(before) * growth))
		if err == nil {
			var done Count
			done, err = w.step(ctx, v, cur, next)
			total = total.Add(done)
		}
		if own {
			cur.release()
		}
		if err != nil {
			next.release()
			return nil, Count{}, w.budgetError(v, err)
		}
		cur, own = next, true
		if before > 1000 {
			growth = min(1.5, float64(cur.states())/float64(before)) // a low guess: tables grow, and an overshoot would hold memory idle
		}
		if n := int64(cur.states()); n > w.bud.peakStates.Load() {
			w.bud.peakStates.Store(n) // sweeps run one at a time
		}
		l := Layer{Step: v + 1, Steps: w.n, States: cur.states(), Bytes: w.bud.used.Load(), Elapsed: time.Since(t0)}
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
	return fmt.Errorf("count tours on %s: the states after square %d of %d outgrew the memory budget of %d MiB: %w",
		w.board, v, w.n, w.bud.limit>>20, err)
}

// step expands every state of cur by square v into next, in parallel, and
// returns the count of tours completed at v.
func (w *sweep) step(ctx context.Context, v int, cur, next *layer) (Count, error) {
	type task struct{ shard, from int }
	var tasks []task
	for i := range cur.s {
		for from := 0; from < len(cur.s[i].e); from += chunk {
			tasks = append(tasks, task{i, from})
		}
	}
	var (
		nextTask atomic.Int64
		mu       sync.Mutex
		total    Count
		eg       errgroup.Group
	)
	for range w.workers {
		eg.Go(func() error {
			st := &stepper{plan: w.plan, closed: w.closed, ends: w.ends, v: v}
			var bufs [shards][]entry
			var done Count
			flush := func(i int) error {
				err := next.addBatch(i, bufs[i])
				bufs[i] = bufs[i][:0]
				return err
			}
			var out [maxOut]uint64
			for {
				t := int(nextTask.Add(1) - 1)
				if t >= len(tasks) {
					break
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				sh := tasks[t].shard
				e := cur.s[sh].e
				for j := tasks[t].from; j < min(len(e), tasks[t].from+chunk); j++ {
					if e[j].key == 0 {
						continue
					}
					n := cur.count(sh, j)
					nout, nd := st.expand(e[j].key-1, &out)
					if nd > 0 {
						done = done.Add(n.Mul64(uint64(nd)))
					}
					for _, k := range out[:nout] {
						k++
						i := int(hash(k) >> (64 - shardBits))
						bufs[i] = append(bufs[i], entry{k, n})
						if len(bufs[i]) == batch {
							if err := flush(i); err != nil {
								return err
							}
						}
					}
				}
			}
			for i := range bufs {
				if err := flush(i); err != nil {
					return err
				}
			}
			mu.Lock()
			total = total.Add(done)
			mu.Unlock()
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return Count{}, err
	}
	return total, nil
}
