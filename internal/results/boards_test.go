package results

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

const boardsYAML = `name: b
seed: 12
boards: [6x6, 5x5]
starts: all
walks: 10
interval: clopper-pearson
confidence: 0.9
rules: [{name: random, max_steps: 10}, {name: backtrack, node_budget: 200}, {name: warnsdorff}]
`

// TestBoardsPoolSquares: one boards row per (board, rule) in the
// experiment's order, with counts summed over the squares rows, outcomes
// adding up to the walks, and the interval of the pooled counts in the
// experiment's method and level.
func TestBoardsPoolSquares(t *testing.T) {
	c, err := config.Parse("b.yaml", []byte(boardsYAML))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "b.yaml", []byte(boardsYAML))
	if err != nil {
		t.Fatal(err)
	}
	ts := tallies(t, e)
	tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Boards) != len(e.Boards)*len(e.Rules) {
		t.Fatalf("%d boards rows, want %d", len(tab.Boards), len(e.Boards)*len(e.Rules))
	}
	var stopped, budget int64
	for i, br := range tab.Boards {
		b, r := e.Boards[i/len(e.Rules)], e.Rules[i%len(e.Rules)]
		if br.Board != b.String() || br.Rule != r.Name() || br.Experiment != "b" || br.Params != Params(r) {
			t.Fatalf("row %d is %s %s %s %+v, want %s %s", i, br.Experiment, br.Board, br.Rule, br.Params, b, r.Name())
		}
		var squares int32
		var walks, succ, closed, stop, bud int64
		var lengthSum float64
		for _, sq := range tab.Squares {
			if sq.Board == br.Board && sq.Rule == br.Rule {
				squares++
				walks += sq.Walks
				succ += sq.Successes
				closed += sq.Closed
				stop += sq.Stopped
				bud += sq.BudgetExceeded
				lengthSum += sq.LengthMean * float64(sq.Walks)
			}
		}
		if br.Squares != squares || br.Walks != walks || br.Successes != succ || br.Closed != closed ||
			br.Stopped != stop || br.BudgetExceeded != bud || br.Successes+br.DeadEnds+br.Stopped+br.BudgetExceeded != br.Walks {
			t.Errorf("%s %s: %+v; squares pool to %d squares, %d walks, %d successes, %d closed, %d stopped, %d budget",
				br.Board, br.Rule, br, squares, walks, succ, closed, stop, bud)
		}
		if math.Abs(br.LengthMean-lengthSum/float64(walks)) > 1e-12 {
			t.Errorf("%s %s: length_mean %v, squares give %v", br.Board, br.Rule, br.LengthMean, lengthSum/float64(walks))
		}
		iv := stats.Proportion{Successes: uint64(succ), Trials: uint64(walks)}.Interval(0.9, stats.ClopperPearson)
		if r.Deterministic() { // its walks are the answer: no interval
			iv.Lo, iv.Hi = math.NaN(), math.NaN()
		}
		if br.SuccessRate != iv.Center || !sameFloat(br.SuccessLo, iv.Lo) || !sameFloat(br.SuccessHi, iv.Hi) || br.Deterministic != r.Deterministic() {
			t.Errorf("%s %s: success %v [%v, %v], want %+v", br.Board, br.Rule, br.SuccessRate, br.SuccessLo, br.SuccessHi, iv)
		}
		stopped += br.Stopped
		budget += br.BudgetExceeded
	}
	if stopped == 0 || budget == 0 {
		t.Errorf("the test covers no stopped walk (%d) or no search over budget (%d)", stopped, budget)
	}
}

// sameFloat is == with NaN equal to NaN (a null read as null).
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
