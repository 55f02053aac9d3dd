package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEachSquareNamesFailingSquares: a claim quantified over the start
// squares (each: square) is judged square by square on the exact values:
// refuted where some square's exact value breaks the statement, naming
// exactly those squares (the squares table's exact values say which), and
// consistent where every square meets it; the claimed and measured texts
// count start squares, not boards.
func TestEachSquareNamesFailingSquares(t *testing.T) {
	s := specOf(t, "name: e\nseed: 1\nexact: on\nboards: [5x5]\nstarts: all\nwalks: 20\nrules: [{name: warnsdorff}]\nclaims:\n"+
		"  - {id: every, rule: warnsdorff/random, class: all, each: square, above: 0.5, source: a test}\n"+
		"  - {id: corners, rule: warnsdorff/random, class: corner, each: square, above: 0.5, source: a test}\n")
	done, err := Run(context.Background(), s, RunOptions{Out: filepath.Join(t.TempDir(), "r"), Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	var failing []string
	for _, sq := range done.Tables.Squares {
		if sq.ExactSuccess != sq.ExactSuccess {
			t.Fatalf("%s: no exact value", sq.Start)
		}
		if sq.ExactSuccess <= 0.5 {
			failing = append(failing, sq.Start)
		}
	}
	if len(failing) == 0 || len(failing) == 25 {
		t.Fatalf("failing squares %v: the test needs some of 25", failing)
	}
	rows := done.Tables.Claims
	if len(rows) != 2 {
		t.Fatalf("%d claim rows, want 2", len(rows))
	}
	every, corners := rows[0], rows[1]
	_, named, ok := strings.Cut(every.Target, "; failing ")
	if !ok || every.Verdict != "refuted" || every.DecidedBy != "exact" || every.Board != "5x5" {
		t.Fatalf("every square: %+v", every)
	}
	// "(16): b1, c1, ... and 4 more": the count, and at most 12 named
	var n int
	var list string
	if k, err := fmt.Sscanf(named, "(%d):", &n); k != 1 || err != nil {
		t.Fatalf("target %q: no count of failing squares", every.Target)
	}
	_, list, _ = strings.Cut(named, ": ")
	list, _, _ = strings.Cut(list, " and ")
	names := strings.Split(list, ", ")
	if n != len(failing) || len(names) != min(12, n) {
		t.Errorf("%d failing, %d named (%q); the exact values have %d: %v", n, len(names), every.Target, len(failing), failing)
	}
	for _, name := range names {
		if !slices.Contains(failing, name) {
			t.Errorf("%s named failing, but its exact value meets the statement", name)
		}
	}
	if want := float64(25-len(failing)) / 25; every.Measured != want {
		t.Errorf("measured share %v, want %v", every.Measured, want)
	}
	for _, r := range rows { // a share claim's row says its run and rule, as every other row
		if r.Experiment != "e" || r.Params.Spec != "warnsdorff/random" {
			t.Errorf("claim %s: experiment %q, rule_spec %q", r.ID, r.Experiment, r.Params.Spec)
		}
	}
	if corners.Verdict != "consistent" || strings.Contains(corners.Target, "failing") {
		t.Errorf("every corner: %+v", corners)
	}
}
