package results

import (
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// Roth's rule with the canonical order fails from a1 at n = 11 only among
// n = 5..12 (squares 117 of 121; docs/design.md, Tie-break chains), and
// Warnsdorff with random ties from a corner succeeds with probability 1, 1,
// 0.737, 0.980, 0.987 on n = 5..9 (exact enumeration).
const setYAML = `name: sets
seed: 16
boards: [{sizes: 5..12}]
starts: [a1]
walks: 400
rules: [{name: warnsdorff, tie_break: roth+first}, {name: warnsdorff}]
claims:
  - {id: first, rule: warnsdorff/roth+first, square: a1, sizes: 5..12, first_failure: 11}
  - {id: first-wrong, rule: warnsdorff/roth+first, square: a1, sizes: 5..12, first_failure: 10}
  - {id: few, rule: warnsdorff/roth+first, square: a1, sizes: 5..12, failing_below: 0.2}
  - {id: fewer, rule: warnsdorff/roth+first, square: a1, sizes: 5..12, failing_below: 0.1}
  - {id: most, rule: warnsdorff/random, square: a1, sizes: 5..9, above: 0.85, share: 0.5}
  - {id: nearly-all, rule: warnsdorff/random, square: a1, sizes: 5..9, above: 0.85, share: 0.8}
`

func TestSetClaims(t *testing.T) {
	c, err := config.Parse("s.yaml", []byte(setYAML))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "s.yaml", []byte(setYAML))
	if err != nil {
		t.Fatal(err)
	}
	ts := tallies(t, e)
	tb, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		kind, verdict    string
		measured, lo, hi float64
	}{
		"first":       {"first-failure", stats.Consistent, 11, 11, 11},
		"first-wrong": {"first-failure", stats.Refuted, 11, 11, 11},
		"few":         {"failing-share", stats.Consistent, 0.125, 0.125, 0.125},
		"fewer":       {"failing-share", stats.Refuted, 0.125, 0.125, 0.125},
		"most":        {"share", stats.Consistent, 0.8, 0.8, 0.8}, // 7x7 alone is below 85 %, decisively
		"nearly-all":  {"share", stats.Refuted, 0.8, 0.8, 0.8},
	}
	if len(tb.Claims) != len(want) {
		t.Fatalf("%d claim rows, want %d (one per set claim)", len(tb.Claims), len(want))
	}
	for _, r := range tb.Claims {
		w := want[r.ID]
		if r.Kind != w.kind || r.Verdict != w.verdict || r.Measured != w.measured || r.Lo != w.lo || r.Hi != w.hi {
			t.Errorf("%s: %s %s measured %v [%v, %v], want %+v", r.ID, r.Kind, r.Verdict, r.Measured, r.Lo, r.Hi, w)
		}
	}
	if r := tb.Claims[4]; r.Board != "5..9" || r.Target != "square:a1, above 85%" || r.Walks != 5*400 {
		t.Errorf("share row: board %q target %q walks %d", r.Board, r.Target, r.Walks)
	}
	sw := Sweeps(e, tb.Squares)
	if len(sw) != 1 || sw[0].Start != "r0c0" || sw[0].Boards != 8 || len(sw[0].Failing) != 1 ||
		sw[0].Failing[0] != (Failure{Board: "11x11", Rows: 11, Cols: 11, Length: 117, Squares: 121}) {
		t.Errorf("Sweeps = %+v", sw)
	}
	rep := report(e, tb, nil)
	for _, s := range []string{"## Deterministic sweeps", "| warnsdorff/roth+first | r0c0 | 8 | 1 | 12.50% | 11x11 | 11x11 (117/121) |", "first failure at n = 11", "n = 11"} {
		if !strings.Contains(rep, s) {
			t.Errorf("report lacks %q", s)
		}
	}
}
