package results

import (
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// Sweep is a deterministic rule's outcome from one start position over
// every board of an experiment: for such a rule one walk per (board,
// start) decides success, so the result is the set of boards where the
// walk fails, not a rate (Roth's "first failure at n = 428").
type Sweep struct {
	Rule    string
	Start   string // position relative to the board's edges: r0c0, r0cN, rNc0, rNcN, r2c1, ...
	Boards  int    // boards swept
	Failing []Failure
}

// Failure is one board on which a deterministic walk fails.
type Failure struct {
	Board   string
	Rows    int
	Cols    int
	Length  int // squares the walk visited
	Squares int
}

// StartLabel names a start square by its position from the board's edges,
// so the same corner has one name on every board: row and column from 0,
// N for the last one (r0cN is the corner at row 0, last column; h1 on 8x8).
func StartLabel(rows, cols, row, col int32) string {
	part := func(i, n int32) string {
		if i == n-1 && n > 1 {
			return "N"
		}
		return fmt.Sprint(i)
	}
	return "r" + part(row, rows) + "c" + part(col, cols)
}

// Sweeps returns the sweeps of e's deterministic rules, one per (rule,
// start position), in the order of rules and of first appearance of the
// start, or nil when e has a single board (nothing is swept).
func Sweeps(e *config.Experiment, rows []table.SquareRow) []Sweep {
	if len(e.Boards) < 2 {
		return nil
	}
	var out []Sweep
	for _, r := range e.Rules {
		if !r.Deterministic() {
			continue
		}
		at := map[string]int{}
		for _, sq := range rows {
			if sq.Rule != r.Name() {
				continue
			}
			label := StartLabel(sq.Rows, sq.Cols, sq.StartRow, sq.StartCol)
			i, ok := at[label]
			if !ok {
				i = len(out)
				at[label] = i
				out = append(out, Sweep{Rule: sq.Rule, Start: label})
			}
			out[i].Boards++
			if sq.Successes < sq.Walks {
				out[i].Failing = append(out[i].Failing, Failure{Board: sq.Board, Rows: int(sq.Rows), Cols: int(sq.Cols),
					Length: int(sq.LengthMin), Squares: int(sq.Rows * sq.Cols)})
			}
		}
	}
	return out
}

// writeSweeps adds the failing boards of each deterministic sweep.
func writeSweeps(b *strings.Builder, sw []Sweep) {
	if len(sw) == 0 {
		return
	}
	b.WriteString("\n## Deterministic sweeps\n\nA deterministic rule's walk from a start is one path, so one walk per board decides it: these are the boards where it fails (squares visited / squares), per start position (r0c0 = row 0, column 0; N = the last).\n\n")
	b.WriteString("| rule | start | boards | failing | share | first failing | failing boards (visited/squares) |\n|---|---|---:|---:|---:|---|---|\n")
	for _, s := range sw {
		first, list := "none", "none"
		if len(s.Failing) > 0 {
			first = s.Failing[0].Board
			parts := make([]string, len(s.Failing))
			for i, f := range s.Failing {
				parts[i] = fmt.Sprintf("%s (%d/%d)", f.Board, f.Length, f.Squares)
			}
			list = strings.Join(parts, ", ")
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %.2f%% | %s | %s |\n", s.Rule, s.Start, s.Boards, len(s.Failing),
			100*float64(len(s.Failing))/float64(s.Boards), first, list)
	}
}
