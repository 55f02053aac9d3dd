package results

import (
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// TestReportStatesComparisonFamily: the note under each
// comparisons table of report.md names the Holm family the comparisons
// table uses (TestComparisons checks the family itself): by default the
// question, one rule's class comparisons on one board and one class's rule
// comparisons on one board, not "every comparison of the run", which only
// comparison_family: run says.
func TestReportStatesComparisonFamily(t *testing.T) {
	c, err := config.Parse("b.yaml", []byte(boardsYAML))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "b.yaml", []byte(boardsYAML))
	if err != nil {
		t.Fatal(err)
	}
	ts := tallies(t, e)
	for _, m := range []struct {
		mode      string
		want, not []string
	}{
		{"question", []string{
			"\nHolm p: the p-value adjusted by Holm's method within its family, the class comparisons of one rule on one board (`comparison_family: question`",
			"\nHolm p: the p-value adjusted by Holm's method within its family, the rule comparisons of one class on one board (`comparison_family: question`"},
			[]string{"of the run", "on its board"}},
		{"board", []string{"\nHolm p: the p-value adjusted by Holm's method over every comparison on its board, both tables (`comparison_family: board`)."},
			[]string{"of the run", "one board"}},
		{"run", []string{"\nHolm p: the p-value adjusted by Holm's method over every comparison of the run, both tables (`comparison_family: run`)."},
			[]string{"on its board", "one board"}},
	} {
		e.ComparisonFamily = m.mode
		tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Comparisons) == 0 {
			t.Fatal("no comparisons: the test needs some")
		}
		md := report(e, tab, nil)
		var notes []string
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "Holm p:") {
				notes = append(notes, line)
			}
		}
		if len(notes) != 2 {
			t.Errorf("%s: %d notes under comparisons tables, want 2:\n%s", m.mode, len(notes), strings.Join(notes, "\n"))
		}
		for _, w := range m.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: the report lacks %q; its notes:\n%s", m.mode, w, strings.Join(notes, "\n"))
			}
		}
		for _, n := range m.not {
			if strings.Contains(strings.Join(notes, "\n"), n) {
				t.Errorf("%s: a note says %q:\n%s", m.mode, n, strings.Join(notes, "\n"))
			}
		}
	}
}
