package figures

import (
	"fmt"
	"slices"
	"strings"

	"knightwalk/internal/results"
	"knightwalk/plots"
	"knightwalk/sim"
)

// sweepStrip draws, for the deterministic rules of an experiment over
// square boards, which sizes n fail from each start position: one strip
// per (rule, start), from the squares table alone (results.Sweeps).
func (d *drawer) sweepStrip() ([]Drawn, error) {
	var rows []plots.SweepRow
	var rules []string
	idx := map[[2]string]int{}
	for _, s := range d.squares {
		if r, err := sim.ParseRule(s.Rule); s.Rows != s.Cols || err != nil || !r.Deterministic() {
			continue
		}
		k := [2]string{s.Rule, results.StartLabel(s.Rows, s.Cols, s.StartRow, s.StartCol)}
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, plots.SweepRow{Name: k[0] + "\x00" + cornerName(k[1])})
			if !slices.Contains(rules, s.Rule) {
				rules = append(rules, s.Rule)
			}
		}
		rows[i].Swept = append(rows[i].Swept, float64(s.Rows))
		if s.Successes < s.Walks {
			rows[i].Failing = append(rows[i].Failing, float64(s.Rows))
		}
	}
	if len(rows) == 0 || len(rows[0].Swept) < 2 {
		return []Drawn{{Name: "sweep-strip", Note: "no deterministic rule over two or more square boards: no sweep strip"}}, nil
	}
	title := fmt.Sprintf("%s: board sizes where the walk fails", d.m.Experiment)
	for i := range rows {
		rule, start, _ := strings.Cut(rows[i].Name, "\x00")
		rows[i].Name = start
		if len(rules) > 1 { // else the rule is named once, in the title
			rows[i].Name = rule + " " + start
		}
		rows[i].Name += "\n" + failureSummary(rows[i])
	}
	if len(rules) == 1 {
		title = fmt.Sprintf("%s: board sizes where the walk fails", rules[0])
	}
	f, err := plots.SweepStrip(title, rows)
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "sweep-strip", d.m.Experiment)
	if err != nil {
		return nil, err
	}
	dr.Caption = sweepCaption(rows)
	return []Drawn{dr}, nil
}

// cornerName writes a start position of every board size (r0c0, rNcN)
// as a reader names it: the corners by where they lie, with their names on
// 8×8; other positions as they are.
func cornerName(label string) string {
	switch label {
	case "r0c0":
		return "a1 (bottom left)"
	case "r0cN":
		return "bottom right (h1 on 8×8)"
	case "rNc0":
		return "top left (a8 on 8×8)"
	case "rNcN":
		return "top right (h8 on 8×8)"
	}
	return label
}

// failureSummary states a strip's two quantities under test: how many
// sizes fail, and the first that does.
func failureSummary(r plots.SweepRow) string {
	if len(r.Failing) == 0 {
		return fmt.Sprintf("no failure in %d sizes", len(r.Swept))
	}
	return fmt.Sprintf("%d of %d fail, first n = %g", len(r.Failing), len(r.Swept), slices.Min(r.Failing))
}

// sweepCaption states, per strip, the sizes swept, how many fail and the
// first that does.
func sweepCaption(rows []plots.SweepRow) string {
	var parts []string
	for _, r := range rows {
		first := "none fails"
		if len(r.Failing) > 0 {
			first = fmt.Sprintf("first failure at n = %g", slices.Min(r.Failing))
		}
		name, _, _ := strings.Cut(r.Name, "\n")
		parts = append(parts, fmt.Sprintf("%s: %d of %d sizes (n = %g…%g) fail, %s", name, len(r.Failing), len(r.Swept),
			slices.Min(r.Swept), slices.Max(r.Swept), first))
	}
	return "Board sizes n where one deterministic walk from each start fails to tour the n×n board. " + strings.Join(parts, "; ") + "."
}
