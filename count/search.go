package count

import (
	"github.com/knightwalk/knightwalk/sim"

	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// MaxCountSquares bounds the boards CountTours accepts: its search keeps the
// unvisited squares in one 64-bit word. Exact counts beyond that (8×8 has
// about 1.9×10^16 directed open tours) are out of reach of enumeration anyway.
const MaxCountSquares = 64

// CountOptions says which tours CountTours counts.
type CountOptions struct {
	// Closed counts closed tours (Hamiltonian cycles) instead of open ones.
	Closed bool
	// Unique also counts tours up to the board's symmetries (Board.Symmetries)
	// and, for open tours, reversal.
	Unique bool
	// Starts lists the start squares to count from; nil or empty means all.
	// Open tours counted up to symmetry need all squares.
	Starts []int
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when not nil, has the search nodes expanded added to it as
	// the search goes (in steps of a few thousand), for a progress display
	// against EstimateTourNodes.
	Progress *atomic.Int64
}

// TourCounts are exact tour counts on one board.
type TourCounts struct {
	Board  *sim.Board
	Closed bool
	// Starts lists the squares counted from, ascending.
	Starts []int
	// PerStart[sq] is, for open tours, the number of directed open tours
	// (Hamiltonian paths of the knight graph) that start on sq; for closed
	// tours, the number of directed Hamiltonian paths from sq whose last square
	// is a knight's move from sq, twice the number of closed tours. It is -1
	// for squares not counted.
	PerStart []int64
	// Directed is the sum of PerStart over all squares, or -1 unless every
	// square was counted. For closed tours that is squares × 2 × Undirected
	// (a closed tour has a start square and a direction).
	Directed int64
	// Undirected is the number of tours without a direction: Directed/2 for
	// open tours (-1 unless every square was counted), and the number of
	// Hamiltonian cycles, PerStart[s]/2 for any s, for closed ones.
	Undirected int64
	// Unique is the number of undirected tours up to the board's symmetries
	// (orbits under Board.Symmetries), or -1 when not asked for.
	Unique int64
	// Symmetries is the size of the symmetry group Unique is taken under.
	Symmetries int
	// Nodes is the number of search nodes expanded (paths with squares left
	// to visit, after the symmetry reduction), a measure of work.
	Nodes int64
}

// CountTours counts knight's tours on b exactly by depth-first search over
// bitboards. Start squares related by a symmetry of the board have equal
// counts, so one representative of each orbit of squares is searched, and
// from it one representative of each orbit of first moves under the
// symmetries that fix the start. The search prunes a branch as soon as an
// unvisited square can no longer be reached and left again: a path through
// every unvisited square needs two usable neighbours at each of them except
// its last (none may be short of two on a closed tour), and the last square
// has a known colour, as the knight graph is bipartite.
//
// Unique counts use Burnside's lemma rather than a set of canonical forms:
// the number of orbits of a set X under a group H is the sum over x of
// |Stab(x)|/|H|, so every tour found adds the number of symmetries (with
// reversal, for open tours) that map it to itself, and nothing is stored.
//
// Bad options and boards of more than MaxCountSquares squares are errors, and
// so is cancellation of ctx, which is checked every few milliseconds.
func CountTours(ctx context.Context, b *sim.Board, opt CountOptions) (TourCounts, error) {
	n := b.Squares()
	if n > MaxCountSquares {
		return TourCounts{}, fmt.Errorf("count tours on %s: boards of more than %d squares are not supported", b, MaxCountSquares)
	}
	workers := opt.Workers
	if workers < 0 {
		return TourCounts{}, fmt.Errorf("count tours on %s: workers = %d, want 0 (GOMAXPROCS) or more", b, workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	starts, err := countStarts(b, opt.Starts)
	if err != nil {
		return TourCounts{}, err
	}
	if opt.Unique && !opt.Closed && len(starts) < n {
		return TourCounts{}, fmt.Errorf("count tours on %s: open tours up to symmetry need every start square (leave Starts empty)", b)
	}
	if err := ctx.Err(); err != nil {
		return TourCounts{}, fmt.Errorf("count tours on %s: %w", b, err)
	}

	g := newTourGraph(b, opt.Closed, opt.Unique)
	rep, orbit := squareOrbits(g.syms, n)
	var reps []int // orbit representatives to search, ascending
	for _, s := range starts {
		if !slices.Contains(reps, rep[s]) {
			reps = append(reps, rep[s])
		}
	}
	slices.Sort(reps)
	if opt.Closed {
		// Every closed tour passes through every square, so one start
		// gives the count of all: the square with the fewest neighbours,
		// whose closing moves are fewest (a corner: its two neighbours
		// are the tour's second and last squares).
		reps = []int{g.closedStart()}
	}

	var tasks []countTask
	var nodes int64 // those expanded before the workers start
	for i, r := range reps {
		tasks = append(tasks, g.rootTasks(i, r)...)
		if g.n > 1 {
			nodes++
		}
	}
	tasks, nodes = g.split(tasks, 32*workers, nodes)
	if opt.Progress != nil {
		opt.Progress.Add(nodes) // expanded before the workers start
	}

	// Workers take tasks in order; each task's results are written by the one
	// worker that ran it and summed after Wait, so the totals do not depend on
	// scheduling. The only failure is cancellation of ctx, which every
	// searcher notices on its own.
	var next atomic.Int64
	var eg errgroup.Group
	eg.SetLimit(workers)
	for range min(workers, len(tasks)) {
		eg.Go(func() error {
			s := &tourSearcher{tourGraph: g, ctx: ctx, progress: opt.Progress}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return nil
				}
				if !s.run(&tasks[i]) {
					return ctx.Err()
				}
			}
		})
	}
	if err := eg.Wait(); err != nil {
		return TourCounts{}, fmt.Errorf("count tours on %s: %w", b, err)
	}
	if err := ctx.Err(); err != nil {
		return TourCounts{}, fmt.Errorf("count tours on %s: %w", b, err)
	}

	count := make([]int64, len(reps))
	weight := make([]int64, len(reps))
	for _, t := range tasks {
		count[t.rep] += t.mult * t.count
		weight[t.rep] += t.mult * t.weight
		nodes += t.nodes
	}
	tc := TourCounts{Board: b, Closed: opt.Closed, Starts: starts, PerStart: make([]int64, n),
		Directed: -1, Undirected: -1, Unique: -1, Symmetries: len(g.syms), Nodes: nodes}
	for sq := range tc.PerStart {
		tc.PerStart[sq] = -1
	}
	for _, s := range starts {
		if opt.Closed {
			tc.PerStart[s] = count[0]
			continue
		}
		tc.PerStart[s] = count[slices.Index(reps, rep[s])]
	}
	if len(starts) == n {
		tc.Directed = 0
		for _, c := range tc.PerStart {
			tc.Directed += c
		}
	}
	H := int64(2 * len(g.syms)) // symmetries × the two directions
	if opt.Closed {
		// Every closed tour passes through every square once in each
		// direction: the search from one start found each twice.
		if count[0]%2 != 0 {
			panic(fmt.Sprintf("sim: closed tour count on %s is odd: %d", b, count[0]))
		}
		tc.Undirected = count[0] / 2
		if opt.Unique {
			// Each cycle is found twice from reps[0], once per direction.
			tc.Unique = exactDiv(weight[0], H, b)
		}
		return tc, nil
	}
	if tc.Directed >= 0 {
		tc.Undirected = tc.Directed / 2
		if n == 1 {
			tc.Undirected = tc.Directed // the one-square path is its own reverse
		}
	}
	if opt.Unique {
		var w int64
		for i, r := range reps {
			w += int64(orbit[r]) * weight[i]
		}
		tc.Unique = exactDiv(w, H, b)
	}
	return tc, nil
}

// EstimateTourNodes estimates, without searching, the number of search nodes
// CountTours(ctx, b, opt) expands, by Knuth's estimator: each probe follows
// one random branch of the search tree from a root, choosing uniformly
// among the moves the pruning rules allow, and the product of the
// branching factors along the way is an unbiased estimate of the nodes at
// each depth. Its spread is wide (it tends to fall short on trees as
// lopsided as a tour search's), so it tells feasible from hopeless, not an
// hour from two. The random stream is fixed, so the estimate is the same
// on every run; it costs milliseconds.
func EstimateTourNodes(b *sim.Board, opt CountOptions) (float64, error) {
	n := b.Squares()
	if n > MaxCountSquares {
		return 0, fmt.Errorf("count tours on %s: boards of more than %d squares are not supported", b, MaxCountSquares)
	}
	starts, err := countStarts(b, opt.Starts)
	if err != nil {
		return 0, err
	}
	g := newTourGraph(b, opt.Closed, opt.Unique)
	rep, _ := squareOrbits(g.syms, n)
	if opt.Closed { // CountTours searches from one start
		starts = []int{g.closedStart()}
	}
	var tasks []countTask
	var seen uint64
	for _, s := range starts {
		if r := rep[s]; seen&(1<<r) == 0 {
			seen |= 1 << r
			tasks = append(tasks, g.rootTasks(0, r)...)
		}
	}
	const probes = 1 << 14
	per := max(16, probes/max(1, len(tasks)))
	rng := rand.New(rand.NewPCG(0x636f756e74, uint64(n)))
	total := float64(bits.OnesCount64(seen)) // the roots
	for i := range tasks {
		var sum float64
		for range per {
			sum += g.probe(&tasks[i], rng)
		}
		total += sum / float64(per)
	}
	return total, nil
}

// probe follows one random branch from t and returns Knuth's estimate of
// the nodes (paths with squares left to visit) of t's subtree.
func (g *tourGraph) probe(t *countTask, rng *rand.Rand) float64 {
	h, left, ends := int(t.prefix[len(t.prefix)-1]), t.left, t.ends
	start := int(t.prefix[0])
	est, weight := 0.0, 1.0
	type child struct {
		w          int
		left, ends uint64
	}
	var kids [8]child
	for left != 0 {
		est += weight
		k := 0
		for m := g.nbr[h&63] & left; m != 0; m &= m - 1 {
			w := bits.TrailingZeros64(m)
			l := left &^ (1 << w)
			if e, ok := g.check(start, h, w, l, ends, t.endMask); ok {
				kids[k] = child{w, l, e}
				k++
			}
		}
		if k == 0 {
			break
		}
		weight *= float64(k)
		c := kids[rng.IntN(k)]
		h, left, ends = c.w, c.left, c.ends
	}
	return est
}

func exactDiv(a, d int64, b *sim.Board) int64 {
	if a%d != 0 {
		panic(fmt.Sprintf("sim: Burnside sum %d on %s is not a multiple of %d", a, b, d))
	}
	return a / d
}

// countStarts validates the requested start squares and returns them
// ascending without repeats (all squares when none are given).
func countStarts(b *sim.Board, req []int) ([]int, error) {
	n := b.Squares()
	if len(req) == 0 {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s, nil
	}
	s := slices.Clone(req)
	for _, sq := range s {
		if sq < 0 || sq >= n {
			return nil, fmt.Errorf("count tours on %s: start square %d is off the board (valid: 0 to %d)", b, sq, n-1)
		}
	}
	slices.Sort(s)
	return slices.Compact(s), nil
}

// squareOrbits returns, for each square, the smallest square of its orbit
// under syms, and for each representative the size of its orbit.
func squareOrbits(syms [][]int8, n int) (rep, orbit []int) {
	rep = make([]int, n)
	orbit = make([]int, n)
	for sq := range rep {
		rep[sq] = sq
		for _, g := range syms {
			rep[sq] = min(rep[sq], int(g[sq]))
		}
		orbit[rep[sq]]++
	}
	return rep, orbit
}

// tourGraph is the knight graph of a board of at most 64 squares as
// neighbour bitboards, with what every search on it shares.
type tourGraph struct {
	n      int
	nbr    [64]uint64
	all    uint64
	dark   uint64 // squares with (row+col) even
	closed bool
	unique bool
	syms   [][]int8 // the board's symmetries, identity first
}

func newTourGraph(b *sim.Board, closed, unique bool) *tourGraph {
	g := &tourGraph{n: b.Squares(), closed: closed, unique: unique}
	var nb []int
	for sq := range g.n {
		g.all |= 1 << sq
		if r, c := b.RowCol(sq); (r+c)%2 == 0 {
			g.dark |= 1 << sq
		}
		nb = b.Neighbours(nb[:0], sq)
		for _, v := range nb {
			g.nbr[sq] |= 1 << v
		}
	}
	for _, p := range b.Symmetries() {
		q := make([]int8, len(p))
		for i, v := range p {
			q[i] = int8(v)
		}
		g.syms = append(g.syms, q)
	}
	return g
}

// countTask is a subtree of the search: a path prefix and its state. Its
// results count mult times, once for each symmetric image of the prefix.
type countTask struct {
	rep     int // index into the representatives
	prefix  []int8
	left    uint64 // unvisited squares
	ends    uint64 // open tours: the square that must come last, if known
	endMask uint64 // open tours: squares of the colour a tour must end on
	mult    int64

	count, weight, nodes int64
}

// rootTasks returns the tasks for tours from r: one for each orbit of first
// moves under the symmetries that fix r, or none when a tour from r is
// impossible on the face of it.
func (g *tourGraph) rootTasks(repIndex, r int) []countTask {
	rb := uint64(1) << r
	left := g.all &^ rb
	t := countTask{rep: repIndex, prefix: []int8{int8(r)}, left: left, mult: 1}
	if left == 0 {
		return []countTask{t} // one square: the start is a tour
	}
	same := g.dark
	if rb&g.dark == 0 {
		same = g.all &^ g.dark
	}
	nSame, nOther := bits.OnesCount64(same), bits.OnesCount64(g.all&^same)
	if g.closed {
		// A cycle alternates colours, so both colours come equally often, and
		// every square needs two neighbours on it.
		if nSame != nOther || g.n < 3 {
			return nil
		}
		for sq := range g.n {
			if bits.OnesCount64(g.nbr[sq]) < 2 {
				return nil
			}
		}
		// the last square is one of r's neighbours (check)
		t.endMask = g.nbr[r]
	} else {
		// A path from r alternates colours starting with r's: it ends on r's
		// colour when the board has an odd number of squares, on the other
		// colour otherwise, and r's colour must not be the minority.
		switch {
		case nSame == nOther:
			t.endMask = g.all &^ same
		case nSame == nOther+1:
			t.endMask = same
		default:
			return nil
		}
		for l := left; l != 0; l &= l - 1 {
			v := bits.TrailingZeros64(l)
			switch bits.OnesCount64(g.nbr[v]) {
			case 0:
				return nil
			case 1:
				t.ends |= 1 << v
			}
		}
		if t.ends&(t.ends-1) != 0 || t.ends&^t.endMask != 0 {
			return nil
		}
	}
	var fix [][]int8 // the symmetries that fix r
	for _, p := range g.syms {
		if int(p[r]) == r {
			fix = append(fix, p)
		}
	}
	var tasks []countTask
	for m := g.nbr[r]; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		smallest, size := w, 0
		var seen uint64
		for _, p := range fix {
			if seen&(1<<p[w]) == 0 {
				seen |= 1 << p[w]
				size++
			}
			smallest = min(smallest, int(p[w]))
		}
		if smallest != w {
			continue // counted with its image w'
		}
		if c, ok := g.extend(&t, r, w); ok {
			c.mult = int64(size)
			tasks = append(tasks, c)
		}
	}
	return tasks
}

// extend returns t moved on from its head h to w, or false when the pruning
// rules rule the result out.
func (g *tourGraph) extend(t *countTask, h, w int) (countTask, bool) {
	left := t.left &^ (1 << w)
	start := int(t.prefix[0])
	ends, ok := g.check(start, h, w, left, t.ends, t.endMask)
	if !ok {
		return countTask{}, false
	}
	c := *t
	c.prefix = append(slices.Clip(t.prefix), int8(w))
	c.left, c.ends = left, ends
	return c, true
}

// split replaces tasks by their children, level by level, until there are
// at least target of them, so that workers share the load evenly. It adds
// the tasks it expands to nodes.
func (g *tourGraph) split(tasks []countTask, target int, nodes int64) ([]countTask, int64) {
	for len(tasks) < target {
		var out []countTask
		grew := false
		for i := range tasks {
			t := &tasks[i]
			if t.left == 0 {
				out = append(out, *t)
				continue
			}
			grew = true
			nodes++
			h := int(t.prefix[len(t.prefix)-1])
			for m := g.nbr[h] & t.left; m != 0; m &= m - 1 {
				if c, ok := g.extend(t, h, bits.TrailingZeros64(m)); ok {
					out = append(out, c)
				}
			}
		}
		tasks = out
		if !grew {
			break
		}
	}
	return tasks, nodes
}

// check applies the pruning rules to the move from h to w that leaves the
// squares left unvisited, and returns the updated set of forced last squares.
//
// A square can be entered and left only through its usable neighbours: the
// unvisited squares, the head, and (for closed tours) the start, to which the
// last square must connect. Moving from h to w removes exactly h from that
// set (w turns from unvisited into the head), so only h's neighbours lose a
// usable neighbour, and only they need checking.
func (g *tourGraph) check(start, h, w int, left, ends, endMask uint64) (uint64, bool) {
	cand := g.nbr[h&63] & left
	if g.closed && left != 0 && g.nbr[start&63]&left == 0 {
		return 0, false // nothing left to close the tour from
	}
	// The path to come runs from w through every square left; a closed
	// tour's last square must then be a neighbour of the start (endMask),
	// so the rules are those of an open path with its end among them.
	usable := left | 1<<w
	ends &^= 1 << w
	for ; cand != 0; cand &= cand - 1 {
		v := bits.TrailingZeros64(cand)
		switch bits.OnesCount64(g.nbr[v] & usable) {
		case 0:
			return 0, false
		case 1:
			ends |= 1 << v // it can only be the last square
		}
	}
	if ends&(ends-1) != 0 || ends&^endMask != 0 {
		return 0, false
	}
	return ends, true
}

// closedStart is the square a closed-tour search starts from: the one
// with the fewest neighbours (the smallest such), which is the smallest of
// its orbit.
func (g *tourGraph) closedStart() int {
	best := 0
	for sq := 1; sq < g.n; sq++ {
		if bits.OnesCount64(g.nbr[sq]) < bits.OnesCount64(g.nbr[best]) {
			best = sq
		}
	}
	return best
}

// cancelCheck is how many nodes a searcher expands between looks at its
// context: about a millisecond's work.
const cancelCheck = 1 << 16

// tourSearcher runs tasks depth first; one per worker.
type tourSearcher struct {
	*tourGraph
	ctx       context.Context
	progress  *atomic.Int64
	path      [64]int8
	depth     int
	start     int
	endMask   uint64
	count     int64
	weight    int64
	nodes     int64
	cancelled bool
	pos       [64]int8
}

// run searches t's subtree and records its results; false if cancelled.
func (s *tourSearcher) run(t *countTask) bool {
	copy(s.path[:], t.prefix)
	s.depth = len(t.prefix)
	s.start = int(t.prefix[0])
	s.endMask = t.endMask
	s.count, s.weight, s.nodes = 0, 0, 0
	s.dfs(int(t.prefix[len(t.prefix)-1]), t.left, t.ends)
	if s.progress != nil {
		s.progress.Add(s.nodes % cancelCheck) // dfs added the whole steps
	}
	t.count, t.weight, t.nodes = s.count, s.weight, s.nodes
	return !s.cancelled
}

func (s *tourSearcher) dfs(h int, left, ends uint64) {
	if left == 0 {
		s.leaf(h)
		return
	}
	s.nodes++
	if s.nodes%cancelCheck == 0 {
		if s.progress != nil {
			s.progress.Add(cancelCheck)
		}
		if s.ctx.Err() != nil {
			s.cancelled = true
		}
	}
	if s.cancelled {
		return
	}
	for m := s.nbr[h&63] & left; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		l := left &^ (1 << w)
		e, ok := s.check(s.start, h, w, l, ends, s.endMask)
		if !ok {
			continue
		}
		s.path[s.depth&63] = int8(w)
		s.depth++
		s.dfs(w, l, e)
		s.depth--
	}
}

func (s *tourSearcher) leaf(h int) {
	if s.closed && s.nbr[h&63]&(1<<s.start) == 0 {
		return
	}
	s.count++
	if s.unique {
		s.weight += s.stabiliser()
	}
}

// stabiliser returns the number of symmetries that map the tour in s.path to
// itself: for open tours, symmetries with or without reversal of the path;
// for closed tours, symmetries that map the cycle's edges onto its edges.
func (s *tourSearcher) stabiliser() int64 {
	n := s.n
	p := s.path[:n]
	var k int64
	if !s.closed {
		for _, g := range s.syms {
			if g[p[0]] == p[0] && mapsPath(g, p, false) {
				k++
			}
			if g[p[n-1]] == p[0] && mapsPath(g, p, true) {
				k++
			}
		}
		return k
	}
	for i, v := range p {
		s.pos[v] = int8(i)
	}
	for _, g := range s.syms {
		ok := true
		for i := 0; i < n && ok; i++ {
			d := int(s.pos[g[p[i]]]) - int(s.pos[g[p[(i+1)%n]]])
			ok = d == 1 || d == -1 || d == n-1 || d == 1-n
		}
		if ok {
			k++
		}
	}
	return k
}

// mapsPath reports whether g maps the path p onto itself, read backwards
// when rev is set.
func mapsPath(g []int8, p []int8, rev bool) bool {
	n := len(p)
	for i, v := range p {
		j := i
		if rev {
			j = n - 1 - i
		}
		if g[v] != p[j] {
			return false
		}
	}
	return true
}
