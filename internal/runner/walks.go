package runner

import (
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// writeWalks streams one unit's walks, in walk order, to the walks table.
func writeWalks(ww *table.WalkWriter, s *config.Experiment, u Unit, walks []sim.Outcome) error {
	b := s.Boards[u.Board]
	rule := s.Rules[u.Rule]
	name, params := rule.Name(), results.Params(rule)
	start := b.SquareName(u.Start)
	sr, sc := b.RowCol(u.Start)
	for i, o := range walks {
		er, ec := b.RowCol(o.End)
		row := table.WalkRow{Experiment: s.Name, Params: params, Board: b.String(), Rule: name, Start: start, StartRow: int32(sr), StartCol: int32(sc),
			Walk: int64(u.Lo) + int64(i), Length: int32(o.Length), Success: o.Success, Closed: o.Closed,
			End: b.SquareName(o.End), EndRow: int32(er), EndCol: int32(ec), Ties: int32(o.Ties), Outcome: outcome(o)}
		if rule.Kind == sim.Backtrack {
			row.Nodes, row.Backtracks = table.Int64Of(o.Nodes), table.Int64Of(o.Backtracks)
		}
		if err := ww.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// outcome names how a walk ended, one of table.Outcomes. A success is
// "closed" or "success" (open), never both; the failures are told apart the
// way stats.Tally counts them, so the walks table adds up to the summaries.
func outcome(o sim.Outcome) string {
	switch {
	case o.Success && o.Closed:
		return table.OutcomeClosed
	case o.Success:
		return table.OutcomeSuccess
	case o.Stopped:
		return table.OutcomeStopped
	case o.BudgetExceeded:
		return table.OutcomeBudget
	}
	return table.OutcomeDeadEnd
}
