package harness

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/figures"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// tourCommand is `experiment tour`; main.go lists it.
func tourCommand() *command {
	return &command{
		name:  "tour",
		usage: "--board RxC --start SQ [--rule NAME] [--tie-break TB] [--order MOVES] [--max-steps N] [--node-budget N] [--seed S] [--walk W] [--format text|csv|json] [--draw FILE.png|svg|pdf]",
		short: "show one walk as a numbered board, replaying walk W of a run exactly",
		long:  manual.Tour,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var rf cli.RuleFlags
			rf.Register(fs, "warnsdorff")
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 8x8 (required)")
			start := fs.String("start", "", "start square, e.g. a1 (required)")
			nodeBudget := fs.Int64("node-budget", 0, "backtrack: squares the search may enter (0: the default budget)")
			seed := fs.Uint64("seed", 1, "the experiment's seed")
			walk := fs.Uint64("walk", 0, "the walk's index within (board, rule, start)")
			format := fs.String("format", "text", "output format: text, csv or json")
			draw := fs.String("draw", "", "also draw the walk, as the walk figure does, into this new file: FILE.png, FILE.svg or FILE.pdf (an existing file is refused, never overwritten)")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("tour takes no arguments, got %q", args)
				}
				if *format != "text" && *format != "csv" && *format != "json" {
					return usagef("--format %q: valid formats are text, csv, json", *format)
				}
				if *start == "" {
					return usagef("--start is required, e.g. --start a1")
				}
				drawFormat, err := drawTarget(*draw)
				if err != nil {
					return err
				}
				b, starts, err := cli.BoardAndStarts(*board, *start)
				if err != nil {
					return err
				}
				if *draw != "" && b.Squares() > figures.MaxFigureSquares {
					return usagef("--draw: %s has %d squares, more than the %d (200x200) a walk is drawn on square by square; leave out --draw", b, b.Squares(), figures.MaxFigureSquares)
				}
				r, err := rf.Resolve()
				if err != nil {
					return err
				}
				if *nodeBudget < 0 || *nodeBudget > 0 && r.Kind != sim.Backtrack {
					return usagef("--node-budget is a positive number of squares for --rule backtrack")
				}
				r.NodeBudget = *nodeBudget
				o, err := tourWalk(b, r, starts[0], *seed, *walk)
				if err != nil {
					return err
				}
				if err := printTour(e, b, r, *seed, *walk, o, *format); err != nil {
					return err
				}
				if *draw != "" {
					if err := drawTour(*draw, drawFormat, b, r, *walk, o); err != nil {
						return err
					}
				}
				if !o.Success || r.Closed && !o.Closed {
					return fmt.Errorf("tour: walk %d of %s from %s (seed %d) is not a full tour: %s", *walk, r.Name(), b.SquareName(o.Start), *seed, tourOutcome(b, o))
				}
				return nil
			}
		},
	}
}

// drawTarget checks tour --draw's file before any walk: its extension
// names its format (png, svg or pdf), and it must not exist, for tour
// never overwrites a file. It returns the format ("" without --draw).
func drawTarget(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if !slices.Contains(plots.Formats, format) {
		return "", usagef("--draw %q: the file's extension names its format: .png, .svg or .pdf", path)
	}
	switch _, err := os.Lstat(path); {
	case err == nil:
		return "", usagef("--draw %s: the file exists, and tour never overwrites a file; name a new one (or remove it first)", path)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("tour --draw %s: %w", path, err)
	}
	return format, nil
}

// drawTour draws the walk o, walk index walk of r on b, into the new file
// path in format: the walk figure of a run (figures.WalkFigure). The file
// is created only if it does not exist (O_EXCL: never over a file made
// since drawTarget looked), and removed again when drawing fails.
func drawTour(path, format string, b *sim.Board, r sim.Rule, walk uint64, o sim.Outcome) error {
	f, _, err := figures.WalkFigure(b, r.Name(), walk, o)
	if err != nil {
		return fmt.Errorf("tour --draw: %w", err)
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usagef("--draw %s: the file exists, and tour never overwrites a file; name a new one (or remove it first)", path)
	}
	if err != nil {
		return fmt.Errorf("tour --draw: %w", err)
	}
	err = f.Encode(file, format)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("tour --draw %s: %w", path, err)
	}
	return nil
}

func printTour(e *env, b *sim.Board, r sim.Rule, seed, walk uint64, o sim.Outcome, format string) error {
	switch format {
	case "csv":
		fmt.Fprintln(e.stdout, "step,square,row,col")
		for i, sq := range o.Path {
			row, col := b.RowCol(int(sq))
			fmt.Fprintf(e.stdout, "%d,%s,%d,%d\n", i+1, b.SquareName(int(sq)), row, col)
		}
		return nil
	case "json":
		squares := make([]string, len(o.Path))
		for i, sq := range o.Path {
			squares[i] = b.SquareName(int(sq))
		}
		enc := json.NewEncoder(e.stdout)
		return enc.Encode(struct {
			Board   string   `json:"board"`
			Rule    string   `json:"rule"`
			Start   string   `json:"start"`
			Seed    uint64   `json:"seed,string"` // strings: integers that pass 2^53
			Walk    uint64   `json:"walk,string"`
			Length  int      `json:"length"`
			Success bool     `json:"success"`
			Closed  bool     `json:"closed"`
			Squares []string `json:"squares"`
		}{b.String(), r.Name(), b.SquareName(o.Start), seed, walk, o.Length, o.Success, o.Closed, squares})
	}
	step := make([]string, b.Squares())
	for i, sq := range o.Path {
		step[sq] = strconv.Itoa(i + 1)
	}
	fmt.Fprintf(e.stdout, "walk %d of %s from %s on %s, seed %d\n\n", walk, r.Name(), b.SquareName(o.Start), b, seed)
	printGrid(e.stdout, b, func(sq int) string { return step[sq] })
	fmt.Fprintf(e.stdout, "\n%s\n", tourOutcome(b, o))
	return nil
}
