package results

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// TestComparisons: every two classes of each rule and every two rules on
// each class are compared, with the counts of the classes rows, the
// difference and test of stats.Compare, and p_holm Holm's adjustment
// within the comparison's family: by default the question it answers, or
// the board, or the run (comparison_family).
func TestComparisons(t *testing.T) {
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
	type cls struct{ board, rule, group string }
	classes := map[cls]table.ClassRow{}
	nclass := map[string]int{} // classes per board
	for _, r := range tab.Classes {
		if r.GroupBy == "class" {
			classes[cls{r.Board, r.Rule, r.Group}] = r
			if r.Rule == e.Rules[0].Name() {
				nclass[r.Board]++
			}
		}
	}
	want := 0
	for _, b := range e.Boards {
		k, nr := nclass[b.String()], len(e.Rules)
		want += nr*k*(k-1)/2 + k*nr*(nr-1)/2
	}
	if len(tab.Comparisons) != want {
		t.Fatalf("%d comparisons, want %d", len(tab.Comparisons), want)
	}
	p := make([]float64, len(tab.Comparisons))
	seen := map[string]int{}
	for i, r := range tab.Comparisons {
		p[i] = r.PValue
		seen[r.Compare]++
		if (r.Compare == "groups") != (r.RuleA == r.RuleB) || (r.Compare == "rules") != (r.GroupA == r.GroupB) || r.Experiment != "b" {
			t.Fatalf("row %d %+v: sides do not differ in what compare says", i, r)
		}
		a, b := classes[cls{r.Board, r.RuleA, r.GroupA}], classes[cls{r.Board, r.RuleB, r.GroupB}]
		if r.WalksA != a.Walks || r.SuccessesA != a.Successes || r.WalksB != b.Walks || r.SuccessesB != b.Successes {
			t.Errorf("row %d %+v: counts differ from the classes rows", i, r)
		}
		cmp := stats.Compare(stats.Proportion{Successes: uint64(a.Successes), Trials: uint64(a.Walks)},
			stats.Proportion{Successes: uint64(b.Successes), Trials: uint64(b.Walks)}, e.Confidence)
		if r.Diff != cmp.Diff.Center || r.DiffLo != cmp.Diff.Lo || r.DiffHi != cmp.Diff.Hi || r.PValue != cmp.PValue {
			t.Errorf("row %d %+v: differs from stats.Compare %+v", i, r, cmp)
		}
	}
	if seen["groups"] == 0 || seen["rules"] == 0 {
		t.Errorf("comparisons by kind: %v", seen)
	}
	// The default family is the question: classes of one rule on one
	// board, rules on one class of one board.
	family := func(r table.ComparisonRow) string {
		if r.Compare == "groups" {
			return r.Board + " " + r.RuleA + ": classes"
		}
		return r.Board + " " + r.GroupA + ": rules"
	}
	checkHolm(t, tab.Comparisons, family)

	// comparison_family: run adjusts over the whole table; board per board.
	for mode, fam := range map[string]func(table.ComparisonRow) string{
		"run":   func(table.ComparisonRow) string { return "run" },
		"board": func(r table.ComparisonRow) string { return r.Board },
	} {
		e.ComparisonFamily = mode
		tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
		if err != nil {
			t.Fatal(err)
		}
		checkHolm(t, tab.Comparisons, fam)
	}
}

// checkHolm requires every row's family to be family(row) and its p_holm
// Holm's adjustment of the p-values of its family's rows.
func checkHolm(t *testing.T, rows []table.ComparisonRow, family func(table.ComparisonRow) string) {
	t.Helper()
	idx := map[string][]int{}
	for i, r := range rows {
		if r.Family != family(r) {
			t.Fatalf("row %d: family %q, want %q", i, r.Family, family(r))
		}
		idx[r.Family] = append(idx[r.Family], i)
	}
	if len(idx) < 2 && family(rows[0]) != "run" {
		t.Fatalf("%d families: the test needs several", len(idx))
	}
	for f, is := range idx {
		p := make([]float64, len(is))
		for j, i := range is {
			p[j] = rows[i].PValue
		}
		for j, h := range stats.Holm(p) {
			r := rows[is[j]]
			if r.PHolm != h || r.PHolm < r.PValue || r.PHolm > 1 || math.IsNaN(r.PHolm) {
				t.Errorf("%s, row %d: p %v, p_holm %v, want %v", f, is[j], r.PValue, r.PHolm, h)
			}
		}
	}
}
