package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// runCommand is `experiment run`; main.go lists it.
func runCommand() *command {
	return &command{
		name:  "run",
		usage: "[FILE | NAME | DIR/manifest.json] [--out DIR] [--workers N] [--force] [--resume] [--shard K/N [--round R]] [--dry-run] [--check] [--quiet]",
		short: "run an experiment and write its tables, report and manifest",
		long:  manual.Run,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			out := fs.String("out", "", "result directory (default results/<name>, or results/<name>.shard-K-of-N for a shard)")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "walks run in parallel on this many goroutines")
			force := fs.Bool("force", false, "replace an existing result directory that experiment wrote (only once the new run completes)")
			resume := fs.Bool("resume", false, "continue an interrupted run from its completed work units")
			shardFlag := fs.String("shard", "", "run only slice K of N, K counting from 0 (0/4 is the first of 4); default from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX")
			round := fs.Int("round", 0, "sequential run with --shard: run this round (from 1) into the parts directory --out; default the first round without this shard's part")
			dry := fs.Bool("dry-run", false, "print the plan and an estimated time, run nothing")
			check := fs.Bool("check", false, "check what this run (with --shard, this shard) would refuse, print ok and run nothing, estimating nothing (deploy/slurm/submit.sh runs it before queueing)")
			quiet := fs.Bool("quiet", false, "print nothing on success (errors still go to stderr)")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 1 {
					return usagef("run takes at most one experiment file, got %q", args)
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				say, stdout := e.stderr, e.stdout // what --quiet silences
				if *quiet {
					say, stdout = io.Discard, io.Discard
				}
				shard := runner.All
				if *shardFlag != "" {
					var err error
					if shard, err = runner.ParseShard(*shardFlag); err != nil {
						return usagef("--shard: %v", err)
					}
				} else if s, from, ok, err := cli.ShardFromEnv(getenv); err != nil {
					return err
				} else if ok {
					shard = s
					fmt.Fprintf(say, "experiment: shard %s from %s\n", shard, from)
				}
				arg := ""
				if len(args) == 1 {
					arg = args[0]
				}
				s, err := interruptible(ctx, func() (*config.Experiment, error) { return expfile.Load(arg) })
				if err != nil {
					return err
				}
				runner.WarnDeterministic(say, s) // a note, not an error: --quiet silences it
				build := buildinfo.Read()
				if !build.Traceable() && !*dry && !*check {
					fmt.Fprintf(say, "experiment: %s\n", buildinfo.NoVCSNote)
				}
				roundGiven := false // --round 0 is refused, not taken for the default
				fs.Visit(func(f *flag.Flag) { roundGiven = roundGiven || f.Name == "round" })
				if roundGiven && *round < 1 {
					return usagef("--round %d: rounds count from 1", *round)
				}
				if *round != 0 && (s.Sequential == nil || shard.N <= 1) {
					return usagef("--round is for a sequential run (walks: {until: ...}) split with --shard K/N")
				}
				if *round < 0 {
					return usagef("--round %d: rounds count from 1", *round)
				}
				if *check && *dry {
					return usagef("--check and --dry-run: give one (--dry-run checks too, then estimates)")
				}
				if *check || *dry {
					// what the run would refuse, refused before any estimate
					if err := runner.CheckShard(s, shard); err != nil {
						return err
					}
				}
				if *check {
					return runner.CheckCommand(e.stdout, s, shard)
				}
				if *dry && s.Sequential != nil {
					return runner.DryRunSequential(ctx, e.stdout, s, *workers)
				}
				if *dry {
					return runner.DryRun(ctx, e.stdout, s, shard, *workers)
				}
				o := runner.CommandOptions{Version: version, Say: say, Out: stdout, Workers: *workers, Force: *force, Resume: *resume, Figures: experimentFigures}
				if !*quiet {
					o.Log, o.Progress = e.stderr, cli.ProgressBar(e.stderr)
				}
				return runner.RunCommand(ctx, o, s, shard, *round, runner.OutDir(s, shard, *out), build)
			}
		},
	}
}
