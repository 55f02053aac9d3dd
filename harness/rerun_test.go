package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// rerunYAML exercises what the canonical form must carry back: a board
// range, start classes and squares, a move order, a backtrack rule, a
// step limit, claims on one board, a size range and a set statement, the
// per-walk table and figure options.
const rerunYAML = `name: rerun
seed: 12345678901234567890
boards: [{sizes: "5..6"}, 3x4]
starts: [corner, c3, b2]
walks: 40
rules:
  - {name: warnsdorff, tie_break: roth+first, order: "(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)"}
  - {name: warnsdorff, tie_break: random}
  - {name: random, max_steps: 9}
  - {name: backtrack, node_budget: 500}
confidence: 0.9
interval: clopper-pearson
outputs:
  walks: true
  figure_options: {heatmap: {metric: success}}
claims:
  - {id: one, rule: warnsdorff/random, board: 5x5, square: b2, rate: 0.75, tolerance: 0.05, source: "exact"}
  - {id: most, rule: warnsdorff/random, sizes: "5..6", class: corner, above: 0.5, share: 0.5}
  - {id: deg, rule: random, degree: 2, below: 0.2}
`

// TestRerunFromManifest: experiment run DIR/manifest.json, and the config
// key of a table saved as a file, write the run's tables byte for byte,
// and validate accepts both.
func TestRerunFromManifest(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "rerun.yaml")
	os.WriteFile(src, []byte(rerunYAML), 0o644)
	first := filepath.Join(dir, "first")
	if _, _, err := runCmd(t, "run", src, "--out", first, "--quiet"); err != nil {
		t.Fatal(err)
	}
	md, err := table.ReadMetadata(filepath.Join(first, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "config.yaml") // the table's config key saved as a file
	os.WriteFile(saved, []byte(md.Config), 0o644)
	manifest := filepath.Join(first, results.ManifestFile)
	for i, from := range []string{manifest, saved} {
		if _, _, err := runCmd(t, "validate", from); err != nil {
			t.Errorf("validate %s: %v", from, err)
		}
		again := filepath.Join(dir, "again"+string(rune('0'+i)))
		if _, _, err := runCmd(t, "run", from, "--out", again, "--quiet", "--workers", "3"); err != nil {
			t.Fatalf("run %s: %v", from, err)
		}
		for _, name := range append(results.TableFiles, results.WalksFile) {
			a, _ := os.ReadFile(filepath.Join(first, name))
			b, _ := os.ReadFile(filepath.Join(again, name))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("run %s: %s differs from the first run's", from, name)
			}
		}
	}

	// an edited manifest is refused, naming it, and nothing is run
	m, _ := os.ReadFile(manifest)
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, bytes.Replace(m, []byte(`"walks": 40`), []byte(`"walks": 41`), 1), 0o644)
	_, _, err = runCmd(t, "run", edited, "--out", filepath.Join(dir, "no"))
	if err == nil || !strings.Contains(err.Error(), "edited.json: config hashes to") {
		t.Errorf("edited manifest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("an edited manifest ran: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(`{"format": 1, "name": "x", "walks": 3, "colour": "red"}`), 0o644)
	if _, stderr, err := runCmd(t, "validate", bad); err == nil || !strings.Contains(stderr, `bad.yaml: not a resolved configuration`) || !strings.Contains(stderr, "colour") {
		t.Errorf("unknown key in a canonical config: %v, %s", err, stderr)
	}
}
