package runner

import (
	"cmp"
	"context"
	"math"
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
	var ns, longest float64
	for bi, b := range s.Boards {
		for ri, r := range s.Rules {
			per, err := calibrate(ctx, b, r, s.Starts[bi])
			if err != nil {
				return nil, err
			}
			l := EstimateLine{Board: b, Rule: r, Starts: len(s.Starts[bi]), Units: p.BoardRuleUnits(shard, bi, ri),
				Walks: p.Walks(shard, bi, ri), NsPerWalk: per}
			// Each unit also allocates and merges a tally of the board's
			// size: on a 1x1000000 board that, not the walks, is the run
			// (the estimate said 1.9 s for a run of hours; issue 33).
			unit := unitCost(b)
			ns += l.NsPerWalk*float64(l.Walks) + unit*float64(l.Units)
			if l.Units > 0 {
				longest = max(longest, unit+l.NsPerWalk*math.Ceil(float64(l.Walks)/float64(l.Units)))
			}
			est.Lines = append(est.Lines, l)
		}
	}
	est.Seconds = max(ns/float64(max(workers, 1)), longest) / 1e9
	return est, nil
}

// unitCost is the measured time of a unit's own tally on board b: made,
// filled by nothing and merged into another, as every unit's is.
func unitCost(b *sim.Board) float64 {
	t0 := time.Now()
	const reps = 3
	acc := stats.NewTally(b.Squares())
	for range reps {
		t := stats.NewTally(b.Squares())
		if err := acc.Merge(t); err != nil {
			return 0
		}
	}
	return float64(time.Since(t0).Nanoseconds()) / reps
}

// calibrate returns the mean time of a walk of r on b from starts, measured
// for about 100 ms (and at least 3 walks, or one where a walk takes over a
// second); it stops at once when ctx is done, even inside a long search.
func calibrate(ctx context.Context, b *sim.Board, r sim.Rule, starts []int) (float64, error) {
	if len(starts) == 0 {
		return 0, nil
	}
	w, err := sim.NewWalker(b, r) // a rule of your own: its first use, checked (sim.CheckRule)
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
