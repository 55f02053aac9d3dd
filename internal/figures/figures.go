// Package figures draws an experiment's figures from its result directory
// alone: the Parquet tables and manifest.json. So `experiment run` and
// `experiment plot DIR` draw the same figures, and a figure can be restyled
// without running a walk.
package figures

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// Drawn is one figure written, without its extension.
type Drawn struct {
	Name string // figure kind, e.g. success-heatmap
	Base string // path without extension, under dir/figures
	Note string // e.g. what was skipped
	// Caption says what the figure shows, written from the data drawn
	// (report.md and index.html print it under the figure).
	Caption string
}

// DrawWith draws the named figures (nil: those the manifest's config asks for)
// into dir/figures and returns what it wrote. A figure that cannot be
// drawn from these tables (a convergence plot without the per-walk table)
// is reported with a note, not an error. It stops, with ctx's error, before
// the next figure file once ctx is done; files already written are whole
// (each is renamed into place), and no temporary file is left behind.
//
// with is for figures that set results side by side: the
// sweep strip draws the sweeps of the result directories with (read only)
// below dir's own, e.g. a fitted move order's beside the canonical one's.
// Only the sweep strip takes them; with other figures they are an error.
func DrawWith(ctx context.Context, dir string, names, with []string) ([]Drawn, error) {
	return DrawWithOptions(ctx, dir, names, with, nil)
}

// DrawWithOptions is DrawWith drawing with opts (when not nil) in place of
// the figure options the manifest records (`experiment plot
// --figure-options`); the manifest is left as it is.
func DrawWithOptions(ctx context.Context, dir string, names, with []string, opts *config.FigureOptions) ([]Drawn, error) {
	m, err := results.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := checkManifest(dir, m); err != nil {
		return nil, err
	}
	if opts != nil {
		m.Config.Outputs.FigureOptions = opts
	}
	if names == nil {
		names = m.Config.Outputs.Figures
	}
	for _, n := range names {
		if !contains(config.Figures, n) {
			return nil, fmt.Errorf("figure %q: valid figures are %s", n, strings.Join(config.Figures, ", "))
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	others, err := readSweepSources(names, with)
	if err != nil {
		return nil, err
	}
	// The design map draws the designs table alone: a design's 2.58
	// million squares rows are neither read nor checked for it.
	var squares []table.SquareRow
	if slices.ContainsFunc(names, func(n string) bool { return n != "design-map" }) {
		if squares, err = results.ReadOf(dir, results.SquaresFile, m, table.Read[table.SquareRow]); err != nil {
			return nil, err
		}
		if err := oneSpecPerName(dir, squares); err != nil {
			return nil, err
		}
	}
	// The report's figures section is rewritten after drawing: make sure
	// there is one before drawing anything.
	if _, err := os.Stat(filepath.Join(dir, results.ReportFile)); err != nil {
		return nil, fmt.Errorf("%s is not a result directory: %w", dir, err)
	}
	out := filepath.Join(dir, results.FiguresDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	removeStaleTemps(out)
	d := &drawer{ctx: ctx, dir: dir, out: out, m: m, squares: squares, with: others, kinds: names}
	// Each kind of figure is drawn on its own goroutine (encoding PDFs and
	// PNGs dominates); the results are listed in the fixed order of config.Figures.
	var kinds []string
	for _, n := range config.Figures {
		if contains(names, n) {
			kinds = append(kinds, n)
		}
	}
	got := make([][]Drawn, len(kinds))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, n := range kinds {
		g.Go(func() error {
			var err error
			if got[i], err = d.draw(n); err != nil {
				return fmt.Errorf("figure %s: %w", n, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var drawn []Drawn
	for _, g := range got {
		drawn = append(drawn, g...)
	}
	return drawn, nil
}

type drawer struct {
	ctx      context.Context
	dir, out string
	m        *results.Manifest
	squares  []table.SquareRow
	with     []sweepSource // results drawn beside this one (sweep strip)
	kinds    []string      // the figures asked for

	lengthsOnce sync.Once // the lengths table's exact E[length], read once
	exactMean   map[[3]string]float64
	lengthsErr  error
}

// drawing reports whether figure kind is among those asked for.
func (d *drawer) drawing(kind string) bool { return contains(d.kinds, kind) }

// readSweepSources reads the results given with a plot; they go with the
// sweep strip alone.
func readSweepSources(names, with []string) ([]sweepSource, error) {
	if len(with) == 0 {
		return nil, nil
	}
	if len(names) != 1 || names[0] != "sweep-strip" {
		return nil, fmt.Errorf("--with sets results beside each other in the sweep-strip figure only; draw --figure sweep-strip alone")
	}
	var out []sweepSource
	for _, w := range with {
		m, err := results.ReadManifest(w)
		if err != nil {
			return nil, err
		}
		if err := checkManifest(w, m); err != nil {
			return nil, err
		}
		sq, err := results.ReadOf(w, results.SquaresFile, m, table.Read[table.SquareRow])
		if err != nil {
			return nil, err
		}
		out = append(out, sweepSource{m, sq})
	}
	return out, nil
}

// group is one (board, rule) of the squares table.
type group struct {
	board      string
	rows, cols int
	rule       string
	squares    []table.SquareRow
}

// oneSpecPerName refuses the squares of a run whose rules share a name (the
// cells of a design): figures are drawn per board and rule name, and would
// pool the cells.
func oneSpecPerName(dir string, squares []table.SquareRow) error {
	spec := map[string]string{}
	for _, s := range squares {
		if first, ok := spec[s.Rule]; !ok {
			spec[s.Rule] = s.Params.Spec
		} else if first != s.Params.Spec {
			return fmt.Errorf("%s: rules %s and %s share the name %s (a design, docs/designs.md); figures are drawn per board and rule name and would pool them: read the tables instead", dir, first, s.Params.Spec, s.Rule)
		}
	}
	return nil
}

func (d *drawer) groups() []group {
	var out []group
	idx := map[[2]string]int{}
	for _, s := range d.squares {
		k := [2]string{s.Board, s.Rule}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, group{board: s.Board, rows: int(s.Rows), cols: int(s.Cols), rule: s.Rule})
		}
		out[i].squares = append(out[i].squares, s)
	}
	return out
}

func (d *drawer) draw(name string) ([]Drawn, error) {
	switch name {
	case "success-heatmap":
		return d.rateHeatmaps(name, successRate)
	case "closed-heatmap":
		return d.rateHeatmaps(name, closedRate)
	case "length-heatmap":
		return d.lengthHeatmaps()
	case "deadend-heatmap":
		return d.deadEnds()
	case "length-distribution":
		return d.lengthDistributions()
	case "size-curve":
		curves, err := d.sizeCurve()
		if err != nil {
			return nil, err
		}
		shapes, err := d.shapeMaps()
		return append(curves, shapes...), err
	case "convergence":
		return d.convergence()
	case "walk":
		return d.walks()
	case "sweep-strip":
		return d.sweepStrip()
	case "claims":
		return d.claimPanel()
	case "design-map":
		return d.designMaps()
	}
	return nil, fmt.Errorf("unknown figure")
}

// dataHook, when set (by tests), sees what a figure draws before it is
// drawn, keyed like figureHook: claimData, plots.HeatmapData, lengthData.
var dataHook func(base string, data any)

// claimData is what the claims panel draws: the claims table's rows kept
// and the panel's rows, in the same order.
type claimData struct {
	claims []table.ClaimRow
	rows   []plots.ClaimRow
	all    []table.ClaimRow // every claim of the table, drawn or not
}

// figureHook, when set (by tests), sees every figure saved and its
// name, so that tests can check the figure objects themselves.
var figureHook func(base string, f *plots.Figure)

// formats are the formats save writes: plots.Formats. Tests that read
// only the SVG narrow it (rasterising every figure to PNG and writing its
// PDF is most of their CPU); the command never changes it.
var formats = plots.Formats

// save writes f as PNG, SVG and PDF, each under a temporary name renamed
// into place, so that a failure (a full disk) leaves the previous file or
// none, never a truncated one.
func (d *drawer) save(f *plots.Figure, name string, parts ...string) (Drawn, error) {
	base := filepath.Join(d.out, name+"_"+slug(strings.Join(parts, "_")))
	if figureHook != nil {
		figureHook(base, f)
	}
	for _, format := range formats {
		if err := d.ctx.Err(); err != nil {
			return Drawn{}, err
		}
		err := writeAtomic(base+"."+format, func(path string) error {
			file, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return err
			}
			err = f.Encode(wrapWriter(file), format)
			return errors.Join(err, file.Close())
		})
		if err != nil {
			return Drawn{}, err
		}
	}
	return Drawn{Name: name, Base: base}, nil
}

// removeStaleTemps removes the temporary files that a killed plot left in
// the figures directory (".NAME.tmp-RANDOM" of writeAtomic). The caller
// holds the result directory's lock, so no other plot is writing them.
func removeStaleTemps(out string) {
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") {
			os.Remove(filepath.Join(out, n))
		}
	}
}

// MaxFigureSquares bounds the boards drawn square by square (heatmaps, the
// walk): their SVG and PDF hold a shape per square, so a 4096x4096 board
// made a 766 MB SVG after minutes and gigabytes; 200x200 is
// about 4 MB and a second or two. Larger boards are reported with a note
// and their tables are left to the size curve and the notebooks.
const MaxFigureSquares = 200 * 200

// tooLarge says why a rows x cols board is not drawn square by square, or "".
func tooLarge(rows, cols int) string {
	if rows*cols <= MaxFigureSquares {
		return ""
	}
	return fmt.Sprintf("not drawn: %dx%d has %d squares, more than the %d (200x200) a figure draws one by one; the tables hold every square", rows, cols, rows*cols, MaxFigureSquares)
}

// options returns the experiment's figure options (zero: the defaults).
func (d *drawer) options() config.FigureOptions {
	if o := d.m.Config.Outputs.FigureOptions; o != nil {
		return *o
	}
	return config.FigureOptions{}
}

func slug(s string) string {
	return strings.NewReplacer("/", "-", " ", "-").Replace(s)
}

func (d *drawer) stats() (float64, stats.Method) {
	conf := d.m.Config.Confidence
	if conf <= 0 || conf >= 1 {
		conf = 0.95
	}
	m, err := stats.ParseMethod(d.m.Config.Interval)
	if err != nil {
		m = stats.Wilson
	}
	return conf, m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
