package runner

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// outcomesYAML has every outcome: open and closed tours (warnsdorff on 6x6),
// dead ends and stops (random with max_steps), and backtracking searches
// that give up at a small node budget.
const outcomesYAML = `name: outcomes
seed: 4
boards: [5x5, 6x6]
walks: 40
rules:
  - {name: warnsdorff}
  - {name: random, max_steps: 8}
  - {name: backtrack, node_budget: 300}
outputs: {walks: true}
`

// TestWalkOutcomes: each walk's outcome agrees with its success and closed
// flags, the outcomes add up to the squares and deadends tables, and nodes
// and backtracks are set exactly for the backtracking rule, summing to its
// means.
func TestWalkOutcomes(t *testing.T) {
	c, err := config.Parse("o.yaml", []byte(outcomesYAML))
	if err != nil {
		t.Fatal(err)
	}
	s, err := config.Resolve(c, "o.yaml", []byte(outcomesYAML))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 2, Shard: All}); err != nil {
		t.Fatal(err)
	}
	walks, _, err := table.Read[table.WalkRow](filepath.Join(dir, "walks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ board, rule, start string }
	count := map[key]map[string]int64{}
	var nodes, backtracks = map[key]int64{}, map[key]int64{}
	seen := map[string]bool{}
	for _, w := range walks {
		k := key{w.Board, w.Rule, w.Start}
		if count[k] == nil {
			count[k] = map[string]int64{}
		}
		count[k][w.Outcome]++
		seen[w.Outcome] = true
		success := w.Outcome == table.OutcomeSuccess || w.Outcome == table.OutcomeClosed
		if w.Success != success || w.Closed != (w.Outcome == table.OutcomeClosed) {
			t.Fatalf("walk %+v: outcome disagrees with success/closed", w)
		}
		if isBT := w.Rule == "backtrack"; w.Nodes.Valid != isBT || w.Backtracks.Valid != isBT {
			t.Fatalf("walk %+v: nodes/backtracks set %v, want %v", w, w.Nodes.Valid, isBT)
		}
		if w.Experiment != "outcomes" || w.Params != results.Params(s.Rules[ruleIndex(s, w.Rule)]) {
			t.Fatalf("walk %+v: experiment or rule parameters wrong", w)
		}
		nodes[k] += w.Nodes.Int64
		backtracks[k] += w.Backtracks.Int64
	}
	for _, o := range table.Outcomes {
		if !seen[o] {
			t.Errorf("no walk has outcome %s: the test does not cover it", o)
		}
	}
	squares, _, err := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	deadends, _, err := table.Read[table.DeadEndRow](filepath.Join(dir, "deadends.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	failed := map[key]int64{}
	for _, d := range deadends {
		failed[key{d.Board, d.Rule, d.Start}] += d.Count
	}
	for _, r := range squares {
		if r.Experiment != "outcomes" || r.Params != results.Params(s.Rules[ruleIndex(s, r.Rule)]) {
			t.Fatalf("square %+v: experiment or rule parameters wrong", r)
		}
		k := key{r.Board, r.Rule, r.Start}
		n := count[k]
		if n[table.OutcomeSuccess]+n[table.OutcomeClosed] != r.Successes || n[table.OutcomeClosed] != r.Closed ||
			n[table.OutcomeStopped] != r.Stopped || n[table.OutcomeBudget] != r.BudgetExceeded ||
			n[table.OutcomeDeadEnd]+n[table.OutcomeBudget] != failed[k] {
			t.Errorf("%v: outcomes %v disagree with squares %+v and %d dead ends", k, n, r, failed[k])
		}
		w := float64(r.Walks)
		wantNodes, wantBacktracks := float64(nodes[k])/w, float64(backtracks[k])/w
		if !strings.HasPrefix(r.Rule, "backtrack") { // null: the rule has no search
			wantNodes, wantBacktracks = math.NaN(), math.NaN()
		}
		if !sameFloat(r.NodesMean, wantNodes) || !sameFloat(r.BacktracksMean, wantBacktracks) {
			t.Errorf("%v: nodes %d, backtracks %d over %d walks; squares says means %v, %v", k, nodes[k], backtracks[k], r.Walks, r.NodesMean, r.BacktracksMean)
		}
	}
}

func ruleIndex(s *config.Experiment, name string) int {
	for i, r := range s.Rules {
		if r.Name() == name {
			return i
		}
	}
	panic("runner test: no rule " + name)
}

// sameFloat compares two means, NaN (a null) equal to NaN.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// sameValues compares tables (or rows) value for value, with NaN (a null,
// e.g. nodes_mean of a rule that is not backtrack) equal to NaN, which
// reflect.DeepEqual would not take. %#v prints every field, NaN as NaN.
func sameValues(a, b any) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }
