package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSieveCommands: validate and --dry-run say what a sieve walks, run
// writes its sieve table, report and manifest and nothing else, a rerun
// from its manifest writes the same table, and plot and claims refuse the
// result, saying it is a sieve's.
func TestSieveCommands(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(file, []byte("name: s\nwalks: 1\nstarts: [r0c0]\nrules: [{name: warnsdorff, tie_break: first, order: rotations}]\nboards:\n  - {sizes: \"9\", keep: succeeds}\n  - {rows: \"5..7\", cols: \"5..8\", keep: fails}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "validate", file)
	if err != nil || !strings.Contains(out, "ok: s, a sieve of 8 cells (8 rules × 1 start square) in 2 stages (boards[0] keep succeeds on 1 board; boards[1] keep fails on 12 boards), at most 104 walks") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "run", file, "--dry-run")
	if err != nil || !strings.Contains(out, "no time estimate") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	res := filepath.Join(dir, "r")
	if _, _, err := runCmd(t, "run", file, "--out", res, "--quiet"); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(res)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "manifest.json report.md sieve.parquet" {
		t.Errorf("a sieve wrote %v", names)
	}
	again := filepath.Join(dir, "again")
	if _, _, err := runCmd(t, "run", filepath.Join(res, "manifest.json"), "--out", again, "--quiet"); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(res, "sieve.parquet"))
	b, _ := os.ReadFile(filepath.Join(again, "sieve.parquet"))
	if len(a) == 0 || string(a) != string(b) {
		t.Error("the rerun from the manifest wrote another sieve table")
	}
	for _, args := range [][]string{{"plot", res}, {"claims", res}} {
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "holds a sieve's result") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
