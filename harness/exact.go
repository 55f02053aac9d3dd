package harness

import (
	"context"
	"flag"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/exactjob"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// exactCommand is `experiment exact`; main.go lists it.
func exactCommand() *command {
	return &command{
		name:  "exact",
		usage: "--board RxC [--rule R] [--tie-break T] [--order O] [--max-steps N] [--start SQ] [--format text|csv|parquet] [--out FILE] [--force] [--budget N] [--workers N] [--max-memory SIZE] [--spill DIR] [--layers] [--bounds]",
		short: "exact success probabilities by enumerating every branch of a walk",
		long: `Follows every branch a walk can take, weighted by its probability, and
prints the exact P(success) per start square (text: a board-shaped table;
csv: one row per start square with P(success), P(closed), P(stopped), the
mean path length and tie decisions, the states expanded, the board and the
rule; parquet: the same rows as the exact table of docs/tables.md, written
to --out FILE, whose board, rule and start columns join the result tables
with no cast). Boards of at most 640 squares (25x25); the random rule only
on small boards (or with --max-steps).

The states held at once are counted against --max-memory: a start whose
layers certainly cannot fit (estimated from sampled walks, e.g. 8x8 with the
random rule) is refused before enumerating, with the estimate; one that
outgrows it is stopped when it does. Progress goes to stderr on a terminal.

With --spill DIR, each start keeps its layers in files in DIR (removed
from it as soon as they are made, so nothing is left however the command
ends) and builds each layer in as many passes over the one before as
--max-memory requires: memory then bounds one pass, not a layer, and the
result is bit for bit the in-memory one. Each pass works out every move of
the layer again (once a round of --workers passes): 10x10 from a1 takes
0.8 GiB of memory and of disk this way with --max-memory 1GiB, against
4 GiB in memory, and half as much CPU again (docs/design.md). A
summary of the passes and the disk used goes to stderr; --layers writes
each layer's states (passes and disk when spilled) and the time to stderr,
for measuring and for forecasting a larger run from its first layers.

With --bounds, a start that would pass --budget or --max-memory is not
refused: each layer over the budget (the states left shared equally among
the path lengths still to come) or over the memory drops its least probable
states, and their probability is carried as unresolved. P(success) is then
certified to lie in [p_lower, p_upper]: the successes found, and those plus
every walk through a dropped state; there is no sampling error. The text
output lists the bounds under the board; csv and parquet add p_lower,
p_upper and the states dropped (p_lower = p_upper = p_success where exact).
The bounds depend on --budget and on each start's share of --max-memory,
which the starts enumerated at once (--workers, at most the starts) share;
a single start gets all of it, and workers beyond the starts share a
start's work without changing any result. With --spill, a start that does
not fit even in passes is enumerated again in memory, with bounds.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var rf ruleFlags
			rf.register(fs, "warnsdorff")
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 8x8 (required)")
			start := fs.String("start", "", "only this start square, e.g. a1 (default: every square)")
			format := fs.String("format", "text", "output format: text, csv or parquet (parquet needs --out)")
			outFile := fs.String("out", "", "the Parquet file --format parquet writes")
			force := fs.Bool("force", false, "replace --out if it is an exact table that experiment wrote")
			budget := fs.Int64("budget", exactCommandBudget, "most states to expand per start square (about a million a second on one core; the memory, --max-memory, is what bounds most enumerations)")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "start squares enumerated in parallel")
			maxMem := byteSize(defaultMaxMemory())
			bounds := fs.Bool("bounds", false, "where a start would pass --budget or --max-memory, drop its least probable states and give certified bounds on P(success) instead of refusing")
			spill := fs.String("spill", "", "keep the layers in files in this directory and build each in passes within --max-memory")
			layers := fs.Bool("layers", false, "write each layer's states, passes, disk and time to stderr (for measuring)")
			fs.Var(&maxMem, "max-memory", "memory the enumeration's states may take, shared by the workers, e.g. 512MiB; the default is half the machine's memory, at most 4GiB")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("exact takes no arguments, got %q", args)
				}
				if err := checkExactFormat(*format, *outFile); err != nil {
					return err
				}
				r, err := rf.resolve()
				if err != nil {
					return err
				}
				b, starts, err := boardAndStarts(*board, *start)
				if err != nil {
					return err
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				if err := exactjob.CheckSpill(*spill); err != nil {
					return err
				}
				if *budget < 0 {
					return usagef("--budget must be 0 (the default, %d) or positive", exactCommandBudget)
				}
				if *budget == 0 {
					*budget = exactCommandBudget
				}
				if *format == "parquet" {
					// refused before the enumeration, which may take long
					if err := table.CheckReplace(*outFile, table.Exact, *force); err != nil {
						return err
					}
				}
				t0 := time.Now()
				res, err := exactjob.Walks(ctx, e.stderr, b, r, starts, sim.ExactOptions{Budget: *budget, Workers: *workers, MaxMemory: int64(maxMem), Bounds: *bounds, Spill: *spill}, *layers)
				if err != nil {
					return err
				}
				switch *format {
				case "parquet":
					return results.WriteExact(*outFile, b, r, res, version, "exact "+setFlags(fs))
				case "csv":
					results.WriteExactCSV(e.stdout, b, r, res)
					return nil
				}
				printExact(e.stdout, b, r, res, time.Since(t0))
				return nil
			}
		},
	}
}

// checkExactFormat refuses an unknown --format, and --out without parquet
// or parquet without --out.
func checkExactFormat(format, out string) error {
	switch {
	case format != "text" && format != "csv" && format != "parquet":
		return usagef("--format %q: valid formats are text, csv, parquet", format)
	case format == "parquet" && out == "":
		return usagef("--format parquet writes a file: name it with --out FILE")
	case format != "parquet" && out != "":
		return usagef("--out is for --format parquet; text and csv go to stdout")
	}
	return nil
}

// printExact prints exact's text output: the board of P(success) (the
// lower bound, starred, where only bounds are certified), the bounds, and
// the work done.
func printExact(w io.Writer, b *sim.Board, r sim.Rule, res []sim.Exact, elapsed time.Duration) {
	byStart := map[int]sim.Exact{}
	var nodes int64
	var bounded []sim.Exact
	for _, x := range res {
		byStart[x.Start] = x
		nodes += x.Nodes
		if !x.IsExact() {
			bounded = append(bounded, x)
		}
	}
	title := "exact P(success)"
	if len(bounded) > 0 {
		title = "exact P(success) (* certified bounds: the lower one shown)"
	}
	fmt.Fprintf(w, "%s, %s, %s\n\n", title, b, results.Params(r).Spec)
	printGrid(w, b, func(sq int) string {
		if x, ok := byStart[sq]; ok {
			if !x.IsExact() {
				return strconv.FormatFloat(x.PLower(), 'f', 4, 64) + "*"
			}
			return strconv.FormatFloat(x.PSuccess, 'f', 4, 64)
		}
		return ""
	})
	if len(bounded) > 0 {
		fmt.Fprintln(w)
	}
	for _, x := range bounded {
		fmt.Fprintf(w, "%s: P(success) in [%.10f, %.10f], width %.3g (%d states dropped)\n",
			b.SquareName(x.Start), x.PLower(), x.PUpper(), x.PUpper()-x.PLower(), x.Dropped)
	}
	fmt.Fprintf(w, "\n%d start squares, %d states expanded, %.2fs\n", len(res), nodes, elapsed.Seconds())
}

// exactCommandBudget is the command's default state budget per start: a
// time limit of some twenty minutes, well past 10x10 from a1 (136.5 million
// states, 100 CPU-s, within 4 GiB); what stops larger enumerations is
// --max-memory (or, with --bounds, what the memory and budget let each
// layer keep).
const exactCommandBudget = 1_000_000_000

// setFlags lists the flags given on the command line, as --name=value in
// name order, for the metadata of a file a command writes.
func setFlags(fs *flag.FlagSet) string {
	var parts []string
	fs.Visit(func(f *flag.Flag) { parts = append(parts, fmt.Sprintf("--%s=%s", f.Name, f.Value)) })
	return strings.Join(parts, " ")
}
