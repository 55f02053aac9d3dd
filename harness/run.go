package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// runCommand is `experiment run`; main.go lists it.
func runCommand() *command {
	return &command{
		name:  "run",
		usage: "[FILE | NAME | DIR/manifest.json] [--out DIR] [--workers N] [--force] [--resume] [--shard K/N [--round R]] [--dry-run] [--quiet]",
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
				warnDeterministic(say, s) // a note, not an error: --quiet silences it
				build := buildinfo.Read()
				if !build.Traceable() && !*dry {
					fmt.Fprintf(say, "experiment: %s\n", buildinfo.NoVCSNote)
				}
				if *round != 0 && (s.Sequential == nil || shard.N <= 1) {
					return usagef("--round is for a sequential run (walks: {until: ...}) split with --shard K/N")
				}
				if *round < 0 {
					return usagef("--round %d: rounds count from 1", *round)
				}
				if *dry && s.Sequential != nil {
					return dryRunSequential(ctx, e, s, *workers)
				}
				if *dry {
					return dryRun(ctx, e, s, shard, *workers)
				}
				dir := filepath.Clean(*out) // "new/" names new, not a parent to create
				if *out == "" {
					dir = filepath.Join("results", s.Name)
					switch {
					case s.Sequential != nil && shard.N > 1:
						dir += fmt.Sprintf(".parts-of-%d", shard.N)
					case shard.N > 1:
						dir += fmt.Sprintf(".shard-%d-of-%d", shard.K, shard.N)
					}
				}
				if s.Sequential != nil && shard.N > 1 {
					return runRound(ctx, e, say, s, shard, *round, dir, *workers, *force, *quiet, build)
				}
				if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
					return err
				}
				opts := runner.RunOptions{Out: dir, Force: *force, Resume: *resume, Workers: *workers, Shard: shard,
					Meta: results.Metadata(s, version, build), BeforeCommit: figuresHook(s.Figures)}
				if !*quiet {
					opts.Log = e.stderr
					opts.Progress = progressBar(e.stderr)
				}
				p, err := runner.NewPlan(s)
				if err != nil {
					return err
				}
				if q := s.Sequential; q != nil {
					fmt.Fprintf(say, "experiment: %s: sequential (until %s), %d to %d walks per start square, on %d workers -> %s\n",
						s.Name, q.Until, q.Min, q.Max, *workers, dir)
				} else {
					fmt.Fprintf(say, "experiment: %s: %d walks in %d units on %d workers (shard %s) -> %s\n",
						s.Name, p.Walks(shard, -1, -1), p.ShardLen(shard), *workers, shard, dir)
				}
				sum, err := runner.Run(ctx, s, opts)
				if err != nil {
					return err
				}
				fmt.Fprintf(say, "experiment: %d walks in %.2fs (%.3g walks/s) -> %s\n", sum.Walks, sum.Seconds, float64(sum.Walks)/sum.Seconds, sum.Dir)
				if sum.Tables != nil {
					printClaims(stdout, sum.Tables)
				}
				return nil
			}
		},
	}
}

func printClaims(w io.Writer, t *results.Tables) {
	if len(t.Claims) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "claim\trule\tboard\ttarget\tclaimed\tmeasured [interval]\texact\tdecided by\tverdict\tverdict (Holm)")
	for _, c := range t.Claims {
		exact := ""
		if !math.IsNaN(c.Exact) {
			exact = fmt.Sprintf("%.6f", c.Exact)
		} else if !math.IsNaN(c.ExactLower) && !math.IsNaN(c.ExactUpper) {
			exact = fmt.Sprintf("[%.6g, %.6g] certified", c.ExactLower, c.ExactUpper)
		}
		measured := fmt.Sprintf("%.4f [%.4f, %.4f]", c.Measured, c.Lo, c.Hi)
		if !math.IsNaN(c.CSLo) { // a sequential run: the always-valid interval decides
			measured = fmt.Sprintf("%.4f [%.4f, %.4f] always valid", c.Measured, c.CSLo, c.CSHi)
		} else if math.IsNaN(c.Lo) {
			measured = fmt.Sprintf("%.4f", c.Measured)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t[%.4g, %.4g]\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Rule, c.Board, c.Target,
			c.ClaimedLo, c.ClaimedHi, measured, exact, c.DecidedBy, c.Verdict, c.VerdictHolm)
	}
	tw.Flush()
}

// dryRun prints the plan of shard and runner.EstimateRun's estimate.
func dryRun(ctx context.Context, e *env, s *config.Experiment, shard runner.Shard, workers int) error {
	est, err := runner.EstimateRun(ctx, s, shard, workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "experiment %s: %d boards, %d rules, %d walks per start square\n", s.Name, len(s.Boards), len(s.Rules), s.Walks)
	for _, l := range est.Lines {
		how := ""
		if l.Interpolated {
			how = " (by size)"
		}
		fmt.Fprintf(e.stdout, "  %-9s %-18s %4d starts %6d units %14d walks  ~%.0f ns/walk%s\n", l.Board, l.Rule.Name(), l.Starts, l.Units, l.Walks, l.NsPerWalk, how)
	}
	fmt.Fprintf(e.stdout, "total: %d units, %d walks (shard %s); estimated %s on %d workers\n", est.Units, est.Walks, shard,
		time.Duration(est.Seconds*float64(time.Second)).Round(time.Millisecond), workers)
	return nil
}

// dryRunSequential prints runner.EstimateSequential's forecast.
func dryRunSequential(ctx context.Context, e *env, s *config.Experiment, workers int) error {
	est, err := runner.EstimateSequential(ctx, s, workers)
	if err != nil {
		return err
	}
	q := s.Sequential
	fmt.Fprintf(e.stdout, "experiment %s: sequential until %s, %d to %d walks per start square; pilot of %d walks (%d per square) in %.2fs\n",
		s.Name, q.Until, q.Min, q.Max, est.PilotWalks, q.Min, est.PilotSeconds)
	for _, l := range est.Lines {
		fmt.Fprintf(e.stdout, "  %-9s %-18s %4d starts %14d walks forecast (max %d)  ~%.0f ns/walk\n", l.Board, l.Rule, l.Starts, l.Walks, l.MaxWalks, l.NsPerWalk)
	}
	fmt.Fprintf(e.stdout, "total: %d walks forecast, %.3g %% of the %d of max walks everywhere; estimated %s on %d workers (a forecast from the pilot's rates, not a bound)\n",
		est.Walks, 100*float64(est.Walks)/float64(est.MaxWalks), est.MaxWalks, time.Duration(est.Seconds*float64(time.Second)).Round(time.Millisecond), workers)
	return nil
}

// warnDeterministic says which rules are deterministic: each runs one walk
// per start (Experiment.WalksFor), since every further walk would repeat
// the first; walks applies to the other rules.
func warnDeterministic(w io.Writer, s *config.Experiment) {
	if s.Walks <= 1 {
		return
	}
	for ri, r := range s.Rules {
		if r.Deterministic() {
			fmt.Fprintf(w, "experiment: %s is deterministic: it runs %d walk per start (every further walk would repeat it; walks: %d applies to the other rules)\n", r.Name(), s.WalksFor(ri), s.Walks)
		}
	}
}

// runRound runs shard sh of a round of a sequential run into the parts
// directory parts (runner.RunRound): round r, or the next one for r = 0.
func runRound(ctx context.Context, e *env, say io.Writer, s *config.Experiment, sh runner.Shard, r int, parts string, workers int, force, quiet bool, build buildinfo.Info) error {
	if r == 0 {
		r = runner.NextRound(parts, sh.K)
	}
	opts := runner.RunOptions{Out: parts, Force: force, Workers: workers, Shard: sh, Round: r,
		Meta: results.Metadata(s, version, build)}
	if !quiet {
		opts.Log = e.stderr
		opts.Progress = progressBar(e.stderr)
	}
	sum, err := runner.Run(ctx, s, opts)
	if err != nil {
		return fmt.Errorf("round %d, shard %s: %w (to resubmit it: experiment run %s --shard %s --round %d --out %s)", r, sh, err, s.Name, sh, r, parts)
	}
	if sum.Walks > 0 {
		fmt.Fprintf(say, "experiment: round %d, shard %s: %d walks in %.2fs -> %s\n", r, sh, sum.Walks, sum.Seconds, sum.Dir)
	}
	return nil
}
