package figures

import (
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
)

// Captions are written from the data drawn, never by hand: a caption's
// extremes are the squares table's, so that noise cannot contradict them.

// extreme is a value and the squares that have it.
type extreme struct {
	text    string
	squares []string
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
	what := "Estimates from " + g.walksPerSquare()
	switch {
	case g.allExact(r):
		what = "Exact values by enumeration"
	case h.Binary:
		what = "One walk a square (a deterministic rule): each square tours or not"
	case pooledSquares(units):
		what += fmt.Sprintf(", pooled over the %d groups of squares equal under the board's symmetry (the rule treats them alike; figure option heatmap.pool_symmetric)", len(units))
	}
	fmt.Fprintf(&b, "%s: %s.", what, drawnSpan(h, percent))
	if ns := g.noStart(r); ns != nil && !h.Failure {
		// Over which squares a board's rate is taken (a title's
		// 0.076 % was over the 13 squares of the corners' colour, not the
		// uniform start's 0.039 %).
		fmt.Fprintf(&b, " Mean over the %d squares of the corners' colour %s; from a uniform start (every square) %s.",
			len(g.squares)-trues(ns), percent(g.meanOver(r, ns, false)), percent(g.meanOver(r, ns, true)))
	}
	if iv := h.Interval; iv != nil && iv.Legend != "" {
		fmt.Fprintf(&b, " ▲/▼: %s.", iv.Legend)
	}
	if un, err := h.Unresolved(); err == nil {
		if k := trues(un); k > 0 {
			fmt.Fprintf(&b, " %d of %d squares washed out: their %s interval spans over half the colour range.", k, len(in), levelText(h.Uncertainty.Level))
		}
	}
	switch k := g.rows*g.cols - len(g.squares) - trues(h.Mask); {
	case k > 0 && strings.Contains(h.Note, "unrun squares enumerated"):
		fmt.Fprintf(&b, " The %d squares not run are drawn from their exact values too, enumerated for the figure (milliseconds a square on a board this small).", k)
	case k > 0:
		fmt.Fprintf(&b, " %d squares not run are drawn from a run square that the board's symmetry maps onto them (the rule treats them alike).", k)
	}
	if k := trues(h.NoStart); k > 0 {
		fmt.Fprintf(&b, " Hatched: the %d squares of the other colour, which cannot start an open tour on an odd board.", k)
	}
	return b.String()
}

// meanOver is g's rate over its squares (all, or those not in ns):
// the mean of the exact values where every square has one, else the
// rate from a uniform start among them as the tables pool it (startsRate:
// over all squares, the boards table's rate).
func (g group) meanOver(r rate, ns []bool, all bool) float64 {
	var sum float64
	var in []table.SquareRow
	for _, s := range g.squares {
		if !all && ns[int(s.StartRow)*g.cols+int(s.StartCol)] {
			continue
		}
		sum += r.exact(s)
		in = append(in, s)
	}
	if g.allExact(r) {
		return sum / float64(len(in))
	}
	if all {
		return g.pooledAll(r)
	}
	return g.pooled(r)
}

// lengthFormat writes a mean path length in captions.
func lengthFormat(v float64) string { return fmt.Sprintf("%.2f", v) }

// drawnSpan writes the extremes of the values h draws (pooled where the
// map pools, exact where it is exact, 1 − v on a failure view) among the
// squares it resolves: a washed-out square's value is noise, and naming
// it as lowest or highest would report noise as a finding. Where every
// square is washed out, no extreme is named.
func drawnSpan(h plots.HeatmapData, format func(float64) string) string {
	un, _ := h.Unresolved()
	var lo, hi extreme
	first, washed, resolved := true, 0, 0
	var lv, hv float64
	drawn := func(v float64) float64 {
		if h.Failure {
			return 1 - v
		}
		return v
	}
	skip := func(i int) bool { return h.Mask != nil && h.Mask[i] || h.NoStart != nil && h.NoStart[i] }
	for i, v := range h.Values {
		if skip(i) {
			continue
		}
		if un != nil && un[i] {
			washed++
			continue
		}
		resolved++
		v = drawn(v)
		if first || v < lv {
			lv = v
		}
		if first || v > hv {
			hv = v
		}
		first = false
	}
	if resolved == 0 {
		return fmt.Sprintf("every one of the %d squares is washed out (its interval spans over half the colour range), so no square is named as an extreme", washed)
	}
	lo.text, hi.text = format(lv), format(hv)
	for i, v := range h.Values {
		if skip(i) || un != nil && un[i] {
			continue
		}
		if format(drawn(v)) == lo.text {
			lo.squares = append(lo.squares, h.CellName(i))
		}
		if format(drawn(v)) == hi.text {
			hi.squares = append(hi.squares, h.CellName(i))
		}
	}
	s := span(lo, hi)
	if washed > 0 {
		verb := "are"
		if washed == 1 {
			verb = "is"
		}
		s += fmt.Sprintf(" (of the %d squares resolved; %d washed out %s not named)", resolved, washed, verb)
	}
	return s
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
	from := "from " + g.walksPerSquare()
	switch {
	case h.Uncertainty == nil && strings.Contains(h.Note, "exact"):
		from = "exact E[length] by enumeration"
	case pooled:
		from += ", pooled over the squares equal under the board's symmetry (figure option heatmap.pool_symmetric)"
	}
	s := fmt.Sprintf("Mean path length (squares visited, of %d) of %s on %s by start square, %s: %s.",
		g.rows*g.cols, g.rule, g.board, from, drawnSpan(h, lengthFormat))
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
	e := extreme{text: percent(best / m.total), squares: at}
	if m.pooled == 1 && !m.weighted {
		e.text = fmt.Sprintf("%s (%s)", plots.CountLabel(best), percent(best/m.total))
	}
	s := fmt.Sprintf("Where the %s failed walks of %s on %s end (%s): share of the dead ends on each square, most %s.",
		countOf(m.total), g.rule, g.board, who, e)
	switch {
	case len(m.starts) > 1:
		s += fmt.Sprintf(" Pooled under the board's symmetry (the rule treats squares equal under it alike; figure option heatmap.pool_symmetric): the failed walks from %s, each mapped by the symmetry that takes its start onto %s, are counted together", strings.Join(m.starts, ", "), m.from)
		if m.pooled > 1 {
			s += fmt.Sprintf(", and averaged over the %d symmetries that fix %s", m.pooled, m.from)
		}
		s += "; the count in brackets is the failed walks that ended on the square, each walk counted once."
	case m.pooled > 1:
		s += fmt.Sprintf(" Pooled under the board's symmetry (the rule treats squares equal under it alike, and the starts are symmetric; figure option heatmap.pool_symmetric): each square's share is the mean over its images under the %d symmetries; the count in brackets is the failed walks that ended on the square itself.", m.pooled)
	}
	if m.weighted {
		s += " The starts ran unequal walks (a sequential run): each start weighs as one start (its counts scaled by one over its walks, then all by one factor so that they add up to the failed walks), as the boards table pools a uniform start; the counts in brackets are the walks themselves."
	}
	s += fmt.Sprintf(" A share that rests on fewer than %d dead ends (over the images pooled) is washed out and sets no end of the colour scale; squares where no walk ended are hatched.", minDeadEnds)
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
