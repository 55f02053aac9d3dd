package results

import (
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

func TestParams(t *testing.T) {
	const canon = "(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"
	const cs = "(2,1)(1,2)(-1,2)(-2,1)(-2,-1)(-1,-2)(1,-2)(2,-1)" // canon as rule_spec writes it
	rev := []sim.Move{{DR: 2, DC: -1}, {DR: 1, DC: -2}, {DR: -1, DC: -2}, {DR: -2, DC: -1}, {DR: -2, DC: 1}, {DR: -1, DC: 2}, {DR: 1, DC: 2}, {DR: 2, DC: 1}}
	null := table.NullInt64{}
	for _, c := range []struct {
		rule sim.Rule
		want table.RuleParams
	}{
		{sim.Rule{Kind: sim.RandomWalk}, table.RuleParams{Spec: "random"}},
		{sim.Rule{Kind: sim.RandomWalk, MaxSteps: 6}, table.RuleParams{Spec: "random;max_steps=6", MaxSteps: table.Int64Of(6)}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TiePohl}, table.RuleParams{Spec: "warnsdorff/pohl", TieBreak: "pohl"}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TieFirst, MaxSteps: 9}, table.RuleParams{Spec: "warnsdorff/first;order=" + cs + ";max_steps=9", TieBreak: "first", MaxSteps: table.Int64Of(9), MoveOrder: canon}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TieFirst, Order: rev}, table.RuleParams{Spec: "warnsdorff/first;order=(2,-1)(1,-2)(-1,-2)(-2,-1)(-2,1)(-1,2)(1,2)(2,1)", TieBreak: "first", MoveOrder: "(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)"}},
		{chain(t, "roth+first"), table.RuleParams{Spec: "warnsdorff/roth+first;order=" + cs, TieBreak: "roth+first", MoveOrder: canon}},
		{chain(t, "pohl+roth+random"), table.RuleParams{Spec: "warnsdorff/pohl+roth+random", TieBreak: "pohl+roth+random"}},
		{sim.Rule{Kind: sim.Backtrack, TieBreak: sim.TieFirst}, table.RuleParams{Spec: "backtrack;tie_break=first;order=" + cs + ";node_budget=10000000", TieBreak: "first", NodeBudget: table.Int64Of(sim.DefaultNodeBudget), MoveOrder: canon}},
		{sim.Rule{Kind: sim.Backtrack, TieBreak: sim.TieRandom, Closed: true, NodeBudget: 500}, table.RuleParams{Spec: "backtrack/closed;tie_break=random;order=" + cs + ";node_budget=500", TieBreak: "random", MaxSteps: null, NodeBudget: table.Int64Of(500), MoveOrder: canon}},
	} {
		if got := Params(c.rule); got != c.want {
			t.Errorf("%s %+v: got %+v, want %+v", c.rule.Name(), c.rule, got, c.want)
		}
	}
}

func chain(t *testing.T, tie string) sim.Rule {
	t.Helper()
	tb, err := sim.ParseTieBreak(tie)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Rule{Kind: sim.Warnsdorff, TieBreak: tb}
}
