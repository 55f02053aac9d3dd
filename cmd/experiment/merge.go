package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"knightwalk/internal/buildinfo"
	"knightwalk/internal/config"
	"knightwalk/internal/results"
	"knightwalk/internal/runner"
)

// mergeCommand is `experiment merge`; main.go lists it.
func mergeCommand() *command {
	return &command{
		name:  "merge",
		usage: "--out DIR [--force] PART... | --out FILE COUNTPART...",
		short: "combine the parts of a sharded run into the tables of one run",
		long: `Reads the parts written by 'experiment run --shard K/N' (their directories or
part.json files), checks that they are all N shards of one config and seed,
and writes the same tables, report and manifest that one unsharded run of the
experiment writes, value for value.

Given the parts of 'experiment count --shard K/N --out PART' (files, or a
directory of them), checks that they are all N shards of one count (board,
open or closed, paired ends) and writes its counts table to --out FILE (a
new Parquet file; docs/tables.md), the same as 'count --format parquet' of
the whole count, and prints the board.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			out := fs.String("out", "", "result directory to write (required)")
			force := fs.Bool("force", false, "replace an existing result directory that experiment wrote")
			return func(ctx context.Context, e *env, args []string) error {
				if *out == "" {
					return usagef("merge: --out DIR is required")
				}
				if len(args) == 0 {
					return usagef("merge: name the parts to merge")
				}
				if isCountPart(args[0]) {
					if *force {
						return usagef("merge: --force is for a run's result directory; the counts table goes to a new file")
					}
					return mergeCounts(e, args, *out)
				}
				parts, err := runner.ReadParts(args)
				if err != nil {
					return err
				}
				cfg, err := config.Parse(parts[0].ConfigFile, []byte(parts[0].ConfigYAML))
				if err != nil {
					return fmt.Errorf("the parts' experiment file no longer validates: %w", err)
				}
				s, err := config.Resolve(cfg, parts[0].ConfigFile, []byte(parts[0].ConfigYAML))
				if err != nil {
					return fmt.Errorf("the parts' experiment file no longer validates: %w", err)
				}
				if s.ConfigHash != parts[0].ConfigHash {
					return fmt.Errorf("the parts were written by a version that hashes this config differently (%.12s, now %.12s)", parts[0].ConfigHash, s.ConfigHash)
				}
				t0 := time.Now()
				ts := runner.NewTallies()
				if err := runner.MergeInto(s, ts, parts); err != nil {
					return err
				}
				build := buildinfo.Read()
				if !build.HasVCS() {
					fmt.Fprintf(e.stderr, "experiment: warning: %s\n", buildinfo.NoVCSWarning)
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
