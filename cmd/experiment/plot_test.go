package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwalk/internal/config"
	"knightwalk/internal/figures"
	"knightwalk/internal/table"
	"knightwalk/internal/testenv"
)

// TestPlotExample redraws every figure of the committed example result set
// from its tables alone, into a copy of it.
func TestPlotExample(t *testing.T) {
	testenv.SkipUnlessSlow(t, "redrawing the example set's some 200 figures")
	dir := filepath.Join(t.TempDir(), "example")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "..", "results", "example")
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
		if kind == "sweep-strip" {
			continue // the example runs no deterministic rule to sweep (plots/sweep_test.go tests the drawing)
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
	if err == nil || !strings.Contains(err.Error(), "squares.parquet: schema version 1") || !strings.Contains(err.Error(), "reads version 2") {
		t.Fatalf("plot of a version 1 table: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "figures")); err == nil {
		t.Error("figures drawn from a version 1 table")
	}
}
