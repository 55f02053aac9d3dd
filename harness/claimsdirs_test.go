package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaimsAcrossDirectories: claims pools one claim id and reading from
// several directories only where they state the same thing; two
// thresholds under one id are refused naming both directories, and a
// directory named twice (also by another path) is refused, not printed
// twice.
func TestClaimsAcrossDirectories(t *testing.T) {
	tmp := t.TempDir()
	const base = `name: th
seed: SEED
boards: [5x5]
starts: [a1]
walks: 50
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: c, rule: warnsdorff/random, square: a1, above: ABOVE}
`
	run := func(name, seed, above string) string {
		t.Helper()
		cfg := filepath.Join(tmp, name+".yaml")
		text := strings.NewReplacer("SEED", seed, "ABOVE", above).Replace(base)
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, name)
		if _, _, err := runCmd(t, "run", cfg, "--out", dir, "--quiet"); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b, same := run("a", "1", "0.7"), run("b", "1", "0.9"), run("same", "2", "0.7")
	if _, _, err := runCmd(t, "claims", a, b); err == nil ||
		!strings.Contains(err.Error(), "claim c, reading \"as written\": above [0.7, 1] of warnsdorff/random on square:a1 in "+a+", but above [0.9, 1] of warnsdorff/random on square:a1 in "+b) {
		t.Errorf("two thresholds under one id: %v", err)
	}
	for _, args := range [][]string{{a, a}, {a, a + "/"}, {a, filepath.Join(tmp, ".", "x", "..", "a")}} {
		if out, _, err := runCmd(t, append([]string{"claims"}, args...)...); err == nil || !strings.Contains(err.Error(), "counted twice") || out != "" {
			t.Errorf("claims %v: %v, printed %q; want a refusal and nothing printed", args, err, out)
		}
	}
	out, _, err := runCmd(t, "claims", a, same)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "| `c` | as written |") != 2 {
		t.Errorf("one statement from two directories is not pooled:\n%s", out)
	}
}
