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
			rows = append(rows, plots.SweepRow{Name: k[0] + " " + k[1]})
		}
		rows[i].Swept = append(rows[i].Swept, float64(s.Rows))
		if s.Successes < s.Walks {
			rows[i].Failing = append(rows[i].Failing, float64(s.Rows))
		}
	}
	if len(rows) == 0 || len(rows[0].Swept) < 2 {
		return []Drawn{{Name: "sweep-strip", Note: "no deterministic rule over two or more square boards: no sweep strip"}}, nil
	}
	f, err := plots.SweepStrip(fmt.Sprintf("%s: board sizes where the walk fails", d.m.Experiment), rows)
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

// sweepCaption states, per strip, the sizes swept, how many fail and the
// first that does.
func sweepCaption(rows []plots.SweepRow) string {
	var parts []string
	for _, r := range rows {
		first := "none fails"
		if len(r.Failing) > 0 {
			first = fmt.Sprintf("first failure at n = %g", slices.Min(r.Failing))
		}
		parts = append(parts, fmt.Sprintf("%s: %d of %d sizes (n = %g…%g) fail, %s", r.Name, len(r.Failing), len(r.Swept),
			slices.Min(r.Swept), slices.Max(r.Swept), first))
	}
	return "Board sizes n where one deterministic walk from each start fails to tour the n×n board. " + strings.Join(parts, "; ") + "."
}
