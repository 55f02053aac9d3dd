package rare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/sim"
)

// chooseLevels runs the pilot that places the levels, in the manner of
// adaptive multilevel splitting (Cérou & Guyader 2007, "Adaptive multilevel
// splitting for rare event analysis", Stochastic Analysis and Applications
// 25(2)), but only to fix the levels: its own streams (package comment)
// keep the replicates that use them unbiased. Each pilot stage runs
// o.Pilot walks from the current entrance states to their ends and puts
// the next level at the path length that a fraction o.LevelFraction of
// them reach; the walks that reach it are replayed, on the same streams,
// to that length to give the next stage's entrance states. Its first
// stage is plain sampling from the start, whose mean length res records.
// When no pilot walk passes the current level the target is the next one.
func (e *engine) chooseLevels(ctx context.Context, res *Result) ([]int, error) {
	o := e.o
	n := o.Pilot
	parents := []*sim.Snapshot{&e.start}
	var levels []int
	for stage := uint64(0); ; stage++ {
		cur := parents[0].Length()
		kp := subKey(e.key, "splitting-pilot", stage)
		alloc := allocate(len(parents), n, kp.Stream(0xffffffff))
		lens := make([]int, n)
		steps, err := e.run(ctx, kp, 0, all(n), alloc, parents, o.Target, func(j int, s *sim.Stepper, _ bool) {
			lens[j] = s.Length()
		})
		res.PilotWalks += int64(n)
		res.PilotSteps += steps
		if err != nil {
			return nil, err
		}
		if stage == 0 {
			res.PlainMeanSteps = float64(steps) / float64(n)
		}
		next := cut(lens, cur, o.LevelFraction)
		if next >= o.Target || next == 0 {
			// Done, or no walk got past cur: then the last stage goes
			// from cur to the target at once, which costs precision,
			// not correctness (Result.Warnings says so when it ends
			// every replicate).
			return levels, nil
		}
		levels = append(levels, next)
		var js []int
		for j, l := range lens {
			if l >= next {
				js = append(js, j)
			}
		}
		buf := e.buffers(int(stage%2), n)
		var diverged atomic.Bool
		if _, err := e.run(ctx, kp, 0, js, alloc, parents, next, func(j int, s *sim.Stepper, reached bool) {
			if !reached {
				diverged.Store(true)
				return
			}
			s.Save(&buf[j])
		}); err != nil {
			return nil, err
		}
		if diverged.Load() { // the same walk, on the same stream, ended shorter
			return nil, fmt.Errorf("splitting: %w", &sim.RuleError{Rule: o.Rule.Name(), Square: -1, Position: fmt.Sprintf("%s board, start %s", o.Board, o.Board.SquareName(o.Start)),
				Problem: "took another path when a pilot walk was replayed from the same position on the same stream",
				Fix:     "its answers depend on more than the position (state it keeps between calls, or draws of its own); a rule must answer from the position alone"})
		}
		parents = parents[:0:0]
		for _, j := range js {
			parents = append(parents, &buf[j])
		}
	}
}

// cut returns the path length above cur that a fraction frac of the walks
// whose final lengths are lens reached, or failing that the least length
// above cur any reached (0 when none did).
func cut(lens []int, cur int, frac float64) int {
	s := slices.Clone(lens)
	slices.Sort(s)
	slices.Reverse(s)
	k := max(1, int(math.Ceil(frac*float64(len(s)))))
	if l := s[k-1]; l > cur {
		return l
	}
	best := 0
	for _, l := range s {
		if l > cur && (best == 0 || l < best) {
			best = l
		}
	}
	return best
}

// studentT returns the two-sided quantile of Student's t with df degrees
// of freedom for confidence level c.
func studentT(c float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.5 + c/2)
}
