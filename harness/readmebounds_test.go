package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestReadmeBoundsDemo runs the certified-bounds demonstration of
// docs/exact.md ("A rate too rare to sample"):
// exact: bounds with a million states decides "the random walk from a1 on
// 9x9 succeeds with probability above 1e-22" (decided_by bounds), and a
// sample of about the same CPU time sees no success and cannot decide it.
func TestReadmeBoundsDemo(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the bounds demonstration of docs/exact.md, as the other documented numbers")
	readme := []byte(docPage(t, "docs/exact.md"))
	start := strings.Index(string(readme), "```yaml\nname: rare-bounds\n")
	if start < 0 {
		t.Fatal("docs/exact.md has no rare-bounds config")
	}
	cfg := string(readme[start+len("```yaml\n"):])
	cfg = cfg[:strings.Index(cfg, "```")]
	dir := t.TempDir()
	run := func(name, yaml string) table.ClaimRow {
		t.Helper()
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name)
		if _, _, err := runCmd(t, "run", path, "--out", out, "--quiet"); err != nil {
			t.Fatal(err)
		}
		rows, _, err := table.Read[table.ClaimRow](filepath.Join(out, "claims.parquet"))
		if err != nil || len(rows) != 1 {
			t.Fatalf("%s: %v, %d claim rows", name, err, len(rows))
		}
		return rows[0]
	}
	b := run("bounds", cfg)
	if b.DecidedBy != "bounds" || b.Verdict != "consistent" || !(b.ExactLower > 1e-22) || !strings.Contains(string(readme), "2.917e-20 %") {
		t.Errorf("bounds: decided by %s, %s, [%g, %g]", b.DecidedBy, b.Verdict, b.ExactLower, b.ExactUpper)
	}
	sampled := strings.NewReplacer("exact: bounds", `exact: "off"`, "walks: 1000\n", "walks: 1500000\n", "exact_budget: 1000000\n", "").Replace(cfg)
	s := run("sampled", sampled)
	if s.DecidedBy != "sample" || s.Verdict != "inconclusive" || s.Successes != 0 || s.Walks != 1_500_000 {
		t.Errorf("sampled: decided by %s, %s, %d of %d", s.DecidedBy, s.Verdict, s.Successes, s.Walks)
	}
}
