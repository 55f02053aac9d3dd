package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExactTieBreakChain: --tie-break takes a chain; a deterministic chain
// gives P(success) 0 or 1 from every start. Pohl's original rule on 8x8
// (pohl+first, canonical order) fails from the centre and succeeds from a1;
// roth+first succeeds from every square.
func TestExactTieBreakChain(t *testing.T) {
	for _, c := range []struct {
		tie  string
		want map[string]string // start -> p_success
		ones int
	}{
		{"pohl+first", map[string]string{"a1": "1", "d4": "0", "e5": "0", "h1": "0", "b1": "1"}, 58},
		{"roth+first", map[string]string{"a1": "1", "d4": "1"}, 64},
	} {
		out, _, err := runCmd(t, "exact", "--board", "8x8", "--rule", "warnsdorff", "--tie-break", c.tie, "--format", "csv")
		if err != nil {
			t.Fatal(err)
		}
		ones := 0
		for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			f := strings.Split(l, ",")
			if f[4] != "0" && f[4] != "1" {
				t.Errorf("%s: row %q: P(success) not 0 or 1", c.tie, l)
			}
			if f[4] == "1" {
				ones++
			}
			if w, ok := c.want[f[0]]; ok && f[4] != w {
				t.Errorf("%s from %s: P(success) %s, want %s", c.tie, f[0], f[4], w)
			}
		}
		if ones != c.ones {
			t.Errorf("%s: %d starts succeed, want %d", c.tie, ones, c.ones)
		}
	}
	for bad, want := range map[string]string{
		"pohl+roth":       "must end in random or first",
		"roth+roth+first": "roth appears twice",
		"roth+coin":       `unknown tie-break "coin"`,
	} {
		_, _, err := runCmd(t, "exact", "--board", "5x5", "--tie-break", bad)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "valid tie-breaks are") || !errors.As(err, &u) {
			t.Errorf("--tie-break %s: got %v, want a usage error saying %q and listing what is valid", bad, err, want)
		}
	}
}

// TestWarnDeterministic: a deterministic rule with walks > 1 is told it
// runs one walk per start (not refused: claims-8x8 mixes it with random
// rules under one walks); walks: 1 and random rules are not.
func TestWarnDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		walks, rule string
		warn        bool
	}{{"10", "warnsdorff/roth+first", true}, {"1", "warnsdorff/roth+first", false}, {"10", "warnsdorff/roth", false}} {
		f := filepath.Join(dir, "w.yaml")
		src := "name: w\nboards: [5x5]\nstarts: [a1]\nwalks: " + tc.walks + "\nrules: [{name: " + tc.rule + "}]\n"
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, err := runCmd(t, "run", f, "--dry-run")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(stderr, tc.rule+" is deterministic: it runs 1 walk per start"); got != tc.warn {
			t.Errorf("walks %s, %s: warned %v, want %v (stderr %q)", tc.walks, tc.rule, got, tc.warn, stderr)
		}
	}
}
