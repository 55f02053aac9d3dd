package harness

import (
	"context"
	"flag"
	"os"
	"runtime"
	"time"

	"github.com/knightwalk/knightwalk/count/countcmd"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/table"
)

// countCommand is `experiment count`; main.go lists it.
func countCommand() *command {
	return &command{
		name:  "count",
		usage: "--board RxC [--closed] [--unique] [--start SQ] [--method auto|search|frontier|sample] [--format text|csv|parquet] [--out FILE] [--workers N] [--max-nodes N] [--max-memory SIZE] [--spill DIR] [--force] [--paired-ends] [--layers] [--shard K/N --out PART [--check]] [sample: --confidence C --precision R --max-time D --samples N --seed S --proposal P --tail T --per-start --first-chunk F]",
		short: "exact numbers of knight's tours from each start square",
		long:  manual.Count,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var q countcmd.Query
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 6x6 (required)")
			fs.BoolVar(&q.Closed, "closed", false, "count closed tours instead of open ones")
			fs.BoolVar(&q.Unique, "unique", false, "also count tours up to the board's symmetries (and reversal, for open tours)")
			start := fs.String("start", "", "only this start square, e.g. a1 (default: every square)")
			fs.StringVar(&q.Method, "method", "auto", "auto, search or frontier (exact counts), or sample (an estimate by importance sampling, with an interval)")
			sf := sampleFlags(fs)
			format := fs.String("format", "text", "output format: text, csv or parquet")
			out := fs.String("out", "", "file to write with --format parquet, or the part of --shard (must not exist)")
			fs.BoolVar(&q.Paired, "paired-ends", false, "frontier, open tours: count by both ends of the path: on 6x6 a quarter of the memory for about the same time")
			fs.BoolVar(&q.Layers, "layers", false, "frontier: write the states and time after each square of each sweep to stderr (for measuring)")
			fs.IntVar(&q.Workers, "workers", runtime.GOMAXPROCS(0), "goroutines counting in parallel")
			fs.Float64Var(&q.MaxNodes, "max-nodes", countcmd.DefaultMaxNodes, "search: refuse a search estimated to expand more nodes than this (a worker expands about 10^7 a second)")
			maxMem := byteSize(defaultMaxMemory())
			fs.Var(&maxMem, "max-memory", "frontier: memory the state tables may take, e.g. 8GiB; the default is half the machine's memory, at most 4GiB")
			fs.StringVar(&q.Spill, "spill", "", "frontier: keep layers in files in this directory and build each in passes within --max-memory")
			shardFlag := fs.String("shard", "", "frontier: run part K of N of the count's sweeps and write it to --out PART, for merge")
			check := fs.Bool("check", false, "with --shard: check the flags, board and shard, print ok and exit without counting (deploy/slurm/submit-count.sh runs it before queueing)")
			fs.BoolVar(&q.Force, "force", false, "frontier: start even when the estimate says the sweep will not fit --max-memory or the --spill disk (for measuring how far a count gets; the budget still stops it)")
			return func(ctx context.Context, e *env, args []string) error {
				if q.Method == "sample" {
					return runSampleCount(ctx, e, &q, sf, args, *board, *start, *format, *out, *shardFlag, *check)
				}
				if sf.set(fs) {
					return usagef("--confidence, --precision, --max-time, --samples, --seed, --proposal, --tail and --per-start are for --method sample")
				}
				if err := checkCountArgs(&q, args, *board, *start, *format, *out, *shardFlag, *check, int64(maxMem)); err != nil {
					return err
				}
				ce := countEnv(e)
				if *shardFlag != "" {
					sh, err := runner.ParseShard(*shardFlag)
					if err != nil {
						return usagef("--shard: %v", err)
					}
					if _, err := os.Lstat(*out); err == nil {
						return usagef("--out %s: the file exists; a finished part is kept (count writes only a new file)", *out)
					}
					if err := table.CheckWritableDir(*out); err != nil {
						return err
					}
					if *check {
						return q.CheckShard(ctx, ce, sh)
					}
					return q.ShardPart(ctx, ce, sh, *out)
				}
				t0 := time.Now()
				v, err := q.Run(ctx, ce)
				if err != nil {
					return err
				}
				switch *format {
				case "csv":
					return countcmd.WriteCSV(ce, v)
				case "parquet":
					return countcmd.WriteParquet(ce, *out, v)
				}
				countcmd.Print(ce, v, time.Since(t0))
				return nil
			}
		},
	}
}

// checkCountArgs checks count's arguments and flags, every mistake a
// usage error naming its flag, and fills in q's board, starts and budget.
func checkCountArgs(q *countcmd.Query, args []string, board, start, format, out, shard string, check bool, maxMem int64) error {
	if len(args) > 0 {
		return usagef("count takes no arguments, got %q", args)
	}
	if check && shard == "" {
		return usagef("--check is for --shard K/N --out PART (what a cluster task runs)")
	}
	if shard != "" {
		if out == "" || format != "text" || start != "" || q.Unique || q.Method == "search" {
			return usagef("--shard K/N writes a part of a frontier count of every square to --out PART: give --out, and no --format, --start, --unique or --method search")
		}
	} else if err := checkCountFlags(format, out, q.Method, q.MaxNodes, maxMem); err != nil {
		return err
	}
	if err := checkWorkers(q.Workers); err != nil {
		return err
	}
	if err := checkSpillDir(q.Spill); err != nil {
		return err
	}
	var err error
	if q.Board, q.Starts, err = cli.BoardAndStarts(board, start); err != nil {
		return err
	}
	q.All = start == ""
	if q.Unique && !q.Closed && !q.All {
		return usagef("--unique counts open tours from every square; drop --start")
	}
	q.MaxMemory = maxMem
	return nil
}

func checkCountFlags(format, out, method string, maxNodes float64, maxMem int64) error {
	switch format {
	case "text", "csv":
		if out != "" {
			return usagef("--out is for --format parquet; text and csv go to stdout")
		}
	case "parquet":
		if out == "" {
			return usagef("--format parquet needs --out FILE")
		}
		if _, err := os.Lstat(out); err == nil {
			return usagef("--out %s: the file exists; count writes only a new file", out)
		}
		if err := table.CheckWritableDir(out); err != nil {
			return err
		}
	default:
		return usagef("--format %q: valid formats are text, csv, parquet", format)
	}
	if method != "auto" && method != "search" && method != "frontier" {
		return usagef("--method %q: valid methods are auto, search, frontier", method)
	}
	if !(maxNodes >= 1) {
		return usagef("--max-nodes must be at least 1")
	}
	if maxMem <= 0 {
		return usagef("--max-memory must be positive")
	}
	return nil
}

func checkSpillDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return usagef("--spill %s: %v; give an existing directory", dir, err)
	}
	if !fi.IsDir() {
		return usagef("--spill %s: not a directory", dir)
	}
	return nil
}
