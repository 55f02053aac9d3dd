package harness

import (
	"context"
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// TestExactBoundsCommand: exact --bounds on 8x8 with a budget too small
// for the enumeration prints certified bounds that contain the exact value
// (text, csv and parquet agree), and without --bounds the same budget is
// refused; with room, the bounds are the exact value.
func TestExactBoundsCommand(t *testing.T) {
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	x, err := exact.Walk(context.Background(), b, r, b.Square(0, 0), 0)
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
	rows, _, err := table.Read[table.ExactRow](path)
	if err != nil || len(rows) != 1 || rows[0].PLower != lo || rows[0].PUpper != hi || rows[0].Dropped == 0 || rows[0].PSuccess != lo {
		t.Errorf("parquet: %v %+v, want [%g, %g]", err, rows, lo, hi)
	}
	exact := filepath.Join(t.TempDir(), "exact.parquet")
	if _, _, err := runCmd(t, "exact", "--board", "6x6", "--bounds", "--format", "parquet", "--out", exact); err != nil {
		t.Fatal(err)
	}
	rows, _, err = table.Read[table.ExactRow](exact)
	for _, r := range rows {
		if r.PLower != r.PSuccess || r.PUpper != r.PSuccess || r.Dropped != 0 {
			t.Errorf("6x6 %s with room: %+v, want p_lower = p_upper = p_success", r.Key.Start, r)
		}
	}
	if err != nil || len(rows) != 36 {
		t.Errorf("6x6: %v, %d rows", err, len(rows))
	}
}

// TestExactBoundsCommandWide: exact --bounds from a1 runs on boards beyond
// 128 squares, up to 25x25 (four, eight and ten words a visited set),
// printing bounds within the budget; a deterministic rule there is its one
// walk, exactly (p_lower = p_upper, 0 or 1, none dropped).
func TestExactBoundsCommandWide(t *testing.T) {
	row := func(args ...string) map[string]string {
		t.Helper()
		out, _, err := runCmd(t, append([]string{"exact", "--format", "csv"}, args...)...)
		recs, cerr := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || cerr != nil || len(recs) != 2 {
			t.Fatalf("%q: %v %v\n%s", args, err, cerr, out)
		}
		m := map[string]string{}
		for i, k := range recs[0] {
			m[k] = recs[1][i]
		}
		return m
	}
	for _, board := range []string{"12x12", "17x17", "25x25"} {
		m := row("--board", board, "--start", "a1", "--budget", "20000", "--bounds")
		lo, _ := strconv.ParseFloat(m["p_lower"], 64)
		hi, _ := strconv.ParseFloat(m["p_upper"], 64)
		states, _ := strconv.Atoi(m["nodes"])
		if !(0 <= lo && lo <= hi && hi <= 1) || m["dropped"] == "0" || states > 20000 || m["start"] != "a1" || m["board"] != board {
			t.Errorf("%s: %v", board, m)
		}
		m = row("--board", board, "--start", "a1", "--tie-break", "roth+first")
		if m["p_lower"] != m["p_upper"] || m["dropped"] != "0" || (m["p_success"] != "0" && m["p_success"] != "1") || m["nodes"] != m["tree_nodes"] {
			t.Errorf("%s roth+first: %v, want one walk's 0 or 1", board, m)
		}
	}
}
