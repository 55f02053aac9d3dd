package sim

import (
	"context"
	"fmt"
	"sync/atomic"
)

// Outcome is the result of one walk.
type Outcome struct {
	Start   int  // start square
	Length  int  // squares visited, start included (Backtrack: of the tour, or the deepest path)
	End     int  // last square (a dead end when the walk failed)
	Success bool // every square visited
	Closed  bool // a success whose last square is a knight's move from the start
	Stopped bool // the walk reached MaxSteps with moves still available

	// Ties counts tie decisions: steps where more than one square was
	// allowed by the rule's primary criterion (any unvisited neighbour for
	// the random walk, minimum degree for Warnsdorff and Backtrack) and so
	// the tie-break or a draw had to decide.
	Ties int

	Nodes          int64 // Backtrack: squares entered
	Backtracks     int64 // Backtrack: moves undone
	BudgetExceeded bool  // Backtrack: gave up at the node budget

	// Path lists the squares in visiting order when the walker keeps paths
	// (a fresh slice per walk).
	Path []int32
}

// Walker runs walks of one rule on one board. It holds the scratch state of
// one worker, allocated once and reused across walks: it is not safe for
// concurrent use; give each goroutine its own.
type Walker struct {
	board    *Board
	rule     Rule
	keepPath bool

	fast *fastKernel   // boards of at most 64 squares (walk rules)
	gen  *genKernel    // every other built-in case
	pol  *policyKernel // rules of your own (and NewPolicyWalker)

	pcg PCG

	previous bool // the previous kernels, for reference (NewPreviousWalker)
}

// NewWalker returns a walker for rule r on board b, using the bitboard
// kernel when the board has at most 64 squares, on the path KernelEnv
// forces or else the fastest this CPU has for r (autoPath). It fails when
// KernelEnv names an unknown path or one this CPU cannot run.
func NewWalker(b *Board, r Rule) (*Walker, error) {
	p, err := KernelPathFromEnv()
	if err != nil {
		return nil, err
	}
	return newWalker(b, r, false, p)
}

// NewPathWalker is NewWalker on kernel path p whatever KernelEnv says
// (PathAuto: the fastest); benchmarks compare the paths with it. It fails
// when this CPU cannot run p.
func NewPathWalker(b *Board, r Rule, p KernelPath) (*Walker, error) {
	p, err := ParseKernelPath(string(p))
	if err != nil {
		return nil, err
	}
	return newWalker(b, r, false, p)
}

// NewPolicyWalker walks rule r through its Policy (Rule.Policy) rather than
// a kernel: the reference that tests hold every kernel to.
func NewPolicyWalker(b *Board, r Rule) (*Walker, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Kind == Backtrack {
		return nil, fmt.Errorf("rule %s is a search, not a walk policy", r.Name())
	}
	k, err := newPolicyKernel(b, r)
	if err != nil {
		return nil, err
	}
	return &Walker{board: b, rule: r, pol: k}, nil
}

func newWalker(b *Board, r Rule, general bool, path KernelPath) (*Walker, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Kind == Custom {
		if nativeSquirrelCull(b, r) { // the general kernel walks it (generalsc.go)
			w := &Walker{board: b, rule: r, gen: newGenKernel(b, r)}
			w.gen.makeSC()
			return w, nil
		}
		return NewPolicyWalker(b, r)
	}
	if r.Kind == Backtrack && r.Custom != "" {
		k, err := newSearchKernel(b, r)
		if err != nil {
			return nil, err
		}
		return &Walker{board: b, rule: r, pol: k}, nil
	}
	w := &Walker{board: b, rule: r}
	if !general && b.Squares() <= 64 && r.Kind != Backtrack {
		if path == PathAuto {
			path = autoPath(r)
		}
		w.fast = newFastKernel(b, r, path)
	} else {
		w.gen = newGenKernel(b, r)
	}
	return w, nil
}

// StopOn makes a search in progress give up once ctx is done (a
// backtracking walk with a large node budget can run for minutes); the
// walk then reports Stopped and its outcome must be discarded. release
// ends the watch.
func (w *Walker) StopOn(ctx context.Context) (release func()) {
	if w.rule.Kind != Backtrack || w.gen == nil && w.pol == nil {
		return func() {}
	}
	flag := &atomic.Bool{}
	var at **atomic.Bool
	if w.gen != nil {
		at = &w.gen.stop
	} else {
		at = &w.pol.stop
	}
	*at = flag
	stop := context.AfterFunc(ctx, func() { flag.Store(true) })
	return func() { stop(); *at = nil }
}

// Stopped reports whether the last walk gave up because the context of
// StopOn was done: its outcome is no result.
func (w *Walker) Stopped() bool {
	return w.gen != nil && w.gen.stopped || w.pol != nil && (w.pol.err != nil || w.pol.stopped)
}

// Err returns the first error of a rule of your own: an answer of its
// policy that no walk may take (a *RuleError). The walk that met it, and
// every walk after it, reports Stopped and is no result.
func (w *Walker) Err() error {
	if w.pol == nil {
		return nil
	}
	return w.pol.err
}

// Retarget makes the walker walk rule r from now on, where it can without
// building anew: a walker of the general kernel (boards of more than 64
// squares) whose rule is a built-in walk (random or warnsdorff) takes
// another of the same kind, which differs only in parameters (tie-break,
// move order, step limit). Its walks are then exactly those of
// NewWalker(board, r). It reports false, changing nothing, where it cannot
// (a new walker is needed) or r is not valid. A design of 40,320 move
// orders on a 428x428 board built a walker per order: 2.9 ms of setting up
// the board's state for each 6.6 ms walk.
func (w *Walker) Retarget(r Rule) bool {
	if w.gen == nil || w.previous || w.pol != nil || w.fast != nil {
		return false
	}
	if r.Kind != w.rule.Kind || r.Kind == Backtrack || r.Kind == Custom || r.Validate() != nil {
		return false
	}
	w.rule = r
	w.gen.setRule(r)
	return true
}

// Board returns the walker's board.
func (w *Walker) Board() *Board { return w.board }

// Rule returns the walker's rule.
func (w *Walker) Rule() Rule { return w.rule }

// KeepPaths makes later walks fill Outcome.Path.
func (w *Walker) KeepPaths(keep bool) { w.keepPath = keep }

// Walk runs walk number idx of the stream family key from start: the walk
// that every run of the same (seed, board, rule, start, idx) repeats.
//
// A walk of a rule of your own in the replay check's sample (walk 0, and
// 1 in 64 by its stream: replaycheck.go) is walked again through Allowed
// on a fresh policy; one that does not replay stops the walker (Err).
func (w *Walker) Walk(start int, key Key, idx uint64) Outcome {
	if w.genBatched() { // one lane of the general kernel's step loops: the same walk, faster
		if start < 0 || start >= w.board.Squares() {
			panic(fmt.Sprintf("sim: start square %d off the %s board", start, w.board))
		}
		var out [1]Outcome
		w.gen.walkBatch(start, key, idx, out[:])
		return out[0]
	}
	hi, lo := key.Seeds(idx)
	w.pcg.Seed(hi, lo)
	o := w.WalkFrom(start, &w.pcg)
	if pk := w.pol; pk != nil && pk.check != nil && pk.err == nil && (idx == 0 || sampledStream(hi)) {
		if err := pk.replayWalk(start, idx, hi, lo, pk.pos.trail, o, false); err != nil {
			pk.err = err
			return Outcome{Start: start}
		}
	}
	return o
}

// genBatched reports whether Walk and WalkRange walk on the general
// kernel's step loops (generalbatch.go): built-in walks and squirrel-cull
// without paths; WalkFrom, paths and backtracking walk one at a time.
func (w *Walker) genBatched() bool {
	return w.gen != nil && !w.keepPath && !w.previous && w.rule.Kind != Backtrack
}

// WalkFrom runs one walk from start drawing from src.
func (w *Walker) WalkFrom(start int, src *PCG) Outcome {
	if start < 0 || start >= w.board.Squares() {
		panic(fmt.Sprintf("sim: start square %d off the %s board", start, w.board))
	}
	switch {
	case w.pol != nil:
		return w.pol.walk(start, src, w.keepPath)
	case w.fast != nil:
		return w.fast.walk(start, src, w.keepPath)
	case w.previous:
		return w.gen.walkPrevious(start, src, w.keepPath)
	case w.gen.sc != nil:
		return w.gen.walkSC(start, w.keepPath)
	}
	return w.gen.walk(start, src, w.keepPath)
}

// WalkRange writes to out[i] the outcome of walk lo+i from start for every
// i: exactly what Walk(start, key, lo+i) returns, but on boards of at most
// 64 squares computed on the walker's KernelPath, 16 walks at a time
// (without paths: a walker that keeps paths walks one at a time); a rule
// of your own whose policy is a LanePolicy runs there in lanes, 16 walks
// at a time through AllowedLanes, when out holds at least laneMinWalks
// walks (fewer would leave most lanes walking fillers).
func (w *Walker) WalkRange(start int, key Key, lo uint64, out []Outcome) {
	if start < 0 || start >= w.board.Squares() {
		panic(fmt.Sprintf("sim: start square %d off the %s board", start, w.board))
	}
	if w.fast != nil && w.fast.batched && !w.keepPath && !w.previous {
		w.fast.walkBatch(start, key, lo, out)
		return
	}
	if w.genBatched() {
		w.gen.walkBatch(start, key, lo, out)
		return
	}
	if w.pol != nil && w.pol.lanes != nil && !w.keepPath && len(out) >= laneMinWalks && w.pol.lanes.nb[start] != 0 {
		if w.pol.err == nil {
			w.pol.walkLanes(start, key, lo, out)
		}
		if w.pol.err == nil && w.pol.check != nil {
			w.pol.err = w.pol.replayLaneWalks(start, key, lo, out)
		}
		return
	}
	for i := range out {
		out[i] = w.Walk(start, key, lo+uint64(i))
		if w.Stopped() {
			return // the caller sees Stopped and discards the range
		}
	}
}
