package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/countjob"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/results"
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
					return mergeStatus(ctx, e, args)
				}
				if *out == "" {
					return usagef("merge: --out DIR is required")
				}
				if len(args) == 0 {
					return usagef("merge: name the parts to merge")
				}
				if countjob.IsPart(args[0]) {
					if *force {
						return usagef("merge: --force is for a run's result directory; the counts table goes to a new file")
					}
					if *out != "" {
						if err := checkCountFlags("parquet", *out, "frontier", 1, 1); err != nil {
							return err
						}
					}
					return countjob.Merge(countEnv(e), args, *out)
				}
				if len(args) == 1 {
					first, ok, err := runner.RoundParts(args[0])
					if err != nil {
						return err
					}
					if ok {
						return mergeRounds(ctx, e, args[0], first, *out, *force)
					}
				}
				parts, err := runner.ReadParts(args)
				if err != nil {
					return err
				}
				s, err := partExperiment(parts[0])
				if err != nil {
					return err
				}
				t0 := time.Now()
				ts := runner.NewTallies()
				if err := runner.MergeInto(s, ts, parts); err != nil {
					return err
				}
				build := buildinfo.Read()
				if !build.Traceable() {
					fmt.Fprintf(e.stderr, "experiment: %s\n", buildinfo.NoVCSNote)
				}
				opts := runner.RunOptions{Out: *out, Force: *force, Workers: 1, Shard: runner.All,
					Meta: results.Metadata(s, version, build), BeforeCommit: figuresHook(s.Figures)}
				sum, err := runner.WriteMerged(ctx, s, opts, ts, parts, time.Since(t0).Seconds())
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "experiment: merged %d parts -> %s\n", len(parts), sum.Dir)
				printClaims(e.stdout, sum.Tables)
				return nil
			}
		},
	}
}

// partExperiment is the experiment a part ran, from the file it carries.
func partExperiment(p *runner.Part) (*config.Experiment, error) {
	cfg, err := config.Parse(p.ConfigFile, []byte(p.ConfigYAML))
	if err != nil {
		return nil, fmt.Errorf("the parts' experiment file no longer validates: %w", err)
	}
	s, err := config.Resolve(cfg, p.ConfigFile, []byte(p.ConfigYAML))
	if err != nil {
		return nil, fmt.Errorf("the parts' experiment file no longer validates: %w", err)
	}
	if s.ConfigHash != p.ConfigHash {
		return nil, fmt.Errorf("the parts were written by a version that hashes this config differently (%.12s, now %.12s)", p.ConfigHash, s.ConfigHash)
	}
	return s, nil
}

// mergeRounds merges the rounds of a sequential run split into shards
// (runner.MergeRounds): the result directory once they decide the run;
// before, the run's progress and the next round to run, with exit status 3.
func mergeRounds(ctx context.Context, e *env, parts string, first *runner.Part, out string, force bool) error {
	s, err := partExperiment(first)
	if err != nil {
		return err
	}
	build := buildinfo.Read()
	if !build.Traceable() {
		fmt.Fprintf(e.stderr, "experiment: %s\n", buildinfo.NoVCSNote)
	}
	opts := runner.RunOptions{Out: out, Force: force, Workers: 1, Shard: runner.All,
		Meta: results.Metadata(s, version, build), BeforeCommit: figuresHook(s.Figures)}
	sum, st, err := runner.MergeRounds(ctx, s, parts, first.N, opts)
	if err != nil {
		if errors.Is(err, runner.ErrNotDecided) {
			fmt.Fprintf(e.stdout, "rounds merged: %d of at most %d; squares still running: %d of %d; walks so far: %d in %d units; next round: %d, %d walks in %d shards\n",
				st.Rounds, st.MaxRounds, st.Running, st.Squares, st.Walks, st.Units, st.Rounds+1, st.NextWalks, first.N)
		}
		return err
	}
	fmt.Fprintf(e.stderr, "experiment: merged %d rounds of %d shards (%d walks, %d units) -> %s\n", st.Rounds, first.N, st.Walks, st.Units, sum.Dir)
	printClaims(e.stdout, sum.Tables)
	return nil
}

// mergeStatus prints how far the parts in a directory are: for a
// sequential run's rounds, the rounds merged, the squares still running
// and the next round's parts done; for count or run parts, the parts done.
func mergeStatus(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return usagef("merge --status: name one parts directory")
	}
	dir := args[0]
	first, ok, err := runner.RoundParts(dir)
	if err != nil {
		return err
	}
	if ok {
		s, err := partExperiment(first)
		if err != nil {
			return err
		}
		st, done, err := runner.RoundsProgress(ctx, s, dir, first.N)
		if err != nil {
			return err
		}
		if st.Running == 0 {
			fmt.Fprintf(e.stdout, "%s: decided after round %d of at most %d (%d walks in %d units): merge it\n", s.Name, st.Rounds, st.MaxRounds, st.Walks, st.Units)
			return nil
		}
		fmt.Fprintf(e.stdout, "%s: rounds merged: %d of at most %d; squares still running: %d of %d; walks so far: %d; round %d: %d of %d parts done (%d walks)\n",
			s.Name, st.Rounds, st.MaxRounds, st.Running, st.Squares, st.Walks, st.Rounds+1, done, first.N, st.NextWalks)
		return nil
	}
	if cps := countjob.PartsIn(dir); len(cps) > 0 {
		p, err := countjob.ReadPart(cps[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "count of %s %s tours%s: %d of %d parts done\n", p.Board, p.Kind, countjob.PairedNote(p.PairedEnds), len(cps), p.N)
		return nil
	}
	parts, err := runner.ReadParts([]string{dir})
	if err != nil && len(parts) == 0 {
		return fmt.Errorf("merge --status %s: %w", dir, err)
	}
	fmt.Fprintf(e.stdout, "%s: %d of %d parts done\n", parts[0].Experiment, len(parts), parts[0].N)
	return nil
}
