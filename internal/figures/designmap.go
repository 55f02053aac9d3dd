package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
)

// designMaps draws the design-map figure: for each design and board, a map
// of the board whose squares hold the design's cells that fail from them
// (the designs table's cells_failing): for warnsdorff/first under order:
// all, the move orders under which the rule fails from each square,
// Marateck's tally. A deterministic design's counts are exact (one walk
// a cell decides it); a sampled one's count the cells with any failing
// walk among those run, which more walks can only raise, and the caption
// says so. Squares not run are left blank.
func (d *drawer) designMaps() ([]Drawn, error) {
	if !slices.Contains(d.m.Tables, results.DesignsFile) {
		return []Drawn{{Name: "design-map", Note: "no design in this run (a rule entry with a list of parameter values, docs/designs.md): nothing to draw"}}, nil
	}
	rows, err := results.ReadOf(d.dir, results.DesignsFile, d.m, table.Read[table.DesignRow])
	if err != nil {
		return nil, err
	}
	type key struct{ board, design string }
	var order []key
	by := map[key][]table.DesignRow{}
	for _, r := range rows {
		k := key{r.Board, r.Design}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], r)
	}
	var out []Drawn
	for _, k := range order {
		rs := by[k]
		first := rs[0]
		rowsN, colsN := int(first.Rows), int(first.Cols)
		if note := tooLarge(rowsN, colsN); note != "" {
			out = append(out, Drawn{Name: "design-map", Note: k.board + " " + k.design + ": " + note})
			continue
		}
		h := plots.HeatmapData{Rows: rowsN, Cols: colsN, Values: make([]float64, rowsN*colsN), Mask: make([]bool, rowsN*colsN),
			Highlight: -1, Format: "%.0f", Label: "cells failing"}
		for i := range h.Mask {
			h.Mask[i], h.Values[i] = true, math.NaN()
		}
		lo, hi := extreme{}, extreme{}
		var loV, hiV int64 = math.MaxInt64, -1
		deterministic := true
		for _, r := range rs {
			i := int(r.StartRow)*colsN + int(r.StartCol)
			h.Mask[i], h.Values[i] = false, float64(r.CellsFailing)
			deterministic = deterministic && r.Deterministic
			switch {
			case r.CellsFailing < loV:
				loV, lo = r.CellsFailing, extreme{text: fmt.Sprint(r.CellsFailing), squares: []string{r.Start}}
			case r.CellsFailing == loV:
				lo.squares = append(lo.squares, r.Start)
			}
			switch {
			case r.CellsFailing > hiV:
				hiV, hi = r.CellsFailing, extreme{text: fmt.Sprint(r.CellsFailing), squares: []string{r.Start}}
			case r.CellsFailing == hiV:
				hi.squares = append(hi.squares, r.Start)
			}
		}
		zero := 0.0
		h.Min = &zero // a count: the scale starts at none
		cells := fmt.Sprintf("of %d cells", first.Cells)
		if deterministic {
			h.Note = cells + "; one walk each: exact"
		} else {
			h.Note = cells + " with a failing walk"
		}
		// The title names the rule with its tie-break and the design
		// factor (the designs table's rule: its spec), not the entry's key.
		h.Title = fmt.Sprintf("%s on %s: cells failing from each start square", first.Rule, k.board)
		// the file names the entry without brackets: design-map_8x8_rules0
		dr, err := d.heatmap(h, "design-map", k.board, strings.NewReplacer("[", "", "]", "").Replace(k.design))
		if err != nil {
			return nil, err
		}
		how := "Each cell is deterministic, so one walk decides it and the counts are exact."
		if !deterministic {
			how = "Some cells draw at random: a cell counts as failing once any of its walks failed, so more walks can only raise a count; the counts are not rates."
		}
		dr.Caption = fmt.Sprintf("The %d cells of design %s (%s) on %s: from each start square run, the cells (parameter values, e.g. move orders) under which the rule fails from it: %s. %s",
			first.Cells, k.design, first.Rule, k.board, span(lo, hi), how)
		out = append(out, dr)
	}
	return out, nil
}
