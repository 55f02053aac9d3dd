package results

import (
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// designRows summarises each design of e per (board, start square): its
// cells counted by how their walks from the square ended (docs/tables.md,
// `designs`). Cells estimated by splitting have no walks and count as
// neither succeeding nor failing.
func designRows(e *config.Experiment, tally TallyOf) []table.DesignRow {
	var out []table.DesignRow
	for bi, b := range e.Boards {
		for _, d := range e.Designs {
			for _, start := range e.Starts[bi] {
				row, col := b.RowCol(start)
				dr := table.DesignRow{Experiment: e.Name, Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols),
					Design: d.Key, Rule: d.Spec, Start: b.SquareName(start), StartRow: int32(row), StartCol: int32(col),
					StartClass: b.Class(start).String(), StartDegree: int32(b.Degree(start)), Deterministic: true}
				for ri := d.First; ri < d.First+d.N; ri++ {
					dr.Cells++
					dr.Deterministic = dr.Deterministic && e.Rules[ri].Deterministic()
					if splitting(e, ri) {
						continue
					}
					t := tally(bi, ri, start)
					if t == nil {
						continue
					}
					dr.Walks += int64(t.Walks)
					dr.Successes += int64(t.Successes)
					dr.Closed += int64(t.Closed)
					switch {
					case t.Walks > 0 && t.Successes == t.Walks:
						dr.CellsSucceeding++
					case t.Successes == 0:
						dr.CellsNever++
					}
				}
				dr.CellsFailing = dr.Cells - dr.CellsSucceeding
				out = append(out, dr)
			}
		}
	}
	return out
}

// maxReportRules is the most rules whose per-rule sections (classes,
// degrees, grids) the report writes; a design past it gets its summary
// instead, the tables holding every cell.
const maxReportRules = config.MaxReportRules

// ruleNames returns the experiment's rule names for the report's header:
// each once, with the number of rules of that name where several share it
// (the cells of a design).
func ruleNames(s *config.Experiment) []string {
	count := map[string]int{}
	var names []string
	for _, r := range s.Rules {
		if count[r.Name()] == 0 {
			names = append(names, r.Name())
		}
		count[r.Name()]++
	}
	for i, n := range names {
		if count[n] > 1 {
			names[i] = fmt.Sprintf("%s (%d rules)", n, count[n])
		}
	}
	return names
}

// writeDesignNote says why the per-rule sections are left out.
func writeDesignNote(b *strings.Builder, s *config.Experiment) {
	fmt.Fprintf(b, "%d rules: the per-rule sections are left out past %d rules; every cell has its rows in the squares, classes and boards tables (keyed by `rule_spec`), and no rule comparisons are made past %d rules.\n\n",
		len(s.Rules), maxReportRules, MaxComparedRules)
}

// writeDesigns adds, per design and board, the board-shaped map of the
// cells failing from each start square, and the cells that succeed from
// every start square run.
func writeDesigns(b *strings.Builder, s *config.Experiment, t *Tables) {
	for _, d := range s.Designs {
		for bi, bd := range s.Boards {
			var rows []table.DesignRow
			for _, r := range t.Designs {
				if r.Design == d.Key && r.Board == bd.String() {
					rows = append(rows, r)
				}
			}
			if len(rows) == 0 {
				continue
			}
			fmt.Fprintf(b, "## Design %s (%s, %d cells): cells failing by start square, %s\n\n", d.Key, d.Spec, d.N, bd)
			if bd.Cols <= 12 && bd.Rows <= 12 {
				writeFailingGrid(b, bd, rows)
			}
			var all []string
			for ri := d.First; ri < d.First+d.N; ri++ {
				if t.cells != nil && t.allSucceed[[2]int{bi, ri}] || t.cells == nil && everyStart(t.Squares, s, bi, ri) {
					all = append(all, "`"+Params(s.Rules[ri]).Spec+"`")
				}
			}
			fmt.Fprintf(b, "\nCells that succeed from every start square run: %d of %d", len(all), d.N)
			if len(all) > 0 {
				fmt.Fprintf(b, ": %s", list(all, 10))
			}
			b.WriteString(".\n\n")
		}
	}
}

// writeFailingGrid writes rows' cells_failing as a board-shaped table.
func writeFailingGrid(b *strings.Builder, bd *sim.Board, rows []table.DesignRow) {
	g := map[[2]int32]int64{}
	for _, r := range rows {
		g[[2]int32{r.StartRow, r.StartCol}] = r.CellsFailing
	}
	writeBoardTable(b, bd, func(row, col int) (string, bool) {
		v, ok := g[[2]int32{int32(row), int32(col)}]
		return fmt.Sprintf("%d", v), ok
	})
}

// everyStart reports whether every walk of rule ri on board bi is a tour,
// from every start square run.
func everyStart(squares []table.SquareRow, s *config.Experiment, bi, ri int) bool {
	n := len(s.Starts[bi])
	first := squareIndex(s, bi, ri)
	if first < 0 || first+n > len(squares) {
		return false
	}
	for _, r := range squares[first : first+n] {
		if r.Walks == 0 || r.Successes != r.Walks {
			return false
		}
	}
	return true
}

// squareIndex returns the index of the first squares row of (bi, ri): the
// rows are in plan order, board, rule, start.
func squareIndex(s *config.Experiment, bi, ri int) int {
	i := 0
	for b := range bi {
		i += len(s.Rules) * len(s.Starts[b])
	}
	return i + ri*len(s.Starts[bi])
}

func list(items []string, n int) string {
	if len(items) > n {
		return strings.Join(items[:n], ", ") + fmt.Sprintf(", … (%d in all)", len(items))
	}
	return strings.Join(items, ", ")
}

// writeBoardTable writes a board-shaped Markdown table, the top rank
// first: cell gives a square's text, or false for an empty cell.
func writeBoardTable(b *strings.Builder, bd *sim.Board, cell func(row, col int) (string, bool)) {
	b.WriteString("|   |")
	for c := 0; c < bd.Cols; c++ {
		fmt.Fprintf(b, " %c |", 'a'+c)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", bd.Cols) + "\n")
	for row := bd.Rows - 1; row >= 0; row-- {
		fmt.Fprintf(b, "| **%d** |", row+1)
		for c := 0; c < bd.Cols; c++ {
			if v, ok := cell(row, c); ok {
				fmt.Fprintf(b, " %s |", v)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
}
