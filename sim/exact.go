package sim

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// ExactMaxSquares is the largest board ExactWalk handles: the visited set
// must fit in two words.
const ExactMaxSquares = 128

// DefaultExactBudget bounds the states ExactWalk expands when no budget is
// given.
const DefaultExactBudget = 50_000_000

// Exact holds the exact distribution of one walk rule's outcome from one
// start square, found by following every branch a walk can take, weighted
// by its probability.
type Exact struct {
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
	// the budget (ExactOptions.Bounds): the walks through them were not
	// followed, so each of PSuccess, PClosed, PStopped, Lengths and
	// DeadEnds is a lower bound, and adding Unresolved gives an upper one
	// (PLower, PUpper). It is 0 for an exact result. Nodes and TreeNodes
	// then count what was expanded.
	Unresolved float64
	// Dropped counts the states dropped.
	Dropped int64
}

// IsExact reports whether every branch was followed (no state dropped).
func (x Exact) IsExact() bool { return x.Dropped == 0 }

// PLower is a certified lower bound on P(success): the successes found.
func (x Exact) PLower() float64 { return x.PSuccess }

// PUpper is a certified upper bound on P(success): the successes found
// and every walk through a dropped state. It equals PLower when exact.
func (x Exact) PUpper() float64 {
	if x.Dropped == 0 {
		return x.PSuccess
	}
	return min(1, x.PSuccess+x.Unresolved)
}

// ClosedUpper is the upper bound on P(closed) that goes with PClosed.
func (x Exact) ClosedUpper() float64 {
	if x.Dropped == 0 {
		return x.PClosed
	}
	return min(1, x.PClosed+x.Unresolved)
}

// ErrBudget is wrapped by the error ExactWalk returns when it would expand
// more states than its budget allows.
var ErrBudget = fmt.Errorf("node budget exceeded")

// ExactWalk enumerates every branch of rule r's walk from start on b (at
// most ExactMaxSquares squares): each draw among m squares splits the walk
// into m branches of probability 1/m, deterministic tie-breaks do not split.
// The search runs layer by layer (one layer per path length), merging
// branches that reach the same visited set and current square; the layers
// are processed in a fixed order, so the floating-point sums, and the
// result, are the same on every run. budget bounds the states expanded
// (0: DefaultExactBudget); going over it returns an error wrapping
// ErrBudget.
func ExactWalk(ctx context.Context, b *Board, r Rule, start int, budget int64) (Exact, error) {
	return exactWalk(ctx, b, r, start, exactLimits{budget: budget})
}

// ExactBounds is ExactWalk that, instead of failing when a layer would take
// the enumeration over its budget, drops the layer's least probable states
// and carries their probability as Exact.Unresolved: the result then
// certifies P(success) in [PLower, PUpper] (up to the rounding of the
// floating-point sums, as exact values are exact). The budget is shared
// among the layers still to come: before a layer is expanded it is cut to
// (budget − states expanded) / (layers left) states, so the states expanded
// never pass the budget. With a budget that the exact enumeration fits in,
// the result is exact (Dropped = 0) and equal to ExactWalk's.
func ExactBounds(ctx context.Context, b *Board, r Rule, start int, budget int64) (Exact, error) {
	return exactWalk(ctx, b, r, start, exactLimits{budget: budget, bounds: true})
}

// exactLimits are what bound one enumeration: the states it may expand
// (0: DefaultExactBudget), the memory its layers may hold (nil: no
// limit), whether it drops states to stay within them (bounds) rather
// than fail, and a counter of the states expanded (may be nil).
type exactLimits struct {
	budget   int64
	mem      *memoryBudget
	bounds   bool
	progress *atomic.Int64
	threads  int // goroutines that expand and sort a layer (≤ 1: one)
}

// parallelAllowed works out, for a block of a layer's states, the squares
// each may move to, on several goroutines (one enumerator each, as the tie
// rules keep state); the states are then added to the next layer in their
// order, so the sums, and the result, are those of one goroutine.
type parallelAllowed struct {
	es      []*enumerator
	allowed [exactCheck]bitset
	ties    [exactCheck]bool
}

func newParallelAllowed(b *Board, r Rule, threads int) *parallelAllowed {
	p := &parallelAllowed{}
	for range threads {
		p.es = append(p.es, newEnumerator(b, r))
	}
	return p
}

// policyErr returns the first error of a rule of your own's policy met by
// the enumerators (nil for the built-ins).
func policyErr(e *enumerator, par *parallelAllowed) error {
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
func (p *parallelAllowed) allowedOf(block []exactState) {
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

// exactWalk is ExactWalk within lim: the live states of its layers
// counted against lim.mem and the states it expands added to
// lim.progress; with lim.bounds it drops states rather than fail (see
// ExactBounds). It looks at ctx every exactCheck states, in the layer loop
// and in the sort, so cancellation takes effect within milliseconds
// whatever the size of a layer.
func exactWalk(ctx context.Context, b *Board, r Rule, start int, lim exactLimits) (Exact, error) {
	if err := exactArgs(b, r, start); err != nil {
		return Exact{}, err
	}
	budget, progress := lim.budget, lim.progress
	if budget <= 0 {
		budget = DefaultExactBudget
	}
	n := b.Squares()
	e := newEnumerator(b, r)
	e.start = start
	res := Exact{Start: start, Lengths: make([]float64, n+1), DeadEnds: make([]float64, n)}
	layer := []exactState{{set: bitset{}.with(start), cur: uint8(start), p: 1, paths: 1}}
	nb := &nextLayer{index: map[bitsetKey]int{}, held: heldMemory{budget: lim.mem}, bounds: lim.bounds, res: &res}
	var par *parallelAllowed
	if lim.threads > 1 {
		par = newParallelAllowed(b, r, lim.threads)
		for _, pe := range par.es {
			pe.start = start
		}
	}
	for depth := 1; len(layer) > 0; depth++ {
		if err := ctx.Err(); err != nil {
			return Exact{}, err
		}
		if lim.bounds {
			// the layers left are those of path lengths depth..maxSteps+1
			left := (budget - res.Nodes) / int64(e.maxSteps+2-depth)
			if int64(len(layer)) > left {
				layer = res.drop(layer, int(left))
			}
		}
		if res.Nodes += int64(len(layer)); res.Nodes > budget {
			return Exact{}, fmt.Errorf("exact: %s %s from %s: more than %d states at path length %d: %w (raise the budget or pick a smaller board)",
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
					return Exact{}, err
				}
			}
			s := &layer[i]
			res.TreeNodes += s.paths
			var allowed bitset
			var ties bool
			if par != nil {
				allowed, ties = par.allowed[i%exactCheck], par.ties[i%exactCheck]
			} else {
				allowed, ties = e.allowed(s.set, int(s.cur))
			}
			if err := policyErr(e, par); err != nil { // a rule of your own's answer no walk may take
				return Exact{}, err
			}
			if ties {
				res.MeanTies += s.p
			}
			m := allowed.count()
			if m == 0 || depth-1 >= e.maxSteps {
				res.end(b, s, depth, m)
				continue
			}
			q := s.p / float64(m)
			for a := allowed; !a.empty(); {
				c := a.pop()
				if err := nb.add(exactState{set: s.set.with(c), cur: uint8(c)}, q, s.paths); err != nil {
					return Exact{}, nb.outgrew(b, r, start, depth+1, err)
				}
			}
		}
		if progress != nil {
			progress.Add(int64(len(layer) % exactCheck))
		}
		var err error
		if layer, err = nb.sorted(ctx, layer, lim.threads); err != nil {
			return Exact{}, nb.outgrew(b, r, start, depth+1, err)
		}
	}
	return res, nil
}

// exactArgs checks ExactWalk's arguments.
func exactArgs(b *Board, r Rule, start int) error {
	n := b.Squares()
	if err := r.Validate(); err != nil {
		return err
	}
	if r.Kind == Backtrack {
		return fmt.Errorf("exact: rule %s is a search, not a random walk; exact enumeration covers random and warnsdorff", r.Name())
	}
	if n > ExactMaxSquares {
		return fmt.Errorf("exact: board %s has %d squares; exact enumeration handles at most %d", b, n, ExactMaxSquares)
	}
	if start < 0 || start >= n {
		return fmt.Errorf("exact: start square %d off the %s board", start, b)
	}
	return nil
}

// end adds a walk that ends in state s at path length depth, with m
// squares still allowed (m > 0: cut by MaxSteps), to the distributions.
func (res *Exact) end(b *Board, s *exactState, depth, m int) {
	res.Lengths[depth] += s.p
	res.MeanLength += s.p * float64(depth)
	switch {
	case depth == b.Squares():
		res.PSuccess += s.p
		if depth > 1 && b.Adjacent(res.Start, int(s.cur)) {
			res.PClosed += s.p
		}
	case m > 0:
		res.PStopped += s.p
	default:
		res.DeadEnds[s.cur] += s.p
	}
}

// nextLayer builds the next layer of an enumeration, merging the branches
// that reach the same state, within a memory budget.
type nextLayer struct {
	states   []exactState
	index    map[bitsetKey]int
	held     heldMemory
	layerCap int // capacity of the layer being expanded, held meanwhile

	maxEntries int // the most index entries so far

	bounds bool   // drop states rather than pass the memory budget
	res    *Exact // where dropped probability is counted
}

// outgrew describes err, when it is ErrMemory, as the layer of path length
// depth outgrowing the budget; other errors it returns as they are.
func (nb *nextLayer) outgrew(b *Board, r Rule, start, depth int, err error) error {
	if !errors.Is(err, ErrMemory) {
		return err
	}
	return fmt.Errorf("exact: %s %s from %s: the states at path length %d outgrew the %s its states may take (70 %% of the memory budget after the program's share, shared by the starts run at once) at %d states (its next allocation would bring the total to %s): %w (pick a smaller board, a --max-steps, or raise --max-memory)",
		b, r.Name(), b.SquareName(start), depth, formatBytes(nb.held.budget.limit), len(nb.states), formatBytes(nb.held.bytes), err)
}

// entries returns the index entries to count with more to come: a cleared
// map keeps the table of its largest layer, so the most it ever held.
func (nb *nextLayer) entries(more int) int {
	nb.maxEntries = max(nb.maxEntries, len(nb.index)+more)
	return nb.maxEntries
}

func (nb *nextLayer) reset(layerCap int) {
	clear(nb.index)
	nb.states = nb.states[:0]
	nb.layerCap = layerCap
}

// add adds probability p and paths paths to state ns, which it creates if
// new; the error is ErrMemory when creating it would pass the budget.
func (nb *nextLayer) add(ns exactState, p, paths float64) error {
	k := bitsetKey{ns.set, ns.cur}
	j, ok := nb.index[k]
	if !ok {
		if err := nb.room(); err != nil {
			if !nb.bounds || !errors.Is(err, ErrMemory) || len(nb.states) < 2 {
				return err
			}
			// Drop the least probable half of the layer built so far
			// (their probability so far is unresolved; later branches
			// into them start them afresh), and go on in the room freed.
			nb.states = nb.res.drop(nb.states, len(nb.states)/2)
			clear(nb.index)
			for i := range nb.states {
				nb.index[bitsetKey{nb.states[i].set, nb.states[i].cur}] = i
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
func (nb *nextLayer) room() error {
	if nb.bounds && nb.held.budget != nil {
		// A layer holds at most maxLayer states: the layer expanded, the
		// one built and its index then fit in the budget (ExactStateBytes
		// each), and a full layer is thinned by the caller.
		maxLayer := int(max(2, nb.held.budget.limit/ExactStateBytes))
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
func (nb *nextLayer) sorted(ctx context.Context, old []exactState, threads int) ([]exactState, error) {
	if cap(old) < len(nb.states) {
		if !nb.bounds { // with bounds, room keeps the layers within the budget
			if err := nb.held.set(len(nb.states), cap(nb.states), nb.entries(0)); err != nil {
				return nil, err
			}
		}
		old = make([]exactState, 0, len(nb.states))
	}
	layer, spare, err := sortStates(ctx, nb.states, old[:0], threads)
	nb.states = spare
	return layer, err
}

// exactCheck is how many states ExactWalk handles between looks at its
// context and its memory budget: well under a millisecond's work.
const exactCheck = 1 << 14

// sortStates sorts xs by (visited set, current square), as the reference
// order of a layer, using buf (of capacity at least len(xs)) as scratch. It
// returns the sorted states and the other buffer, emptied. States in a layer
// are distinct, so the order is total and the result does not depend on
// the algorithm: a bottom-up merge sort of short sorted runs, which looks
// at ctx between runs so that sorting a layer of millions of states does
// not delay cancellation.
func sortStates(ctx context.Context, xs, buf []exactState, threads int) (sorted, spare []exactState, err error) {
	const run = 1 << 12
	cmp := func(x, y exactState) int {
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
				if cmp(src[j], src[i]) < 0 {
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

// drop keeps the keep most probable of states (ties between equal
// probabilities broken by position, so the choice is the same on every
// run), in their order, and adds the probability of the others to
// res.Unresolved. It works in place.
func (res *Exact) drop(states []exactState, keep int) []exactState {
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

type exactState struct {
	set      bitset
	cur      uint8
	p, paths float64
}

type bitsetKey struct {
	set bitset
	cur uint8
}

// bitset is a set of up to 128 squares.
type bitset [2]uint64

func (s bitset) with(sq int) bitset { s[sq>>6] |= 1 << (sq & 63); return s }
func (s bitset) and(t bitset) bitset {
	return bitset{s[0] & t[0], s[1] & t[1]}
}
func (s bitset) andNot(t bitset) bitset { return bitset{s[0] &^ t[0], s[1] &^ t[1]} }
func (s bitset) count() int             { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }
func (s bitset) empty() bool            { return s[0]|s[1] == 0 }

// pop removes and returns the lowest square.
func (s *bitset) pop() int {
	if s[0] != 0 {
		i := bits.TrailingZeros64(s[0])
		s[0] &= s[0] - 1
		return i
	}
	i := bits.TrailingZeros64(s[1])
	s[1] &= s[1] - 1
	return 64 + i
}

func (s bitset) compare(t bitset) int {
	for i := 1; i >= 0; i-- {
		if s[i] != t[i] {
			if s[i] < t[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// enumerator decides, for a state, which squares a walk may move to next
// with equal probability, following the same rules as the kernels.
type enumerator struct {
	rule     Rule
	maxSteps int
	nb       []bitset
	moveTo   [][8]int
	order    [8]int
	dist2    []int

	cur     int    // the state being expanded, for the tie scores
	visited bitset // (tiebreak.go)

	// A rule of your own: its policy, a position to show it, and the
	// first answer no walk may take (RuleError).
	pol    Policy
	pos    *Position
	start  int
	polBuf []int
	err    error
	board  *Board
}

func newEnumerator(b *Board, r Rule) *enumerator {
	n := b.Squares()
	e := &enumerator{rule: r, maxSteps: r.MaxSteps, nb: make([]bitset, n), moveTo: make([][8]int, n), dist2: make([]int, n), board: b}
	if e.maxSteps == 0 || e.maxSteps > n {
		e.maxSteps = n
	}
	for sq := 0; sq < n; sq++ {
		row, col := b.RowCol(sq)
		for i, m := range CanonicalMoves {
			e.moveTo[sq][i] = -1
			if b.On(row+m.DR, col+m.DC) {
				t := b.Square(row+m.DR, col+m.DC)
				e.nb[sq] = e.nb[sq].with(t)
				e.moveTo[sq][i] = t
			}
		}
		e.dist2[sq] = b.CentreDist2(sq)
	}
	for i, m := range r.orderOn(b) {
		e.order[i] = moveIndex(m)
	}
	if r.Kind == Custom {
		pol, err := r.Policy(b)
		if _, stateful := pol.(Stateful); err == nil && stateful {
			err = fmt.Errorf("exact: rule %s keeps state along its walk, so walks that reach the same squares cannot be merged; it is deterministic: its one walk decides (experiment tour, or an experiment with walks: 1)", r.Name())
		}
		if err != nil {
			e.err = err
		}
		e.pol, e.pos = pol, newPosition(b)
	}
	return e
}

// policyAllowed asks a rule of your own (the walk kernel's contract: the
// walk draws uniformly among what it allows).
func (e *enumerator) policyAllowed(visited bitset, cur int) (bitset, bool) {
	if e.err != nil {
		return bitset{}, false
	}
	p := e.pos
	p.setVisited(func(sq int) bool { return visited[sq>>6]>>(sq&63)&1 == 1 }, cur, e.start)
	e.polBuf = e.pol.Allowed(p, e.polBuf[:0])
	if err := checkAllowed(e.rule, p, e.polBuf, e.rule.Deterministic()); err != nil {
		e.err = err
		return bitset{}, false
	}
	var out bitset
	for _, sq := range e.polBuf {
		out = out.with(sq)
	}
	if tr, ok := e.pol.(tieReporter); ok {
		return out, tr.tied()
	}
	return out, len(e.polBuf) > 1
}

// allowed returns the squares the walk picks among uniformly, and whether
// the step is a tie decision (more than one square allowed by the rule's
// primary criterion).
func (e *enumerator) allowed(visited bitset, cur int) (bitset, bool) {
	if e.rule.Kind == Custom {
		return e.policyAllowed(visited, cur)
	}
	cand := e.nb[cur].andNot(visited)
	if e.rule.Kind == RandomWalk || cand.count() <= 1 {
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
	tied = bitset{}
	for _, s := range sq[:narrowTies(e.rule.TieBreak.chain(), sq[:n], e)] {
		tied = tied.with(int(s))
	}
	return tied, true
}

// keepMinScore returns the members of set with the smallest score.
func keepMinScore(set bitset, score func(int) int) bitset {
	var keep bitset
	best := int(^uint(0) >> 1)
	for s := set; !s.empty(); {
		c := s.pop()
		v := score(c)
		if v < best {
			best, keep = v, bitset{}
		}
		if v == best {
			keep = keep.with(c)
		}
	}
	return keep
}
