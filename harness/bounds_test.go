package harness

// Limits found by auditing every command, as regression tests: each case as it was found, and a
// table per class of fault (every command-line bound, every path that is
// not a file, every figure whose size grows with the board).

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCommandLineBounds: every numeric flag of every command refuses a
// value outside its range as a usage mistake, at once, naming the flag and
// what is valid (bench --workers 100000 ran without a cap).
func TestCommandLineBounds(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--workers", "100000"}, "want 1 to 1024"},
		{[]string{"bench", "--workers", "0"}, "want 1 to 1024"},
		{[]string{"bench", "--time", "0s"}, "at most 5m0s"},
		{[]string{"bench", "--time", "2h"}, "at most 5m0s"},
		{[]string{"run", "testdata/small.yaml", "--workers", "100000"}, "want 1 to 1024"},
		{[]string{"run", "testdata/small.yaml", "--shard", "5/2"}, "--shard"},
		{[]string{"exact", "--board", "5x5", "--workers", "5000"}, "want 1 to 1024"},
		{[]string{"exact", "--board", "5x5", "--budget", "-1"}, "--budget"},
		{[]string{"exact", "--board", "5x5", "--max-steps", "-1"}, "max"},
		{[]string{"exact", "--board", "5x5", "--max-memory", "0"}, "max-memory"},
		{[]string{"count", "--board", "5x5", "--workers", "0"}, "want 1 to 1024"},
		{[]string{"exact", "--board", "0x0"}, "board"},
		{[]string{"count", "--board", "1000x1000"}, ""},
	}
	for _, c := range cases {
		t0 := time.Now()
		_, _, err := runCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want an error mentioning %q, got %v", c.args, c.want, err)
		}
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("%v: took %v to refuse", c.args, d)
		}
	}
}

// TestUsageLinesNameEveryFlag: each command's usage line names every flag
// it accepts (exact's omitted --max-memory, --budget and --max-steps).
func TestUsageLinesNameEveryFlag(t *testing.T) {
	for _, c := range commands {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(c.usage, "--"+f.Name) {
				t.Errorf("experiment %s: usage %q does not name --%s", c.name, c.usage, f.Name)
			}
		})
	}
}

// TestPathsThatAreNotFiles: validate and run given a directory or a
// missing path answer at once with what the path is and what is wanted
// (a FIFO with no writer: config's TestLoadFIFONoWriter, on the same
// config.ReadFile, with a shorter wait).
func TestPathsThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{dir, "is a directory"},
		{filepath.Join(dir, "missing.yaml"), "no such file"},
	} {
		for _, cmd := range []string{"validate", "run"} {
			t0 := time.Now()
			args := []string{cmd, c.path}
			if cmd == "run" {
				args = append(args, "--out", filepath.Join(dir, "out"))
			}
			_, stderr, err := runCmd(t, args...)
			if err == nil || !strings.Contains(stderr+err.Error(), c.want) {
				t.Errorf("%s %s: want %q, got %v\n%s", cmd, c.path, c.want, err, stderr)
			}
			if d := time.Since(t0); d > 12*time.Second {
				t.Errorf("%s %s: %v", cmd, c.path, d)
			}
		}
	}
}

// TestOutTrailingSlash: run --out NEW/ makes NEW as a result directory
// (it used to create NEW empty first, then refuse it as existing).
func TestOutTrailingSlash(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ts_new") + "/"
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
		t.Fatal(err)
	}
}

// TestPlotStopsOnSignal: plot stops within a second or two of SIGINT
// (it drew every figure and rewrote report.md), leaves report.md as it
// was, and the temporary files of a plot killed outright are removed by
// the next plot.
func TestPlotStopsOnSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("draws figures")
	}
	dir := filepath.Join(t.TempDir(), "example")
	if err := os.CopyFS(dir, os.DirFS("../results/example")); err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	p := proc(t, nil, "plot", dir, "--figure", "all")
	var stderr strings.Builder
	p.Stderr = &stderr
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	p.Process.Signal(os.Interrupt)
	t0 := time.Now()
	p.Wait()
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("plot ran on %v after SIGINT", d)
	}
	if !strings.Contains(stderr.String(), "plot interrupted") {
		t.Errorf("stderr %q", stderr.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.md")); string(b) != string(report) {
		t.Error("an interrupted plot rewrote report.md")
	}
	// A temporary file as SIGKILL leaves one mid-write.
	stale := filepath.Join(dir, "figures", ".walk_5x5_random.svg.tmp-12345")
	os.WriteFile(stale, []byte("<svg"), 0o644)
	if _, _, err := runCmd(t, "plot", dir, "--figure", "success-heatmap"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed plot's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(dir + ".lock"); !os.IsNotExist(err) {
		t.Errorf("plot left its lock file: %v", err)
	}
}

// TestFiguresBoundedByBoard: every figure drawn one shape per square
// (heatmaps, the walk) is replaced by a note on a board over 200x200, so
// no figure's size grows with the board without bound (a 4096x4096 walk
// made a 766 MB SVG).
func TestFiguresBoundedByBoard(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "big.yaml")
	os.WriteFile(cfg, []byte("name: big\nseed: 1\nboards: [250x250]\nstarts: [r0c0]\nwalks: 1\nrules: [{name: warnsdorff}]\n"), 0o644)
	out := filepath.Join(dir, "big")
	if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := runCmd(t, "plot", out, "--figure", "success-heatmap,closed-heatmap,length-heatmap,deadend-heatmap,walk")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != "" {
		t.Errorf("figures drawn square by square on 250x250: %s", stdout)
	}
	for _, fig := range []string{"success-heatmap", "length-heatmap", "walk"} {
		if !strings.Contains(stderr, fig+": 250x250 warnsdorff/random: not drawn") {
			t.Errorf("no note for %s: %s", fig, stderr)
		}
	}
}
