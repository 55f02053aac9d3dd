package figures

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/sim"
)

// exampleCopy runs a small version of the example experiment (5x5 to 7x7,
// both rules, every start, 60 walks; no figures, no exact values: none of
// its tests draws them, and the random walk's enumeration on 5x5 alone
// costs seconds) into a temporary directory: a result set of the tables'
// current schema, in well under a second.
func exampleCopy(t *testing.T) string {
	t.Helper()
	const text = `name: example
seed: 5
boards: [{sizes: 5..7}]
starts: all
walks: 60
rules: [{name: warnsdorff, tie_break: random}, {name: random}]
exact: off
`
	c, err := config.Parse("example.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "example.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "example")
	if _, err := runner.Run(context.Background(), e, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// failAfter is a writer that fails once n bytes have passed, as a full disk does.
type failAfter struct {
	w io.Writer
	n int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n, _ := f.w.Write(p[:f.n])
		f.n = 0
		return n, errors.New("no space left on device")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// A writer that fails part-way leaves the figure files as they were (or
// absent) and no temporary file behind, and the report is not touched.
func TestFailingWriterLeavesNoPartialFile(t *testing.T) {
	dir := exampleCopy(t)
	figs := filepath.Join(dir, results.FiguresDir)
	if err := os.MkdirAll(figs, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(figs, "size-curve_example_warnsdorff-random.svg")
	if err := os.WriteFile(old, []byte("previous figure"), 0o644); err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(filepath.Join(dir, results.ReportFile))
	defer func(w func(io.Writer) io.Writer) { wrapWriter = w }(wrapWriter)
	wrapWriter = func(w io.Writer) io.Writer { return &failAfter{w: w, n: 2000} }

	if _, err := Draw(dir, []string{"size-curve"}); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("Draw with a failing writer: %v", err)
	}
	ents, _ := os.ReadDir(figs)
	for _, e := range ents {
		info, _ := e.Info()
		if e.Name() != filepath.Base(old) || info.Size() == 0 || strings.Contains(e.Name(), ".tmp") {
			t.Errorf("left behind: %s (%d bytes)", e.Name(), info.Size())
		}
	}
	if b, _ := os.ReadFile(old); string(b) != "previous figure" {
		t.Errorf("previous figure overwritten: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, results.ReportFile)); string(b) != string(report) {
		t.Error("report.md changed")
	}

	// The same draw with a working writer replaces the file.
	wrapWriter = func(w io.Writer) io.Writer { return w }
	if _, err := Draw(dir, []string{"size-curve"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); !strings.HasPrefix(string(b), "<?xml") {
		t.Errorf("figure not redrawn: %.40q", b)
	}
}

// A manifest that does not describe a finished run is refused before
// anything is drawn or rewritten: `{}` must not read as "no figures" and
// delete the report's figures section.
func TestEmptyManifestChangesNothing(t *testing.T) {
	for _, text := range []string{"{}", `{"experiment": "x", "config": {}}`} {
		dir := exampleCopy(t)
		reportPath := filepath.Join(dir, results.ReportFile)
		report := "# x\n\n" + FiguresHeading + "\n\n![a](figures/a.png)\n"
		if err := os.WriteFile(reportPath, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, results.ManifestFile), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Draw(dir, nil)
		if err == nil || !strings.Contains(err.Error(), "not the manifest of a finished run") {
			t.Errorf("%s: Draw: %v", text, err)
		}
		if b, _ := os.ReadFile(reportPath); string(b) != report {
			t.Errorf("%s: report.md changed:\n%s", text, b)
		}
		if _, err := os.Stat(filepath.Join(dir, results.FiguresDir)); err == nil {
			t.Errorf("%s: figures directory created", text)
		}
	}
}

// UpdateReport replaces the figures section through a temporary file and
// keeps everything before it.
func TestUpdateReportReplacesSection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, results.ReportFile)
	if err := os.WriteFile(path, []byte("# r\n\ntext\n\n"+FiguresHeading+"\n\nold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	drawn := []Drawn{{Name: "walk", Base: filepath.Join(dir, "figures", "walk_5x5_random"), Caption: "Walk <0> & more."}}
	if err := UpdateReport(dir, drawn); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if s := string(b); !strings.HasPrefix(s, "# r\n\ntext\n\n"+FiguresHeading) || strings.Contains(s, "old") ||
		!strings.Contains(s, "(figures/walk_5x5_random.png)") {
		t.Errorf("report:\n%s", s)
	}
	if !strings.Contains(string(b), "\n\nWalk <0> & more.\n\n") {
		t.Errorf("report has no caption under the figure:\n%s", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("want report.md and figures/, found %v", ents)
	}
	// index.html shows the figure with its caption, escaped, and nothing else.
	if ents, _ := os.ReadDir(filepath.Join(dir, "figures")); len(ents) != 1 || ents[0].Name() != IndexFile {
		t.Errorf("figures/ holds %v, want only %s", ents, IndexFile)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "figures", IndexFile))
	if s := string(page); !strings.Contains(s, `<img src="walk_5x5_random.png"`) || !strings.Contains(s, "<figcaption>Walk &lt;0&gt; &amp; more.") {
		t.Errorf("index.html:\n%s", s)
	}
}

// The parity mask hatches exactly the squares from which exact
// enumeration finds no tour can start, on odd boards: the squares not of
// the corners' colour. (On the majority colour some squares fail too — they
// are data, not parity, and stay drawn.)
func TestNoStartMatchesExact(t *testing.T) {
	for _, n := range []int{5, 7} {
		b, err := sim.NewBoard(n, n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.ParseRule("warnsdorff/random")
		if err != nil {
			t.Fatal(err)
		}
		some := false
		for sq := range b.Squares() {
			e, err := exact.Walk(context.Background(), b, r, sq, 2_000_000)
			if err != nil {
				t.Fatal(err)
			}
			row, col := b.RowCol(sq)
			if minority(row, col) && e.PSuccess != 0 {
				t.Errorf("%dx%d %s: minority colour, P(success) = %v", n, n, b.SquareName(sq), e.PSuccess)
			}
			some = some || !minority(row, col) && e.PSuccess > 0
		}
		if !some {
			t.Errorf("%dx%d: no square of the corners' colour starts a tour", n, n)
		}
	}
}

// The figure options recorded in the manifest reach the figures: a size
// curve split by colour, with a published value of its rule and none of
// another rule's.
func TestFigureOptionsFromManifest(t *testing.T) {
	dir := exampleCopy(t)
	path := filepath.Join(dir, results.ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["config"].(map[string]any)["outputs"].(map[string]any)["figure_options"] = map[string]any{
		"size_curve": map[string]any{"classes": []string{"all"}, "parity": "split", "references": []map[string]any{
			{"rule": "warnsdorff/random", "source": "Published Here 1996", "n": 7, "rate": 0.75},
			{"rule": "random", "source": "Elsewhere 2004", "n": 7, "rate": 0.5},
		}},
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Draw(dir, []string{"size-curve"}); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, results.FiguresDir, "size-curve_example_warnsdorff-random.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"all starts, a1&#39;s colour", "all starts, other colour", "Published Here 1996"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("size curve lacks %q", want)
		}
	}
	if strings.Contains(string(svg), "Elsewhere") || strings.Contains(string(svg), "corner starts") {
		t.Error("size curve shows another rule's reference or a class not asked for")
	}
}
