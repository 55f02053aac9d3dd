package exact

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/knightwalk/knightwalk/sim"
	"golang.org/x/sync/errgroup"
)

// MaxSquares is the largest board Walk handles: its visited sets are ten
// words at most (set.go), enough for 25x25 (625 squares). Boards of up to
// 128 squares take two words, up to 256 four, up to 512 eight.
const MaxSquares = 640

// DefaultBudget bounds the states Walk expands when no budget is given.
const DefaultBudget = 50_000_000

// Result holds the exact distribution of one walk rule's outcome from one
// start square, found by following every branch a walk can take, weighted
// by its probability (or certified bounds on it, from Bounds or
// Options.Bounds).
type Result struct {
	Start      int
	PSuccess   float64   // P(every square visited)
	PClosed    float64   // P(success and the last square a knight's move from the start)
	PStopped   float64   // P(cut by MaxSteps)
	MeanLength float64   // E[path length], start included
	MeanTies   float64   // E[tie decisions]
	Lengths    []float64 // Lengths[L] = P(path length L), L = 0..squares
	DeadEnds   []float64 // DeadEnds[s] = P(the walk fails at a dead end on s)

	// Nodes counts the distinct (visited set, current square) states
	// expanded: walks that reach the same state are merged (memoisation).
	Nodes int64
	// TreeNodes counts the nodes of the unmerged branch tree, i.e. what a
	// plain recursive enumeration would visit.
	TreeNodes float64

	// Unresolved is the probability of the states dropped to stay within
	// the budget (Options.Bounds): the walks through them were not
	// followed, so each of PSuccess, PClosed, PStopped, Lengths and
	// DeadEnds is a lower bound, and adding Unresolved gives an upper one
	// (PLower, PUpper). It is 0 for an exact result. Nodes and TreeNodes
	// then count what was expanded.
	Unresolved float64
	// Dropped counts the states dropped.
	Dropped int64
}

// IsExact reports whether every branch was followed (no state dropped).
func (x Result) IsExact() bool { return x.Dropped == 0 }

// PLower is a certified lower bound on P(success): the successes found.
func (x Result) PLower() float64 { return x.PSuccess }

// PUpper is a certified upper bound on P(success): the successes found
// and every walk through a dropped state. It equals PLower when exact.
func (x Result) PUpper() float64 {
	if x.Dropped == 0 {
		return x.PSuccess
	}
	return min(1, x.PSuccess+x.Unresolved)
}

// ClosedUpper is the upper bound on P(closed) that goes with PClosed.
func (x Result) ClosedUpper() float64 {
	if x.Dropped == 0 {
		return x.PClosed
	}
	return min(1, x.PClosed+x.Unresolved)
}

// ErrBudget is wrapped by the error Walk returns when it would expand
// more states than its budget allows.
var ErrBudget = fmt.Errorf("node budget exceeded")

// Walk enumerates every branch of rule r's walk from start on b (at most
// MaxSquares squares): each draw among m squares splits the walk into m
// branches of probability 1/m, deterministic tie-breaks do not split. The
// search runs layer by layer (one layer per path length), merging branches
// that reach the same visited set and current square; the layers are
// processed in a fixed order, so the floating-point sums, and the result,
// are the same on every run. budget bounds the states expanded (0:
// DefaultBudget); going over it returns an error wrapping ErrBudget.
func Walk(ctx context.Context, b *sim.Board, r sim.Rule, start int, budget int64) (Result, error) {
	return exactWalk(ctx, b, r, start, exactLimits{budget: budget})
}

// Bounds is Walk that, instead of failing when a layer would take the
// enumeration over its budget, drops the layer's least probable states and
// carries their probability as Result.Unresolved: the result then
// certifies P(success) in [PLower, PUpper] (up to the rounding of the
// floating-point sums, as exact values are exact). The budget is shared
// among the layers still to come: before a layer is expanded it is cut to
// (budget − states expanded) / (layers left) states, so the states expanded
// never pass the budget. With a budget that the exact enumeration fits in,
// the result is exact (Dropped = 0) and equal to Walk's.
func Bounds(ctx context.Context, b *sim.Board, r sim.Rule, start int, budget int64) (Result, error) {
	return exactWalk(ctx, b, r, start, exactLimits{budget: budget, bounds: true})
}

// exactLimits are what bound one enumeration: the states it may expand
// (0: DefaultBudget), the memory its layers may hold (nil: no
// limit), whether it drops states to stay within them (bounds) rather
// than fail, and a counter of the states expanded (may be nil).
type exactLimits struct {
	budget   int64
	mem      *memoryBudget
	bounds   bool
	progress *atomic.Int64
	threads  int // goroutines that expand and sort a layer (≤ 1: one)

	spill     string      // a directory to keep the layers in (spill.go); "" keeps them in memory
	spillRead int64       // bytes the spilled runs are read back in (0: spillReadBytes)
	layers    func(Layer) // called after each step (may be nil)
	// spillGrowth, when positive, replaces the growth of the layers that
	// sets the passes of a spilled step (tests: too few, so passes split)
	spillGrowth  float64
	spillBuckets int // the most passes a step may take, a power of 2 (0: spillBuckets)
}

// parallelAllowed works out, for a block of a layer's states, the squares
// each may move to, on several goroutines (one enumerator each, as the tie
// rules keep state); the states are then added to the next layer in their
// order, so the sums, and the result, are those of one goroutine.
type parallelAllowed[W words] struct {
	es      []*enumerator[W]
	allowed [exactCheck]bitset[W]
	ties    [exactCheck]bool
}

func newParallelAllowed[W words](b *sim.Board, r sim.Rule, threads int) *parallelAllowed[W] {
	p := &parallelAllowed[W]{}
	for range threads {
		p.es = append(p.es, newEnumerator[W](b, r))
	}
	return p
}

// policyErr returns the first error of a rule of your own's policy met by
// the enumerators (nil for the built-ins).
func policyErr[W words](e *enumerator[W], par *parallelAllowed[W]) error {
	if e.err != nil {
		return e.err
	}
	if par != nil {
		for _, pe := range par.es {
			if pe.err != nil {
				return pe.err
			}
		}
	}
	return nil
}

// allowedOf fills allowed and ties for block (at most exactCheck states).
func (p *parallelAllowed[W]) allowedOf(block []exactState[W]) {
	var wg sync.WaitGroup
	per := (len(block) + len(p.es) - 1) / len(p.es)
	for w, e := range p.es {
		lo, hi := min(w*per, len(block)), min((w+1)*per, len(block))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				p.allowed[i], p.ties[i] = e.allowed(block[i].set, int(block[i].cur))
			}
		}()
	}
	wg.Wait()
}

// exactWalk is Walk within lim: the live states of its layers
// counted against lim.mem and the states it expands added to
// lim.progress; with lim.bounds it drops states rather than fail (see
// Bounds). It looks at ctx every exactCheck states, in the layer loop
// and in the sort, so cancellation takes effect within milliseconds
// whatever the size of a layer.
func exactWalk(ctx context.Context, b *sim.Board, r sim.Rule, start int, lim exactLimits) (Result, error) {
	if err := exactArgs(b, r, start); err != nil {
		return Result{}, err
	}
	if lim.spill != "" {
		res, err := spillWalkOf(ctx, b, r, start, lim)
		if lim.bounds && (errors.Is(err, ErrMemory) || errors.Is(err, ErrBudget)) {
			// bounds need a whole layer to choose what to drop: in memory
			lim.spill = ""
			return exactWalk(ctx, b, r, start, lim)
		}
		return res, err
	}
	switch n := b.Squares(); {
	case n <= 128:
		return exactWalkIn[words128](ctx, b, r, start, lim)
	case n <= 256:
		return exactWalkIn[words256](ctx, b, r, start, lim)
	case n <= 512:
		return exactWalkIn[words512](ctx, b, r, start, lim)
	default:
		return exactWalkIn[words640](ctx, b, r, start, lim)
	}
}

// walkSetup is what an enumeration from start begins with, in memory or
// spilled: its state budget (the default for none), its progress report,
// its enumerator and its empty result.
func walkSetup[W words](b *sim.Board, r sim.Rule, start int, lim exactLimits) (int64, *atomic.Int64, *enumerator[W], Result) {
	budget := lim.budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	n := b.Squares()
	e := newEnumerator[W](b, r)
	e.start = start
	return budget, lim.progress, e, Result{Start: start, Lengths: make([]float64, n+1), DeadEnds: make([]float64, n)}
}

// exactWalkIn is exactWalk with visited sets of the words W, which hold the
// board's squares.
func exactWalkIn[W words](ctx context.Context, b *sim.Board, r sim.Rule, start int, lim exactLimits) (Result, error) {
	budget, progress, e, res := walkSetup[W](b, r, start, lim)
	layer := []exactState[W]{{set: bitset[W]{}.with(start), cur: uint16(start), p: 1, paths: 1}}
	nb := &nextLayer[W]{index: map[bitsetKey[W]]int{}, held: newHeldMemory[W](lim.mem), bounds: lim.bounds, res: &res}
	var par *parallelAllowed[W]
	if lim.threads > 1 {
		par = newParallelAllowed[W](b, r, lim.threads)
		for _, pe := range par.es {
			pe.start = start
		}
	}
	for depth := 1; len(layer) > 0; depth++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if lim.bounds {
			// the layers left are those of path lengths depth..maxSteps+1
			left := (budget - res.Nodes) / int64(e.maxSteps+2-depth)
			if int64(len(layer)) > left {
				layer = dropStates(&res, layer, int(left))
			}
		}
		if res.Nodes += int64(len(layer)); res.Nodes > budget {
			return Result{}, fmt.Errorf("exact: %s %s from %s: more than %d states at path length %d: %w (raise the budget or pick a smaller board)",
				b, r.Name(), b.SquareName(start), budget, depth, ErrBudget)
		}
		nb.reset(cap(layer))
		for i := range layer {
			if par != nil && i%exactCheck == 0 {
				par.allowedOf(layer[i:min(i+exactCheck, len(layer))])
			}
			if i%exactCheck == exactCheck-1 {
				if progress != nil {
					progress.Add(exactCheck)
				}
				if err := ctx.Err(); err != nil {
					return Result{}, err
				}
			}
			s := &layer[i]
			res.TreeNodes += s.paths
			var allowed bitset[W]
			var ties bool
			if par != nil {
				allowed, ties = par.allowed[i%exactCheck], par.ties[i%exactCheck]
			} else {
				allowed, ties = e.allowed(s.set, int(s.cur))
			}
			if err := policyErr(e, par); err != nil { // a rule of your own's answer no walk may take
				return Result{}, err
			}
			if ties {
				res.MeanTies += s.p
			}
			m := allowed.count()
			if m == 0 || depth-1 >= e.maxSteps {
				res.end(b, int(s.cur), s.p, depth, m)
				continue
			}
			q := s.p / float64(m)
			for a := allowed; !a.empty(); {
				c := a.pop()
				if err := nb.add(exactState[W]{set: s.set.with(c), cur: uint16(c)}, q, s.paths); err != nil {
					return Result{}, nb.outgrew(b, r, start, depth+1, err)
				}
			}
		}
		if progress != nil {
			progress.Add(int64(len(layer) % exactCheck))
		}
		var err error
		if layer, err = nb.sorted(ctx, layer, lim.threads); err != nil {
			return Result{}, nb.outgrew(b, r, start, depth+1, err)
		}
		if lim.layers != nil {
			lim.layers(Layer{Start: start, Depth: depth + 1, States: int64(len(layer)), Runs: 1})
		}
	}
	return res, nil
}

// exactArgs checks Walk's arguments.
func exactArgs(b *sim.Board, r sim.Rule, start int) error {
	n := b.Squares()
	if err := r.Validate(); err != nil {
		return err
	}
	if r.Kind == sim.Backtrack {
		return fmt.Errorf("exact: rule %s is a search, not a random walk; exact enumeration covers random and warnsdorff", r.Name())
	}
	if n > MaxSquares {
		return fmt.Errorf("exact: board %s has %d squares; exact enumeration handles at most %d", b, n, MaxSquares)
	}
	if start < 0 || start >= n {
		return fmt.Errorf("exact: start square %d off the %s board", start, b)
	}
	return nil
}

// end adds a walk of probability p that ends on square cur at path length
// depth, with m squares still allowed (m > 0: cut by MaxSteps), to the
// distributions.
func (res *Result) end(b *sim.Board, cur int, p float64, depth, m int) {
	res.Lengths[depth] += p
	res.MeanLength += p * float64(depth)
	switch {
	case depth == b.Squares():
		res.PSuccess += p
		if depth > 1 && b.Adjacent(res.Start, cur) {
			res.PClosed += p
		}
	case m > 0:
		res.PStopped += p
	default:
		res.DeadEnds[cur] += p
	}
}

// nextLayer builds the next layer of an enumeration, merging the branches
// that reach the same state, within a memory budget.
type nextLayer[W words] struct {
	states   []exactState[W]
	index    map[bitsetKey[W]]int
	held     heldMemory
	layerCap int // capacity of the layer being expanded, held meanwhile

	maxEntries int // the most index entries so far

	// maxStates, when positive, is the most states a spilled pass may
	// hold (spill.go): its states, sort buffer and index then fit
	// the budget, whatever the tables kept from earlier passes
	maxStates int

	bounds bool    // drop states rather than pass the memory budget
	res    *Result // where dropped probability is counted
}

// outgrew describes err, when it is ErrMemory, as the layer of path length
// depth outgrowing the budget; other errors it returns as they are.
func (nb *nextLayer[W]) outgrew(b *sim.Board, r sim.Rule, start, depth int, err error) error {
	if !errors.Is(err, ErrMemory) {
		return err
	}
	return fmt.Errorf("exact: %s %s from %s: the states at path length %d outgrew the %s its states may take (70 %% of the memory budget after the program's share, shared by the starts run at once) at %d states (its next allocation would bring the total to %s): %w (pick a smaller board, a --max-steps, or raise --max-memory)",
		b, r.Name(), b.SquareName(start), depth, formatBytes(nb.held.budget.limit), len(nb.states), formatBytes(nb.held.bytes), err)
}

// entries returns the index entries to count with more to come: a cleared
// map keeps the table of its largest layer, so the most it ever held.
func (nb *nextLayer[W]) entries(more int) int {
	nb.maxEntries = max(nb.maxEntries, len(nb.index)+more)
	return nb.maxEntries
}

func (nb *nextLayer[W]) reset(layerCap int) {
	clear(nb.index)
	nb.states = nb.states[:0]
	nb.layerCap = layerCap
}

// add adds probability p and paths paths to state ns, which it creates if
// new; the error is ErrMemory when creating it would pass the budget.
func (nb *nextLayer[W]) add(ns exactState[W], p, paths float64) error {
	k := bitsetKey[W]{ns.set, ns.cur}
	j, ok := nb.index[k]
	if !ok {
		if err := nb.room(); err != nil {
			if !nb.bounds || !errors.Is(err, ErrMemory) || len(nb.states) < 2 {
				return err
			}
			// Drop the least probable half of the layer built so far
			// (their probability so far is unresolved; later branches
			// into them start them afresh), and go on in the room freed.
			nb.states = dropStates(nb.res, nb.states, len(nb.states)/2)
			clear(nb.index)
			for i := range nb.states {
				nb.index[bitsetKey[W]{nb.states[i].set, nb.states[i].cur}] = i
			}
		}
		j = len(nb.states)
		nb.index[k] = j
		nb.states = append(nb.states, ns)
	}
	nb.states[j].p += p
	nb.states[j].paths += paths
	return nil
}

// room makes room for one more state, within the budget, or returns
// ErrMemory.
func (nb *nextLayer[W]) room() error {
	if nb.maxStates > 0 {
		if len(nb.states) == cap(nb.states) {
			if len(nb.states) >= nb.maxStates {
				return ErrMemory
			}
			nb.states = slices.Grow(nb.states, min(max(cap(nb.states)+cap(nb.states)/2, 1024), nb.maxStates)-len(nb.states))
		}
		return nil
	}
	if nb.bounds && nb.held.budget != nil {
		// A layer holds at most maxLayer states: the layer expanded, the
		// one built and its index then fit in the budget (exactStateBytes
		// each), and a full layer is thinned by the caller.
		maxLayer := int(max(2, nb.held.budget.limit/nb.held.perState()))
		if len(nb.states) == cap(nb.states) {
			if len(nb.states) >= maxLayer {
				return ErrMemory
			}
			nb.states = slices.Grow(nb.states, min(max(cap(nb.states)+cap(nb.states)/2, 1024), maxLayer)-len(nb.states))
		}
		return nil
	}
	if len(nb.states) == cap(nb.states) {
		// Grow under the budget, by half: a layer that would not fit
		// fails here, before it is allocated. While the states are
		// copied, the old array is held too.
		grown := max(cap(nb.states)+cap(nb.states)/2, 1024)
		if err := nb.held.set(nb.layerCap+cap(nb.states), grown, nb.entries(1)); err != nil {
			return err
		}
		nb.states = slices.Grow(nb.states, grown-len(nb.states))
	} else if len(nb.index)%exactCheck == 0 {
		if err := nb.held.set(nb.layerCap, cap(nb.states), nb.entries(exactCheck)); err != nil {
			return err
		}
	}
	return nil
}

// sorted returns the layer built, in the reference order that keeps the
// sums reproducible, and keeps the expanded layer's storage (old) for the
// layer after. The sort needs a buffer as long as the layer: old's, grown
// under the budget if it is too short.
func (nb *nextLayer[W]) sorted(ctx context.Context, old []exactState[W], threads int) ([]exactState[W], error) {
	if cap(old) < len(nb.states) {
		if !nb.bounds && nb.maxStates == 0 { // else room keeps the layers within the budget
			if err := nb.held.set(len(nb.states), cap(nb.states), nb.entries(0)); err != nil {
				return nil, err
			}
		}
		old = make([]exactState[W], 0, len(nb.states))
	}
	layer, spare, err := sortStates(ctx, nb.states, old[:0], threads)
	nb.states = spare
	return layer, err
}

// exactCheck is how many states Walk handles between looks at its
// context and its memory budget: well under a millisecond's work.
const exactCheck = 1 << 14

// sortStates sorts xs by (visited set, current square), as the reference
// order of a layer, using buf (of capacity at least len(xs)) as scratch. It
// returns the sorted states and the other buffer, emptied. States in a layer
// are distinct, so the order is total and the result does not depend on
// the algorithm: a bottom-up merge sort of short sorted runs, which looks
// at ctx between runs so that sorting a layer of millions of states does
// not delay cancellation.
func sortStates[W words](ctx context.Context, xs, buf []exactState[W], threads int) (sorted, spare []exactState[W], err error) {
	const run = 1 << 12
	cmp := func(x, y exactState[W]) int {
		if c := x.set.compare(y.set); c != 0 {
			return c
		}
		return int(x.cur) - int(y.cur)
	}
	n := len(xs)
	threads = max(1, threads)
	// each step's pieces (runs to sort, pairs of runs to merge) are
	// independent: goroutine w takes pieces w, w + threads, ...
	each := func(pieces int, f func(piece int) error) error {
		if threads == 1 || pieces == 1 {
			for i := range pieces {
				if err := f(i); err != nil {
					return err
				}
			}
			return nil
		}
		var g errgroup.Group
		for w := range threads {
			g.Go(func() error {
				for i := w; i < pieces; i += threads {
					if err := f(i); err != nil {
						return err
					}
				}
				return nil
			})
		}
		return g.Wait()
	}
	runs := (n + run - 1) / run
	if err := each(runs, func(i int) error {
		if i%16 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		slices.SortFunc(xs[i*run:min((i+1)*run, n)], cmp)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	src, dst := xs, buf[:n]
	for width := run; width < n; width *= 2 {
		if err := each((n+2*width-1)/(2*width), func(i int) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			lo := i * 2 * width
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for ; i < mid && j < hi; k++ {
				if compareStates(&src[j], &src[i]) < 0 {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
			return nil
		}); err != nil {
			return nil, nil, err
		}
		src, dst = dst, src
	}
	return src, dst[:0], nil
}

// dropStates keeps the keep most probable of states (ties between equal
// probabilities broken by position, so the choice is the same on every
// run), in their order, and adds the probability of the others to
// res.Unresolved. It works in place.
func dropStates[W words](res *Result, states []exactState[W], keep int) []exactState[W] {
	keep = max(keep, 0)
	if len(states) <= keep {
		return states
	}
	var t float64 // the keep-th largest probability
	above := 0    // states that are more probable than t
	if keep > 0 {
		ps := make([]float64, len(states))
		for i := range states {
			ps[i] = states[i].p
		}
		t = kthLargest(ps, keep)
		for i := range states {
			if states[i].p > t {
				above++
			}
		}
	}
	equal := keep - above // states of probability t to keep, the first ones
	kept := states[:0]
	for _, s := range states {
		switch {
		case keep > 0 && s.p > t:
		case keep > 0 && s.p == t && equal > 0:
			equal--
		default:
			res.Unresolved += s.p
			res.Dropped++
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

// kthLargest returns the k-th largest of xs (1 ≤ k ≤ len(xs)), reordering
// xs: a quickselect with three-way partitions, since probabilities repeat
// a lot.
func kthLargest(xs []float64, k int) float64 {
	lo, hi := 0, len(xs) // the answer is in xs[lo:hi], at rank k-1 from the top
	k--
	for {
		if hi-lo == 1 {
			return xs[lo]
		}
		a, b, c := xs[lo], xs[lo+(hi-lo)/2], xs[hi-1]
		pivot := max(min(a, b), min(max(a, b), c)) // median of three
		// partition into > pivot, == pivot, < pivot
		gt, i, lt := lo, lo, hi
		for i < lt {
			switch {
			case xs[i] > pivot:
				xs[gt], xs[i] = xs[i], xs[gt]
				gt++
				i++
			case xs[i] < pivot:
				lt--
				xs[lt], xs[i] = xs[i], xs[lt]
			default:
				i++
			}
		}
		switch {
		case lo+k < gt:
			hi = gt
		case lo+k < lt:
			return pivot
		default:
			k -= lt - lo
			lo = lt
		}
	}
}

// compareStates is the reference order of a layer's states: by visited
// set, then current square. (A function of its own, not a closure in the
// generic sortStates, so that its calls are inlined.)
func compareStates[W words](x, y *exactState[W]) int {
	if c := x.set.compare(y.set); c != 0 {
		return c
	}
	return int(x.cur) - int(y.cur)
}

type exactState[W words] struct {
	set      bitset[W]
	cur      uint16
	p, paths float64
}

type bitsetKey[W words] struct {
	set bitset[W]
	cur uint16
}

// enumerator decides, for a state, which squares a walk may move to next
// with equal probability, following the same rules as the kernels.
type enumerator[W words] struct {
	rule     sim.Rule
	maxSteps int
	nb       []bitset[W]
	moveTo   [][8]int
	order    [8]int
	dist2    []int

	cur     int       // the state being expanded, for the tie scores
	visited bitset[W] // (tiebreak.go)

	// A rule of your own: its policy behind sim's guard, and the first
	// answer no walk may take (sim.RuleError).
	choices *sim.Choices
	start   int
	polBuf  []int
	err     error
	board   *sim.Board
}

func newEnumerator[W words](b *sim.Board, r sim.Rule) *enumerator[W] {
	n := b.Squares()
	e := &enumerator[W]{rule: r, maxSteps: r.MaxSteps, nb: make([]bitset[W], n), moveTo: make([][8]int, n), dist2: make([]int, n), board: b}
	if e.maxSteps == 0 || e.maxSteps > n {
		e.maxSteps = n
	}
	for sq := 0; sq < n; sq++ {
		row, col := b.RowCol(sq)
		for i, m := range sim.CanonicalMoves {
			e.moveTo[sq][i] = -1
			if b.On(row+m.DR, col+m.DC) {
				t := b.Square(row+m.DR, col+m.DC)
				e.nb[sq] = e.nb[sq].with(t)
				e.moveTo[sq][i] = t
			}
		}
		e.dist2[sq] = b.CentreDist2(sq)
	}
	for i, m := range r.OrderOn(b) {
		e.order[i] = slices.Index(sim.CanonicalMoves[:], m)
	}
	if r.Kind == sim.Custom {
		c, err := sim.NewChoices(b, r)
		if err == nil && c.Stateful() { // registered Deterministic, as the guard makes sure
			err = fmt.Errorf("exact: rule %s keeps state along its walk, so walks that reach the same squares cannot be merged; it is deterministic: its one walk decides (experiment tour, or an experiment with walks: 1)", r.Name())
		}
		if err != nil {
			e.err = err
		}
		e.choices = c
	}
	return e
}

// policyAllowed asks a rule of your own (the walk kernel's contract: the
// walk draws uniformly among what it allows).
func (e *enumerator[W]) policyAllowed(visited bitset[W], cur int) (bitset[W], bool) {
	if e.err != nil {
		return bitset[W]{}, false
	}
	var tie bool
	var err error
	if e.polBuf, tie, err = e.choices.Allowed(visited.has, cur, e.start, e.polBuf[:0]); err != nil {
		e.err = err
		return bitset[W]{}, false
	}
	var out bitset[W]
	for _, sq := range e.polBuf {
		out = out.with(sq)
	}
	return out, tie
}

// allowed returns the squares the walk picks among uniformly, and whether
// the step is a tie decision (more than one square allowed by the rule's
// primary criterion).
func (e *enumerator[W]) allowed(visited bitset[W], cur int) (bitset[W], bool) {
	if e.rule.Kind == sim.Custom {
		return e.policyAllowed(visited, cur)
	}
	cand := e.nb[cur].andNot(visited)
	if e.rule.Kind == sim.RandomWalk || cand.count() <= 1 {
		return cand, cand.count() > 1
	}
	deg := func(sq int) int { return e.nb[sq].andNot(visited).count() }
	tied := keepMinScore(cand, deg)
	if tied.count() == 1 {
		return tied, false
	}
	var sq [8]int32
	n := 0
	for t := tied; !t.empty(); n++ {
		sq[n] = int32(t.pop())
	}
	e.cur, e.visited = cur, visited
	tied = bitset[W]{}
	for _, s := range sq[:e.rule.TieBreak.Narrow(sq[:n], e)] {
		tied = tied.with(int(s))
	}
	return tied, true
}

// keepMinScore returns the members of set with the smallest score.
func keepMinScore[W words](set bitset[W], score func(int) int) bitset[W] {
	var keep bitset[W]
	best := int(^uint(0) >> 1)
	for s := set; !s.empty(); {
		c := s.pop()
		v := score(c)
		if v < best {
			best, keep = v, bitset[W]{}
		}
		if v == best {
			keep = keep.with(c)
		}
	}
	return keep
}
