package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/figures"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestPlotExample redraws every figure of the committed example result set
// from its tables alone, into a copy of it.
func TestPlotExample(t *testing.T) {
	testenv.SkipUnlessSlow(t, "redrawing the example set's some 200 figures")
	dir := filepath.Join(t.TempDir(), "example")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "results", "example")
	if md, err := table.ReadMetadata(filepath.Join(src, "squares.parquet")); err != nil || md.SchemaVersion != table.SchemaVersion {
		// The committed example predates this schema version until it is
		// regenerated: draw from a fresh run of the same experiment.
		t.Logf("results/example is not schema version %d (%v): plotting a fresh run of the example experiment", table.SchemaVersion, err)
		src = filepath.Join(t.TempDir(), "fresh")
		if _, _, err := runCmd(t, "run", "example", "--out", src, "--quiet"); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue // figures/, if a run left it there
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runCmd(t, "plot", dir, "--figure", "all")
	if err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, kind := range config.Figures {
		if kind == "sweep-strip" || kind == "design-map" {
			continue // the example runs no deterministic rule to sweep (plots/sweep_test.go tests the drawing) and no design (TestDesignMap)
		}
		if !strings.Contains(out, "figures/"+kind+"_") {
			t.Errorf("no %s figure drawn:\n%s", kind, out)
		}
		for _, ext := range []string{".png", ".svg", ".pdf"} {
			m, _ := filepath.Glob(filepath.Join(dir, "figures", kind+"_*"+ext))
			if len(m) == 0 {
				t.Errorf("no %s%s", kind, ext)
			}
		}
		if !strings.Contains(string(report), "figures/"+kind+"_") {
			t.Errorf("report.md does not show %s", kind)
		}
	}
	if gifs, _ := filepath.Glob(filepath.Join(dir, "figures", "walk_*.gif")); len(gifs) == 0 {
		t.Error("no walk GIF")
	}
	if strings.Count(string(report), figures.FiguresHeading) != 1 {
		t.Error("report.md should have exactly one figures section")
	}
	if _, _, err := runCmd(t, "plot", dir, "--figure", "pie-chart"); err == nil || !strings.Contains(err.Error(), "valid figures") {
		t.Errorf("unknown figure: %v", err)
	}
	if _, _, err := runCmd(t, "plot", t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a result directory") {
		t.Errorf("not a result directory: %v", err)
	}
}

// TestPlotRefusesEmptyManifest: `plot` on a directory whose manifest reads
// `{}` fails and leaves report.md and the figures as they were.
func TestPlotRefusesEmptyManifest(t *testing.T) {
	dir := t.TempDir()
	report := "# r\n\n" + figures.FiguresHeading + "\n\n![a](figures/a.png)\n"
	for name, text := range map[string]string{"manifest.json": "{}", "report.md": report} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := runCmd(t, "plot", dir, "--figure", "all")
	if err == nil || !strings.Contains(err.Error(), "not the manifest of a finished run") {
		t.Errorf("plot with a {} manifest: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.md")); string(b) != report {
		t.Errorf("report.md changed:\n%s", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("plot wrote into %s: %v", dir, ents)
	}
}

// TestPlotRefusesOldSchema: tables of an older schema version (here the
// squares table of a version 1 result set) stop plot with an error naming the
// version found and the version expected, and draw nothing.
func TestPlotRefusesOldSchema(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "v1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"squares.parquet", "manifest.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "v1", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := runCmd(t, "plot", dir)
	if err == nil || !strings.Contains(err.Error(), "squares.parquet: schema version 1") || !strings.Contains(err.Error(), fmt.Sprintf("reads version %d", table.SchemaVersion)) {
		t.Fatalf("plot of a version 1 table: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "figures")); err == nil {
		t.Error("figures drawn from a version 1 table")
	}
}

// TestPlotSweepWith: `plot DIR --figure sweep-strip --with DIR2` draws
// DIR2's sweeps below DIR's, each row named by its move order, the fitted
// one as fitted; the caption writes that order out with why it was
// chosen. --with with another figure is a usage mistake, and DIR2 is only
// read.
func TestPlotSweepWith(t *testing.T) {
	tmp := t.TempDir()
	const canon = "name: canon\nseed: 1\nboards: [{sizes: 5..40}]\nstarts: [corner]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: roth+first}]\n"
	const fitted = `name: fitted
seed: 1
boards: [{sizes: 5..40}]
starts: [r0c0]
walks: 1
rules: [{name: warnsdorff, tie_break: roth+first, order: "(-2,1) (-2,-1) (1,2) (-1,-2) (-1,2) (2,-1) (1,-2) (2,1)"}]
claims:
  - {id: f, reading: "a1, order O*", fitted: true, why: "chosen because it fails first where the paper says", rule: warnsdorff/roth+first, square: r0c0, sizes: 5..40, first_failure: 7, source: "a test"}
`
	dirs := map[string]string{}
	for name, text := range map[string]string{"canon": canon, "fitted": fitted} {
		file := filepath.Join(tmp, name+".yaml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		dirs[name] = filepath.Join(tmp, name)
		if _, _, err := runCmd(t, "run", file, "--out", dirs[name], "--quiet"); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadDir(dirs["fitted"])
	if _, _, err := runCmd(t, "plot", dirs["canon"], "--figure", "sweep-strip", "--with", dirs["fitted"]); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dirs["canon"], "figures", "sweep-strip_canon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"canonical order", "fitted order (fitted)", "top right (h8 on 8×8)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the strip has no row label %q", want)
		}
	}
	// The title says the sizes swept, so a strip of a shortened run does
	// not read as the whole range of the experiment it shortens.
	if !strings.Contains(string(svg), "n = 5…40") {
		t.Error("the strip's title does not say the sizes it sweeps")
	}
	if strings.Count(string(svg), "a1 (bottom left)") != 2 {
		t.Error("want two a1 rows: the canonical order's and the fitted order's")
	}
	page, _ := os.ReadFile(filepath.Join(dirs["canon"], "figures", "index.html"))
	for _, want := range []string{"a1 (bottom left), fitted order (fitted):", "move order (-2,1) (-2,-1) (1,2)", "chosen because it fails first where the paper says", "not independent support"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the caption does not say %q", want)
		}
	}
	if after, _ := os.ReadDir(dirs["fitted"]); len(after) != len(before) {
		t.Errorf("plot wrote into the --with directory: %d entries, were %d", len(after), len(before))
	}
	_, _, err = runCmd(t, "plot", dirs["canon"], "--figure", "size-curve", "--with", dirs["fitted"])
	if err == nil || !strings.Contains(err.Error(), "--with goes with --figure sweep-strip") {
		t.Errorf("--with and another figure: %v", err)
	}
	_, _, err = runCmd(t, "plot", dirs["canon"], "--figure", "sweep-strip", "--with", filepath.Join(tmp, "nothing"))
	if err == nil || !strings.Contains(err.Error(), "nothing") {
		t.Errorf("--with a missing directory: %v", err)
	}
}
