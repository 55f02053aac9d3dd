package results

import (
	"fmt"
	"strings"

	"knightwalk/internal/table"
	"knightwalk/sim"
)

// Params returns the parameters of r as the tables write them: null (""
// or not Valid) where r has no such parameter, a default written out where
// it has one the experiment left unset, and no step limit null.
func Params(r sim.Rule) table.RuleParams {
	var p table.RuleParams
	switch r.Kind {
	case sim.RandomWalk, sim.Custom: // a rule of your own: its policy is all there is, and the step limit
		if r.MaxSteps > 0 {
			p.MaxSteps = table.Int64Of(int64(r.MaxSteps))
		}
	case sim.Warnsdorff:
		p.TieBreak = r.TieBreak.String()
		if r.MaxSteps > 0 {
			p.MaxSteps = table.Int64Of(int64(r.MaxSteps))
		}
		if r.TieBreak.UsesOrder() { // a chain ending in first
			p.MoveOrder = moveOrderOf(r)
		}
	case sim.Backtrack:
		p.TieBreak = r.TieBreak.String()
		budget := r.NodeBudget
		if budget == 0 {
			budget = sim.DefaultNodeBudget
		}
		p.NodeBudget = table.Int64Of(budget)
		p.MoveOrder = moveOrderOf(r)
	}
	return p
}

// moveOrderOf writes the rule's move order, followed for a rule with
// orders by n mod 8 by those, e.g. "(2,1) ... [n mod 8 = 3: (-2,1) ...]".
func moveOrderOf(r sim.Rule) string {
	s := moveOrder(r.Order)
	var by []string
	for res, o := range r.OrdersMod8 {
		if o != nil {
			by = append(by, fmt.Sprintf("n mod 8 = %d: %s", res, moveOrder(o)))
		}
	}
	if len(by) > 0 {
		s += " [" + strings.Join(by, "; ") + "]"
	}
	return s
}

// moveOrder writes a move order as "(2,1) (1,2) ...", the canonical order
// for nil, as experiment files and the resolved configuration write it.
func moveOrder(order []sim.Move) string {
	if order == nil {
		order = sim.CanonicalMoves[:]
	}
	parts := make([]string, len(order))
	for i, m := range order {
		parts[i] = fmt.Sprintf("(%d,%d)", m.DR, m.DC)
	}
	return strings.Join(parts, " ")
}
