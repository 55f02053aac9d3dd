package figures

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// deadEnds draws, per (board, rule), where failed walks end: the share of
// all dead ends on each square, over all starts together; then the same
// for the start with the most failures. Both are pooled under the board's
// symmetry as the success maps are (heatmap.pool_symmetric, symmetric
// rules), where that leaves the expected map unchanged.
func (d *drawer) deadEnds() ([]Drawn, error) {
	rows, _, err := table.Read[table.DeadEndRow](filepath.Join(d.dir, results.DeadEndsFile))
	if err != nil {
		return nil, err
	}
	var out []Drawn
	for _, g := range d.groups() {
		if note := tooLarge(g.rows, g.cols); note != "" {
			out = append(out, Drawn{Name: "deadend-heatmap", Note: g.board + " " + g.rule + ": " + note})
			continue
		}
		m := d.deadEndMap(g, rows)
		if m.total == 0 {
			out = append(out, Drawn{Name: "deadend-heatmap", Note: fmt.Sprintf("%s %s: no failed walks, no dead ends to draw", g.board, g.rule)})
			continue
		}
		dr, err := d.drawDeadEnds(g, m, fmt.Sprintf("%s on %s: where failed walks end", g.rule, g.board), -1, "share of dead ends")
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
		one, err := d.deadEndsFrom(g, rows)
		if err != nil {
			return nil, err
		}
		out = append(out, one...)
	}
	return out, nil
}

// deadEndsFrom draws the dead ends of one chosen start, outlined: the
// start square with the most failed walks (the first in table order on a
// tie); pooled, the orbit of starts with the most failed walks a start,
// drawn from its first square, onto which the others' are mapped.
func (d *drawer) deadEndsFrom(g group, rows []table.DeadEndRow) ([]Drawn, error) {
	var chosen table.SquareRow
	most := 0.0
	// On a board of an odd number of squares only the corners' colour can
	// start a tour; the other squares fail every walk by structure, so the
	// start drawn is chosen among the corners' colour (any, where none of
	// those failed).
	odd := g.rows%2 == 1 && g.cols%2 == 1
	units := g.units(d.pool(g))
	tourColour := slices.ContainsFunc(units, func(u unit) bool {
		return !minority(int(u[0].StartRow), int(u[0].StartCol)) && slices.ContainsFunc(u, func(s table.SquareRow) bool { return s.Walks-s.Successes-s.Stopped > 0 })
	})
	for _, u := range units {
		if odd && tourColour && minority(int(u[0].StartRow), int(u[0].StartCol)) {
			continue
		}
		var f int64
		for _, s := range u {
			f += s.Walks - s.Successes - s.Stopped
		}
		if mean := float64(f) / float64(len(u)); mean > most {
			chosen, most = u[0], mean
		}
	}
	if most == 0 {
		return nil, nil
	}
	m := d.deadEndMapFrom(g, rows, chosen)
	title := fmt.Sprintf("%s on %s: where failed walks from %s end", g.rule, g.board, chosen.Start)
	at := int(chosen.StartRow)*g.cols + int(chosen.StartCol)
	dr, err := d.drawDeadEnds(g, m, title, at, "share of its dead ends")
	if err != nil {
		return nil, err
	}
	return []Drawn{dr}, nil
}

// deadEndMap is what a dead-end map draws: per square, the failed walks
// ending there (averaged over the square's symmetric images when pooled,
// so possibly fractional) and their total; shares are counts / total.
type deadEndMap struct {
	counts []float64
	total  float64
	// raw is, per square, the failed walks that ended there, whole numbers
	// (unweighted, not averaged over images): the counts the map prints.
	raw []float64
	// events is, per square, the dead ends its share rests on: its own,
	// or its orbit's where shares are pooled over images.
	events []float64
	// pooled is the number of symmetries averaged over (1: not pooled);
	// starts, for a map from one start, the run starts pooled into it.
	pooled int
	starts []string
	from   string
	// weighted: starts' walks were weighed to one start each (startWeights).
	weighted bool
}

// deadEndMap is the map over all starts of g, each start weighing as one
// start, as the boards table pools a uniform start (where a sequential run
// stopped its squares apart, a start's counts are scaled by the mean walks
// over its own, so that the start that ran longest does not draw the map;
// with equal walks every weight is 1). Pooling it is right only when the
// mixture of starts is itself symmetric (every start's images run): then
// every symmetry leaves the expected map unchanged, and averaging a
// square's count over its images keeps the expectation and cuts the noise.
func (d *drawer) deadEndMap(g group, rows []table.DeadEndRow) deadEndMap {
	n := g.rows * g.cols
	weight := startWeights(g)
	raw, walks := make([]float64, n), make([]float64, n)
	var failed, weighed float64
	for _, r := range rows {
		if r.Board == g.board && r.Rule == g.rule {
			raw[int(r.EndRow)*g.cols+int(r.EndCol)] += float64(r.Count) * weight[r.Start]
			walks[int(r.EndRow)*g.cols+int(r.EndCol)] += float64(r.Count)
			failed += float64(r.Count)
			weighed += float64(r.Count) * weight[r.Start]
		}
	}
	m := deadEndMap{counts: raw, pooled: 1, raw: walks, events: walks}
	for _, w := range weight {
		m.weighted = m.weighted || w != 1
	}
	if m.weighted && weighed > 0 { // rescaled to the failed walks there were: shares unchanged
		for e := range raw {
			raw[e] *= failed / weighed
		}
	}
	for _, v := range raw {
		m.total += v
	}
	if !d.pool(g) || !symmetricStarts(g) {
		return m
	}
	syms := sim.MustBoard(g.rows, g.cols).Symmetries()
	m.counts, m.pooled, m.events = make([]float64, n), len(syms), make([]float64, n)
	for e := range raw {
		images := map[int32]bool{}
		for _, p := range syms {
			m.counts[e] += raw[p[e]]
			if !images[p[e]] {
				images[p[e]] = true
				m.events[e] += walks[p[e]]
			}
		}
		m.counts[e] /= float64(len(syms))
	}
	return m
}

// startWeights is, per start square of g, the weight of one of its walks
// in a map of all starts: the mean walks a start over its own walks.
func startWeights(g group) map[string]float64 {
	var total float64
	for _, s := range g.squares {
		total += float64(s.Walks)
	}
	mean := total / float64(len(g.squares))
	out := map[string]float64{}
	for _, s := range g.squares {
		out[s.Start] = mean / float64(s.Walks)
	}
	return out
}

// symmetricStarts reports whether every start of g has all its images
// under the board's symmetries among the starts (their walks weigh as one
// start each: startWeights).
func symmetricStarts(g group) bool {
	run := map[int]bool{}
	for _, s := range g.squares {
		run[int(s.StartRow)*g.cols+int(s.StartCol)] = true
	}
	for _, p := range sim.MustBoard(g.rows, g.cols).Symmetries() {
		for sq := range run {
			if !run[int(p[sq])] {
				return false
			}
		}
	}
	return true
}

// deadEndMapFrom is the map of the walks from start. Pooled, every
// symmetry T of the board maps the start s' = T⁻¹(start), when it was
// run, onto start, and its dead ends e onto T(e): each such start walks
// the same chain up to T, so their dead ends, mapped, are draws from the
// one distribution. A start the symmetry fixes (a1 under the diagonal
// reflection) is met once per symmetry fixing it, so counts and total
// are divided by their number: counts stay failed walks.
func (d *drawer) deadEndMapFrom(g group, rows []table.DeadEndRow, start table.SquareRow) deadEndMap {
	n := g.rows * g.cols
	at := int(start.StartRow)*g.cols + int(start.StartCol)
	syms := [][]int32{nil} // the identity
	if d.pool(g) {
		syms = sim.MustBoard(g.rows, g.cols).Symmetries()
	}
	from := map[int][][]int32{} // run start → the symmetries mapping it onto at
	fixed := 0
	for _, p := range syms {
		src := at
		if p != nil {
			src = inverseImage(p, at)
			if src == at {
				fixed++
			}
		} else {
			fixed++
		}
		from[src] = append(from[src], p)
	}
	m := deadEndMap{counts: make([]float64, n), raw: make([]float64, n), from: start.Start, pooled: fixed}
	for _, s := range g.squares {
		sq := int(s.StartRow)*g.cols + int(s.StartCol)
		if _, ok := from[sq]; ok {
			m.starts = append(m.starts, s.Start)
		}
	}
	for _, r := range rows {
		if r.Board != g.board || r.Rule != g.rule {
			continue
		}
		e := int(r.EndRow)*g.cols + int(r.EndCol)
		if ps := from[int(r.StartRow)*g.cols+int(r.StartCol)]; len(ps) > 0 {
			// The printed count: each walk once, mapped by one symmetry.
			to := e
			if ps[0] != nil {
				to = int(ps[0][e])
			}
			m.raw[to] += float64(r.Count)
		}
		for _, p := range from[int(r.StartRow)*g.cols+int(r.StartCol)] {
			to := e
			if p != nil {
				to = int(p[e])
			}
			m.counts[to] += float64(r.Count) / float64(fixed)
			m.total += float64(r.Count) / float64(fixed)
		}
	}
	// A share rests on the walks that ended on the square's images under
	// the symmetries fixing the start (each image once).
	m.events = make([]float64, n)
	for e := range m.events {
		images := map[int]bool{}
		for _, p := range from[at] {
			to := e
			if p != nil {
				to = int(p[e])
			}
			if !images[to] {
				images[to] = true
				m.events[e] += m.raw[to]
			}
		}
	}
	return m
}

// inverseImage is the square that permutation p maps onto sq.
func inverseImage(p []int32, sq int) int {
	for i, v := range p {
		if int(v) == sq {
			return i
		}
	}
	panic("figures: a symmetry that is not a permutation")
}

// drawDeadEnds draws m with title, outlining square highlight (-1: none).
func (d *drawer) drawDeadEnds(g group, m deadEndMap, title string, highlight int, label string) (Drawn, error) {
	vals := make([]float64, len(m.counts))
	for i, c := range m.counts {
		vals[i] = c / m.total
	}
	parts := []string{"deadend-heatmap", g.board, g.rule}
	if m.from != "" {
		parts = append(parts, "from-"+m.from)
	}
	h := plots.HeatmapData{Title: title, Rows: g.rows, Cols: g.cols,
		Values: vals, Label: label, Percent: true, Scale: shareScale(vals), Format: shareFormat(vals), Highlight: highlight,
		Counts: rareCounts(m.raw, m.total), Note: deadEndNote(m)}
	if m.from != "" && m.pooled > 1 {
		// Shares averaged over the symmetries fixing the start: a square's
		// walks are not its share's, so no count is printed.
		h.Counts = nil
	}
	// Each share is an estimate from the failed walks: drawn with its
	// interval, so that a square whose share the walks do not resolve is
	// washed out, not drawn as structure (counts pooled over symmetric
	// squares may be fractional: rounded for the interval).
	conf, method := d.stats()
	un := &plots.Uncertainty{Lo: make([]float64, len(vals)), Hi: make([]float64, len(vals)), Level: conf}
	for i, c := range m.counts {
		un.Lo[i], un.Hi[i] = results.ShareInterval(c, m.total, float64(m.pooled), conf, method)
		if c > 0 && m.events[i] < minDeadEnds-1e-9 {
			// Fewer than minDeadEnds walks ended here (over the images
			// pooled): a share of 3 walks in 100,000 is not resolved
			// however wide the log scale, so the cell is washed out and
			// sets no end of the scale.
			un.Lo[i], un.Hi[i] = 0, 1
		}
	}
	h.Uncertainty = un
	if binaryValues(vals) { // one failed walk: its dead end is one square
		h.Binary, h.Scale, h.Counts, h.Uncertainty = true, plots.ScaleLinear, nil, nil
	}
	if !h.Binary {
		// A square where no walk ended is hatched with a legend, not given
		// the lowest colour (a log scale has no 0; on a linear one the
		// darkest colour would read as a small share).
		for i, v := range vals {
			if v == 0 {
				if h.NoStart == nil {
					h.NoStart = make([]bool, len(vals))
				}
				h.NoStart[i] = true
			}
		}
		h.NoStartNote = "0: no walk ended here"
	}
	dr, err := d.heatmap(h, parts[0], parts[1:]...)
	if err != nil {
		return Drawn{}, err
	}
	dr.Caption = deadEndCaption(g, m)
	return dr, nil
}

// minDeadEnds is the fewest dead ends a square's share may rest on and be
// drawn as resolved: with 10 the share's 95 % interval spans about a
// factor of 3.5 (Wilson); with 5 a factor of 7.
const minDeadEnds = 10

// rareCount is the number of dead ends on a board up to which the map
// writes each square's count under its share: with few events a share
// of "2.5 %" is 4 walks, and a reader must see that.
const rareCount = 10_000

// rareCounts returns counts when the total is rare enough to show them.
func rareCounts(counts []float64, total float64) []float64 {
	if total > rareCount {
		return nil
	}
	return counts
}

// deadEndNote states how many dead ends a map shares out (from how many
// starts, when symmetric starts are pooled into one) and, with few, that
// the counts are in brackets: a mean over symmetric squares for the map
// of all starts pooled.
func deadEndNote(m deadEndMap) string {
	s := fmt.Sprintf("of %s failed walks", countOf(m.total))
	if len(m.starts) > 1 {
		s += fmt.Sprintf(" from %d starts", len(m.starts))
	}
	if m.total <= rareCount && !(m.from != "" && m.pooled > 1) {
		s += "; count in brackets" // walks, each once (the caption says so where shares pool images)
	}
	return s
}

// countOf writes a (pooled, possibly fractional) number of walks: whole
// numbers exactly, others to two decimals.
func countOf(n float64) string {
	if n > rareCount {
		return count(n)
	}
	return plots.CountLabel(n)
}

// shareScale is log when the positive shares span more than a decade (dead
// ends pile up in corners: on a linear scale the rest reads 0), else linear.
func shareScale(vals []float64) plots.Scale {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi > 10*lo {
		return plots.ScaleLog
	}
	return plots.ScaleLinear
}

// shareFormat writes shares on a log scale with two significant digits:
// they differ by factors, and the default resolution of the smallest
// crowds the cells with four decimals.
func shareFormat(vals []float64) string {
	if shareScale(vals) == plots.ScaleLog {
		return "%.2g"
	}
	return ""
}

// binaryValues reports whether every value is 0 or 1.
func binaryValues(vals []float64) bool {
	for _, v := range vals {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}
