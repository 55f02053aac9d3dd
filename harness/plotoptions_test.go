package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotFigureOptions: plot DIR --figure-options FILE redraws a finished
// run's figures with FILE's options (a reference line on the size curve,
// another walk), and a file with a problem is refused, naming its file,
// line and key, before anything is written.
func TestPlotFigureOptions(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "e.yaml")
	os.WriteFile(cfg, []byte("name: e\nseed: 5\nboards: [5x5, 6x6]\nstarts: [a1]\nwalks: 20\nrules: [{name: warnsdorff}]\nexact: off\n"+
		"outputs: {figures: [size-curve, walk]}\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	curve := filepath.Join(out, "figures", "size-curve_e_warnsdorff-random.svg")
	walk := filepath.Join(out, "figures", "walk_5x5_warnsdorff-random.svg")
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := read(curve); strings.Contains(s, "Ganzfried") {
		t.Fatal("the size curve draws a reference before one is asked for")
	}
	manifest := read(filepath.Join(out, "manifest.json"))

	opts := filepath.Join(dir, "opts.yaml")
	os.WriteFile(opts, []byte("size_curve:\n  references:\n    - {rule: warnsdorff, n: 5, n_max: 6, at_least: 0.98, source: ganzfried-2004-98-to-25}\nwalk: 7\n"), 0o644)
	stdout, _, err := runCmd(t, "plot", out, "--figure-options", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "size-curve_e_warnsdorff-random.{png,svg,pdf}") || !strings.Contains(stdout, "walk_5x5_warnsdorff-random.{png,svg,pdf}") {
		t.Errorf("plot printed\n%s", stdout)
	}
	if s := read(curve); !strings.Contains(s, "Ganzfried (2004): ≥ 98 % for n = 5…6") {
		t.Error("the size curve redrawn with a reference line does not draw it")
	}
	if s := read(walk); !strings.Contains(s, "walk 7 from a1") {
		t.Error("the walk figure redrawn with walk: 7 does not draw walk 7")
	}
	if r := read(filepath.Join(out, "report.md")); !strings.Contains(r, "Walk 7 of warnsdorff/random") {
		t.Error("report.md does not caption the walk redrawn")
	}
	if read(filepath.Join(out, "manifest.json")) != manifest {
		t.Error("plot --figure-options changed manifest.json")
	}

	// A file with problems: every one named, nothing written.
	snapshot := func() map[string]string {
		m := map[string]string{"report.md": read(filepath.Join(out, "report.md"))}
		ents, _ := os.ReadDir(filepath.Join(out, "figures"))
		for _, e := range ents {
			m[e.Name()] = read(filepath.Join(out, "figures", e.Name()))
		}
		return m
	}
	before := snapshot()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("heatmap: {scale: log}\nsize_curve:\n  refrences: []\n  classes: [corner]\nwalk: 20\n"), 0o644)
	_, _, err = runCmd(t, "plot", out, "--figure-options", bad)
	for _, want := range []string{
		bad + ":3: size_curve.refrences: unknown key (did you mean references?)",
		bad + ":5: walk: 20 is not a walk of this run",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad options: err = %v\nwant it to say %q", err, want)
		}
	}
	os.WriteFile(bad, []byte("size_curve:\n  references:\n    - {rule: warnsdorff, n: 5, rate: 0.99, source: Ganzfried 2004}\n"), 0o644)
	if _, _, err = runCmd(t, "plot", out, "--figure-options", bad); err == nil || !strings.Contains(err.Error(), bad+":3: size_curve.references[0].source: \"Ganzfried 2004\" is words, not a source id") {
		t.Errorf("words as a reference's source: err = %v", err)
	}
	if _, _, err = runCmd(t, "plot", out, "--figure-options", filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "none.yaml") {
		t.Errorf("a missing options file: err = %v", err)
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Errorf("refused options files changed the figures: %d files, were %d", len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal([]byte(after[name]), []byte(b)) {
			t.Errorf("refused options files rewrote %s", name)
		}
	}
}
