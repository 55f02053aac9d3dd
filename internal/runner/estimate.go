package runner

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// EstimateLine is the share of one (board, rule) in a shard's work, with
// the kernel's measured cost per walk.
type EstimateLine struct {
	Board     *sim.Board
	Rule      sim.Rule
	Starts    int
	Units     int
	Walks     uint64
	NsPerWalk float64
	// Interpolated: NsPerWalk comes from the measured boards nearest in
	// size, not from walks on this board (calibrationSample).
	Interpolated bool
	// Design is the index in Experiment.Designs of the design whose cell
	// the rule is, -1 for a plain rule; Sampled says the cell was
	// calibrated (designSample), else NsPerWalk is the mean of those that
	// were.
	Design  int
	Sampled bool
}

// Estimate is what `run --dry-run` prints: the plan of one shard and the
// time it should take.
type Estimate struct {
	Lines   []EstimateLine
	Units   int
	Walks   uint64
	Seconds float64 // on the given number of workers
}

// EstimateRun plans shard of s without running it and estimates its time
// on workers goroutines from a short calibration: about 100 ms of walks of
// each (board, rule) on one goroutine.
//
// A unit's walks run on one worker, so the estimate is never below the
// longest unit's time (one 9 s backtracking walk does not take 4.5 s on
// two workers). ctx stops the calibration, whose walks may be long.
func EstimateRun(ctx context.Context, s *config.Experiment, shard Shard, workers int) (*Estimate, error) {
	p, err := NewPlan(s)
	if err != nil {
		return nil, err
	}
	est := &Estimate{Units: p.ShardLen(shard), Walks: p.Walks(shard, -1, -1)}
	sample := calibrationSample(s.Boards)
	units := map[int]float64{} // unitCost of the sampled boards
	for bi := range sample {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		units[bi] = unitCost(s.Boards[bi])
	}
	var ns, longest float64
	est.Lines = make([]EstimateLine, len(s.Boards)*len(s.Rules)) // the plan's order: board, then rule
	design, sampled := designSample(s)
	perWalks := make([]map[int]float64, len(s.Rules))
	for ri, r := range s.Rules {
		if !sampled[ri] {
			continue
		}
		perWalks[ri] = map[int]float64{}
		for bi := range sample {
			per, err := calibrate(ctx, s.Boards[bi], r, s.Starts[bi])
			if err != nil {
				return nil, err
			}
			perWalks[ri][bi] = per
		}
	}
	// a design's cells not calibrated cost the mean of those that were
	means := make([]map[int]float64, len(s.Designs))
	for di, d := range s.Designs {
		means[di] = map[int]float64{}
		n := 0
		for ri := d.First; ri < d.First+d.N; ri++ {
			if sampled[ri] {
				n++
				for bi, v := range perWalks[ri] {
					means[di][bi] += v
				}
			}
		}
		for bi := range means[di] {
			means[di][bi] /= float64(n)
		}
	}
	for ri, r := range s.Rules {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		perWalk := perWalks[ri]
		if !sampled[ri] {
			perWalk = means[design[ri]]
		}
		for bi, b := range s.Boards {
			l := EstimateLine{Board: b, Rule: r, Starts: len(s.Starts[bi]), Units: p.BoardRuleUnits(shard, bi, ri),
				Walks: p.Walks(shard, bi, ri), NsPerWalk: bySquares(s.Boards, perWalk, bi), Design: design[ri], Sampled: sampled[ri]}
			l.Interpolated = !sample[bi]
			// Each unit also allocates and merges a tally of the board's
			// size: on a 1x1000000 board that, not the walks, is the run
			// (the estimate said 1.9 s for a run of hours).
			unit := bySquares(s.Boards, units, bi)
			ns += l.NsPerWalk*float64(l.Walks) + unit*float64(l.Units)
			if l.Units > 0 {
				longest = max(longest, unit+l.NsPerWalk*math.Ceil(float64(l.Walks)/float64(l.Units)))
			}
			est.Lines[bi*len(s.Rules)+ri] = l
		}
	}
	est.Seconds = max(ns/float64(max(workers, 1)), longest) / 1e9
	return est, nil
}

// maxDesignCalibrated is the most cells of a design a dry run measures:
// 100 ms of walks for each of the 40,320 orders of order: all took 67
// minutes before printing anything.
const maxDesignCalibrated = 8

// designSample returns, per rule, the index of its design in s.Designs
// (-1 for a plain rule) and whether a dry run calibrates it: every plain
// rule, and of a design at most maxDesignCalibrated cells spread evenly
// over it, its first and last among them.
func designSample(s *config.Experiment) (design []int, sampled []bool) {
	design, sampled = make([]int, len(s.Rules)), make([]bool, len(s.Rules))
	for ri := range design {
		design[ri], sampled[ri] = -1, true
	}
	for di, d := range s.Designs {
		for ri := d.First; ri < d.First+d.N; ri++ {
			design[ri], sampled[ri] = di, d.N <= maxDesignCalibrated
		}
		if d.N > maxDesignCalibrated {
			for i := range maxDesignCalibrated {
				sampled[d.First+i*(d.N-1)/(maxDesignCalibrated-1)] = true
			}
		}
	}
	return design, sampled
}

// maxCalibrated is the most boards a dry run measures per rule. A sweep
// over n = 5..2000 has 1996 boards, and 100 ms of walks on each (more on
// the large ones) plus a tally of each board's size took minutes: the
// others are interpolated by their number of squares, which sets a walk's
// length and a tally's size.
const maxCalibrated = 12

// calibrationSample returns the boards to measure: all of them, or
// maxCalibrated spread evenly over the boards ordered by squares, the
// smallest and the largest among them.
func calibrationSample(boards []*sim.Board) map[int]bool {
	out := map[int]bool{}
	if len(boards) <= maxCalibrated {
		for bi := range boards {
			out[bi] = true
		}
		return out
	}
	order := make([]int, len(boards))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(boards[a].Squares(), boards[b].Squares()) })
	for i := range maxCalibrated {
		out[order[i*(len(order)-1)/(maxCalibrated-1)]] = true
	}
	return out
}

// bySquares returns v of board bi: measured, or interpolated linearly in
// the number of squares between the measured boards nearest below and
// above it.
func bySquares(boards []*sim.Board, v map[int]float64, bi int) float64 {
	if x, ok := v[bi]; ok {
		return x
	}
	sq := float64(boards[bi].Squares())
	lo, hi := -1, -1
	for i := range v {
		switch s := float64(boards[i].Squares()); {
		case s <= sq && (lo < 0 || s > float64(boards[lo].Squares())):
			lo = i
		case s >= sq && (hi < 0 || s < float64(boards[hi].Squares())):
			hi = i
		}
	}
	switch {
	case lo < 0 && hi < 0:
		return 0
	case lo < 0:
		return v[hi]
	case hi < 0:
		return v[lo]
	}
	a, b := float64(boards[lo].Squares()), float64(boards[hi].Squares())
	if a == b {
		return v[lo]
	}
	return v[lo] + (v[hi]-v[lo])*(sq-a)/(b-a)
}

// unitCost is the measured time of a unit's own tally on board b: made,
// filled by nothing and merged into another, as every unit's is. Beyond
// 2^20 squares it is measured on 2^20 and scaled by the squares: the
// cost is linear in them, and tallies of a 4096x4096 board took seconds
// to allocate, which no signal could interrupt.
func unitCost(b *sim.Board) float64 {
	const most = 1 << 20
	n := min(b.Squares(), most)
	t0 := time.Now()
	const reps = 3
	acc := stats.NewTally(n)
	for range reps {
		t := stats.NewTally(n)
		if err := acc.Merge(t); err != nil {
			return 0
		}
	}
	return float64(time.Since(t0).Nanoseconds()) / reps * float64(b.Squares()) / float64(n)
}

// newWalker is sim.NewWalker, given up as soon as ctx is done: the walker
// of a 4096x4096 board takes seconds to build and cannot see ctx, and a
// dry run stopped by SIGINT returns at once (the process exits; nothing
// was written).
func newWalker(ctx context.Context, b *sim.Board, r sim.Rule) (*sim.Walker, error) {
	type built struct {
		w   *sim.Walker
		err error
	}
	done := make(chan built, 1)
	go func() {
		w, err := sim.NewWalker(b, r)
		done <- built{w, err}
	}()
	select {
	case x := <-done:
		return x.w, x.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// calibrate returns the mean time of a walk of r on b from starts, measured
// for about 100 ms (and at least 3 walks, or one where a walk takes over a
// second); it stops at once when ctx is done, even inside a long search.
func calibrate(ctx context.Context, b *sim.Board, r sim.Rule, starts []int) (float64, error) {
	if len(starts) == 0 {
		return 0, nil
	}
	// a rule of your own: its first use, checked (sim.CheckRule)
	w, err := newWalker(ctx, b, r)
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if err != nil {
		return 0, err
	}
	defer w.StopOn(ctx)()
	t0 := time.Now()
	n := 0
	for time.Since(t0) < 100*time.Millisecond || n < 3 && time.Since(t0) < time.Second {
		s := starts[n%len(starts)]
		w.Walk(s, sim.NewKey(0, b, r, s), uint64(n))
		if err := w.Err(); err != nil {
			return 0, err
		}
		if err := ctx.Err(); err != nil || w.Stopped() {
			return 0, cmp.Or(err, context.Canceled)
		}
		n++
	}
	return float64(time.Since(t0).Nanoseconds()) / float64(n), nil
}
