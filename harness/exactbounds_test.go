package harness

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"knightwalk/internal/table"
	"knightwalk/sim"
)

// TestExactBoundsCommand: exact --bounds on 8x8 with a budget too small
// for the enumeration prints certified bounds that contain the exact value
// (text, csv and parquet agree), and without --bounds the same budget is
// refused; with room, the bounds are the exact value.
func TestExactBoundsCommand(t *testing.T) {
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	x, err := sim.ExactWalk(context.Background(), b, r, b.Square(0, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "exact", "--board", "8x8", "--start", "a1", "--budget", "30000"); err == nil || !strings.Contains(err.Error(), "node budget exceeded") {
		t.Errorf("without --bounds: %v, want the budget refused", err)
	}
	out, _, err := runCmd(t, "exact", "--board", "8x8", "--start", "a1", "--budget", "30000", "--bounds")
	if err != nil || !strings.Contains(out, "0.6861*") || !strings.Contains(out, "a1: P(success) in [0.6860655639, 0.9921204367]") {
		t.Errorf("text: %v\n%s", err, out)
	}
	csv, _, err := runCmd(t, "exact", "--board", "8x8", "--start", "a1", "--budget", "30000", "--bounds", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if err != nil || len(lines) != 2 || !strings.HasSuffix(lines[0], ",board,rule,rule_spec,p_lower,p_upper,dropped") {
		t.Fatalf("csv: %v\n%s", err, csv)
	}
	f := strings.Split(lines[1], ",")
	lo, _ := strconv.ParseFloat(f[14], 64) // after rule_spec (issue 35), which holds no comma here
	hi, _ := strconv.ParseFloat(f[15], 64)
	if !(lo <= x.PSuccess && x.PSuccess <= hi && hi-lo > 0.1) || f[16] == "0" {
		t.Errorf("csv bounds [%g, %g] (dropped %s) vs exact %g", lo, hi, f[15], x.PSuccess)
	}
	path := filepath.Join(t.TempDir(), "exact.parquet")
	if _, _, err := runCmd(t, "exact", "--board", "8x8", "--start", "a1", "--budget", "30000", "--bounds", "--format", "parquet", "--out", path); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.ReadExact(path)
	if err != nil || len(rows) != 1 || rows[0].PLower != lo || rows[0].PUpper != hi || rows[0].Dropped == 0 || rows[0].PSuccess != lo {
		t.Errorf("parquet: %v %+v, want [%g, %g]", err, rows, lo, hi)
	}
	exact := filepath.Join(t.TempDir(), "exact.parquet")
	if _, _, err := runCmd(t, "exact", "--board", "6x6", "--bounds", "--format", "parquet", "--out", exact); err != nil {
		t.Fatal(err)
	}
	rows, _, err = table.ReadExact(exact)
	for _, r := range rows {
		if r.PLower != r.PSuccess || r.PUpper != r.PSuccess || r.Dropped != 0 {
			t.Errorf("6x6 %s with room: %+v, want p_lower = p_upper = p_success", r.Key.Start, r)
		}
	}
	if err != nil || len(rows) != 36 {
		t.Errorf("6x6: %v, %d rows", err, len(rows))
	}
}
