package results

import (
	"fmt"
	"io"
	"strconv"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// WriteExactCSV writes exact values as exact's CSV: the columns of the
// exact table with every digit a float64 holds. Board, rule and rule_spec
// come after the columns that were there first, which keep their places;
// rule_spec (with the step limit and move order) is quoted, as it holds
// commas; the certified bounds come last.
func WriteExactCSV(w io.Writer, b *sim.Board, r sim.Rule, res []exact.Result) {
	spec := Params(r).Spec
	fmt.Fprintln(w, "start,start_row,start_col,start_class,p_success,p_closed,p_stopped,mean_length,mean_ties,nodes,tree_nodes,board,rule,rule_spec,p_lower,p_upper,dropped")
	for _, x := range res {
		row, col := b.RowCol(x.Start)
		fmt.Fprintf(w, "%s,%d,%d,%s,%s,%s,%s,%s,%s,%d,%.0f,%s,%s,%q,%s,%s,%d\n", b.SquareName(x.Start), row, col, b.Class(x.Start),
			fullDigits(x.PSuccess), fullDigits(x.PClosed), fullDigits(x.PStopped), fullDigits(x.MeanLength), fullDigits(x.MeanTies), x.Nodes, x.TreeNodes, b, r.Name(), spec,
			fullDigits(x.PLower()), fullDigits(x.PUpper()), x.Dropped)
	}
}

// WriteExact writes the exact values as the exact table (docs/tables.md):
// the key columns and levels of the result tables, so they join them;
// command is the command line that computed them.
func WriteExact(path string, b *sim.Board, r sim.Rule, res []exact.Result, toolVersion, command string) error {
	params := Params(r)
	rows := make([]table.ExactRow, len(res))
	for i, x := range res {
		row, col := b.RowCol(x.Start)
		rows[i] = table.ExactRow{
			Key: table.StartKey{Board: b.String(), Rows: int32(b.Rows), Cols: int32(b.Cols), Rule: r.Name(),
				Start: b.SquareName(x.Start), StartRow: int32(row), StartCol: int32(col), StartClass: b.Class(x.Start).String()},
			PSuccess: x.PSuccess, PClosed: x.PClosed, PStopped: x.PStopped, MeanLength: x.MeanLength, MeanTies: x.MeanTies,
			Nodes: x.Nodes, TreeNodes: x.TreeNodes, Params: params,
			PLower: x.PLower(), PUpper: x.PUpper(), Dropped: x.Dropped,
		}
	}
	lv := table.Levels{Boards: []string{b.String()}, Rules: []string{r.Name()}}
	if params.TieBreak != "" {
		lv.TieBreaks = []string{params.TieBreak}
	}
	md := table.Metadata{ToolVersion: toolVersion, Build: buildinfo.Read(), Levels: lv,
		Extra: map[string]string{"command": command}}
	return table.WriteExact(path, rows, md)
}

// fullDigits prints a probability with every significant digit float64 holds.
func fullDigits(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
