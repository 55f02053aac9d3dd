package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// exactCommand is `experiment exact`; main.go lists it.
func exactCommand() *command {
	return &command{
		name:  "exact",
		usage: "--board RxC [--rule R] [--tie-break T] [--order O] [--max-steps N] [--start SQ] [--format text|csv|parquet] [--out FILE] [--force] [--budget N] [--workers N] [--max-memory SIZE] [--spill DIR] [--layers] [--bounds] [--enumerate]",
		short: "exact success probabilities by enumerating every branch of a walk",
		long:  manual.Exact,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var rf cli.RuleFlags
			rf.Register(fs, "warnsdorff")
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 8x8 (required)")
			start := fs.String("start", "", "only this start square, e.g. a1 (default: every square)")
			format := fs.String("format", "text", "output format: text, csv or parquet (parquet needs --out)")
			outFile := fs.String("out", "", "the Parquet file --format parquet writes")
			force := fs.Bool("force", false, "replace --out if it is an exact table that experiment wrote")
			budget := fs.Int64("budget", exactDefaultBudget, "most states to expand per start square (about a million a second on one core; the memory, --max-memory, is what bounds most enumerations)")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "start squares enumerated in parallel")
			maxMem := byteSize(defaultMaxMemory())
			bounds := fs.Bool("bounds", false, "where a start would pass --budget or --max-memory, drop its least probable states and give certified bounds on P(success) instead of refusing")
			spill := fs.String("spill", "", "keep the layers in files in this directory and build each in passes within --max-memory")
			enumerate := fs.Bool("enumerate", false, "enumerate even where the program stores the values (internal/exactstore: 10x10 warnsdorff/random), which are otherwise given, saying so")
			layers := fs.Bool("layers", false, "write each layer's states, passes, disk and time to stderr (for measuring)")
			fs.Var(&maxMem, "max-memory", "memory the enumeration's states may take, shared by the workers, e.g. 512MiB; the default is half the machine's memory, at most 4GiB")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("exact takes no arguments, got %q", args)
				}
				if err := checkExactFormat(*format, *outFile); err != nil {
					return err
				}
				r, err := rf.Resolve()
				if err != nil {
					return err
				}
				b, starts, err := cli.BoardAndStarts(*board, *start)
				if err != nil {
					return err
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				if err := checkExactSpill(*spill); err != nil {
					return err
				}
				if *budget < 0 {
					return usagef("--budget must be 0 (the default, %d) or positive", exactDefaultBudget)
				}
				if *budget == 0 {
					*budget = exactDefaultBudget
				}
				if *format == "parquet" {
					// refused before the enumeration, which may take long
					if err := table.CheckReplace(*outFile, table.Exact, *force); err != nil {
						return err
					}
				}
				t0 := time.Now()
				var res []exact.Result
				stored := false
				if !*enumerate {
					if res, stored, err = exactStored(b, r, starts); err != nil {
						return err
					}
				}
				command := "exact " + setFlags(fs)
				if stored {
					fmt.Fprintf(e.stderr, "experiment: exact %s %s: %s; --enumerate enumerates again\n", b, r.Name(), exactStoredNote)
					command += " (" + exactStoredNote + ")"
				} else if res, err = exactWalks(ctx, e.stderr, b, r, starts, exact.Options{Budget: *budget, Workers: *workers, MaxMemory: int64(maxMem), Bounds: *bounds, Spill: *spill}, *layers); err != nil {
					return err
				}
				switch *format {
				case "parquet":
					return results.WriteExact(*outFile, b, r, res, version, command)
				case "csv":
					results.WriteExactCSV(e.stdout, b, r, res)
					return nil
				}
				printExact(e.stdout, b, r, res, stored, time.Since(t0))
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
func printExact(w io.Writer, b *sim.Board, r sim.Rule, res []exact.Result, stored bool, elapsed time.Duration) {
	byStart := map[int]exact.Result{}
	var nodes int64
	var bounded []exact.Result
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
	if stored {
		fmt.Fprintf(w, "\n%d start squares %s (%d states expanded when they were enumerated), %.2fs\n", len(res), exactStoredNote, nodes, elapsed.Seconds())
		return
	}
	fmt.Fprintf(w, "\n%d start squares, %d states expanded, %.2fs\n", len(res), nodes, elapsed.Seconds())
}

// setFlags lists the flags given on the command line, as --name=value in
// name order, for the metadata of a file a command writes.
func setFlags(fs *flag.FlagSet) string {
	var parts []string
	fs.Visit(func(f *flag.Flag) { parts = append(parts, fmt.Sprintf("--%s=%s", f.Name, f.Value)) })
	return strings.Join(parts, " ")
}
