package harness

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/count/countcmd"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/table"
)

// sampleFlagSet holds count's flags for --method sample.
type sampleFlagSet struct {
	confidence, precision *float64
	maxTime               *time.Duration
	samples               *int64
	seed                  *uint64
	proposal              *string
	tail                  *int
	perStart              *bool
	firstChunk            *int
}

var sampleFlagNames = []string{"confidence", "precision", "max-time", "samples", "seed", "proposal", "tail", "per-start", "first-chunk"}

func sampleFlags(fs *flag.FlagSet) *sampleFlagSet {
	return &sampleFlagSet{
		confidence: fs.Float64("confidence", 0.95, "sample: the intervals' level"),
		precision:  fs.Float64("precision", 0, "sample: stop once the interval's half-width is at most this fraction of the estimate and no diagnostic warns (e.g. 0.01)"),
		maxTime:    fs.Duration("max-time", 0, "sample: stop at this time, at the last whole chunk (e.g. 900s); the result says the samples, for --samples to redraw them"),
		samples:    fs.Int64("samples", 0, "sample: stop at this many walks (rounded up to whole chunks of about 4096)"),
		seed:       fs.Uint64("seed", 1, "sample: the seed of the walks' random streams"),
		proposal:   fs.String("proposal", "softmin", "sample: uniform (Knuth), softmin (exp(-beta·degree), beta "+formatBeta(count.DefaultProposal.Beta)+"), or softmin:BETA"),
		tail:       fs.Int("tail", count.DefaultTail, "sample: count the last this many squares of each walk exactly instead of sampling them"),
		perStart:   fs.Bool("per-start", false, "sample, open tours of the whole board: also a row per start square"),
		firstChunk: fs.Int("first-chunk", 0, "sample: start at this chunk (what the printed command gives to redraw a --precision run's last stage)"),
	}
}

func formatBeta(b float64) string { return strconv.FormatFloat(b, 'g', -1, 64) }

// set reports whether any sample flag was given.
func (f *sampleFlagSet) set(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(fl *flag.Flag) {
		for _, n := range sampleFlagNames {
			if fl.Name == n {
				given = true
			}
		}
	})
	return given
}

// runSampleCount is `count --method sample`.
func runSampleCount(ctx context.Context, e *env, q *countcmd.Query, f *sampleFlagSet, args []string, board, start, format, out, shard string, check bool) error {
	if len(args) > 0 {
		return usagef("count takes no arguments, got %q", args)
	}
	if q.Unique || q.Paired || q.Layers || q.Spill != "" || q.Force {
		return usagef("--method sample: --unique, --paired-ends, --layers, --spill and --force are for exact counts")
	}
	if err := checkWorkers(q.Workers); err != nil {
		return err
	}
	b, starts, err := cli.BoardAndStarts(board, start)
	if err != nil {
		return err
	}
	opt := count.SampleOptions{Closed: q.Closed, Start: -1, PerStart: *f.perStart, Seed: *f.seed, Workers: q.Workers,
		Confidence: *f.confidence, Precision: *f.precision, MaxTime: *f.maxTime, Samples: *f.samples, Tail: *f.tail, FirstChunk: *f.firstChunk}
	if opt.FirstChunk < 0 || opt.FirstChunk > 1<<40 {
		return usagef("--first-chunk %d: want a chunk index from 0", opt.FirstChunk)
	}
	if start != "" {
		opt.Start = starts[0]
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return usagef("--confidence %v: want a level between 0 and 1, e.g. 0.95", opt.Confidence)
	}
	if !(opt.Precision >= 0 && opt.Precision < 1) {
		return usagef("--precision %v: want a fraction of the estimate from 0 (none) to below 1, e.g. 0.01", opt.Precision)
	}
	if opt.MaxTime < 0 || opt.Samples < 0 {
		return usagef("--max-time and --samples must not be negative")
	}
	if opt.Tail < 0 || opt.Tail > 24 {
		return usagef("--tail %d: want 0 to 24 squares (the search at the end grows fast with it)", opt.Tail)
	}
	if opt.PerStart && (opt.Start >= 0 || opt.Closed) {
		return usagef("--per-start is for the open tours of the whole board: drop --start or --closed")
	}
	if opt.Proposal, err = count.ParseProposal(*f.proposal); err != nil {
		return usagef("--proposal: %v", err)
	}
	if shard != "" {
		sh, err := runner.ParseShard(shard)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		if out == "" || format != "text" || opt.Samples == 0 || opt.Precision > 0 || opt.MaxTime > 0 {
			return usagef("--method sample --shard K/N draws a fixed share of --samples N into --out PART: give --samples and --out, and no --precision, --max-time or --format")
		}
		opt.Shard = count.Shard{K: sh.K, N: sh.N}
		if c := count.SampleChunks(b, opt); sh.N > c {
			return usagef("--shard %s: %d walks make %d chunks of about 4096, so at most %d shards", shard, opt.Samples, c, c)
		}
		if _, err := os.Lstat(out); err == nil {
			return usagef("--out %s: the file exists; a finished part is kept (count writes only a new file)", out)
		}
		if err := table.CheckWritableDir(out); err != nil {
			return err
		}
	} else if check {
		return usagef("--check is for --shard K/N --out PART (what a cluster task runs)")
	}
	if opt.Samples == 0 && opt.Precision == 0 && opt.MaxTime == 0 {
		return usagef("--method sample needs a stopping rule: --samples N, --precision R or --max-time D (or several)")
	}
	if shard == "" { // the same output flags as an exact count's
		if err := checkCountFlags(format, out, "frontier", 1, 1); err != nil {
			return err
		}
	}
	sq := &countcmd.SampleQuery{Board: b, Opt: opt}
	ce := countEnv(e)
	if check {
		_, err := fmt.Fprintf(e.stdout, "ok: count %s --method sample, shard %s of %d walks\n", b, shard, opt.Samples)
		return err
	}
	if shard != "" {
		return sq.ShardPart(ctx, ce, out)
	}
	v, err := sq.Run(ctx, ce)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return countcmd.WriteSampleCSV(ce, v)
	case "parquet":
		if err := countcmd.WriteSampleParquet(ce, out, v); err != nil {
			return err
		}
	}
	countcmd.PrintSample(ce, v)
	return nil
}
