package runner

import (
	"context"
	"fmt"
	"io"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/rare"
)

// computeSplitting estimates the success rate of every start of the rules
// whose estimator is splitting (package rare), apart from the walk plan:
// their effort is fixed by particles and replicates, and the estimate
// depends only on the seed, board, rule and start, never on the workers,
// so a run, a resumed run and a merge of shards all get the same numbers.
func computeSplitting(ctx context.Context, s *config.Experiment, workers int, log io.Writer) (map[Cell]results.Estimated, error) {
	out := map[Cell]results.Estimated{}
	for bi, b := range s.Boards {
		for ri, r := range s.Rules {
			est := s.Estimators[ri]
			if !est.Splitting {
				continue
			}
			if log != nil {
				fmt.Fprintf(log, "experiment: splitting estimates of %s %s (%d starts, %d particles x %d replicates)\n", b, r.Name(), len(s.Starts[bi]), est.Particles, est.Replicates)
			}
			for _, start := range s.Starts[bi] {
				res, err := rare.Estimate(ctx, rare.Options{Board: b, Rule: r, Start: start, Seed: s.Seed,
					Particles: est.Particles, Replicates: est.Replicates, Confidence: s.Confidence, Workers: max(1, workers)})
				if err != nil {
					return nil, fmt.Errorf("splitting estimate of %s %s from %s: %w", b, r.Name(), b.SquareName(start), err)
				}
				out[Cell{bi, ri, start}] = results.Estimated{Estimate: res.Estimate, StdErr: res.StdErr, Lo: res.Lo, Hi: res.Hi,
					Replicates: len(res.Replicates), Walks: res.Walks + res.PilotWalks, Warnings: res.Warnings}
			}
		}
	}
	return out, nil
}
