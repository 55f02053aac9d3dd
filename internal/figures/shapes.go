package figures

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// shapeMaps draws, per rule whose run covers at least two heights and two
// widths with some board not square, success against (rows, columns) as a
// heatmap: one cell a board, pooled over the run's start squares that can
// start a tour (on a board with an odd number of squares, those of the
// corners' colour; the others are 0 by structure and would draw odd
// boards darker for no reason of the rule's). A cell is the exact value
// where every pooled square has one, else the pooled estimate, washed out
// where its interval spans over half the colour range. The square boards
// lie on the diagonal, so a size curve is one slice of the map.
func (d *drawer) shapeMaps() ([]Drawn, error) {
	conf, method := d.stats()
	rules, byRule := results.ShapeCells(d.squares, exactSuccess)
	var out []Drawn
	for _, rule := range rules {
		cells := byRule[rule]
		hs, ws, ok := results.ShapeAxes(cells)
		if !ok {
			continue
		}
		h, caption := shapeMap(rule, cells, hs, ws, conf, method)
		from := shapeStarts(d.squares, rule)
		h.Title = rule + " " + from + ": success by board shape"
		fh, failure := shapeFailureMap(h) // of the values, whatever the success map's scale
		if lo, ok := loneLow(h); ok {
			// One board far below the rest would set the scale's low end
			// and squeeze every other board into a few hues: the scale
			// starts at the next lowest, and the caption names the board
			// drawn in its lowest colour with its own value printed.
			start := math.Floor(lo.next*1000) / 1000 // a tenth of a point, so the bar's end is labelled as a round number
			h.Min = &start
			caption += fmt.Sprintf(" The colour scale starts at the next lowest board, %s: %s (%s) lies below it, drawn in the scale's lowest colour with its value printed.", percent(lo.next), h.CellName(lo.at), percent(h.Values[lo.at]))
		}
		if dataHook != nil {
			dataHook("size-curve_"+slug(d.m.Experiment+"_shapes_"+rule), h)
		}
		f, err := plots.Heatmap(h)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "size-curve", d.m.Experiment, "shapes", rule)
		if err != nil {
			return nil, err
		}
		dr.Caption = caption
		out = append(out, dr)
		if failure {
			// Most boards tour nearly always: on the success scale one
			// low board (7×7) sets the bar's end and 98–99.5 % share a
			// hue; failure rates on a log scale tell them apart.
			if dataHook != nil {
				dataHook("size-curve_"+slug(d.m.Experiment+"_shapes_"+rule+"_failure"), fh)
			}
			f, err := plots.Heatmap(fh)
			if err != nil {
				return nil, err
			}
			dr, err := d.save(f, "size-curve", d.m.Experiment, "shapes", rule, "failure")
			if err != nil {
				return nil, err
			}
			dr.Caption = fmt.Sprintf("Failure rate (1 − success) of %s by board shape, on a log colour scale: the boards of the map above, where most succeed at %s or more, told apart by how often they fail. Boards: %s.%s",
				rule, percent(commonRate), boardsSpan(drawnSpan(fh, percent)), shapeZeroNote(fh))
			out = append(out, dr)
		}
	}
	return out, nil
}

// shapeStarts words the start squares a shape map pools for rule: "from
// the corners", "from a1", or "from 3 start classes".
func shapeStarts(squares []table.SquareRow, rule string) string {
	classes, starts := map[string]bool{}, map[string]bool{}
	for _, s := range squares {
		if s.Rule == rule {
			classes[s.StartClass], starts[s.Start] = true, true
		}
	}
	switch {
	case len(classes) == 1 && classes["corner"]:
		return "from the corners"
	case len(starts) == 1:
		for s := range starts {
			return "from " + s
		}
	case len(classes) == 1:
		for c := range classes {
			return "from the " + c + " squares"
		}
	}
	return fmt.Sprintf("from %d start classes", len(classes))
}

// lowBoard is a map's one board far below the rest: its cell, and the
// next lowest value.
type lowBoard struct {
	at   int
	next float64
}

// loneLow finds the one board of a linear success map (four boards or
// more, no fixed scale) whose value lies below all others by more than a
// quarter of the others' span: the board that alone would set the low
// end of the scale.
func loneLow(h plots.HeatmapData) (lowBoard, bool) {
	if h.Binary || h.Failure || h.Min != nil || h.Max != nil || h.Scale == plots.ScaleLog {
		return lowBoard{}, false
	}
	at, n := -1, 0
	lo, next, hi := math.Inf(1), math.Inf(1), math.Inf(-1)
	for i, v := range h.Values {
		if h.Mask[i] {
			continue
		}
		n++
		hi = math.Max(hi, v)
		switch {
		case v < lo:
			next, lo, at = lo, v, i
		case v < next:
			next = v
		}
	}
	if n < 4 || !(next-lo > 0.25*(hi-next)) || hi <= next {
		return lowBoard{}, false
	}
	return lowBoard{at, next}, true
}

// shapeFailureMap is h's failure view (1 − success on a log scale), where
// at least half its boards succeed at commonRate or more and some fail:
// boards that never fail (0 on no log scale) are hatched, not given the
// smallest failure's colour.
func shapeFailureMap(h plots.HeatmapData) (plots.HeatmapData, bool) {
	if h.Binary || h.Min != nil {
		return h, false
	}
	common, failing, n := 0, 0, 0
	for i, v := range h.Values {
		if h.Mask[i] {
			continue
		}
		n++
		if v >= commonRate {
			common++
		}
		if v < 1 {
			failing++
		}
	}
	if 2*common < n || failing < 2 || common == n {
		return h, false
	}
	f := h
	f.Values = slices.Clone(h.Values)
	f.Failure, f.Scale = true, plots.ScaleLog
	f.Title = strings.Replace(h.Title, "success by board shape", "failure rate by board shape", 1)
	f.Label = "failure rate (1 − success)"
	for i, v := range f.Values {
		if !f.Mask[i] && v >= 1 {
			if f.NoStart == nil {
				f.NoStart = make([]bool, len(f.Values))
			}
			f.NoStart[i] = true
		}
	}
	if f.NoStart != nil {
		f.NoStartNote = "0: no failure (100 %)"
	}
	return f, true
}

// shapeZeroNote says how many boards of a failure view never fail.
func shapeZeroNote(h plots.HeatmapData) string {
	if k := trues(h.NoStart); k > 0 {
		return fmt.Sprintf(" Hatched: the %d boards that never fail (100 %%).", k)
	}
	return ""
}

// shapeMap lays the cells out with heights hs (bottom to top) and widths ws
// (left to right) and writes the caption from the values drawn.
func shapeMap(rule string, cells map[[2]int]*results.ShapeCell, hs, ws []int, conf float64, method stats.Method) (plots.HeatmapData, string) {
	n := len(hs) * len(ws)
	h := plots.HeatmapData{Title: rule + ": success by board shape", Rows: len(hs), Cols: len(ws),
		Values: make([]float64, n), Mask: make([]bool, n), Label: "success rate", Percent: true,
		Highlight: -1, Starred: make([]bool, n),
		Axes: &plots.HeatmapAxes{X: "columns", Y: "rows", Cell: func(r, c string) string { return r + "×" + c }}}
	for _, v := range hs {
		h.Axes.Rows = append(h.Axes.Rows, strconv.Itoa(v))
	}
	for _, v := range ws {
		h.Axes.Cols = append(h.Axes.Cols, strconv.Itoa(v))
	}
	un := &plots.Uncertainty{Lo: make([]float64, n), Hi: make([]float64, n), Level: conf}
	det := deterministicRule(rule)
	exactCells, sampled, minW, maxW := 0, 0, int64(math.MaxInt64), int64(0)
	half := 0.0 // the widest estimate's interval, either side
	for i := range n {
		c := cells[[2]int{hs[i/len(ws)], ws[i%len(ws)]}]
		if c == nil || c.Walks == 0 {
			h.Mask[i] = true
			continue
		}
		p := float64(c.Successes) / float64(c.Walks)
		lo, hi := p, p
		switch e := c.Exact / float64(c.Walks); {
		case !math.IsNaN(e):
			p, lo, hi = e, e, e // what is known is drawn, not its estimate
			exactCells++
			h.Starred[i] = true
		case !det:
			iv := results.StartsRate([]results.StartCount{{Count: c.Successes, Walks: c.Walks}}, conf, method)
			lo, hi = iv.Lo, iv.Hi
			half = math.Max(half, math.Max(p-lo, hi-p))
			sampled++
			minW, maxW = min(minW, c.Walks), max(maxW, c.Walks)
		}
		h.Values[i], un.Lo[i], un.Hi[i] = p, lo, hi
	}
	var note []string
	if exactCells > 0 {
		note = append(note, fmt.Sprintf("* exact (%d of %d boards)", exactCells, n-trues(h.Mask)))
	}
	switch {
	case det:
		note = append(note, "deterministic: one walk a start, the share of starts that tour")
		zero, one := 0.0, 1.0 // a share of a few starts: on its whole range, not stretched between two shares
		h.Min, h.Max = &zero, &one
	case sampled > 0:
		w := count(float64(minW))
		if minW != maxW {
			w += "–" + count(float64(maxW))
		}
		// The intervals are not drawn on the map: they wash out a board
		// they do not resolve, and the caption gives their width.
		note = append(note, fmt.Sprintf("others estimated from %s walks a board", w))
		h.Uncertainty = un
	}
	h.Note = strings.Join(note, "; ")
	if (sampled == 0 || det) && snapBinary(&h) {
		// Known values that are all 0 or 1 (every start tours, or none):
		// two colours, not a continuous bar.
		h.Binary, h.Min, h.Max, h.Uncertainty = true, nil, nil, nil
	}
	caption := fmt.Sprintf("Success rate of %s by board shape (rows × columns), pooled over the run's start squares that can start a tour (on a board with an odd number of squares, those of the corners' colour); square boards on the diagonal, so the size curve is one slice of this map. %s. Boards: %s.",
		rule, capitalise(h.Note), boardsSpan(drawnSpan(h, percent)))
	if h.Uncertainty != nil {
		caption += fmt.Sprintf(" The estimates' %s intervals reach at most %.2f points either side of the value drawn; a board whose interval spans over half the colour range is washed out.", levelText(conf), 100*half)
	}
	if trues(h.Mask) > 0 {
		caption += fmt.Sprintf(" %d shapes of the grid were not run (blank).", trues(h.Mask))
	}
	return h, caption
}

// boardsSpan words drawnSpan's text for a map whose cells are boards.
func boardsSpan(s string) string {
	return strings.NewReplacer("squares", "boards", "every square", "every board", "square is", "board is").Replace(s)
}
