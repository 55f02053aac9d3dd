package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestMarateckOrders runs experiments/marateck-orders (warnsdorff/first
// under all 40,320 move orders from one triangle's 10 squares) and pins
// its per-square tally of failing orders; and checks the symmetry that
// lets 10 squares stand for 64: the corners' tallies are equal.
func TestMarateckOrders(t *testing.T) {
	testenv.SkipUnlessSlow(t, "403,200 walks of warnsdorff/first, and 161,280 more from the corners")
	tmp := t.TempDir()
	if _, _, err := runCmd(t, "run", "marateck-orders", "--out", filepath.Join(tmp, "m"), "--quiet"); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.Read[table.DesignRow](filepath.Join(tmp, "m", "designs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"a1": 396, "b1": 272, "c1": 609, "d1": 1313, "b2": 1386, "c2": 338, "d2": 3457, "c3": 1080, "d3": 1902, "d4": 1064}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		if r.Cells != 40320 || r.CellsFailing != want[r.Start] || r.CellsNever != r.CellsFailing || !r.Deterministic {
			t.Errorf("%s: %+v; want %d failing orders", r.Start, r, want[r.Start])
		}
	}
	corners := filepath.Join(tmp, "corners.yaml")
	os.WriteFile(corners, []byte("name: corners\nboards: [8x8]\nstarts: [corner]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: first, order: all}]\n"), 0o644)
	if _, _, err := runCmd(t, "run", corners, "--out", filepath.Join(tmp, "c"), "--quiet"); err != nil {
		t.Fatal(err)
	}
	rows, _, err = table.Read[table.DesignRow](filepath.Join(tmp, "c", "designs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.CellsFailing != want["a1"] {
			t.Errorf("corner %s: %d failing orders, a1 has %d", r.Start, r.CellsFailing, want["a1"])
		}
	}
}
