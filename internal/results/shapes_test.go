package results

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestShapesInReport: a run over rows × columns writes each rule's success
// as a matrix whose cells are the boards table's rates (square boards on
// the diagonal), and a run over square boards alone writes none.
func TestShapesInReport(t *testing.T) {
	build := func(y string) (*Tables, string) {
		c, err := config.Parse("m.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		e, err := config.Resolve(c, "m.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		ts := tallies(t, e)
		tb, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
		if err != nil {
			t.Fatal(err)
		}
		return tb, report(e, tb, nil)
	}
	tb, rep := build("name: m\nseed: 2\nboards: [{rows: 5..6, cols: 5..7}]\nstarts: [a1]\nwalks: 40\nexact: off\nrules: [{name: warnsdorff}, {name: random}]\n")
	for _, rule := range []string{"warnsdorff/random", "random"} {
		if !strings.Contains(rep, "## Success by board shape: "+rule) {
			t.Errorf("no matrix for %s", rule)
		}
	}
	for _, r := range tb.Boards {
		if r.Rule != "warnsdorff/random" {
			continue
		}
		row := fmt.Sprintf("| %d |", r.Rows)
		if !strings.Contains(rep, row) || !strings.Contains(rep, fmt.Sprintf(" %.2f |", 100*r.SuccessRate)) {
			t.Errorf("%s: rate %.2f not in the matrix", r.Board, 100*r.SuccessRate)
		}
	}
	if !strings.Contains(rep, "| rows \\ cols | 5 | 6 | 7 |") {
		t.Errorf("header:\n%s", rep)
	}
	// On a board with an odd number of squares, b1 cannot start a tour:
	// the cell is a1's rate alone, not pulled down by b1's zeros.
	tb, rep = build("name: m\nseed: 3\nboards: [{rows: 5..6, cols: 5..7}]\nstarts: [a1, b1]\nwalks: 40\nexact: off\nrules: [{name: warnsdorff}]\n")
	for _, r := range tb.Squares {
		if r.Board == "5x7" && r.Start == "a1" && !strings.Contains(rep, fmt.Sprintf("| 5 | %.2f | %.2f | %.2f |", shapeRate(tb, "5x5"), shapeRate(tb, "5x6"), 100*float64(r.Successes)/float64(r.Walks))) {
			t.Errorf("5x7 row should be a1's rate %.2f on 5x5 and 5x7:\n%s", 100*float64(r.Successes)/float64(r.Walks), rep)
		}
	}
	if _, rep := build("name: m\nseed: 2\nboards: [5x5, 6x6]\nstarts: [a1]\nwalks: 10\nexact: off\nrules: [{name: warnsdorff}]\n"); strings.Contains(rep, "board shape") {
		t.Error("a matrix for square boards alone")
	}
}

// TestRuleSpecOrdersByN: a rule with move orders by n mod 8 keys its
// rule_spec by them, so it never joins the same rule without them.
func TestRuleSpecOrdersByN(t *testing.T) {
	r, _ := sim.ParseRule("warnsdorff/first")
	plain := Params(r).Spec
	rev := append([]sim.Move(nil), sim.CanonicalMoves[:]...)
	slices.Reverse(rev)
	r.OrdersMod8[3] = rev
	spec := Params(r).Spec
	want := "warnsdorff/first;order=(2,1)(1,2)(-1,2)(-2,1)(-2,-1)(-1,-2)(1,-2)(2,-1);order_n_mod_8_3=(2,-1)(1,-2)(-1,-2)(-2,-1)(-2,1)(-1,2)(1,2)(2,1)"
	if spec != want || spec == plain {
		t.Errorf("rule_spec %q\nwant     %q", spec, want)
	}
	c, _ := sim.ParseRule("squirrel-cull")
	if got := Params(c).Spec; got != "squirrel-cull" {
		t.Errorf("squirrel-cull: rule_spec %q", got)
	}
}

// shapeRate is the rate (%) the board-shape matrix should show for board:
// a1's alone on an odd board, a1's and b1's pooled on an even one.
func shapeRate(tb *Tables, board string) float64 {
	var w, k int64
	for _, r := range tb.Squares {
		if r.Board == board && (r.Start == "a1" || (r.Rows*r.Cols)%2 == 0) {
			w, k = w+r.Walks, k+r.Successes
		}
	}
	return 100 * float64(k) / float64(w)
}
