package count

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/knightwalk/knightwalk/sim"
)

// Options says what Tours counts.
type Options struct {
	// Closed counts closed tours (Hamiltonian cycles) instead of open ones.
	Closed bool
	// Starts lists the squares whose counts PerStart reports; nil reports
	// only the total.
	Starts []int
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// MaxMemory bounds the bytes the state tables take (0: no bound); a
	// sweep that outgrows it stops with an error.
	MaxMemory int64
	// Progress, when not nil, is called after each step of each sweep.
	Progress func(Sweep string, l Layer)

	// PairedEnds counts open tours by both ends of the path (sweepPairs):
	// fewer states at the widest layer for about the same time (6x6: 0.25
	// against 1.4 million states, 3.5 against 3.3 s of CPU).
	PairedEnds bool

	// Spill, when not empty, is a directory where layers are kept on disk
	// instead of in memory, and each step writes its layer in as many
	// passes as MaxMemory requires (see spill.go): memory then bounds the
	// time, not what can be counted. The files are removed as they are
	// made, so none outlives the process.
	Spill string

	// Shard, when its N is above 1, runs part K of N of the count's
	// independent sweeps (see Shard): Result then holds the Pieces they
	// counted, for Combine, and no totals.
	Shard Shard

	wide bool // start with 128-bit tables (tests; see slot)
}

// Result holds exact tour counts on one board.
type Result struct {
	Board  *sim.Board
	Closed bool
	// Tours is the number of directed open tours (twice the Hamiltonian
	// paths; a one-square board has one), or of closed tours (undirected
	// Hamiltonian cycles).
	Tours Count
	// PerStart[sq] is the number of directed open tours that start on sq
	// (Hamiltonian paths with an end at sq), for sq in Starts; for closed
	// tours, twice the closed tours on every square (each passes every
	// square once in each direction).
	PerStart []Count
	// Starts lists the squares PerStart holds, ascending.
	Starts []int
	// Layers has the states after each step of the shared sweep (open
	// tours: up to the last start's branch) or of the one sweep (closed). PeakStates and PeakBytes are the most states
	// a layer held and the most memory the state tables took at once, over
	// all sweeps.
	Layers     []Layer
	PeakStates int
	PeakBytes  int64
	Sweeps     int

	// Pieces are what each unit of the count counted (every unit of the
	// whole count, or those of Options.Shard), for Combine.
	Pieces []Piece
	// SweepStats has each sweep's states, time and memory, in the order
	// they ran.
	SweepStats []SweepStat
}

// Tours counts knight's tours on b with a frontier sweep (see the package
// documentation). Boards whose shorter side exceeds MaxWidth, or whose
// counts could exceed 128 bits, bad start squares and cancellation of ctx
// are errors, and so is outgrowing opt.MaxMemory.
func Tours(ctx context.Context, b *sim.Board, opt Options) (Result, error) {
	r, err := tours(ctx, b, opt)
	if errors.Is(err, errNarrow) && !opt.wide {
		opt.wide = true
		return tours(ctx, b, opt)
	}
	return r, err
}

func tours(ctx context.Context, b *sim.Board, opt Options) (Result, error) {
	p, err := newPlan(b)
	if err != nil {
		return Result{}, err
	}
	if lb := p.log2Bound(); lb >= 127 {
		return Result{}, fmt.Errorf("count tours on %s: counts may reach 2^%.0f, beyond the counter's 128 bits", b, lb)
	}
	if err := opt.Shard.check(); err != nil {
		return Result{}, fmt.Errorf("count tours on %s: %w", b, err)
	}
	if opt.Workers < 0 {
		return Result{}, fmt.Errorf("count tours on %s: workers = %d, want 0 (GOMAXPROCS) or more", b, opt.Workers)
	}
	workers := opt.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	starts := slices.Clone(opt.Starts)
	for _, sq := range starts {
		if sq < 0 || sq >= p.n {
			return Result{}, fmt.Errorf("count tours on %s: start square %d is off the board (valid: 0 to %d)", b, sq, p.n-1)
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	res := Result{Board: b, Closed: opt.Closed, Starts: starts, PerStart: make([]Count, p.n)}
	bud := &budget{limit: opt.MaxMemory}
	defer bud.drain()
	var swept []*sweep
	sweepOf := func(name string, closed bool, ends [2]int) *sweep {
		w := &sweep{plan: p, name: name, closed: closed, ends: ends, workers: workers, bud: bud, wide: opt.wide, spillDir: opt.Spill}
		if opt.Progress != nil {
			w.progress = func(l Layer) { opt.Progress(name, l) }
		}
		swept = append(swept, w)
		return w
	}
	if opt.Closed {
		err = res.countClosed(ctx, p, opt.Shard, sweepOf("closed", true, [2]int{-1, -1}))
	} else {
		err = res.countOpen(ctx, p, opt.PairedEnds, opt.Shard, sweepOf)
	}
	if err != nil {
		return Result{}, fmt.Errorf("count tours on %s: %w", b, err)
	}
	res.PeakBytes, res.PeakStates = bud.peak.Load(), int(bud.peakStates.Load())
	res.SweepStats = sweepStats(swept)
	return res, nil
}

// countClosed counts Hamiltonian cycles. The knight graph is bipartite
// (a move changes the colour of the square), so a cycle alternates colours
// and needs as many squares of each: boards with an odd number of squares
// have none, and need no sweep.
func (r *Result) countClosed(ctx context.Context, p *plan, sh Shard, w *sweep) error {
	if p.n%2 == 0 && p.n >= 4 {
		c, err := w.runShard(ctx, sh)
		if err != nil {
			return err
		}
		r.Tours, r.Layers, r.Sweeps = c, w.layers, 1
		n := max(1, sh.N)
		r.Pieces = []Piece{{fmt.Sprintf("closed %d/%d", sh.K, n), c}}
	}
	twice := r.Tours.Add(r.Tours)
	for _, sq := range r.Starts {
		r.PerStart[sq] = twice
	}
	return nil
}

// countOpen counts directed open tours from each start square, one sweep
// per orbit of start squares under the board's symmetries (tours map to
// tours), and their total. On a board with an odd number of squares a path
// alternates colours and so begins and ends on the majority colour: from
// the other colour there are none, without a sweep. The total comes from
// all the starts even when fewer are asked for: the per-start sweeps share
// their prefix and each holds one path end in reserve, which makes all of
// them together cheaper than one sweep with both ends free (6x6: 5 s
// against 11 s of CPU; see totalPaths).
func (r *Result) countOpen(ctx context.Context, p *plan, paired bool, sh Shard, sweepOf func(string, bool, [2]int) *sweep) error {
	if p.n == 1 {
		r.Tours = Count{Lo: 1}
		for _, sq := range r.Starts {
			r.PerStart[sq] = Count{Lo: 1}
		}
		return nil
	}
	if paired {
		return r.countPaired(ctx, p, sh, sweepOf)
	}
	b := p.board
	// Each orbit is swept from the square latest in the sweep: until the
	// designated start is added it holds one of the path's two ends in
	// reserve, which leaves the states only one free end.
	rep, reps := startReps(p)
	var mine []int
	for i, m := range reps {
		if sh.Takes(i) {
			mine = append(mine, m)
		}
	}
	done, layers, err := sweepStarts(ctx, p, mine, sweepOf)
	if err != nil {
		return err
	}
	r.Sweeps, r.Layers = len(mine), layers
	for _, m := range mine {
		r.Pieces = append(r.Pieces, Piece{"from " + b.SquareName(m), done[m]})
	}
	if sh.split() {
		return nil // the totals need every shard: Combine
	}
	for sq := range rep {
		r.Tours = r.Tours.Add(done[rep[sq]]) // each path counted from both ends
	}
	for _, sq := range r.Starts {
		r.PerStart[sq] = done[rep[sq]]
	}
	return nil
}

// countPaired counts directed open tours from every square as the sum,
// over the other end t, of the Hamiltonian paths between s and t.
func (r *Result) countPaired(ctx context.Context, p *plan, sh Shard, sweepOf func(string, bool, [2]int) *sweep) error {
	b := p.board
	var ends []int // squares a path may end on
	for sq := range p.n {
		if row, col := b.RowCol(sq); p.n%2 == 0 || (row+col)%2 == 0 {
			ends = append(ends, sq)
		}
	}
	canon := canonicalPairs(p, ends)
	var pairs []pairKey
	var firsts []int
	for _, k := range canon {
		pairs = append(pairs, k)
		firsts = append(firsts, k.x)
	}
	slices.Sort(firsts)
	firsts = slices.Compact(firsts)
	slices.SortFunc(pairs, func(a, b pairKey) int {
		if a.x != b.x {
			return a.x - b.x
		}
		return a.y - b.y
	})
	pairs = slices.Compact(pairs)
	pairs = slices.DeleteFunc(pairs, func(k pairKey) bool {
		i, _ := slices.BinarySearch(firsts, k.x)
		return !sh.Takes(i)
	})
	done, layers, err := sweepPairs(ctx, p, pairs, sweepOf)
	if err != nil {
		return err
	}
	r.Sweeps, r.Layers = len(done), layers
	for _, k := range pairs {
		r.Pieces = append(r.Pieces, Piece{pairName(p, k), done[k]})
	}
	if sh.split() {
		return nil // the totals need every shard: Combine
	}
	perStart := make([]Count, p.n)
	for k, c := range canon {
		perStart[k.x] = perStart[k.x].Add(done[c])
		perStart[k.y] = perStart[k.y].Add(done[c])
	}
	for sq := range perStart {
		r.Tours = r.Tours.Add(perStart[sq]) // each path counted from both ends
	}
	for _, sq := range r.Starts {
		r.PerStart[sq] = perStart[sq]
	}
	return nil
}

// sweepStarts counts the paths with an end at each of reps (ascending in
// the sweep). Until square s is added, a sweep designating s differs from
// one designating any later square in nothing (both hold one end in
// reserve), so one reserving sweep runs to the end, and the sweep for each
// s branches off it at s: the shared prefix is swept once.
func sweepStarts(ctx context.Context, p *plan, reps []int, sweepOf func(string, bool, [2]int) *sweep) (map[int]Count, []Layer, error) {
	done := make(map[int]Count)
	if len(reps) == 0 {
		return done, nil, nil
	}
	main := sweepOf("shared", false, [2]int{p.n, -1}) // one end in reserve, one free
	cur, err := main.initial()
	if err != nil {
		return nil, nil, err
	}
	pos := 0
	for _, m := range reps {
		s := p.sweepSquare(m)
		if cur, _, err = main.advance(ctx, cur, pos, s, true); err != nil {
			return nil, nil, err
		}
		pos = s
		w := sweepOf("from "+p.board.SquareName(m), false, [2]int{s, -1})
		_, c, err := w.advance(ctx, cur, s, p.n, false)
		if err != nil {
			cur.release()
			return nil, nil, err
		}
		done[m] = c
	}
	cur.release()
	return done, main.layers, nil
}
