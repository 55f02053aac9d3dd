// Package figures draws an experiment's figures from its result directory
// alone: the Parquet tables and manifest.json. So `experiment run` and
// `experiment plot DIR` draw the same figures, and a figure can be restyled
// without running a walk.
package figures

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"knightwalk/internal/config"
	"knightwalk/internal/results"
	"knightwalk/internal/table"
	"knightwalk/plots"
	"knightwalk/sim"
	"knightwalk/stats"
)

// Drawn is one figure written, without its extension.
type Drawn struct {
	Name string // figure kind, e.g. success-heatmap
	Base string // path without extension, under dir/figures
	Note string // e.g. what was skipped
}

// Draw draws the named figures (nil: those the manifest's config asks for)
// into dir/figures and returns what it wrote. A figure that cannot be
// drawn from these tables (a convergence plot without the per-walk table)
// is reported with a note, not an error.
func Draw(dir string, names []string) ([]Drawn, error) {
	m, err := results.ReadManifest(dir)
	if err != nil {
		return nil, err
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
	squares, _, err := table.ReadSquares(filepath.Join(dir, results.SquaresFile))
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, results.FiguresDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	d := &drawer{dir: dir, out: out, m: m, squares: squares}
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
	dir, out string
	m        *results.Manifest
	squares  []table.SquareRow
}

// group is one (board, rule) of the squares table.
type group struct {
	board      string
	rows, cols int
	rule       string
	squares    []table.SquareRow
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
		return d.heatmaps(name, "success rate", func(s table.SquareRow) float64 { return s.SuccessRate }, true)
	case "closed-heatmap":
		return d.heatmaps(name, "closed-tour rate", func(s table.SquareRow) float64 { return s.ClosedRate }, true)
	case "length-heatmap":
		return d.heatmaps(name, "mean path length (squares)", func(s table.SquareRow) float64 { return s.LengthMean }, false)
	case "deadend-heatmap":
		return d.deadEnds()
	case "length-distribution":
		return d.lengthDistributions()
	case "size-curve":
		return d.sizeCurve()
	case "convergence":
		return d.convergence()
	case "walk":
		return d.walks()
	case "sweep-strip":
		return d.sweepStrip()
	}
	return nil, fmt.Errorf("unknown figure")
}

func (d *drawer) save(f *plots.Figure, name string, parts ...string) (Drawn, error) {
	base := filepath.Join(d.out, name+"_"+slug(strings.Join(parts, "_")))
	return Drawn{Name: name, Base: base}, f.Save(base)
}

func slug(s string) string {
	return strings.NewReplacer("/", "-", " ", "-").Replace(s)
}

func (d *drawer) heatmaps(name, label string, value func(table.SquareRow) float64, unit bool) ([]Drawn, error) {
	var out []Drawn
	for _, g := range d.groups() {
		h := plots.HeatmapData{Title: fmt.Sprintf("%s, %s", g.board, g.rule), Rows: g.rows, Cols: g.cols, Label: label, Highlight: -1}
		h.Values, h.Mask = make([]float64, g.rows*g.cols), make([]bool, g.rows*g.cols)
		for i := range h.Mask {
			h.Mask[i] = true
		}
		for _, s := range g.squares {
			i := int(s.StartRow)*g.cols + int(s.StartCol)
			h.Values[i], h.Mask[i] = value(s), false
		}
		if unit {
			lo, hi := 0.0, 1.0
			h.Min, h.Max = &lo, &hi
		}
		f, err := plots.Heatmap(h)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, name, g.board, g.rule)
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
	}
	return out, nil
}

// deadEnds draws, per (board, rule), where failed walks end: the share of
// all dead ends on each square, over all starts together.
func (d *drawer) deadEnds() ([]Drawn, error) {
	rows, _, err := table.ReadDeadEnds(filepath.Join(d.dir, results.DeadEndsFile))
	if err != nil {
		return nil, err
	}
	var out []Drawn
	for _, g := range d.groups() {
		vals := make([]float64, g.rows*g.cols)
		var total float64
		for _, r := range rows {
			if r.Board == g.board && r.Rule == g.rule {
				vals[int(r.EndRow)*g.cols+int(r.EndCol)] += float64(r.Count)
				total += float64(r.Count)
			}
		}
		if total == 0 {
			out = append(out, Drawn{Name: "deadend-heatmap", Note: fmt.Sprintf("%s %s: no failed walks, no dead ends to draw", g.board, g.rule)})
			continue
		}
		for i := range vals {
			vals[i] /= total
		}
		f, err := plots.Heatmap(plots.HeatmapData{Title: fmt.Sprintf("%s, %s: where walks get stuck", g.board, g.rule), Rows: g.rows, Cols: g.cols,
			Values: vals, Label: "share of dead ends", Format: "%.3f", Highlight: -1})
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "deadend-heatmap", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
		// And for one chosen start: the start square with the most failed
		// walks (the first in table order on a tie), outlined.
		one, err := d.deadEndsFrom(g, rows)
		if err != nil {
			return nil, err
		}
		out = append(out, one...)
	}
	return out, nil
}

func (d *drawer) deadEndsFrom(g group, rows []table.DeadEndRow) ([]Drawn, error) {
	var chosen table.SquareRow
	var most int64
	for _, s := range g.squares {
		if f := s.Walks - s.Successes - s.Stopped; f > most {
			chosen, most = s, f
		}
	}
	if most == 0 {
		return nil, nil
	}
	vals := make([]float64, g.rows*g.cols)
	for _, r := range rows {
		if r.Board == g.board && r.Rule == g.rule && r.Start == chosen.Start {
			vals[int(r.EndRow)*g.cols+int(r.EndCol)] += float64(r.Count) / float64(most)
		}
	}
	f, err := plots.Heatmap(plots.HeatmapData{Title: fmt.Sprintf("%s, %s: dead ends of walks from %s", g.board, g.rule, chosen.Start),
		Rows: g.rows, Cols: g.cols, Values: vals, Label: "share of its dead ends", Format: "%.3f",
		Highlight: int(chosen.StartRow)*g.cols + int(chosen.StartCol)})
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "deadend-heatmap", g.board, g.rule, "from-"+chosen.Start)
	if err != nil {
		return nil, err
	}
	return []Drawn{dr}, nil
}

// lengthDistributions draws, per (board, rule), the path-length
// distribution of each start class.
func (d *drawer) lengthDistributions() ([]Drawn, error) {
	rows, _, err := table.ReadLengths(filepath.Join(d.dir, results.LengthsFile))
	if err != nil {
		return nil, err
	}
	class := map[[4]string]string{}
	for _, s := range d.squares {
		class[[4]string{s.Board, s.Rule, s.Start, ""}] = s.StartClass
	}
	var out []Drawn
	for _, g := range d.groups() {
		counts := map[string]map[int]float64{}
		totals := map[string]float64{}
		for _, r := range rows {
			if r.Board != g.board || r.Rule != g.rule {
				continue
			}
			c := class[[4]string{r.Board, r.Rule, r.Start, ""}]
			if counts[c] == nil {
				counts[c] = map[int]float64{}
			}
			counts[c][int(r.Length)] += float64(r.Count)
			totals[c] += float64(r.Count)
		}
		var series []plots.Series
		for _, c := range sim.Classes {
			m := counts[c.String()]
			if len(m) == 0 {
				continue
			}
			s := plots.Series{Name: c.String()}
			ls := make([]int, 0, len(m))
			for l := range m {
				ls = append(ls, l)
			}
			sort.Ints(ls)
			for _, l := range ls {
				s.X = append(s.X, float64(l))
				s.Y = append(s.Y, m[l]/totals[c.String()])
			}
			series = append(series, s)
		}
		f, err := plots.LengthDistribution(series)
		if err != nil {
			return nil, err
		}
		f.Plot.Title.Text = fmt.Sprintf("%s, %s", g.board, g.rule)
		dr, err := d.save(f, "length-distribution", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
	}
	return out, nil
}

// sizeCurve draws success against n for the square boards, pooled over
// the start squares run, one line per rule.
func (d *drawer) sizeCurve() ([]Drawn, error) {
	conf, method := d.stats()
	type acc struct{ walks, succ int64 }
	byRule := map[string]map[int]*acc{}
	var rules []string
	for _, s := range d.squares {
		if s.Rows != s.Cols {
			continue
		}
		if byRule[s.Rule] == nil {
			byRule[s.Rule] = map[int]*acc{}
			rules = append(rules, s.Rule)
		}
		a := byRule[s.Rule][int(s.Rows)]
		if a == nil {
			a = &acc{}
			byRule[s.Rule][int(s.Rows)] = a
		}
		a.walks += s.Walks
		a.succ += s.Successes
	}
	var lines []plots.Line
	for _, r := range rules {
		l := plots.Line{Name: r}
		ns := make([]int, 0, len(byRule[r]))
		for n := range byRule[r] {
			ns = append(ns, n)
		}
		sort.Ints(ns)
		if len(ns) < 2 {
			continue
		}
		for _, n := range ns {
			a := byRule[r][n]
			iv := stats.Proportion{Successes: uint64(a.succ), Trials: uint64(a.walks)}.Interval(conf, method)
			l.N = append(l.N, float64(n))
			l.Rate = append(l.Rate, iv.Center)
			l.Lo = append(l.Lo, iv.Lo)
			l.Hi = append(l.Hi, iv.Hi)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return []Drawn{{Name: "size-curve", Note: "fewer than two square board sizes: no size curve"}}, nil
	}
	f, err := plots.SizeCurve(lines)
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "size-curve", d.m.Experiment)
	return []Drawn{dr}, err
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

// convergence draws the running success estimate of the first start
// square of each (board, rule) from the per-walk table, with the exact
// value from enumeration where the board is small enough.
func (d *drawer) convergence() ([]Drawn, error) {
	path := filepath.Join(d.dir, results.WalksFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return []Drawn{{Name: "convergence", Note: "no per-walk table (set outputs.walks: true): no convergence plot"}}, nil
	}
	walks, _, err := table.ReadWalks(path)
	if err != nil {
		return nil, err
	}
	conf, method := d.stats()
	var out []Drawn
	for _, g := range d.groups() {
		start := g.squares[0]
		var k, n uint64
		cd := plots.ConvergenceData{Title: fmt.Sprintf("%s, %s, from %s", g.board, g.rule, start.Start), Label: "success rate", Level: conf}
		next := 1.0
		for _, w := range walks {
			if w.Board != g.board || w.Rule != g.rule || w.Start != start.Start {
				continue
			}
			n++
			if w.Success {
				k++
			}
			if float64(n) >= next {
				iv := stats.Proportion{Successes: k, Trials: n}.Interval(conf, method)
				cd.Walks = append(cd.Walks, float64(n))
				cd.Estimate, cd.Lo, cd.Hi = append(cd.Estimate, iv.Center), append(cd.Lo, iv.Lo), append(cd.Hi, iv.Hi)
				next = math.Ceil(next * 1.25)
			}
		}
		if len(cd.Walks) < 2 {
			continue
		}
		if ex, ok := d.exact(g, start); ok {
			cd.Exact = &ex
			cd.ExactLabel = fmt.Sprintf("exact %.6f", ex)
		}
		f, err := plots.Convergence(cd)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "convergence", g.board, g.rule, start.Start)
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
	}
	return out, nil
}

// exact returns the exact success probability from start, when a small
// enumeration gives it.
func (d *drawer) exact(g group, s table.SquareRow) (float64, bool) {
	b, r, ok := d.boardRule(g)
	if !ok || b.Squares() > 64 || r.Kind == sim.Backtrack {
		return 0, false
	}
	e, err := sim.ExactWalk(context.Background(), b, r, b.Square(int(s.StartRow), int(s.StartCol)), 2_000_000)
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

// walks draws walk 0 from the first start square of each (board, rule),
// replayed from the seed: one walk, the same one the run made, as a figure
// and an animated GIF.
func (d *drawer) walks() ([]Drawn, error) {
	var out []Drawn
	for _, g := range d.groups() {
		b, r, ok := d.boardRule(g)
		if !ok {
			continue
		}
		start := b.Square(int(g.squares[0].StartRow), int(g.squares[0].StartCol))
		w, err := sim.NewWalker(b, r)
		if err != nil {
			return nil, err
		}
		w.KeepPaths(true)
		o := w.Walk(start, sim.NewKey(d.m.Seed, b, r, start), 0)
		wd := plots.WalkData{Title: fmt.Sprintf("%s, %s: walk 0 from %s (%d squares)", g.board, g.rule, b.SquareName(start), o.Length), Rows: b.Rows, Cols: b.Cols}
		for _, p := range o.Path {
			wd.Path = append(wd.Path, int(p))
		}
		f, err := plots.Walk(wd)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "walk", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		if b.Squares() <= 400 {
			if err := plots.WalkGIF(wd, dr.Base+".gif", 25); err != nil {
				return nil, err
			}
		}
		out = append(out, dr)
	}
	return out, nil
}

// ReportSection renders the figures as a markdown section for report.md,
// with paths relative to the result directory.
func ReportSection(dir string, drawn []Drawn) string {
	if len(drawn) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(FiguresHeading + "\n\n")
	for _, d := range drawn {
		if d.Base == "" {
			fmt.Fprintf(&b, "- %s: %s\n", d.Name, d.Note)
			continue
		}
		rel, err := filepath.Rel(dir, d.Base)
		if err != nil {
			rel = d.Base
		}
		rel = filepath.ToSlash(rel)
		fmt.Fprintf(&b, "![%s](%s.png)\n\n%s: [PNG](%s.png) · [SVG](%s.svg) · [PDF](%s.pdf)\n\n", filepath.Base(rel), rel, filepath.Base(rel), rel, rel, rel)
	}
	return b.String()
}

// FiguresHeading starts the figures section of report.md; UpdateReport
// replaces everything from it to the end.
const FiguresHeading = "## Figures"

// UpdateReport replaces the figures section of dir/report.md.
func UpdateReport(dir string, drawn []Drawn) error {
	path := filepath.Join(dir, results.ReportFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	if i := strings.Index(s, "\n"+FiguresHeading+"\n"); i >= 0 {
		s = s[:i+1]
	}
	if sec := ReportSection(dir, drawn); sec != "" {
		s = strings.TrimRight(s, "\n") + "\n\n" + sec
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
