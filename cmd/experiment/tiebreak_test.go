package main

import (
	"errors"
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
