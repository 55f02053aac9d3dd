package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/knightwalk/knightwalk/sim"
	"golang.org/x/sync/errgroup"
)

// ErrMemory is wrapped by the error Walks returns when the states of an
// enumeration would take more memory than Options.MaxMemory allows,
// found either up front (estimateExactStates) or while the layer grows.
var ErrMemory = errors.New("memory budget exceeded")

// Options bound the work and the memory of Walks.
type Options struct {
	// Budget is the most states to expand per start square; 0 means
	// DefaultBudget.
	Budget int64
	// MaxMemory is the most bytes the enumeration may take, of which the
	// live states of all starts together get StatesMemory; 0 means no
	// limit. Each of the starts enumerated at once gets an equal share, so
	// whether a start fits never depends on scheduling.
	MaxMemory int64
	// Workers is the number of starts enumerated at once; 0 means
	// GOMAXPROCS. Workers beyond the starts share a start's work (its
	// layers' moves and sorts), which leaves every result as it is.
	Workers int
	// Progress, when not nil, has the states expanded added to it as the
	// enumeration goes, for a progress display.
	Progress *atomic.Int64
	// Bounds makes a start that would pass Budget or its share of
	// MaxMemory drop its least probable states instead of failing (see
	// the function Bounds): its result certifies P(success) in [PLower,
	// PUpper].
	// A start that fits is enumerated exactly all the same.
	Bounds bool
	// Spill, when not empty, is a directory where each start keeps its
	// layers, in files removed from it as soon as they are made, building
	// each layer in as many passes as its share of MaxMemory requires
	// (spill.go): memory then bounds a pass, not a layer, and the
	// result is bit for bit the in-memory one. With Bounds, a start that
	// does not fit even so is enumerated again in memory, with bounds.
	Spill string
	// Layers, when not nil, is called after each step of an enumeration
	// with the layer built (before any states are dropped for bounds),
	// from the goroutine enumerating the start.
	Layers func(Layer)
}

// StatesMemory is the part of a memory budget that the states of an
// enumeration may take: 70 % of what is left after 96 MiB (at most half
// the budget) for the program and runtime. The rest is for what the states do not count, the
// runtime's heap overhead between collections, the sampled walks of the
// estimate and the layer that outgrew its share before it was stopped;
// with it the process's peak stays within the budget
// (harness.TestBudgetsBoundPeakRSS). Counting the states against
// the whole budget let the peak pass it by a quarter (5.04 GB against 4
// GiB); four fifths of it, by 16 % at 512 MiB.
func StatesMemory(budget int64) int64 {
	return (budget - min(statesReserve, budget/2)) / 10 * 7
}

// statesReserve is the part of a budget kept for the program and runtime
// (half of a budget below twice that).
const statesReserve = 96 << 20

// exactStateBytes is what one state of an enumeration's layers costs in
// memory on a board of squares squares when counted against MaxMemory: the
// state in the layer being built and in the sort's buffer, and its entry
// in the layer's index. It grows with the words of the visited set: 155
// bytes up to 128 squares, 429 on 25x25.
func exactStateBytes(squares int) int64 {
	switch {
	case squares <= 128:
		return newHeldMemory[words128](nil).perState()
	case squares <= 256:
		return newHeldMemory[words256](nil).perState()
	case squares <= 512:
		return newHeldMemory[words512](nil).perState()
	}
	return newHeldMemory[words640](nil).perState()
}

// stateBytes is a state of a layer, of visited sets in the words W.
func stateBytes[W words]() int64 { return int64(unsafe.Sizeof(exactState[W]{})) }

// indexEntryBytes is a map entry of the layer index: key and value, a
// control byte, the free slots of a full table (load 7/8) and the growth
// that doubles the table.
func indexEntryBytes[W words]() int64 {
	return 2 * (int64(unsafe.Sizeof(bitsetKey[W]{})) + 8 + 1) * 8 / 7
}

// Walks runs Walk for every square of starts, at most opt.Workers at a
// time, and returns the results in the order of starts.
//
// With a MaxMemory, each start is first checked with estimateExactStates:
// a start whose layers certainly do not fit in its share is refused with an
// error stating the estimate, before any enumeration; otherwise the
// enumeration counts the memory its layers hold and stops with ErrMemory as
// soon as the next allocation would pass the share.
//
// A failure (say a start over budget) stops the pool, and the error returned
// is always that of the earliest start in starts that fails on its own, so
// the message does not depend on scheduling: a failing start cancels only
// the starts after it, and starts are launched in order, so the earliest
// failing one always runs to its own error. Cancellation of ctx is returned
// as ctx's error.
func Walks(ctx context.Context, b *sim.Board, r sim.Rule, starts []int, opt Options) ([]Result, error) {
	workers := opt.Workers
	switch {
	case workers < 0:
		return nil, fmt.Errorf("exact on %s: workers = %d, want 0 (GOMAXPROCS) or more", b, workers)
	case workers == 0:
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.MaxMemory < 0 {
		return nil, fmt.Errorf("exact on %s: MaxMemory = %d, want 0 (no limit) or more", b, opt.MaxMemory)
	}
	// workers beyond the starts help each start expand and sort its
	// layers, which changes no result
	threads := max(1, workers/max(1, min(workers, len(starts))))
	share := int64(0)
	if opt.MaxMemory > 0 {
		share = StatesMemory(opt.MaxMemory) / int64(max(1, min(workers, len(starts))))
	}
	res := make([]Result, len(starts))
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
			res[i], errs[i] = exactStart(sctx, b, r, s, opt, share, threads)
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

// exactStart enumerates one start of Walks within share bytes (0: no
// limit), refusing it up front when the estimate says it cannot fit.
func exactStart(ctx context.Context, b *sim.Board, r sim.Rule, start int, opt Options, share int64, threads int) (Result, error) {
	lim := exactLimits{budget: opt.Budget, bounds: opt.Bounds, progress: opt.Progress, threads: threads, spill: opt.Spill, layers: opt.Layers}
	if share == 0 {
		return exactWalk(ctx, b, r, start, lim)
	}
	lim.mem = &memoryBudget{limit: share}
	if !opt.Bounds && b.Squares() <= MaxSquares && start >= 0 && start < b.Squares() && r.Validate() == nil && r.Kind != sim.Backtrack {
		limit := share
		if opt.Spill != "" {
			// only a 256th of a layer must fit: sample no more walks than
			// that takes to decide (at 64 MiB, the 65,536 walks' hashes of
			// 9x9 took more memory than the enumeration's passes)
			limit = share * spillBuckets
		}
		est, err := estimateExactStates(ctx, b, r, start, limit)
		if err != nil {
			return Result{}, err
		}
		need, what := est.Bytes(), "taking"
		if opt.Spill != "" { // a pass holds at least a bucket's share of the next layer
			need = (est.held.stateBytes + est.held.entryBytes) * est.NextStates / spillBuckets
			what = fmt.Sprintf("a %dth of the next layer spilled in passes taking", spillBuckets)
		}
		if need > share {
			return Result{}, fmt.Errorf("exact: %s %s from %s: its layers hold at least about %.2g states at path length %d (estimated from %d sampled walks), %s at least %s, over the %s its states may take (70 %% of the memory budget after the program's share, shared by the starts run at once): %w (pick a smaller board, a --max-steps, or raise --max-memory)",
				b, r.Name(), b.SquareName(start), float64(est.States), est.Depth, est.Walks, what, formatBytes(need), formatBytes(share), ErrMemory)
		}
	}
	return exactWalk(ctx, b, r, start, lim)
}

// memoryBudget is bytes that one enumeration may hold.
type memoryBudget struct{ limit int64 }

// heldMemory is what one enumeration holds against its budget, with the
// sizes of its states and index entries.
type heldMemory struct {
	budget *memoryBudget
	bytes  int64

	stateBytes, entryBytes int64
}

func newHeldMemory[W words](budget *memoryBudget) heldMemory {
	return heldMemory{budget: budget, stateBytes: stateBytes[W](), entryBytes: indexEntryBytes[W]()}
}

// perState is what a state costs: in the layer built, in the sort's
// buffer, and in the index.
func (h heldMemory) perState() int64 { return 2*h.stateBytes + h.entryBytes }

// set records that the enumeration holds layers of capacities layerCap and
// nextCap and an index of entries entries, or returns ErrMemory (holding
// what it held) if that would pass the budget.
func (h *heldMemory) set(layerCap, nextCap, entries int) error {
	if h.budget == nil {
		return nil
	}
	b := h.stateBytes*int64(layerCap+nextCap) + h.entryBytes*int64(entries)
	if b > h.budget.limit {
		h.bytes = b
		return ErrMemory
	}
	h.bytes = max(h.bytes, b)
	return nil
}

// statesEstimate is a lower estimate of the largest layer an enumeration
// needs: about States distinct states at path length Depth (and
// NextStates at Depth+1, which is built while it is held).
type statesEstimate struct {
	States, NextStates int64
	Depth              int
	Walks              int // walks sampled

	held heldMemory // the sizes of a state and an index entry
}

// Bytes is the memory the two layers take at least.
func (e statesEstimate) Bytes() int64 {
	return e.held.stateBytes*e.States + (e.held.stateBytes+e.held.entryBytes)*e.NextStates
}

// estimateExactStates estimates, without enumerating, a lower bound on the
// number of states Walk holds at once. It samples walks of the rule
// from start (their choices drawn uniformly among the allowed squares, as
// the enumeration weighs them) and counts, at each path length, the pairs
// of walks that reach the same state. A layer in which states have
// probabilities q has at least 1/Σq² states, and among K sampled walks the
// expected number of coinciding pairs is K(K-1)/2 · Σq²; so few coincidences
// among many walks mean a large layer. The bound uses the upper end of a
// one-sided 1-in-a-million Poisson bound on the coincidences, so that a
// refusal based on it is safe.
//
// It samples 256 walks, then 8 times more (up to 65,536) only while the
// coincidences seen leave open that the bound passes limit bytes; so on
// boards that enumerate easily it costs milliseconds. The random stream is
// fixed: the estimate is the same on every run.
//
// Its only error is cancellation of ctx, which it checks every thousand
// walks.
func estimateExactStates(ctx context.Context, b *sim.Board, r sim.Rule, start int, limit int64) (statesEstimate, error) {
	if err := exactArgs(b, r, start); err != nil {
		return statesEstimate{}, err
	}
	switch n := b.Squares(); {
	case n <= 128:
		return estimateIn[words128](ctx, b, r, start, limit)
	case n <= 256:
		return estimateIn[words256](ctx, b, r, start, limit)
	case n <= 512:
		return estimateIn[words512](ctx, b, r, start, limit)
	}
	return estimateIn[words640](ctx, b, r, start, limit)
}

// estimateIn is estimateExactStates with visited sets of the words W.
func estimateIn[W words](ctx context.Context, b *sim.Board, r sim.Rule, start int, limit int64) (statesEstimate, error) {
	e := newEnumerator[W](b, r)
	rng := rand.New(rand.NewPCG(0x6b6e6967687477, uint64(start)))
	for k := 1 << 8; ; k = min(8*k, maxSampled) {
		best, potential, err := sampleLayers(ctx, b, e, start, k, rng)
		if err != nil || k == maxSampled || best.Bytes() > limit || potential <= limit {
			return best, err
		}
	}
}

const maxSampled = 1 << 16

// sampleLayers samples k walks and returns the bound for the pair of
// layers with the most memory, and the most memory that the bound could
// show with maxSampled walks if coincidences stayed as frequent.
func sampleLayers[W words](ctx context.Context, b *sim.Board, e *enumerator[W], start, k int, rng *rand.Rand) (best statesEstimate, potential int64, err error) {
	n := b.Squares()
	hashes := make([][]uint64, n+2) // per path length, a hash of each walk's state
	for i := range k {
		if i%1024 == 0 && ctx.Err() != nil {
			return best, 0, ctx.Err()
		}
		set, cur := bitset[W]{}.with(start), start
		for depth := 1; ; depth++ {
			hashes[depth] = append(hashes[depth], stateHash(set, cur))
			allowed, _ := e.allowed(set, cur)
			m := allowed.count()
			if m == 0 || depth-1 >= e.maxSteps {
				break
			}
			pick := rng.IntN(m)
			for i := 0; ; i++ {
				c := allowed.pop()
				if i == pick {
					cur = c
					break
				}
			}
			set = set.with(cur)
		}
	}
	lower, could := make([]int64, n+2), make([]int64, n+2)
	for d, h := range hashes {
		lower[d], could[d] = distinctLowerBound(h, float64(maxSampled)/float64(k))
	}
	held := newHeldMemory[W](nil)
	best.held = held
	for d := 1; d <= n; d++ {
		est := statesEstimate{States: lower[d], NextStates: lower[d+1], Depth: d, Walks: k, held: held}
		if est.Bytes() > best.Bytes() {
			best = est
		}
		potential = max(potential, statesEstimate{States: could[d], NextStates: could[d+1], held: held}.Bytes())
	}
	return best, potential, nil
}

// distinctLowerBound returns a lower bound on the number of states a sample
// of hashes is drawn from (see estimateExactStates), never less than the
// states seen, and the bound that scale times as many walks would give if
// coincidences stayed as frequent.
func distinctLowerBound(h []uint64, scale float64) (bound, could int64) {
	if len(h) < 2 {
		return int64(len(h)), int64(float64(len(h)) * scale)
	}
	slices.Sort(h)
	var pairs, distinct float64 = 0, 1
	run := 1.0
	for i := 1; i < len(h); i++ {
		if h[i] == h[i-1] {
			run++
			continue
		}
		pairs += run * (run - 1) / 2
		distinct++
		run = 1
	}
	pairs += run * (run - 1) / 2
	const l = 13.8 // −ln(1e-6)
	upper := func(p float64) float64 { return p + l + math.Sqrt(l*l+2*p*l) }
	k := float64(len(h))
	k2 := k * scale
	kk, kk2 := k*(k-1)/2, k2*(k2-1)/2
	return int64(max(distinct, kk/upper(pairs))), int64(kk2 / upper(pairs*kk2/kk))
}

// formatBytes writes a byte count in binary units.
func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (b+1023)/1024)
}
