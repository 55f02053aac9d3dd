package harness

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestTourDraw: tour --draw FILE draws the walk it prints into FILE, in
// the format FILE's extension names.
func TestTourDraw(t *testing.T) {
	dir := t.TempDir()
	tour := []string{"tour", "--board", "5x5", "--start", "a1", "--rule", "warnsdorff", "--tie-break", "first"}
	text, _, err := runCmd(t, tour...)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"png", "svg", "pdf", "PNG"} {
		path := filepath.Join(dir, "tour."+ext)
		out, _, err := runCmd(t, append(tour, "--draw", path)...)
		if err != nil {
			t.Fatalf("--draw %s: %v", path, err)
		}
		if out != text {
			t.Errorf("--draw %s: prints\n%s\nnot what tour prints without it:\n%s", ext, out, text)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch strings.ToLower(ext) {
		case "png":
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
				t.Fatalf("%s is not a PNG: %v", path, err)
			}
			if r := img.Bounds(); r.Dx() < 200 || r.Dy() < 200 || len(b) < 5000 {
				t.Errorf("%s: %dx%d pixels, %d bytes; want a figure", path, r.Dx(), r.Dy(), len(b))
			}
		case "svg":
			// The figure's title and legend, from the walk printed.
			for _, want := range []string{"<svg", "warnsdorff/first on 5x5: walk 0 from a1 (25 squares)", "start a1", "25 of 25 squares visited"} {
				if !bytes.Contains(b, []byte(want)) {
					t.Errorf("%s does not hold %q", path, want)
				}
			}
		case "pdf":
			if !bytes.HasPrefix(b, []byte("%PDF-")) || len(b) < 2000 {
				t.Errorf("%s: %d bytes, not a PDF", path, len(b))
			}
		}
	}
}

// TestTourDrawRefuses: --draw never overwrites a file, and takes only the
// formats it draws; both are usage errors before any walk, and leave the
// directory as it was.
func TestTourDrawRefuses(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.png")
	if err := os.WriteFile(mine, []byte("a user's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	tour := []string{"tour", "--board", "5x5", "--start", "a1"}
	for _, c := range []struct{ path, want string }{
		{mine, "exists"},
		{filepath.Join(dir, "tour.jpg"), ".png, .svg or .pdf"},
		{filepath.Join(dir, "tour"), ".png, .svg or .pdf"},
		{dir, ".png, .svg or .pdf"},
	} {
		_, _, err := runCmd(t, append(tour, "--draw", c.path)...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--draw %s: err = %v, want a usage error saying %q", c.path, err, c.want)
		}
	}
	if b, _ := os.ReadFile(mine); string(b) != "a user's file" {
		t.Errorf("%s was changed: %q", mine, b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %d files; want only %s", len(ents), mine)
	}
	// A board too large to draw square by square is refused before the walk.
	_, _, err := runCmd(t, "tour", "--board", "201x201", "--start", "a1", "--draw", filepath.Join(dir, "big.svg"))
	var u usageError
	if !errors.As(err, &u) {
		t.Errorf("201x201 --draw: err = %v, want a usage error", err)
	}
}

// TestTourDrawWalk: --walk W draws walk W, another walk than walk 0 for
// the random rule; it is row W of the run's walks table, and the walk
// figure of a run with the figure option walk: W is the same figure.
func TestTourDrawWalk(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "w.yaml")
	os.WriteFile(cfg, []byte("name: w\nseed: 11\nboards: [5x5]\nstarts: [a1]\nwalks: 10\nrules: [{name: random}]\nexact: off\n"+
		"outputs: {walks: true, figures: [walk], figure_options: {walk: 3}}\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	tour := func(walk int, draw string) string {
		t.Helper()
		args := []string{"tour", "--board", "5x5", "--start", "a1", "--rule", "random", "--seed", "11", "--walk", strconv.Itoa(walk), "--format", "csv", "--draw", draw}
		stdout, _, err := runCmd(t, args...)
		if err != nil && !strings.Contains(err.Error(), "not a full tour") {
			t.Fatal(err)
		}
		return stdout
	}
	w0, w3 := tour(0, filepath.Join(dir, "w0.svg")), tour(3, filepath.Join(dir, "w3.svg"))
	if w0 == w3 {
		t.Fatalf("walks 0 and 3 of the random rule are the same walk:\n%s", w0)
	}
	rows, _, err := table.Read[table.WalkRow](filepath.Join(out, "walks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w3), "\n")
	last := strings.Split(lines[len(lines)-1], ",")
	found := false
	for _, r := range rows {
		if r.Walk == 3 {
			found = true
			if len(lines)-1 != int(r.Length) || last[1] != r.End {
				t.Errorf("tour --walk 3: %d squares ending %s; the walks table's row 3: %d ending %s", len(lines)-1, last[1], r.Length, r.End)
			}
		}
	}
	if !found {
		t.Fatal("no walk 3 in the walks table")
	}
	fig, err := os.ReadFile(filepath.Join(out, "figures", "walk_5x5_random.svg"))
	if err != nil {
		t.Fatal(err)
	}
	drawn3, _ := os.ReadFile(filepath.Join(dir, "w3.svg"))
	drawn0, _ := os.ReadFile(filepath.Join(dir, "w0.svg"))
	if !bytes.Equal(fig, drawn3) {
		t.Error("the run's walk figure (walk: 3) is not the figure tour --walk 3 --draw draws")
	}
	if bytes.Equal(fig, drawn0) || !bytes.Contains(fig, []byte("walk 3 from a1")) {
		t.Error("the run's walk figure (walk: 3) draws walk 0")
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(report), "Walk 3 of random on 5x5 from a1, replayed from the seed 11") {
		t.Errorf("report.md does not caption walk 3:\n%s", report)
	}
}
