package harness

import (
	"context"
	"encoding/json"
	"flag"
	"runtime"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/rare"
)

// rareCommand is `experiment rare`; main.go lists it.
func rareCommand() *command {
	return &command{
		name:  "rare",
		usage: "--board RxC [--rule R] [--tie-break T] [--order O] [--max-steps N] [--start SQ] [--seed S] [--target L] [--particles N] [--replicates R] [--levels auto|L1,L2,...] [--pilot N] [--level-fraction F] [--confidence C] [--plain WALKS] [--workers N] [--max-memory SIZE] [--format text|json]",
		short: "estimate a rare success probability by multilevel splitting",
		long:  manual.Rare,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var rf cli.RuleFlags
			rf.Register(fs, "warnsdorff")
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 400x400 (required)")
			start := fs.String("start", "", "start square, e.g. a1, or r0c0 on boards wider than 26 columns (default: the corner (0,0))")
			seed := fs.Uint64("seed", 1, "seed of the random streams")
			target := fs.Int("target", 0, "path length whose reaching is estimated (0: every square, i.e. success)")
			particles := fs.Int("particles", 1000, "walk segments per stage of a replicate (the effort N)")
			replicates := fs.Int("replicates", 10, "independent replicates, at least 2 (10 or more for a trustworthy interval)")
			levels := fs.String("levels", "auto", "auto (a pilot places them) or increasing path lengths L1,L2,... below the target")
			pilot := fs.Int("pilot", rare.DefaultPilot, "walks per stage of the pilot that places the levels")
			frac := fs.Float64("level-fraction", rare.DefaultLevelFraction, "fraction of the pilot's walks each level lets through")
			conf := fs.Float64("confidence", 0.95, "confidence level of the interval")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines running a stage's segments")
			format := fs.String("format", "text", "output format: text or json")
			maxMem := byteSize(defaultMaxMemory())
			fs.Var(&maxMem, "max-memory", "memory the particles' saved board states may take, e.g. 2GiB; the default is half the machine's memory, at most 4GiB")
			plainWalks := fs.Int64("plain", 0, "also run this many plain walks (those 'experiment run' draws) and compare their cost at the same precision")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("rare takes no arguments, got %q", args)
				}
				if err := checkRareFlags(*format, *workers, *pilot, *frac, *conf, *plainWalks); err != nil {
					return err
				}
				o, err := rareOptions(&rf, *board, *start, *levels)
				if err != nil {
					return err
				}
				o.Seed, o.Target, o.Particles, o.Replicates = *seed, *target, *particles, *replicates
				o.Pilot, o.LevelFraction, o.Confidence, o.Workers, o.MaxMemory = *pilot, *frac, *conf, *workers, int64(maxMem)
				rep, err := rareRun(ctx, o, *plainWalks)
				if err != nil {
					return err
				}
				if *format == "json" {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(rep)
				}
				rep.Print(e.stdout)
				return nil
			}
		},
	}
}

// rareOptions parses the board, rule, start and levels flags; every
// mistake is a usage error naming its flag.
func rareOptions(rf *cli.RuleFlags, board, start, levels string) (rare.Options, error) {
	b, starts, err := cli.BoardAndStarts(board, start)
	if err != nil {
		return rare.Options{}, err
	}
	if start == "" {
		starts = []int{0}
	}
	r, err := rf.Resolve()
	if err != nil {
		return rare.Options{}, err
	}
	o := rare.Options{Board: b, Rule: r, Start: starts[0]}
	if levels != "auto" {
		for _, f := range strings.Split(levels, ",") {
			l, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return rare.Options{}, usagef("--levels %q: want auto or increasing path lengths such as 1000,5000,9000", levels)
			}
			o.Levels = append(o.Levels, l)
		}
	}
	return o, nil
}

// checkRareFlags refuses rare's flags out of range, each a usage error
// naming its flag.
func checkRareFlags(format string, workers, pilot int, frac, conf float64, plainWalks int64) error {
	if format != "text" && format != "json" {
		return usagef("--format %q: valid formats are text, json", format)
	}
	if err := checkWorkers(workers); err != nil {
		return err
	}
	// An explicit 0 is a mistake, not "the default".
	if pilot < 2 {
		return usagef("--pilot %d: want at least 2 walks per stage", pilot)
	}
	if !(frac > 0 && frac < 1) {
		return usagef("--level-fraction %g: want a fraction strictly between 0 and 1, e.g. %g", frac, rare.DefaultLevelFraction)
	}
	if !(conf > 0 && conf < 1) {
		return usagef("--confidence %g: want a level strictly between 0 and 1, e.g. 0.95", conf)
	}
	if plainWalks < 0 {
		return usagef("--plain %d: want a number of walks, or 0 for none", plainWalks)
	}
	return nil
}
