package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelpDashH: "help -h" and "help --help" print help's own usage, as
// "help help" does, instead of "unknown command".
func TestHelpDashH(t *testing.T) {
	want, _, err := runCmd(t, "help", "help")
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"-h", "--help"} {
		out, _, err := runCmd(t, "help", flag)
		if err != nil || out != want {
			t.Errorf("help %s: %v, %q; want %q", flag, err, out, want)
		}
	}
}

// TestQuietSilencesNotes: run --quiet prints nothing on success, the note
// that a deterministic rule runs one walk per start included.
func TestQuietSilencesNotes(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "det.yaml")
	text := "name: det\nseed: 1\nboards: [5x5]\nstarts: [a1]\nwalks: 10\nrules: [{name: warnsdorff, tie_break: first}, {name: random}]\nexact: off\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCmd(t, "run", cfg, "--out", filepath.Join(dir, "q"), "--quiet")
	if err != nil || out != "" || stderr != "" {
		t.Errorf("run --quiet: %v, stdout %q, stderr %q; want nothing", err, out, stderr)
	}
	_, stderr, err = runCmd(t, "run", cfg, "--out", filepath.Join(dir, "loud"))
	if err != nil || !strings.Contains(stderr, "warnsdorff/first is deterministic") {
		t.Errorf("run without --quiet: %v, stderr %q; want the note", err, stderr)
	}
}

// TestOrderNeedsFirst: --order with a tie-break that follows no order
// (random, the default) is refused by exact, tour and rare, as the
// experiment file's order: key is, not silently ignored.
func TestOrderNeedsFirst(t *testing.T) {
	const order = "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"
	for _, args := range [][]string{
		{"exact", "--board", "5x5", "--start", "a1", "--order", order},
		{"tour", "--board", "5x5", "--start", "a1", "--order", order},
		{"tour", "--board", "5x5", "--start", "a1", "--rule", "random", "--order", order},
		{"exact", "--board", "5x5", "--start", "a1", "--tie-break", "pohl+random", "--order", order},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "--order applies only to warnsdorff with a tie-break ending in first") {
			t.Errorf("%v: %v; want the usage error", args, err)
		}
	}
	out, _, err := runCmd(t, "tour", "--board", "5x5", "--start", "a1", "--tie-break", "first", "--order", order)
	if err != nil || !strings.Contains(out, "warnsdorff/first") {
		t.Errorf("--order with --tie-break first: %v, %q", err, out)
	}
}

// TestValidateEveryCommittedFile: validate experiments/*.yaml checks every
// file there (the sources file as a sources file) and passes, in well
// under the minutes a corner sweep over n = 5..2000 once took (the bound
// is loose for loaded machines; it takes a fraction of a second).
func TestValidateEveryCommittedFile(t *testing.T) {
	files, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(files) < 10 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	t0 := time.Now()
	out, stderr, err := runCmd(t, append([]string{"validate"}, files...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if took := time.Since(t0); took > 30*time.Second {
		t.Errorf("validate took %v", took)
	}
	if n := strings.Count(out, ": ok: "); n != len(files) {
		t.Errorf("%d of %d files ok:\n%s", n, len(files), out)
	}
	if !strings.Contains(out, "sources.yaml: ok: the sources file, ") {
		t.Errorf("the sources file is not checked as one:\n%s", out)
	}
}
