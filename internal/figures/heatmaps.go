package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// rate is a per-square proportion of the squares table and its interval.
type rate struct {
	name  string // "success rate"
	count func(table.SquareRow) int64
	value func(table.SquareRow) (p, lo, hi float64)
	exact func(table.SquareRow) float64 // NaN where not computed
}

var (
	successRate = rate{"success rate", func(s table.SquareRow) int64 { return s.Successes },
		func(s table.SquareRow) (float64, float64, float64) { return s.SuccessRate, s.SuccessLo, s.SuccessHi },
		exactSuccess}
	closedRate = rate{"P(closed tour)", func(s table.SquareRow) int64 { return s.Closed },
		func(s table.SquareRow) (float64, float64, float64) { return s.ClosedRate, s.ClosedLo, s.ClosedHi },
		func(s table.SquareRow) float64 { return s.ExactClosed }}
)

// exactSuccess is a square's exact P(success), or the middle of its
// certified bounds (exact: bounds; lower < upper, as bounds that are not
// exact always are) where they are narrower than a pixel (tightBounds),
// so that they draw like an exact value; NaN otherwise.
func exactSuccess(s table.SquareRow) float64 {
	if !math.IsNaN(s.ExactSuccess) || !(s.ExactUpper > s.ExactLower && s.ExactUpper-s.ExactLower <= tightBounds) {
		return s.ExactSuccess
	}
	return (s.ExactLower + s.ExactUpper) / 2
}

// tightBounds is the widest certified bounds drawn as an exact value:
// under a pixel of an axis 0.1 wide over 1000 pixels, narrower than any
// the figures draw.
const tightBounds = 1e-4

// Thresholds of the automatic choices (figure_options.heatmap).
const (
	// rareRate: below this pooled success rate the success map would read
	// 0 nearly everywhere, so metric auto maps mean path length instead.
	rareRate = 0.01
	// commonRate: at or above it (with some failures) failure_view auto
	// adds the failure rate on a log scale, where the squares differ by
	// factors that a success scale bunches under 100 %.
	commonRate = 0.9
)

// rateHeatmaps draws, per (board, rule), a rate by start square on a
// colour scale over the data's range, in percent, marking the squares whose
// interval excludes the board's pooled rate and hatching those that cannot
// start a tour; plus the failure view and the mean-length fallback that
// the figure options ask for.
func (d *drawer) rateHeatmaps(name string, r rate) ([]Drawn, error) {
	o := d.options().Heatmap
	var out []Drawn
	for _, g := range d.groups() {
		if r.name == closedRate.name && g.rows*g.cols%2 == 1 {
			// A closed tour returns to its start's colour after an even
			// number of moves: none exists on an odd number of squares.
			// Zero by structure, not by measurement: not a colour scale.
			out = append(out, Drawn{Name: name, Note: fmt.Sprintf("%s %s: not drawn: a board of %d squares (odd) has no closed tour, so P(closed) is 0 from every square by structure",
				g.board, g.rule, g.rows*g.cols)})
			continue
		}
		pooled := g.pooled(r)
		meanLength, failure := views(o, name, g, r, pooled)
		if meanLength {
			note := "success " + g.pooledNote(r, pooled)
			if d.drawing("length-heatmap") && tooLarge(g.rows, g.cols) == "" {
				// The stand-in is that figure: not drawn twice.
				out = append(out, Drawn{Name: name, Note: fmt.Sprintf("%s %s: success rate not mapped (%s, which would read 0 nearly everywhere); the mean path length is in length-heatmap_%s",
					g.board, g.rule, note, slug(g.board+"_"+g.rule))})
				continue
			}
			dr, err := d.meanLengthMap(name, g, note)
			if err != nil {
				return nil, err
			}
			out = append(out, dr)
			continue
		}
		h := d.rateMap(g, r, pooled)
		h.Title = fmt.Sprintf("%s on %s: %s by start square", g.rule, g.board, r.name)
		setScale(&h, o.Scale, o.Range)
		dr, err := d.heatmap(h, name, g.board, g.rule)
		if err != nil {
			return nil, err
		}
		dr.Caption = d.rateCaption(g, r, h)
		out = append(out, dr)
		if failure {
			h := d.rateMap(g, r, pooled)
			h.Failure = true
			h.Title = fmt.Sprintf("%s on %s: failure rate by start square", g.rule, g.board)
			h.Label = "failure rate (1 − success)"
			dr, err := d.heatmap(h, name, g.board, g.rule, "failure")
			if err != nil {
				return nil, err
			}
			dr.Caption = d.rateCaption(g, r, h)
			out = append(out, dr)
		}
	}
	return out, nil
}

// views decides what a rate heatmap shows of g: the mean path length
// instead of the rate (success-heatmap only), and whether the failure view
// is drawn too, from the options and the data (see rareRate, commonRate).
func views(o config.HeatmapOptions, name string, g group, r rate, pooled float64) (meanLength, failure bool) {
	// With exact values the success map draws them, however rare: they
	// resolve what no number of walks would (the 5x5 random walk).
	meanLength = name == "success-heatmap" && (o.Metric == "mean-length" || o.Metric != "success" && pooled < rareRate && !g.allExact(r))
	failure = !meanLength && (o.FailureView == "on" || o.FailureView != "off" && pooled >= commonRate && g.mostFail(r))
	return meanLength, failure
}

// rateMap is the heatmap of rate r on g's board, without scale or title:
// exact values where every square has one; else the estimates, pooled over
// the squares equal under the board's symmetry when the options and the
// rule allow (d.pool), with their intervals, so that the colour scale
// and the washed-out squares follow what the walks resolve.
func (d *drawer) rateMap(g group, r rate, pooled float64) plots.HeatmapData {
	conf, method := d.stats()
	n := g.rows * g.cols
	h := plots.HeatmapData{Rows: g.rows, Cols: g.cols, Label: r.name, Highlight: -1, Percent: true,
		Values: make([]float64, n), Mask: make([]bool, n)}
	iv := &plots.IntervalCue{Pooled: pooled, Lo: make([]float64, n), Hi: make([]float64, n), Level: conf}
	un := &plots.Uncertainty{Lo: make([]float64, n), Hi: make([]float64, n), Level: conf}
	for i := range h.Mask {
		h.Mask[i] = true
	}
	exact := g.allExact(r)
	units := g.units(d.pool(g) && !exact)
	for _, u := range units {
		p, lo, hi := u.rate(r, conf, method)
		for _, s := range u {
			i := int(s.StartRow)*g.cols + int(s.StartCol)
			h.Values[i], un.Lo[i], un.Hi[i] = p, lo, hi
			if exact { // what is known is drawn, not its noisy estimate
				h.Values[i] = r.exact(s)
			}
			h.Mask[i] = false
		}
	}
	h.Label, h.Note = r.name, g.walksNote(r, pooledSquares(units))
	if g.deterministic(r) { // one walk a square: it tours or not, two colours
		h.Binary = true
		h.Note = "one walk a square (deterministic rule)"
	}
	if !g.deterministic(r) {
		h.Interval = iv
		d.markAgainstOthers(g, r, units, iv)
		if !exact {
			h.Uncertainty = un
		}
	}
	if ns := g.noStart(r); ns != nil {
		h.NoStart = ns
		h.NoStartNote = "cannot start a tour (odd board: not the corners' colour)"
	}
	if exact && !g.deterministic(r) && d.exactFill(g, r, &h) > 0 {
		// Every square is known: the marks compare each with the rest of
		// the board, not with the squares that happened to be run.
		markExactCells(&h)
		h.Note += "; unrun squares enumerated too"
	} else if d.pool(g) && mirrorFill(g, &h, h.Interval, h.Uncertainty) > 0 {
		h.Note += "; unrun squares mirrored"
	}
	if exact && !h.Binary && snapBinary(&h) {
		// Exact values that are all 0 or 1 (the rule tours from every
		// square, or never): two colours, not a continuous bar that
		// suggests a range no square has.
		h.Binary = true
	}
	return h
}

// exactTolerance is how far from 0 or 1 an exact probability may be and
// still be 0 or 1: the enumeration sums path probabilities in floating
// point, so a certain success can come out as 1 − 2⁻⁵².
const exactTolerance = 1e-12

// snapBinary reports whether every value h draws is 0 or 1 up to
// exactTolerance, and if so sets them to exactly 0 or 1.
func snapBinary(h *plots.HeatmapData) bool {
	skip := func(i int) bool { return h.Mask != nil && h.Mask[i] || h.NoStart != nil && h.NoStart[i] }
	for i, v := range h.Values {
		if !skip(i) && math.Abs(v) > exactTolerance && math.Abs(1-v) > exactTolerance {
			return false
		}
	}
	for i, v := range h.Values {
		if !skip(i) {
			h.Values[i] = math.Round(v)
		}
	}
	return true
}

// pool reports whether g's estimates are pooled over the board's
// symmetry: figure option heatmap.pool_symmetric (auto by default) and a
// symmetric rule.
func (d *drawer) pool(g group) bool {
	return d.options().Heatmap.PoolSymmetric != "off" && symmetricRule(g.rule)
}

// setScale applies the scale and fixed range of the figure options.
func setScale(h *plots.HeatmapData, scale string, rng []float64) {
	switch scale {
	case "linear":
		h.Scale = plots.ScaleLinear
	case "log":
		h.Scale = plots.ScaleLog
	}
	if len(rng) == 2 {
		h.Min, h.Max = &rng[0], &rng[1]
	}
}

// meanLengthMap maps the mean path length of g's walks, for a rule whose
// success rate is too small to map.
func (d *drawer) meanLengthMap(name string, g group, note string) (Drawn, error) {
	h := d.lengthMap(g)
	h.Title = fmt.Sprintf("%s on %s: mean path length (%s)", g.rule, g.board, note)
	// Named for what it draws: a file named success-heatmap holds rates.
	dr, err := d.heatmap(h, "length-heatmap", g.board, g.rule)
	dr.Name = name
	dr.Caption = lengthCaption(g, h, pooledSquares(g.units(d.pool(g)))) + " Drawn instead of the success rate (" + note + "), which would read 0 nearly everywhere."
	return dr, err
}

// lengthHeatmaps draws the mean path length by start square.
func (d *drawer) lengthHeatmaps() ([]Drawn, error) {
	var out []Drawn
	for _, g := range d.groups() {
		h := d.lengthMap(g)
		h.Title = fmt.Sprintf("%s on %s: mean path length by start square", g.rule, g.board)
		dr, err := d.heatmap(h, "length-heatmap", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		dr.Caption = lengthCaption(g, h, pooledSquares(g.units(d.pool(g))))
		out = append(out, dr)
	}
	return out, nil
}

// lengthMap maps the mean path length by start square, pooled over the
// board's symmetry like the rates (see rateMap), with each mean's
// interval so that noise is washed out, not drawn as structure.
func (d *drawer) lengthMap(g group) plots.HeatmapData {
	conf, _ := d.stats()
	n := g.rows * g.cols
	h := plots.HeatmapData{Rows: g.rows, Cols: g.cols, Highlight: -1, Values: make([]float64, n), Mask: make([]bool, n)}
	un := &plots.Uncertainty{Lo: make([]float64, n), Hi: make([]float64, n), Level: conf}
	for i := range h.Mask {
		h.Mask[i] = true
	}
	if exact := d.exactMeanLengths(g); exact != nil {
		// E[length] by enumeration: what is known is drawn, not its
		// estimate from a few hundred walks.
		for i, s := range g.squares {
			at := int(s.StartRow)*g.cols + int(s.StartCol)
			h.Values[at], h.Mask[at] = exact[i], false
		}
		h.Label, h.Note = fmt.Sprintf("mean path length (squares, of %d)", n), "exact E[length] (enumeration)"
		if d.pool(g) {
			mirrorFill(g, &h, nil, nil)
		}
		return h
	}
	units := g.units(d.pool(g))
	for _, u := range units {
		m, lo, hi := u.lengthMean(conf)
		for _, s := range u {
			i := int(s.StartRow)*g.cols + int(s.StartCol)
			h.Values[i], un.Lo[i], un.Hi[i], h.Mask[i] = m, lo, hi, false
		}
	}
	note := g.walksPerSquare()
	if !g.deterministicLength() {
		h.Uncertainty = un
	} else {
		note += " (deterministic rule: one length each)"
	}
	if pooledSquares(units) {
		note += ", symmetric squares pooled"
	}
	h.Label, h.Note = fmt.Sprintf("mean path length (squares, of %d)", n), note
	if d.pool(g) && mirrorFill(g, &h, nil, h.Uncertainty) > 0 {
		h.Note += "; unrun squares mirrored"
	}
	return h
}

// exactMeanLengths returns, per square of g (in g.squares order), E[path
// length] from the lengths table's exact shares (Σ length · share), or nil
// unless every square has them.
func (d *drawer) exactMeanLengths(g group) []float64 {
	shares, err := d.exactShares()
	if err != nil {
		return nil
	}
	out := make([]float64, len(g.squares))
	for i, s := range g.squares {
		m, ok := shares[[3]string{s.Board, s.Rule, s.Start}]
		if !ok {
			return nil
		}
		out[i] = m
	}
	return out
}

// exactShares reads, once, the lengths table's exact E[length] of every
// square that has exact shares for all its lengths.
func (d *drawer) exactShares() (map[[3]string]float64, error) {
	d.lengthsOnce.Do(func() {
		rows, err := results.ReadOf(d.dir, results.LengthsFile, d.m, table.Read[table.LengthRow])
		if err != nil {
			d.lengthsErr = err
			return
		}
		mean, none := map[[3]string]float64{}, map[[3]string]bool{}
		for _, r := range rows {
			k := [3]string{r.Board, r.Rule, r.Start}
			if math.IsNaN(r.ExactShare) {
				none[k] = true
				continue
			}
			mean[k] += float64(r.Length) * r.ExactShare
		}
		for k := range none {
			delete(mean, k)
		}
		d.exactMean = mean
	})
	return d.exactMean, d.lengthsErr
}

// deterministicLength reports whether every square's walks all have one
// length (a rule without random choices): no interval to show.
func (g group) deterministicLength() bool {
	for _, s := range g.squares {
		if s.LengthMin != s.LengthMax {
			return false
		}
	}
	return true
}

func (d *drawer) heatmap(h plots.HeatmapData, name string, parts ...string) (Drawn, error) {
	if note := tooLarge(h.Rows, h.Cols); note != "" {
		return Drawn{Name: name, Note: strings.Join(parts, " ") + ": " + note}, nil
	}
	if dataHook != nil {
		dataHook(name+"_"+slug(strings.Join(parts, "_")), h)
	}
	f, err := plots.Heatmap(h)
	if err != nil {
		return Drawn{}, err
	}
	return d.save(f, name, parts...)
}

// pooledNote writes the pooled rate for a title, saying over which
// squares: on an odd board the squares of the corners' colour (those that
// can start a tour), with the uniform start's rate beside it (the boards
// table's).
func (g group) pooledNote(r rate, pooled float64) string {
	ns := g.noStart(r)
	if ns == nil {
		return percent(pooled)
	}
	if g.pooledAll(r) == 0 {
		return "0 %: no walk toured"
	}
	return fmt.Sprintf("%s over the %d squares of the corners' colour; %s from a uniform start", percent(pooled), len(g.squares)-trues(ns), percent(g.pooledAll(r)))
}

// pooled is g's rate from a uniform start among the squares that can start
// a tour (leaving out noStart), pooled as the tables pool (startsRate), so
// that on odd boards the squares that can are compared with each other,
// not with a rate halved by parity.
func (g group) pooled(r rate) float64 {
	p := startsRate(g.startable(r), r, 0.95, stats.Wilson).Center
	if math.IsNaN(p) {
		return 0
	}
	return p
}

// pooledAll is g's rate from a uniform start among all its squares: the
// boards table's rate.
func (g group) pooledAll(r rate) float64 {
	p := startsRate(g.squares, r, 0.95, stats.Wilson).Center
	if math.IsNaN(p) {
		return 0
	}
	return p
}

// deterministic reports whether every square's rate is 0 or 1, as for a
// rule without random choices: its walks from a square are all one walk,
// and an interval over them says nothing.
func (g group) deterministic(r rate) bool {
	if !deterministicRule(g.rule) {
		// A random rule run one walk a square is a sample of one, pooled
		// over symmetric squares (1/2, 1/4…): not two colours.
		return false
	}
	for _, s := range g.squares {
		// One walk a square: 40 walks without a success are a sample,
		// with an interval, not a deterministic 0.
		if k := r.count(s); s.Walks != 1 || k != 0 && k != s.Walks {
			return false
		}
	}
	return true
}

// mostFail reports whether at least half of g's squares have some failures
// (and some successes), so that failure rates on a log scale show a
// pattern rather than one square.
func (g group) mostFail(r rate) bool {
	n := 0
	for _, s := range g.squares {
		if k := r.count(s); k > 0 && k < s.Walks {
			n++
		}
	}
	return 2*n >= len(g.squares)
}

// noStart marks, on a board with an odd number of squares, the squares not
// of the corners' colour: a knight alternates colours, so an open tour of
// an odd number of squares starts and ends on the majority colour, the
// corners' (TestNoStartMatchesExact holds this to exact enumeration). It
// marks a square only where the table agrees (no successes), so a figure
// never hides data; nil when no square qualifies.
func (g group) noStart(r rate) []bool {
	if g.rows%2 == 0 || g.cols%2 == 0 {
		return nil
	}
	var out []bool
	for _, s := range g.squares {
		if !minority(int(s.StartRow), int(s.StartCol)) || r.count(s) > 0 {
			continue
		}
		if out == nil {
			out = make([]bool, g.rows*g.cols)
		}
		out[int(s.StartRow)*g.cols+int(s.StartCol)] = true
	}
	return out
}

// minority reports whether square (row, col) is not of a1's colour (on an
// odd board, the colour no open tour can start on).
func minority(row, col int) bool { return (row+col)%2 == 1 }

// percent writes a rate for a title: "97.90 %", "0.0004 %", "0 %".
func percent(p float64) string {
	switch {
	case p == 0:
		return "0 %"
	case p >= 0.01:
		return fmt.Sprintf("%.2f %%", 100*p)
	}
	v, _ := strconv.ParseFloat(fmt.Sprintf("%.2g", 100*p), 64) // two significant digits, never in e-notation
	return strconv.FormatFloat(v, 'f', -1, 64) + " %"
}

// markAgainstOthers sets the marks' intervals and references: each unit
// (a square, or the squares of one orbit pooled) is compared with the
// pooled rate of the *other* squares of its board (it is not tested
// against itself). With exact values for every square the comparison is
// exact: a square is marked when its value differs from the others' mean
// beyond rounding, so squares equal by the board's symmetry get equal
// marks. Otherwise each unit's interval is widened to the Bonferroni level
// over the k units compared, so that all k marks hold at once with the
// run's confidence (64 tests at 95 % each would mark about three squares
// of a uniform board by chance).
func (d *drawer) markAgainstOthers(g group, r rate, units []unit, iv *plots.IntervalCue) {
	conf, method := d.stats()
	ns := g.noStart(r)
	out := func(s table.SquareRow) bool { return ns != nil && ns[int(s.StartRow)*g.cols+int(s.StartCol)] }
	iv.Others = make([]float64, g.rows*g.cols)
	for i := range iv.Others {
		iv.Others[i] = iv.Pooled
	}
	var in []unit
	squares := 0
	for _, u := range units {
		if !out(u[0]) { // a unit is one orbit: all its squares are of one colour
			in = append(in, u)
			squares += len(u)
		}
	}
	if squares < 2 {
		return
	}
	if g.allExact(r) {
		markExact(g, r, in, squares, iv)
		return
	}
	level := stats.BonferroniLevel(conf, len(in))
	for j, u := range in {
		sum := startsRate(u, r, level, method)
		var rest []table.SquareRow
		for i, v := range in {
			if i != j {
				rest = append(rest, v...)
			}
		}
		others := startsRate(rest, r, conf, method).Center
		for _, s := range u {
			i := int(s.StartRow)*g.cols + int(s.StartCol)
			if !math.IsNaN(others) {
				iv.Others[i] = others
			}
			iv.Lo[i], iv.Hi[i] = sum.Lo, sum.Hi
		}
	}
	iv.Level = level
	iv.Legend = fmt.Sprintf("above / below other squares (%s intervals, Bonferroni)", levelText(level))
}

// markExact compares each square's exact value with the mean of the
// other squares' (squares of them in all).
func markExact(g group, r rate, in []unit, squares int, iv *plots.IntervalCue) {
	sum := 0.0
	for _, u := range in {
		for _, s := range u {
			sum += r.exact(s)
		}
	}
	for _, u := range in {
		for _, s := range u {
			i := int(s.StartRow)*g.cols + int(s.StartCol)
			x := r.exact(s)
			others := (sum - x) / float64(squares-1)
			iv.Others[i], iv.Lo[i], iv.Hi[i] = others, x, x
			if math.Abs(x-others) <= 1e-9 { // equal up to the enumeration's rounding: no mark
				iv.Lo[i], iv.Hi[i] = others, others
			}
		}
	}
	iv.Legend = "exact value above / below the mean of the other squares"
}

// allExact reports whether every square of g has an exact value of r.
func (g group) allExact(r rate) bool {
	for _, s := range g.squares {
		if math.IsNaN(r.exact(s)) {
			return false
		}
	}
	return len(g.squares) > 0
}

// walksNote says what a rate heatmap's values rest on: exact values, or
// the walks per square (a range where squares differ), so that a reader
// can judge what the colours resolve.
func (g group) walksNote(r rate, pooled bool) string {
	if g.allExact(r) {
		return "exact (enumeration)"
	}
	if pooled {
		return g.walksPerSquare() + ", symmetric squares pooled"
	}
	return g.walksPerSquare()
}

// walksPerSquare is "300 walks a square", or a range where squares differ.
func (g group) walksPerSquare() string {
	lo, hi := int64(-1), int64(0)
	for _, s := range g.squares {
		if lo < 0 || s.Walks < lo {
			lo = s.Walks
		}
		hi = max(hi, s.Walks)
	}
	unit := "walks"
	if hi == 1 {
		unit = "walk"
	}
	if lo == hi {
		return fmt.Sprintf("%s %s a square", count(float64(lo)), unit)
	}
	return fmt.Sprintf("%s–%s walks a square", count(float64(lo)), count(float64(hi)))
}

// exactFillLimit bounds the enumeration exactFill runs per square (as the
// convergence figure's exact value): boards of at most 64 squares, where a
// square of Warnsdorff's rule takes milliseconds.
const exactFillLimit = 2_000_000

// exactFill computes, where the run's squares all have exact values of r
// and the board is small (d.exact's bounds), the exact value of every
// square not run, and draws it; it returns how many it filled (0 where
// any one cannot be enumerated: then none is).
func (d *drawer) exactFill(g group, r rate, h *plots.HeatmapData) int {
	b, rule, ok := d.boardRule(g)
	if !ok || b.Squares() > 64 || rule.Kind == sim.Backtrack {
		return 0
	}
	vals := map[int]float64{}
	for i, masked := range h.Mask {
		if !masked {
			continue
		}
		x, err := exact.Walk(d.ctx, b, rule, b.Square(i/g.cols, i%g.cols), exactFillLimit)
		if err != nil {
			return 0
		}
		vals[i] = x.PSuccess
		if r.name == closedRate.name {
			vals[i] = x.PClosed
		}
	}
	for i, v := range vals {
		h.Values[i], h.Mask[i] = v, false
		if h.NoStart != nil && minority(i/g.cols, i%g.cols) && v == 0 {
			h.NoStart[i] = true
		}
	}
	return len(vals)
}

// markExactCells sets the marks of a map of exact values over every cell
// it draws: each value against the mean of the other cells' (hatched
// cells left out), marked where they differ beyond the enumeration's
// rounding.
func markExactCells(h *plots.HeatmapData) {
	iv := h.Interval
	if iv == nil {
		return
	}
	n := len(h.Values)
	iv.Lo, iv.Hi, iv.Others = make([]float64, n), make([]float64, n), make([]float64, n)
	in := func(i int) bool { return !h.Mask[i] && (h.NoStart == nil || !h.NoStart[i]) }
	sum, k := 0.0, 0
	for i, v := range h.Values {
		if in(i) {
			sum, k = sum+v, k+1
		}
	}
	for i, x := range h.Values {
		if !in(i) || k < 2 {
			continue
		}
		others := (sum - x) / float64(k-1)
		iv.Others[i], iv.Lo[i], iv.Hi[i] = others, x, x
		if math.Abs(x-others) <= 1e-9 {
			iv.Lo[i], iv.Hi[i] = others, others
		}
	}
	iv.Legend = "exact value above / below the mean of the other squares"
}
