package results

import (
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
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
	p.Spec = RuleSpec(r.Name(), p)
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

// RuleSpec is the rule_spec column: the rule's name and every parameter
// that changes a walk, as the parameter columns p hold them (defaults
// written out, null ones left out), in one canonical string, so that one
// column keys a rule the way (rule, tie_break, max_steps, node_budget,
// move_order) do, and a join on (board, rule_spec, start) never matches a
// walk with a step limit to one without:
//
//	random
//	random;max_steps=6
//	warnsdorff/random
//	warnsdorff/first;order=(2,1)(1,2)(-1,2)(-2,1)(-2,-1)(-1,-2)(1,-2)(2,-1)
//	backtrack/closed;tie_break=first;order=(2,1)...(2,-1);node_budget=10000000
//
// The name carries warnsdorff's tie-break chain and backtrack's closed; a
// tie_break= is written only where the name does not hold it (backtrack).
// The estimator (splitting) is left out: it estimates the same walks.
func RuleSpec(name string, p table.RuleParams) string {
	var b strings.Builder
	b.WriteString(name)
	if p.TieBreak != "" && !strings.Contains(name, "/"+p.TieBreak) {
		b.WriteString(";tie_break=" + p.TieBreak)
	}
	if p.MoveOrder != "" {
		// "(2,1) ... [n mod 8 = 3: (2,-1) ...; n mod 8 = 5: ...]" (moveOrderOf)
		base, byN, _ := strings.Cut(p.MoveOrder, " [")
		b.WriteString(";order=" + strings.ReplaceAll(base, " ", ""))
		for _, e := range strings.Split(strings.TrimSuffix(byN, "]"), "; ") {
			if res, order, ok := strings.Cut(strings.TrimPrefix(e, "n mod 8 = "), ": "); ok {
				b.WriteString(";order_n_mod_8_" + res + "=" + strings.ReplaceAll(order, " ", ""))
			}
		}
	}
	if p.MaxSteps.Valid {
		fmt.Fprintf(&b, ";max_steps=%d", p.MaxSteps.Int64)
	}
	if p.NodeBudget.Valid {
		fmt.Fprintf(&b, ";node_budget=%d", p.NodeBudget.Int64)
	}
	return b.String()
}

// moveOrder writes a move order as "(2,1) (1,2) ...", the canonical order
// for nil, as experiment files and the resolved configuration write it.
func moveOrder(order []sim.Move) string {
	if order == nil {
		order = sim.CanonicalMoves[:]
	}
	return config.OrderString(order)
}
