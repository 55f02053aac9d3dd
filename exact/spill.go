package exact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"sync"
	"unsafe"

	"github.com/knightwalk/knightwalk/internal/safeio"
	"github.com/knightwalk/knightwalk/sim"
)

// Spilling an enumeration's layers to disk (Options.Spill), as the
// tour count's sweep does (count/spill.go).
//
// In memory, a step holds the layer it expands and the layer it builds,
// with the index that merges equal states and the sort's buffer: 10x10
// from a1 peaks at 4 GiB. With a spill directory, every finished (sorted,
// merged) layer is written to a file there and read back in chunks, so no
// layer stays in memory; and the next layer is built in passes over the
// one read, each pass keeping only the successors whose hash falls in its
// range of buckets, merging and sorting them, and appending them to the
// next layer's file as one sorted run. A layer is then a few sorted runs
// of disjoint states, which the next step reads back merged, in the
// reference order (compareStates) of the in-memory layer. So:
//
//   - each state of the next layer receives its probability from the same
//     parents in the same order as in memory (a pass reads every parent, in
//     order, and keeps the successors of its range), so its sums are the
//     same bits;
//   - the end-of-walk sums (success, dead ends, lengths, ties, tree nodes)
//     are added in the layer's order by the first round of passes of each
//     step only, whatever its passes meet (one that outgrows the budget
//     stops adding states, not walks that end);
//   - a step's memory is one round's indexes, states and sort buffers, plus
//     the chunks read: the budget sets the number of passes, from the
//     layer's growth at the step before, and a pass that outgrows its
//     share is dropped and its range run again as two halves.
//
// The passes of a round run in lanes, one goroutine each, over the same
// blocks read back; each round works out the moves of every state read,
// so passes cost time: they are as few as the budget allows. The result is
// bit for bit that of the in-memory enumeration (TestExactSpillMatches).

// spillBuckets is how many hash ranges a pass can be narrowed to: the
// most passes a step can take (each expands the whole layer again).
const spillBuckets = 1 << 8

// spillReadBytes is the most memory reading a layer back takes: the
// chunks of its runs, and the block of states they are merged into.
const spillReadBytes = 16 << 20

// Layer describes one step of an enumeration (Options.Layers).
type Layer struct {
	Start     int
	Depth     int   // the path length of the layer built
	States    int64 // its states
	Runs      int   // the sorted runs it is kept in: the passes that built it (1 in memory)
	Retried   int   // passes that outgrew the budget and were run again as two
	DiskBytes int64 // the bytes of the layer expanded and the one built, on disk (0 in memory)
}

// spillRun is one sorted run of a layer file: n states from byte off.
type spillRun struct{ off, n int64 }

// spillFile is a layer on disk: sorted runs of states of the words W, one
// after another. The file has no name in its directory
// (safeio.ScratchFile), so it disappears with the process however that
// ends, and its space comes back when it is closed.
type spillFile[W words] struct {
	f      *os.File
	path   string // where the name could not be removed at once (not POSIX)
	runs   []spillRun
	states int64
	size   int64
}

func newSpillFile[W words](dir string) (*spillFile[W], error) {
	f, path, err := safeio.ScratchFile(dir, "knightwalk-exact-*.layer")
	if err != nil {
		return nil, fmt.Errorf("exact: spill a layer of states: %w", err)
	}
	return &spillFile[W]{f: f, path: path}, nil
}

func (sf *spillFile[W]) close() {
	if sf == nil {
		return
	}
	sf.f.Close()
	if sf.path != "" {
		os.Remove(sf.path)
	}
}

// stateBytesOf views states as bytes, for the file.
func stateBytesOf[W words](xs []exactState[W]) []byte {
	if len(xs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*int(unsafe.Sizeof(xs[0])))
}

// appendRun appends sorted states as one run.
func (sf *spillFile[W]) appendRun(xs []exactState[W]) error {
	b := stateBytesOf(xs)
	if _, err := sf.f.WriteAt(b, sf.size); err != nil {
		return fmt.Errorf("exact: spill a layer of states: %w", err)
	}
	sf.runs = append(sf.runs, spillRun{sf.size, int64(len(xs))})
	sf.size += int64(len(b))
	sf.states += int64(len(xs))
	return nil
}

// runReader reads one run back in chunks.
type runReader[W words] struct {
	sf        *spillFile[W]
	next, end int64 // the byte offsets of the next chunk and of the run's end
	buf       []exactState[W]
	i         int
}

// head returns the run's next state, reading a chunk when the last is
// used up, or nil at the run's end.
func (rr *runReader[W]) head() (*exactState[W], error) {
	if rr.i < len(rr.buf) {
		return &rr.buf[rr.i], nil
	}
	size := int64(unsafe.Sizeof(exactState[W]{}))
	n := min(int64(cap(rr.buf)), (rr.end-rr.next)/size)
	if n == 0 {
		return nil, nil
	}
	rr.buf, rr.i = rr.buf[:n], 0
	if _, err := rr.sf.f.ReadAt(stateBytesOf(rr.buf), rr.next); err != nil && !(errors.Is(err, io.EOF) && rr.next+n*size == rr.sf.size) {
		return nil, fmt.Errorf("exact: read back a spilled layer of states: %w", err)
	}
	rr.next += n * size
	return &rr.buf[0], nil
}

// layerReader reads a spilled layer's runs back merged, in the reference
// order: the runs hold disjoint states, each run sorted.
type layerReader[W words] struct {
	rs   []runReader[W]
	heap []int // runs by their head state, the least first
}

func newLayerReader[W words](sf *spillFile[W], chunk int) (*layerReader[W], error) {
	lr := &layerReader[W]{}
	size := int64(unsafe.Sizeof(exactState[W]{}))
	for _, r := range sf.runs {
		lr.rs = append(lr.rs, runReader[W]{sf: sf, next: r.off, end: r.off + r.n*size, buf: make([]exactState[W], 0, chunk)})
	}
	for i := range lr.rs {
		h, err := lr.rs[i].head()
		if err != nil {
			return nil, err
		}
		if h != nil {
			lr.heap = append(lr.heap, i)
			lr.up(len(lr.heap) - 1)
		}
	}
	return lr, nil
}

func (lr *layerReader[W]) less(a, b int) bool {
	ra, rb := &lr.rs[lr.heap[a]], &lr.rs[lr.heap[b]]
	return compareStates(&ra.buf[ra.i], &rb.buf[rb.i]) < 0
}

func (lr *layerReader[W]) up(j int) {
	for j > 0 {
		p := (j - 1) / 2
		if !lr.less(j, p) {
			return
		}
		lr.heap[j], lr.heap[p] = lr.heap[p], lr.heap[j]
		j = p
	}
}

func (lr *layerReader[W]) down(j int) {
	for {
		l := 2*j + 1
		if l >= len(lr.heap) {
			return
		}
		if r := l + 1; r < len(lr.heap) && lr.less(r, l) {
			l = r
		}
		if !lr.less(l, j) {
			return
		}
		lr.heap[j], lr.heap[l] = lr.heap[l], lr.heap[j]
		j = l
	}
}

// read fills block with the layer's next states, in order, and returns how
// many it read (0 at the end).
func (lr *layerReader[W]) read(block []exactState[W]) (int, error) {
	n := 0
	for n < len(block) && len(lr.heap) > 0 {
		rr := &lr.rs[lr.heap[0]]
		if len(lr.heap) == 1 { // the rest of one run: whole chunks
			k := copy(block[n:], rr.buf[rr.i:])
			rr.i += k
			n += k
		} else {
			block[n] = rr.buf[rr.i]
			rr.i++
			n++
		}
		h, err := rr.head()
		if err != nil {
			return n, err
		}
		if h == nil {
			last := len(lr.heap) - 1
			lr.heap[0] = lr.heap[last]
			lr.heap = lr.heap[:last]
		}
		if len(lr.heap) > 0 {
			lr.down(0)
		}
	}
	return n, nil
}

// bucketRange is the buckets lo, …, hi-1: what one pass keeps.
type bucketRange struct{ lo, hi int }

// spillWalk is exactWalkIn with its layers spilled to lim.spill (see
// above); lim.bounds does not apply (exactWalk falls back to the
// in-memory bounds).
func spillWalk[W words](ctx context.Context, b *sim.Board, r sim.Rule, start int, lim exactLimits) (Result, error) {
	budget, progress, e, res := walkSetup[W](b, r, start, lim)
	w, err := newSpillStep(b, r, start, lim, e, &res)
	if err != nil {
		return Result{}, err
	}
	cur, err := newSpillFile[W](lim.spill)
	if err != nil {
		return Result{}, err
	}
	defer func() { cur.close() }()
	if err := cur.appendRun([]exactState[W]{{set: bitset[W]{}.with(start), cur: uint16(start), p: 1, paths: 1}}); err != nil {
		return Result{}, err
	}
	growth := 8.0 // the first step's guess: a knight has at most 8 moves
	for depth := 1; cur.states > 0; depth++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if res.Nodes += cur.states; res.Nodes > budget {
			return Result{}, fmt.Errorf("exact: %s %s from %s: more than %d states at path length %d: %w (raise the budget or pick a smaller board)",
				b, r.Name(), b.SquareName(start), budget, depth, ErrBudget)
		}
		next, err := newSpillFile[W](lim.spill)
		if err != nil {
			return Result{}, err
		}
		if lim.spillGrowth > 0 {
			growth = lim.spillGrowth
		}
		predicted := float64(cur.states) * growth
		retried, err := w.step(ctx, depth, cur, next, w.passes(predicted))
		if err != nil {
			next.close()
			return Result{}, w.lanes[0].nb.spillOutgrew(b, r, start, depth+1, w.buckets, lim.spill, err)
		}
		if lim.layers != nil {
			lim.layers(Layer{Start: start, Depth: depth + 1, States: next.states, Runs: len(next.runs), Retried: retried, DiskBytes: cur.size + next.size})
		}
		if cur.states > 0 && next.states > 0 {
			growth = float64(next.states) / float64(cur.states) * 1.25
		}
		if progress != nil {
			progress.Add(cur.states)
		}
		cur.close()
		cur = next
	}
	return res, nil
}

// newSpillStep sets up the lanes of a spilled enumeration within lim.mem:
// what reading back takes (an eighth of the budget, 64 KiB to
// spillReadBytes, unless lim.spillRead says) and an equal share of the
// rest for each lane.
func newSpillStep[W words](b *sim.Board, r sim.Rule, start int, lim exactLimits, e *enumerator[W], res *Result) (*spillStep[W], error) {
	threads := max(1, lim.threads)
	par := newParallelAllowed[W](b, r, threads)
	for _, pe := range par.es {
		pe.start = start
	}
	read := lim.spillRead
	switch {
	case read > 0:
	case lim.mem != nil: // an eighth of the budget, 64 KiB to spillReadBytes
		read = max(64<<10, min(spillReadBytes, lim.mem.limit/8))
	default:
		read = spillReadBytes
	}
	// what a pass may hold: the budget less the chunks read back and the
	// block of states they are merged into (half of read each)
	blockLen := int(max(256, min(exactCheck, read/2/stateBytes[W]())))
	var mem *memoryBudget
	if lim.mem != nil {
		held := read/2 + int64(blockLen)*stateBytes[W]()
		if lim.mem.limit <= 2*held {
			return nil, fmt.Errorf("exact: %s %s from %s: spilling to %s needs more than %s for the states: %w (raise --max-memory)",
				b, r.Name(), b.SquareName(start), lim.spill, formatBytes(2*held), ErrMemory)
		}
		mem = &memoryBudget{limit: lim.mem.limit - held}
	}
	w := &spillStep[W]{b: b, e: e, par: par, res: res, maxSteps: e.maxSteps,
		block: make([]exactState[W], blockLen), read: read / 2, buckets: cmp.Or(lim.spillBuckets, spillBuckets)}
	for range threads {
		nb := &nextLayer[W]{index: map[bitsetKey[W]]int{}, held: newHeldMemory[W](mem), res: res}
		if mem != nil {
			// a lane holds at most maxStates states, in its layer, sort
			// buffer and index: together they stay within the budget
			nb.maxStates = int(max(1, mem.limit/int64(threads)/nb.held.perState()))
		}
		w.lanes = append(w.lanes, spillLane[W]{nb: nb})
	}
	return w, nil
}

// spillOutgrew describes a pass of a single bucket that outgrew the budget.
func (nb *nextLayer[W]) spillOutgrew(b *sim.Board, r sim.Rule, start, depth, buckets int, dir string, err error) error {
	if !errors.Is(err, ErrMemory) {
		return err
	}
	return fmt.Errorf("exact: %s %s from %s: spilled to %s, a %dth of the states at path length %d (one pass) is more than the %d states a pass may hold (%d bytes a state with its index entry and sort buffer, in its share of the %s its states may take: 70 %% of the memory budget after the program's share, shared by the starts run at once and the passes run at once, less what reading back takes): %w (raise --max-memory)",
		b, r.Name(), b.SquareName(start), dir, buckets, depth, nb.maxStates, nb.held.perState(), formatBytes(nb.held.budget.limit), err)
}

// spillStep builds the layers of a spilled enumeration. Its lanes, one a
// goroutine, build the bucket ranges of a round of passes at once, from the
// same blocks of states read back (and their moves worked out) once; each
// lane has its share of the budget.
type spillStep[W words] struct {
	b        *sim.Board
	e        *enumerator[W]
	par      *parallelAllowed[W]
	res      *Result
	maxSteps int
	lanes    []spillLane[W]
	block    []exactState[W] // the states read, a block at a time
	read     int64           // bytes the chunks of the runs read back take
	buckets  int             // the hash ranges, a power of 2: the most passes a step takes
}

// spillLane is one pass of a round: the successors in the buckets br.
type spillLane[W words] struct {
	nb  *nextLayer[W]
	buf []exactState[W] // the sort's buffer, kept from pass to pass
	br  bucketRange
	err error // ErrMemory once the pass outgrew its share
}

// passes is how many passes a step that builds about predicted states
// takes: at least one a lane, each at most nine tenths of the states a
// lane may hold, as the buckets are not all alike.
func (w *spillStep[W]) passes(predicted float64) int {
	lanes := len(w.lanes)
	if w.lanes[0].nb.maxStates == 0 {
		return lanes
	}
	p := math.Ceil(predicted / (0.9 * float64(w.lanes[0].nb.maxStates)))
	return int(min(float64(w.buckets), max(float64(lanes), p)))
}

// step builds next from cur in p passes, more if one outgrows the budget:
// it returns how many did.
func (w *spillStep[W]) step(ctx context.Context, depth int, cur, next *spillFile[W], p int) (retried int, err error) {
	queue := make([]bucketRange, 0, p)
	for k := range p {
		queue = append(queue, bucketRange{k * w.buckets / p, (k + 1) * w.buckets / p})
	}
	counted := false
	for len(queue) > 0 {
		round := w.lanes[:min(len(queue), len(w.lanes))]
		for i := range round {
			round[i].br, round[i].err = queue[i], nil
		}
		queue = queue[len(round):]
		// the first round adds the walks that end, whatever its lanes
		// meet: a lane that outgrows its share stops adding states only
		if err := w.round(ctx, depth, cur, round, !counted); err != nil {
			return retried, err
		}
		counted = true
		for i := range round {
			l := &round[i]
			if errors.Is(l.err, ErrMemory) && l.br.hi-l.br.lo > 1 {
				retried++
				mid := (l.br.lo + l.br.hi) / 2
				queue = append([]bucketRange{{l.br.lo, mid}, {mid, l.br.hi}}, queue...)
				continue
			}
			if l.err != nil {
				return retried, l.err
			}
			// the states of the pass, sorted, into the next layer's file:
			// runs of disjoint states, in any order
			sorted, err := l.nb.sorted(ctx, l.buf, len(w.par.es))
			if err != nil {
				return retried, err
			}
			if len(sorted) > 0 {
				if err := next.appendRun(sorted); err != nil {
					return retried, err
				}
			}
			l.buf = sorted
		}
	}
	return retried, nil
}

// round reads cur, in order, and has each lane add the successors in its
// buckets; with count, the first lane adds the walks that end to res, in
// the layer's order, as the in-memory loop does (exactWalkIn).
func (w *spillStep[W]) round(ctx context.Context, depth int, cur *spillFile[W], lanes []spillLane[W], count bool) error {
	for i := range lanes {
		lanes[i].nb.reset(cap(lanes[i].buf))
	}
	chunk := int(max(64, min(exactCheck, w.read/int64(max(1, len(cur.runs)))/stateBytes[W]())))
	lr, err := newLayerReader(cur, chunk)
	if err != nil {
		return err
	}
	for {
		k, err := lr.read(w.block)
		if err != nil {
			return err
		}
		if k == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		block := w.block[:k]
		w.par.allowedOf(block)
		if err := policyErr(w.e, w.par); err != nil { // a rule of your own's answer no walk may take
			return err
		}
		if len(lanes) == 1 {
			w.expand(block, depth, &lanes[0], count)
			continue
		}
		var wg sync.WaitGroup
		for i := range lanes {
			wg.Go(func() { w.expand(block, depth, &lanes[i], count && i == 0) })
		}
		wg.Wait()
	}
}

// expand adds the successors of block's states in l's buckets to l's
// layer, and with count the walks that end to res.
func (w *spillStep[W]) expand(block []exactState[W], depth int, l *spillLane[W], count bool) {
	res, par := w.res, w.par
	whole := l.br.lo == 0 && l.br.hi == w.buckets
	shift := 64 - bits.Len(uint(w.buckets-1))
	for i := range block {
		s := &block[i]
		allowed, ties := par.allowed[i], par.ties[i]
		m := allowed.count()
		if count {
			res.TreeNodes += s.paths
			if ties {
				res.MeanTies += s.p
			}
		}
		if m == 0 || depth-1 >= w.maxSteps {
			if count {
				res.end(w.b, int(s.cur), s.p, depth, m)
			}
			continue
		}
		if l.err != nil {
			continue
		}
		q := s.p / float64(m)
		for a := allowed; !a.empty(); {
			c := a.pop()
			set := s.set.with(c)
			if !whole {
				if bk := int(stateHash(set, c) >> shift); bk < l.br.lo || bk >= l.br.hi {
					continue
				}
			}
			if err := l.nb.add(exactState[W]{set: set, cur: uint16(c)}, q, s.paths); err != nil {
				l.err = err
				break
			}
		}
	}
}

// spillWalkOf is spillWalk with the words of b's visited sets.
func spillWalkOf(ctx context.Context, b *sim.Board, r sim.Rule, start int, lim exactLimits) (Result, error) {
	switch n := b.Squares(); {
	case n <= 128:
		return spillWalk[words128](ctx, b, r, start, lim)
	case n <= 256:
		return spillWalk[words256](ctx, b, r, start, lim)
	case n <= 512:
		return spillWalk[words512](ctx, b, r, start, lim)
	}
	return spillWalk[words640](ctx, b, r, start, lim)
}
