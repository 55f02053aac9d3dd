package harness

import (
	"context"
	"flag"

	"github.com/knightwalk/knightwalk/count/countcmd"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// mergeCommand is `experiment merge`; main.go lists it.
func mergeCommand() *command {
	return &command{
		name:  "merge",
		usage: "--out DIR [--force] PART... | --out FILE COUNTPART... | --status PARTS",
		short: "combine the parts of a sharded run into the tables of one run",
		long:  manual.Merge,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			out := fs.String("out", "", "result directory to write (required)")
			force := fs.Bool("force", false, "replace an existing result directory that experiment wrote")
			status := fs.Bool("status", false, "print how far the parts are (rounds merged, squares still running, parts done) and write nothing")
			return func(ctx context.Context, e *env, args []string) error {
				if *status {
					if len(args) != 1 {
						return usagef("merge --status: name one parts directory")
					}
					return runner.Status(ctx, e.stdout, args[0], countcmd.PartsStatus)
				}
				if *out == "" {
					return usagef("merge: --out DIR is required")
				}
				if len(args) == 0 {
					return usagef("merge: name the parts to merge")
				}
				if countcmd.IsSamplePart(args[0]) {
					if *force {
						return usagef("merge: --force is for a run's result directory; the tour_estimates table goes to a new file")
					}
					if err := checkCountFlags("parquet", *out, "frontier", 1, 1); err != nil {
						return err
					}
					return countcmd.MergeSample(countEnv(e), args, *out)
				}
				if countcmd.IsPart(args[0]) {
					if *force {
						return usagef("merge: --force is for a run's result directory; the counts table goes to a new file")
					}
					if *out != "" {
						if err := checkCountFlags("parquet", *out, "frontier", 1, 1); err != nil {
							return err
						}
					}
					return countcmd.Merge(countEnv(e), args, *out)
				}
				o := runner.CommandOptions{Version: version, Out: e.stdout, Force: *force, Figures: experimentFigures}
				return runner.MergeCommand(ctx, o, e.stderr, args, *out)
			}
		},
	}
}
