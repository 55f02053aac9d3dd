package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/procstat"
	"github.com/knightwalk/knightwalk/rare"
	"github.com/knightwalk/knightwalk/sim"
)

// rareRun estimates by splitting (rare.Estimate) and reports the estimate
// with its wall and CPU time; with plainWalks > 0 it also runs that many
// plain walks (rare.Plain) and compares their cost at the same precision.
// Options the estimator refuses are usage errors (cli.UsageError); a rule
// of your own at fault, or an interruption, is not.
func rareRun(ctx context.Context, o rare.Options, plainWalks int64) (rare.Report, error) {
	t0, cpu0 := time.Now(), procstat.CPUSeconds()
	res, err := rare.Estimate(ctx, o)
	var re *sim.RuleError
	if err != nil {
		if ctx.Err() != nil || errors.As(err, &re) { // a rule of your own at fault, not the command line
			return rare.Report{}, fmt.Errorf("rare: %w", err)
		}
		return rare.Report{}, cli.Usagef("rare: %v", err)
	}
	rep := rare.NewReport(o, res, time.Since(t0).Seconds(), procstat.CPUSeconds()-cpu0)
	if plainWalks > 0 {
		cpu1 := procstat.CPUSeconds()
		pr, err := rare.Plain(ctx, o, plainWalks)
		if err != nil {
			return rare.Report{}, err
		}
		rep.AddPlain(pr, procstat.CPUSeconds()-cpu1)
	}
	return rep, nil
}
