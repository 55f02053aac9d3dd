package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"knightwalk/internal/table"
	"knightwalk/plots"
)

// Captions are written from the data drawn, never by hand: a caption's
// extremes are the squares table's, so that noise cannot contradict them.

// extreme is a value and the squares that have it.
type extreme struct {
	text    string
	squares []string
}

// extremes returns the lowest and highest of the squares' values as
// written by format (squares whose written values are equal tie), in
// table order.
func extremes(squares []table.SquareRow, value func(table.SquareRow) float64, format func(float64) string) (lo, hi extreme) {
	first := true
	var lv, hv float64
	for _, s := range squares {
		v := value(s)
		if math.IsNaN(v) {
			continue
		}
		if first || v < lv {
			lv = v
		}
		if first || v > hv {
			hv = v
		}
		first = false
	}
	if first {
		return lo, hi
	}
	lo.text, hi.text = format(lv), format(hv)
	for _, s := range squares {
		v := value(s)
		if math.IsNaN(v) {
			continue
		}
		if format(v) == lo.text {
			lo.squares = append(lo.squares, s.Start)
		}
		if format(v) == hi.text {
			hi.squares = append(hi.squares, s.Start)
		}
	}
	return lo, hi
}

// span writes the extremes: "lowest … (squares), highest … (squares)", or
// "every square …" when they are equal as written.
func span(lo, hi extreme) string {
	if lo.text == hi.text {
		return "every square " + lo.text
	}
	return fmt.Sprintf("lowest %s, highest %s", lo, hi)
}

func (e extreme) String() string {
	names := e.squares
	const shown = 4
	more := ""
	if len(names) > shown {
		more = fmt.Sprintf(" and %d more", len(names)-shown)
		names = names[:shown]
	}
	return fmt.Sprintf("%s (%s%s)", e.text, strings.Join(names, ", "), more)
}

// rateCaption describes a rate heatmap: what the values rest on, the
// extremes of the squares table (exact, or per-square estimates), what
// pooling drew instead, the marks, and the washed-out and hatched squares.
func (d *drawer) rateCaption(g group, r rate, h plots.HeatmapData) string {
	units := g.units(d.pool(g) && !g.allExact(r))
	name := r.name
	if h.Failure {
		name = "failure rate (1 − success)"
	}
	in := g.startable(r)
	var b strings.Builder
	fmt.Fprintf(&b, "%s of %s on %s by start square. ", capitalise(name), g.rule, g.board)
	value := func(s table.SquareRow) float64 { p, _, _ := r.value(s); return p }
	what := "Estimates (squares table) from " + g.walksPerSquare()
	if g.allExact(r) {
		value, what = r.exact, "Exact values by enumeration"
	}
	show := value
	if h.Failure {
		show = func(s table.SquareRow) float64 { return 1 - value(s) }
	}
	fmt.Fprintf(&b, "%s: %s.", what, span(extremes(in, show, percent)))
	if pooledSquares(units) {
		conf, method := d.stats()
		ns := g.noStart(r)
		var ps []float64
		for _, u := range units {
			if ns != nil && ns[int(u[0].StartRow)*g.cols+int(u[0].StartCol)] {
				continue
			}
			if p, _, _ := u.rate(r, conf, method); !math.IsNaN(p) {
				if h.Failure {
					p = 1 - p
				}
				ps = append(ps, p)
			}
		}
		if lo, hi := percent(slices.Min(ps)), percent(slices.Max(ps)); lo != hi {
			fmt.Fprintf(&b, " Drawn pooled over the %d groups of squares equal under the board's symmetry (the rule treats them alike; figure option heatmap.pool_symmetric): from %s to %s.",
				len(ps), lo, hi)
		}
	}
	if iv := h.Interval; iv != nil && iv.Legend != "" {
		fmt.Fprintf(&b, " ▲/▼: %s.", iv.Legend)
	}
	if un, err := h.Unresolved(); err == nil {
		if k := trues(un); k > 0 {
			fmt.Fprintf(&b, " %d of %d squares washed out: their %s interval spans over half the colour range.", k, len(in), levelText(h.Uncertainty.Level))
		}
	}
	if k := g.rows*g.cols - len(g.squares) - trues(h.Mask); k > 0 {
		fmt.Fprintf(&b, " %d squares not run are drawn from a run square that the board's symmetry maps onto them (the rule treats them alike).", k)
	}
	if k := trues(h.NoStart); k > 0 {
		fmt.Fprintf(&b, " Hatched: the %d squares of the other colour, which cannot start an open tour on an odd board.", k)
	}
	return b.String()
}

// startable is g's squares less those that cannot start a tour.
func (g group) startable(r rate) []table.SquareRow {
	ns := g.noStart(r)
	var out []table.SquareRow
	for _, s := range g.squares {
		if ns == nil || !ns[int(s.StartRow)*g.cols+int(s.StartCol)] {
			out = append(out, s)
		}
	}
	return out
}

// lengthCaption describes a mean-path-length map.
func lengthCaption(g group, h plots.HeatmapData, pooled bool) string {
	format := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	s := fmt.Sprintf("Mean path length (squares visited, of %d) of %s on %s by start square, from %s: %s.",
		g.rows*g.cols, g.rule, g.board, g.walksPerSquare(), span(extremes(g.squares, func(s table.SquareRow) float64 { return s.LengthMean }, format)))
	if pooled {
		s += " Drawn pooled over the squares equal under the board's symmetry (figure option heatmap.pool_symmetric)."
	}
	if un, err := h.Unresolved(); err == nil {
		if k := trues(un); k > 0 {
			s += fmt.Sprintf(" %d of %d squares washed out: their %s interval spans over half the colour range.", k, len(g.squares), levelText(h.Uncertainty.Level))
		}
	}
	return s
}

// deadEndCaption names the squares where most of m's failed walks end,
// from m's (pooled) counts, and how the map was pooled.
func deadEndCaption(g group, m deadEndMap) string {
	best, at := -1.0, []string(nil)
	for i, c := range m.counts {
		switch {
		case c > best:
			best, at = c, []string{plots.SquareName(g.cols, i)}
		case c == best:
			at = append(at, plots.SquareName(g.cols, i))
		}
	}
	who := "all starts together"
	if m.from != "" {
		who = "walks from " + m.from + " (outlined), the start with the most failures"
	}
	e := extreme{text: fmt.Sprintf("%s (%s)", plots.CountLabel(best), percent(best/m.total)), squares: at}
	s := fmt.Sprintf("Where the %s failed walks of %s on %s end (%s): share of the dead ends on each square, most %s.",
		countOf(m.total), g.rule, g.board, who, e)
	switch {
	case len(m.starts) > 1:
		s += fmt.Sprintf(" Pooled under the board's symmetry (the rule treats squares equal under it alike; figure option heatmap.pool_symmetric): the failed walks from %s, each mapped by the symmetry that takes its start onto %s, are counted together", strings.Join(m.starts, ", "), m.from)
		if m.pooled > 1 {
			s += fmt.Sprintf(", and averaged over the %d symmetries that fix %s, so counts may be fractional", m.pooled, m.from)
		}
		s += "."
	case m.pooled > 1:
		s += fmt.Sprintf(" Pooled under the board's symmetry (the rule treats squares equal under it alike, and the starts are symmetric with equal walks; figure option heatmap.pool_symmetric): each square shows the mean count over its images under the %d symmetries, so counts may be fractional and shares are counts over the total.", m.pooled)
	}
	return s
}

func trues(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
