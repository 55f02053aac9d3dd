package figures

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/plotter"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/exactstore"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// convergence draws the running success estimate of the first start
// square of each (board, rule) from the per-walk table, with the exact
// value from enumeration where the board is small enough.
func (d *drawer) convergence() ([]Drawn, error) {
	path := filepath.Join(d.dir, results.WalksFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return []Drawn{{Name: "convergence", Note: "no per-walk table (set outputs.walks: true): no convergence plot"}}, nil
	}
	// Only the first start square of each (board, rule) is drawn: read
	// just its walks, a batch at a time.
	first := map[[3]string]bool{}
	for _, g := range d.groups() {
		first[[3]string{g.board, g.rule, g.squares[0].Start}] = true
	}
	walks, err := results.ReadOf(d.dir, results.WalksFile, d.m, func(path string) ([]table.WalkRow, table.Metadata, error) {
		return table.ReadWalksWhere(path, func(w *table.WalkRow) bool { return first[[3]string{w.Board, w.Rule, w.Start}] })
	})
	if err != nil {
		return nil, err
	}
	conf, method := d.stats()
	var out []Drawn
	for _, g := range d.groups() {
		start := g.squares[0]
		cd := plots.ConvergenceData{Title: fmt.Sprintf("%s on %s: running estimate from %s", g.rule, g.board, start.Start), Label: "success rate", Level: conf, Percent: true}
		var success []bool
		for _, w := range walks {
			if w.Board == g.board && w.Rule == g.rule && w.Start == start.Start {
				success = append(success, w.Success)
			}
		}
		for _, p := range results.RunningRate(success, conf, method) {
			cd.Walks = append(cd.Walks, float64(p.Walks))
			cd.Estimate, cd.Lo, cd.Hi = append(cd.Estimate, p.Rate), append(cd.Lo, p.Lo), append(cd.Hi, p.Hi)
		}
		if len(cd.Walks) < 2 {
			continue
		}
		if ex, ok := d.exact(g, start); ok {
			cd.Exact = &ex
			cd.ExactLabel = "exact " + percent(ex)
		}
		if dataHook != nil {
			dataHook("convergence_"+slug(g.board+"_"+g.rule+"_"+start.Start), convergenceData{cd, start})
		}
		f, err := plots.Convergence(cd)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "convergence", g.board, g.rule, start.Start)
		if err != nil {
			return nil, err
		}
		last := len(cd.Walks) - 1
		dr.Caption = fmt.Sprintf("Running success-rate estimate of %s on %s from %s over the first n walks (per-walk table), with its %s interval: %s [%s, %s] after %d walks.",
			g.rule, g.board, start.Start, levelText(conf), percent(cd.Estimate[last]), percent(cd.Lo[last]), percent(cd.Hi[last]), int64(cd.Walks[last]))
		if cd.Exact != nil {
			dr.Caption += fmt.Sprintf(" Exact value by enumeration: %s.", percent(*cd.Exact))
		}
		out = append(out, dr)
		if cd.Exact == nil {
			continue
		}
		cd.Title = fmt.Sprintf("%s on %s from %s: error against walks", g.rule, g.board, start.Start)
		f, err = plots.ConvergenceError(cd)
		if errors.Is(err, plotter.ErrNoData) {
			continue // the estimate hit the exact value (say, 0 of n for p = 0): no error to draw
		}
		if err != nil {
			return nil, err
		}
		dr, err = d.save(f, "convergence", g.board, g.rule, start.Start, "error")
		if err != nil {
			return nil, err
		}
		dr.Caption = fmt.Sprintf("Absolute error of the running success-rate estimate of %s on %s from %s against the exact %s, on log–log axes, "+
			"with the %s interval's half-width and the guide z·√(p(1−p)/n): an error along the guide's slope of −1/2 is Monte Carlo noise, a level stretch a bias.",
			g.rule, g.board, start.Start, percent(*cd.Exact), levelText(conf))
		out = append(out, dr)
	}
	return out, nil
}

// convergenceData is what a convergence curve draws, and the start's
// squares row (for dataHook).
type convergenceData struct {
	curve plots.ConvergenceData
	start table.SquareRow
}

// exact returns the exact success probability from start: the run's own
// (its squares table, which holds the stored values of internal/exactstore
// where the run took them), else the store's, else a small enumeration's.
func (d *drawer) exact(g group, s table.SquareRow) (float64, bool) {
	if !math.IsNaN(s.ExactSuccess) {
		return s.ExactSuccess, true
	}
	b, r, ok := d.boardRule(g)
	if !ok {
		return 0, false
	}
	sq := b.Square(int(s.StartRow), int(s.StartCol))
	if e, ok, err := exactstore.Lookup(b, r, sq); err == nil && ok {
		return e.PSuccess, true
	}
	if b.Squares() > 64 || r.Kind == sim.Backtrack {
		return 0, false
	}
	e, err := exact.Walk(context.Background(), b, r, sq, 2_000_000)
	if err != nil {
		return 0, false
	}
	return e.PSuccess, true
}

// boardRule rebuilds the board and the rule (with its options from the
// manifest's config).
func (d *drawer) boardRule(g group) (*sim.Board, sim.Rule, bool) {
	b, err := sim.NewBoard(g.rows, g.cols)
	if err != nil {
		return nil, sim.Rule{}, false
	}
	r, err := sim.ParseRule(g.rule)
	if err != nil {
		return nil, sim.Rule{}, false
	}
	for _, cr := range d.m.Config.Rules {
		if cr.Name != g.rule {
			continue
		}
		if cr.Order != "" {
			if o, err := sim.ParseOrder(cr.Order); err == nil {
				r.Order = o
			}
		}
		if cr.TieBreak != "" {
			if t, err := sim.ParseTieBreak(cr.TieBreak); err == nil {
				r.TieBreak = t
			}
		}
		r.MaxSteps, r.Closed, r.NodeBudget = cr.MaxSteps, cr.Closed, cr.NodeBudget
	}
	return b, r, r.Validate() == nil
}

// walks draws walk W (figure option walk, default 0) from the first start
// square of each (board, rule), replayed from the seed: one walk, the same
// one the run made, as a figure and an animated GIF.
func (d *drawer) walks() ([]Drawn, error) {
	var out []Drawn
	walk := d.options().Walk
	for _, g := range d.groups() {
		b, r, ok := d.boardRule(g)
		if !ok {
			continue
		}
		if note := tooLarge(b.Rows, b.Cols); note != "" {
			out = append(out, Drawn{Name: "walk", Note: g.board + " " + g.rule + ": " + note})
			continue
		}
		start := b.Square(int(g.squares[0].StartRow), int(g.squares[0].StartCol))
		w, err := sim.NewWalker(b, r)
		if err != nil {
			return nil, err
		}
		w.KeepPaths(true)
		o := w.Walk(start, sim.NewKey(uint64(d.m.Seed), b, r, start), walk)
		f, wd, err := WalkFigure(b, g.rule, walk, o)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "walk", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		tour := "a dead end"
		if o.Length == b.Squares() {
			tour = "an open tour"
		}
		dr.Caption = fmt.Sprintf("Walk %d of %s on %s from %s, replayed from the seed %d: %d of %d squares visited, %s; squares numbered in the order visited.",
			walk, g.rule, g.board, b.SquareName(start), d.m.Seed, o.Length, b.Squares(), tour)
		if b.Squares() <= 400 {
			if err := writeAtomic(dr.Base+".gif", func(tmp string) error { return plots.WalkGIF(wd, tmp, 25) }); err != nil {
				return nil, err
			}
		}
		out = append(out, dr)
	}
	return out, nil
}

// WalkFigure draws walk index walk of rule (its name) on b, o as a walker
// that keeps paths walked it: the walk figure, which `experiment tour
// --draw` draws too. It returns the figure's data as well (for the GIF). A
// board over MaxFigureSquares is refused (tooLarge's note).
func WalkFigure(b *sim.Board, rule string, walk uint64, o sim.Outcome) (*plots.Figure, plots.WalkData, error) {
	if note := tooLarge(b.Rows, b.Cols); note != "" {
		return nil, plots.WalkData{}, errors.New(note)
	}
	wd := plots.WalkData{Title: fmt.Sprintf("%s on %s: walk %d from %s (%d squares)", rule, b, walk, b.SquareName(o.Start), o.Length), Rows: b.Rows, Cols: b.Cols}
	for _, p := range o.Path {
		wd.Path = append(wd.Path, int(p))
	}
	f, err := plots.Walk(wd)
	return f, wd, err
}
