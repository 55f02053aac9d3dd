package results

import (
	"testing"

	"knightwalk/internal/table"
	"knightwalk/sim"
)

func TestParams(t *testing.T) {
	const canon = "(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"
	rev := []sim.Move{{DR: 2, DC: -1}, {DR: 1, DC: -2}, {DR: -1, DC: -2}, {DR: -2, DC: -1}, {DR: -2, DC: 1}, {DR: -1, DC: 2}, {DR: 1, DC: 2}, {DR: 2, DC: 1}}
	null := table.NullInt64{}
	for _, c := range []struct {
		rule sim.Rule
		want table.RuleParams
	}{
		{sim.Rule{Kind: sim.RandomWalk}, table.RuleParams{}},
		{sim.Rule{Kind: sim.RandomWalk, MaxSteps: 6}, table.RuleParams{MaxSteps: table.Int64Of(6)}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TiePohl}, table.RuleParams{TieBreak: "pohl"}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TieFirst, MaxSteps: 9}, table.RuleParams{TieBreak: "first", MaxSteps: table.Int64Of(9), MoveOrder: canon}},
		{sim.Rule{Kind: sim.Warnsdorff, TieBreak: sim.TieFirst, Order: rev}, table.RuleParams{TieBreak: "first", MoveOrder: "(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)"}},
		{chain(t, "roth+first"), table.RuleParams{TieBreak: "roth+first", MoveOrder: canon}},
		{chain(t, "pohl+roth+random"), table.RuleParams{TieBreak: "pohl+roth+random"}},
		{sim.Rule{Kind: sim.Backtrack, TieBreak: sim.TieFirst}, table.RuleParams{TieBreak: "first", NodeBudget: table.Int64Of(sim.DefaultNodeBudget), MoveOrder: canon}},
		{sim.Rule{Kind: sim.Backtrack, TieBreak: sim.TieRandom, Closed: true, NodeBudget: 500}, table.RuleParams{TieBreak: "random", MaxSteps: null, NodeBudget: table.Int64Of(500), MoveOrder: canon}},
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
