package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"knightwalk/sim"
)

// countCommand is `experiment count`; main.go lists it.
func countCommand() *command {
	return &command{
		name:  "count",
		usage: "--board RxC [--closed] [--unique] [--start SQ] [--format text|csv] [--workers N] [--max-nodes N]",
		short: "exact numbers of knight's tours from each start square",
		long: `Counts every knight's tour by exhaustive search (boards of at most 64
squares; 6x6 takes about a second). Open tours by default: the number of
directed tours that start on each square. With --closed, the number of
directed tours from each square that end a knight's move from it (twice the
closed tours, the same on every square).

text: a board-shaped table of the per-start counts, then the totals:
directed and undirected tours (when every square is counted), and with
--unique the number of tours up to the board's symmetries (and reversal).
csv: a header and one row per counted square, start,start_row,start_col,count,
and nothing else; the totals follow from the rows (undirected = sum/2 for
open tours, one row's count/2 for closed ones).

Before searching, count estimates the search's size from random probes of
the search tree and refuses one over --max-nodes (8x8 has about 10^17
nodes); on a terminal it shows progress against the estimate on stderr.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 6x6 (required)")
			closed := fs.Bool("closed", false, "count closed tours instead of open ones")
			unique := fs.Bool("unique", false, "also count tours up to the board's symmetries")
			start := fs.String("start", "", "only this start square, e.g. a1 (default: every square)")
			format := fs.String("format", "text", "output format: text or csv")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines searching in parallel")
			maxNodes := fs.Float64("max-nodes", defaultMaxNodes, "refuse a search estimated to expand more nodes than this (a worker expands about 10^7 a second)")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("count takes no arguments, got %q", args)
				}
				if *format != "text" && *format != "csv" {
					return usagef("--format %q: valid formats are text, csv", *format)
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				b, starts, err := boardAndStarts(*board, *start)
				if err != nil {
					return err
				}
				opt := sim.CountOptions{Closed: *closed, Unique: *unique, Workers: *workers}
				if *start != "" {
					if *unique && !*closed {
						return usagef("--unique counts open tours from every square; drop --start")
					}
					opt.Starts = starts
				}
				if !(*maxNodes >= 1) {
					return usagef("--max-nodes must be at least 1")
				}
				t0 := time.Now()
				tc, err := countTours(ctx, e, b, opt, *maxNodes)
				if err != nil {
					return err
				}
				if *format == "csv" {
					fmt.Fprintln(e.stdout, "start,start_row,start_col,count")
					for _, s := range tc.Starts {
						row, col := b.RowCol(s)
						fmt.Fprintf(e.stdout, "%s,%d,%d,%d\n", b.SquareName(s), row, col, tc.PerStart[s])
					}
					return nil
				}
				printCounts(e, tc, time.Since(t0))
				return nil
			}
		},
	}
}

// countTours estimates the search, refuses it when the estimate passes
// maxNodes, and otherwise runs it with progress on a terminal.
func countTours(ctx context.Context, e *env, b *sim.Board, opt sim.CountOptions, maxNodes float64) (sim.TourCounts, error) {
	est, err := sim.EstimateTourNodes(b, opt)
	if err != nil {
		return sim.TourCounts{}, err
	}
	if est > maxNodes {
		return sim.TourCounts{}, fmt.Errorf("count on %s: about %.2g search nodes (estimated from random probes of the search), %s at %.0e nodes/s on %d workers; over --max-nodes %.3g, so not started (raise --max-nodes to try anyway)",
			b, est, humanDuration(est/(nodeRate*float64(opt.Workers))), nodeRate, opt.Workers, maxNodes)
	}
	var nodes atomic.Int64
	stop := progressLine(e.stderr, func(d time.Duration) string {
		n := nodes.Load()
		line := fmt.Sprintf("count %s: %.3g of about %.3g search nodes, %s nodes/s", b, float64(n), est, rate(n, d))
		if n > 0 && float64(n) < est {
			line += ", about " + humanDuration(d.Seconds()*(est-float64(n))/float64(n)) + " left"
		}
		return line
	})
	defer stop()
	opt.Progress = &nodes
	return sim.CountTours(ctx, b, opt)
}

// defaultMaxNodes is the largest search count starts without being told
// to: about three hours on one core (7x7, about 7·10^11 nodes, needs
// --max-nodes).
const defaultMaxNodes = 1e11

// nodeRate is about how many search nodes a worker expands a second, for
// the estimate in count's refusal.
const nodeRate = 1e7

// humanDuration writes a rough duration in seconds, minutes, hours, days
// or years.
func humanDuration(sec float64) string {
	switch {
	case sec < 90:
		return fmt.Sprintf("%.0f s", sec)
	case sec < 90*60:
		return fmt.Sprintf("%.0f min", sec/60)
	case sec < 36*3600:
		return fmt.Sprintf("%.0f h", sec/3600)
	case sec < 2*365*86400:
		return fmt.Sprintf("%.0f days", sec/86400)
	}
	return fmt.Sprintf("%.2g years", sec/(365.25*86400))
}

func printCounts(e *env, tc sim.TourCounts, d time.Duration) {
	b := tc.Board
	if tc.Closed {
		fmt.Fprintf(e.stdout, "directed closed tours from each start square, %s\n\n", b)
	} else {
		fmt.Fprintf(e.stdout, "directed open tours from each start square, %s\n\n", b)
	}
	printGrid(e.stdout, b, func(sq int) string {
		if tc.PerStart[sq] < 0 {
			return ""
		}
		return strconv.FormatInt(tc.PerStart[sq], 10)
	})
	fmt.Fprintln(e.stdout)
	if tc.Directed >= 0 {
		what := "directed tours"
		if tc.Closed {
			what = "directed closed tours, by start square"
		}
		fmt.Fprintf(e.stdout, "%s: %d\n", what, tc.Directed)
	}
	if tc.Undirected >= 0 {
		what := "undirected tours"
		if tc.Closed {
			what = "closed tours (cycles)"
		}
		fmt.Fprintf(e.stdout, "%s: %d\n", what, tc.Undirected)
	}
	if tc.Unique >= 0 {
		fmt.Fprintf(e.stdout, "up to symmetry (%d symmetries): %d\n", tc.Symmetries, tc.Unique)
	}
	fmt.Fprintf(e.stdout, "%d search nodes, %.2fs\n", tc.Nodes, d.Seconds())
}
