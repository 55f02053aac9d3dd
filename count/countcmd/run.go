package countcmd

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/cli"
	"math/big"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// search counts by backtracking: estimates the search, refuses it when the
// estimate passes maxNodes, and otherwise runs it with progress.
func (q *Query) search(ctx context.Context, e *Env) (View, error) {
	b, opt := q.Board, q.searchOptions()
	est, err := count.EstimateTourNodes(b, opt)
	if err != nil {
		return View{}, err
	}
	if est > q.MaxNodes {
		return View{}, fmt.Errorf("count on %s: about %.2g search nodes (estimated from random probes of the search), %s at %.0e nodes/s on %d workers; over --max-nodes %.3g, so not started (raise --max-nodes to try anyway, or use --method frontier without --unique)",
			b, est, humanDuration(est/(nodeRate*float64(opt.Workers))), nodeRate, opt.Workers, q.MaxNodes)
	}
	var nodes atomic.Int64
	stop := cli.ProgressLine(e.Stderr, func(d time.Duration) string {
		n := nodes.Load()
		line := fmt.Sprintf("count %s: %.3g of about %.3g search nodes, %s nodes/s", b, float64(n), est, cli.Rate(n, d))
		if n > 0 && float64(n) < est {
			line += ", about " + humanDuration(d.Seconds()*(est-float64(n))/float64(n)) + " left"
		}
		return line
	})
	defer stop()
	opt.Progress = &nodes
	tc, err := count.CountTours(ctx, b, opt)
	if err != nil {
		return View{}, err
	}
	v := View{board: b, closed: tc.Closed, method: "search", perStart: make([]string, b.Squares()),
		symmetries: tc.Symmetries, work: fmt.Sprintf("%d search nodes", tc.Nodes)}
	for _, s := range tc.Starts {
		v.perStart[s] = strconv.FormatInt(tc.PerStart[s], 10)
	}
	if tc.Directed >= 0 {
		v.directed = strconv.FormatInt(tc.Directed, 10)
	}
	if tc.Undirected >= 0 {
		v.undirected = strconv.FormatInt(tc.Undirected, 10)
	}
	if tc.Unique >= 0 {
		v.unique = strconv.FormatInt(tc.Unique, 10)
	}
	return v, nil
}

// frontier counts with the transfer-matrix sweep, showing the sweep, the
// square and the states on stderr.
func (q *Query) frontier(ctx context.Context, e *Env) (View, error) {
	b := q.Board
	r, err := q.frontierResult(ctx, e)
	if err != nil {
		return View{}, err
	}
	v := View{board: b, closed: q.Closed, method: "frontier", perStart: make([]string, b.Squares())}
	v.work = fmt.Sprintf("%d frontier sweeps, peak %d states and %.3g MiB of state tables", r.Sweeps, r.PeakStates, float64(r.PeakBytes)/(1<<20))
	if q.Paired {
		v.work += ", paired ends"
	}
	for _, s := range r.Starts {
		v.perStart[s] = r.PerStart[s].String()
	}
	switch {
	case q.Closed:
		v.undirected = r.Tours.String()
		if q.All {
			v.directed = r.Tours.Mul64(2 * uint64(b.Squares())).String()
		}
	case q.All:
		v.directed = r.Tours.String()
		v.undirected = r.Tours.Half().String()
		if b.Squares() == 1 {
			v.undirected = v.directed // the one-square path is its own reverse
		}
	}
	if q.Unique {
		if err := uniqueBySweep(ctx, &v, b, q.Closed, r.Tours); err != nil {
			return View{}, err
		}
	}
	return v, nil
}

// uniqueBySweep counts the tours up to symmetry from the sweep's total by
// Burnside's lemma: (total + the tours each other symmetry fixes) / |G|
// for cycles; for open tours, with reversal, (directed + Σ fixed) / 2|G|
// (count.FixedTours: the fixed tours are searched on the folded board).
func uniqueBySweep(ctx context.Context, v *View, b *sim.Board, closed bool, total count.Count) error {
	fixed, err := count.FixedTours(ctx, b, closed)
	if err != nil {
		return err
	}
	sum := total.Big()
	if b.Squares() == 1 && !closed {
		sum.SetInt64(int64(2 * len(fixed))) // the one square: every symmetry fixes it, with or without reversal
	}
	for _, f := range fixed[1:] {
		sum.Add(sum, big.NewInt(f))
	}
	group := int64(len(fixed))
	if !closed {
		group *= 2
	}
	q, m := new(big.Int).QuoRem(sum, big.NewInt(group), new(big.Int))
	if m.Sign() != 0 {
		return fmt.Errorf("count on %s: Burnside's sum %s is not a multiple of %d (a bug)", b, sum, group)
	}
	v.unique, v.symmetries = q.String(), len(fixed)
	v.work += fmt.Sprintf(", tours fixed by each symmetry %v", fixed[1:])
	return nil
}

// frontierResult runs the sweep (or q.Shard of its sweeps) with its
// estimate's checks and the progress line.
func (q *Query) frontierResult(ctx context.Context, e *Env) (count.Result, error) {
	b := q.Board
	type status struct {
		sweep string
		l     count.Layer
	}
	var cur atomic.Pointer[status]
	opt := count.Options{Closed: q.Closed, Starts: q.Starts, Workers: q.Workers, MaxMemory: cli.CountTables(q.MaxMemory), PairedEnds: q.Paired, Spill: q.Spill, Shard: q.Shard,
		Progress: func(s string, l count.Layer) {
			cur.Store(&status{s, l})
			if q.Layers {
				line := fmt.Sprintf("count %s: sweep %s square %d/%d states %d tables %d bytes (peak %d)", b, s, l.Step, l.Steps, l.States, l.Bytes, l.PeakBytes)
				if q.Spill != "" {
					line += fmt.Sprintf(" disk %d bytes passes %d", l.DiskBytes, l.Passes)
				}
				fmt.Fprintf(e.Stderr, "%s %.1f s\n", line, l.Elapsed.Seconds())
			}
		}}
	states, bytes, err := count.Estimate(b, opt)
	if err != nil {
		return count.Result{}, err
	}
	if q.Spill != "" {
		err = checkSpill(b, q.Spill, states, cli.CountTables(q.MaxMemory))
	} else {
		err = q.checkMemory(&opt, states, bytes)
	}
	if err != nil {
		var r refusal
		if !q.Force || !errors.As(err, &r) {
			return count.Result{}, err
		}
		fmt.Fprintf(e.Stderr, "%s; started anyway (--force): --max-memory %s still stops it\n", r.what, cli.FormatSize(q.MaxMemory))
	}
	stop := cli.ProgressLine(e.Stderr, func(d time.Duration) string {
		s := cur.Load()
		if s == nil {
			return fmt.Sprintf("count %s: frontier sweep starting", b)
		}
		return fmt.Sprintf("count %s: sweep %s, square %d of %d, %.3g states, %s of state tables, %.0f s",
			b, s.sweep, s.l.Step, s.l.Steps, float64(s.l.States), cli.FormatSize(s.l.Bytes), d.Seconds())
	})
	// Layers are dropped whole; let the collector return them before the
	// heap passes the budget rather than at twice the live memory.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(cli.CountGCLimit(q.MaxMemory)))
	r, err := count.Tours(ctx, b, opt)
	stop()
	if err != nil {
		if errors.Is(err, count.ErrBudget) {
			return count.Result{}, fmt.Errorf("%w (the state tables' share of --max-memory %s; the rest is kept for the program, so the process stays within it: raise --max-memory, or count fewer start squares)", err, cli.FormatSize(q.MaxMemory))
		}
		return count.Result{}, err
	}
	return r, nil
}

// checkMemory refuses a sweep in memory whose estimated widest layer would
// not fit --max-memory, after trying paired ends for open tours (which
// hold several times fewer states for about the same time on 6x6, and are
// what brings 7x7 within a few GiB).
func (q *Query) checkMemory(opt *count.Options, states float64, bytes int64) error {
	b := q.Board
	tables := cli.CountTables(q.MaxMemory)
	if bytes > tables && !q.Closed && !q.Paired {
		paired := *opt
		paired.PairedEnds = true
		if ps, pb, err := count.Estimate(b, paired); err == nil && pb <= tables {
			*opt, states, bytes, q.Paired = paired, ps, pb, true
		}
	}
	if bytes <= tables {
		return nil
	}
	hint := "raise --max-memory, or keep the layers on disk with --spill DIR, or --force to measure how far it gets"
	if !q.Closed && !q.Paired {
		hint += ", or count with --paired-ends, which holds fewer states"
	}
	return refusal{fmt.Sprintf("count on %s: about %.2g frontier states at the widest layer, about %.3g GiB of state tables and %s at %.0e states/s; over the %s of tables --max-memory %s leaves beside the program",
		b, states, float64(bytes)/(1<<30), humanDuration(states*sweepSteps/stateRate), stateRate, cli.FormatSize(tables), cli.FormatSize(q.MaxMemory)), hint}
}

// refusal is a frontier count its estimate turns down before it starts:
// what would not fit, and what to change. --force starts it anyway.
type refusal struct{ what, hint string }

func (r refusal) Error() string {
	s := r.what + ", so not started"
	if r.hint != "" {
		s += " (" + r.hint + ")"
	}
	return s
}

// checkSpill refuses a spilled sweep that could not finish: the widest
// layer, read and written at once, needs room for two layers on disk at 16
// bytes a state (24 where counts pass 2^64), and the budget must hold at
// least one shard of the layer being written (a 256th).
func checkSpill(b *sim.Board, dir string, states float64, tables int64) error {
	disk := int64(states * 2 * 16 * 1.25)
	if free, ok := cli.DiskFree(dir); ok && free < disk {
		return refusal{fmt.Sprintf("count on %s: about %.2g frontier states at the widest layer need about %.3g GiB on disk for two layers; --spill %s has %.3g GiB free",
			b, states, float64(disk)/(1<<30), dir, float64(free)/(1<<30)), "--force to measure how far it gets"}
	}
	if shard := int64(states * 48 / 256); shard > tables {
		return refusal{fmt.Sprintf("count on %s: about %.2g frontier states at the widest layer; the %s of tables --max-memory leaves cannot hold a 256th of their tables (%.3g MiB)",
			b, states, cli.FormatSize(tables), float64(shard)/(1<<20)), "raise --max-memory"}
	}
	return nil
}

// countRows turns a count into rows of the counts table.
func countRows(v View) ([]table.CountRow, error) {
	b := v.board
	kind := "open"
	if v.closed {
		kind = "closed"
	}
	var rows []table.CountRow
	add := func(start, kind, n string) error {
		c, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return fmt.Errorf("count on %s: %s count %s does not fit the table's int64 column", b, kind, n)
		}
		rows = append(rows, table.CountRow{Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Start: start, Kind: kind, Count: c})
		return nil
	}
	for sq, n := range v.perStart {
		if n != "" {
			if err := add(b.SquareName(sq), kind, n); err != nil {
				return nil, err
			}
		}
	}
	total := v.directed
	if v.closed {
		total = v.undirected
	}
	if total != "" {
		if err := add("", kind, total); err != nil {
			return nil, err
		}
	}
	if v.unique != "" {
		if err := add("", "unique", v.unique); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

func WriteCSV(e *Env, v View) error {
	rows, err := countRows(v)
	if err != nil {
		return err
	}
	w := csv.NewWriter(e.Stdout)
	w.Write([]string{"board", "rows", "cols", "start", "kind", "count"})
	for _, r := range rows {
		w.Write([]string{r.Board, strconv.Itoa(int(r.Rows)), strconv.Itoa(int(r.Cols)), r.Start, r.Kind, strconv.FormatInt(r.Count, 10)})
	}
	w.Flush()
	return w.Error()
}

// WriteParquet writes the counts table to path, with command, the count
// the table holds as the command that recomputes it (v.Command), and
// count_method how the tours were counted (search or frontier).
func WriteParquet(e *Env, path string, v View) error {
	rows, err := countRows(v)
	if err != nil {
		return err
	}
	md := table.Metadata{Experiment: "count", ToolVersion: e.ToolVersion, Build: buildinfo.Read(),
		Levels: table.Levels{Boards: []string{v.board.String()}},
		Extra:  map[string]string{"command": v.Command(), "count_method": v.method}}
	if err := table.WriteCounts(path, rows, md); err != nil {
		return fmt.Errorf("count: --out %s: %w", path, err)
	}
	return nil
}

// stateRate is about how many states a second a sweep handles on 2 cores
// (BenchmarkSweep6x6Open), and sweepSteps about how many peak layers' worth
// of states a sweep handles in all, for the estimate in count's refusal.
const (
	stateRate  = 3e6
	sweepSteps = 10
)

// DefaultMaxNodes is the largest search count starts without being told
// to: about three hours on one core (7x7, about 7·10^11 nodes, needs
// --max-nodes).
const DefaultMaxNodes = 1e11

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

func Print(e *Env, v View, d time.Duration) {
	b := v.board
	if v.closed {
		fmt.Fprintf(e.Stdout, "directed closed tours from each start square, %s\n\n", b)
	} else {
		fmt.Fprintf(e.Stdout, "directed open tours from each start square, %s\n\n", b)
	}
	cli.PrintGrid(e.Stdout, b, func(sq int) string { return v.perStart[sq] })
	fmt.Fprintln(e.Stdout)
	if v.directed != "" {
		what := "directed tours"
		if v.closed {
			what = "directed closed tours, by start square"
		}
		fmt.Fprintf(e.Stdout, "%s: %s\n", what, v.directed)
	}
	if v.undirected != "" {
		what := "undirected tours"
		if v.closed {
			what = "closed tours (cycles)"
		}
		fmt.Fprintf(e.Stdout, "%s: %s\n", what, v.undirected)
	}
	if v.unique != "" {
		fmt.Fprintf(e.Stdout, "up to symmetry (%d symmetries): %s\n", v.symmetries, v.unique)
	}
	fmt.Fprintf(e.Stdout, "%s: %s, %.2fs\n", v.method, v.work, d.Seconds())
}

// Command is the count v holds, as the command that counts it again:
// "count --board=RxC", with --closed, --unique, and --start=SQ where one
// square was counted. It names what was counted, not how (method, memory,
// shards, output), so a count merged from shards records the same
// command as the whole count and its table is the same bytes.
func (v View) Command() string {
	c := "count --board=" + v.board.String()
	if v.closed {
		c += " --closed"
	}
	if v.unique != "" {
		c += " --unique"
	}
	if v.directed == "" {
		var counted []int
		for i, s := range v.perStart {
			if s != "" {
				counted = append(counted, i)
			}
		}
		if len(counted) == 1 {
			c += " --start=" + v.board.SquareName(counted[0])
		}
	}
	return c
}
