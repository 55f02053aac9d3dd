package harness

// Exit statuses found by auditing every command, as regression tests: an exit status that tells the
// truth. Each case as it was found, then the class it belongs to.

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestForceReplacesOwnResultWithFigures: `run; run --force` (the flow
// docs/commands.md describes) with figures drawn by run and more drawn by plot, and an empty
// directory given as --out, are all replaced by --force.
func TestForceReplacesOwnResultWithFigures(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r")
	yaml := filepath.Join(dir, "f.yaml")
	src, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, []byte("outputs: {figures: [success-heatmap]}\n")...)
	if err := os.WriteFile(yaml, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, results.FiguresDir, results.FigureIndexFile)); err != nil {
		t.Fatalf("run drew no gallery page: %v", err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", out, "--quiet", "--force"); err != nil {
		t.Fatalf("--force refused the tool's own result with figures: %v", err)
	}
	if _, _, err := runCmd(t, "plot", out, "--figure", "all"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", out, "--quiet", "--force"); err != nil {
		t.Fatalf("--force refused a result that plot redrew: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", empty, "--quiet"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("an existing empty --out without --force: want a hint to pass --force, got %v", err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", empty, "--quiet", "--force"); err != nil {
		t.Fatalf("--force refused an empty directory after asking for it: %v", err)
	}
	// A user's file in the result is still never replaced.
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", yaml, "--out", out, "--quiet", "--force"); err == nil {
		t.Fatal("--force replaced a result holding a user's file")
	}
}

// TestValueFlagNeverTakesAPositional: a value flag with no value after it,
// or followed by another flag, is a usage error naming the flag, for every
// value flag of every command (run random-walk --out ran the default
// experiment into ./random-walk and exited 0).
func TestValueFlagNeverTakesAPositional(t *testing.T) {
	for _, args := range [][]string{
		{"run", "random-walk", "--out"},
		{"merge", "p0", "p1", "p2", "--out"},
		{"plot", "DIR", "--figure"},
		{"run", "random-walk", "--out", "--force"},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "needs a value") {
			t.Errorf("%q: want a usage error saying the flag needs a value, got %v", args, err)
		}
	}
	if _, err := os.Stat("random-walk"); err == nil {
		t.Fatal("a run wrote ./random-walk")
	}
	// The class: every value flag of every command, last on the line.
	for _, c := range commands {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				return
			}
			args := []string{c.name, "POSITIONAL", "--" + f.Name}
			_, _, err := runCmd(t, args...)
			if err == nil || !strings.Contains(err.Error(), "--"+f.Name+" needs a value") {
				t.Errorf("%q: want \"--%s needs a value\", got %v", args, f.Name, err)
			}
		})
	}
	// A negative number is a value, and NAME=VALUE is one argument.
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Int("n", 0, "")
	fs.String("out", "", "")
	got, err := cli.Interleaved(fs, []string{"pos", "--n", "-1", "--out=-x"})
	if err != nil || strings.Join(got, " ") != "--n -1 --out=-x pos" {
		t.Fatalf("interleaved: got %q, %v", got, err)
	}
}

// failWriter fails every write after the first limit bytes, as a full
// disk does.
type failWriter struct{ limit, n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n+len(p) > f.limit {
		k := max(0, f.limit-f.n)
		f.n += k
		return k, errors.New("no space left on device")
	}
	f.n += len(p)
	return len(p), nil
}

// TestFailedWriteToStdoutFails: every command that prints its result exits
// non-zero when standard output fails, at once or after some bytes
// (exact --format csv > /dev/full exited 0; a full disk cut the CSV at
// 4096 bytes with exit 0).
func TestFailedWriteToStdoutFails(t *testing.T) {
	cases := [][]string{
		{"exact", "--board", "5x5", "--format", "csv"},
		{"exact", "--board", "5x5"},
		{"count", "--board", "5x5"},
		{"tour", "--board", "8x8", "--start", "a1"},
		{"rare", "--board", "20x20", "--particles", "50", "--replicates", "2"},
		{"version"},
		{"help"},
		{"help", "run"},
	}
	for _, args := range cases {
		for _, limit := range []int{0, 100} {
			var errb strings.Builder
			err := run(t.Context(), &failWriter{limit: limit}, &errb, args)
			if err == nil || !strings.Contains(err.Error(), "writing its output failed") {
				t.Errorf("%q with stdout failing after %d bytes: want an error, got %v", args, limit, err)
			}
		}
	}
}

// TestHelpHelp: "help help" is help, not an unknown command.
func TestHelpHelp(t *testing.T) {
	out, _, err := runCmd(t, "help", "help")
	if err != nil || !strings.Contains(out, "experiment help") {
		t.Fatalf("help help: %q, %v", out, err)
	}
}

// TestBudgetsBoundPeakRSS (slow): --max-memory bounds the
// process's peak resident memory, measured by the kernel (rusage) on the
// command run as its own process: count peaked at 122 / 378 / 1452 MB for
// budgets of 64 MiB / 256 MiB / 1 GiB, exact 6x6 from a1 at 604 MiB for
// 512 MiB. A run may stop for the budget (that is what it is for); it may
// not pass it. Budgets from 256 MiB: below that the program's own
// footprint (30 to 90 MB here, more for this test binary under a loaded
// machine) is most of the budget, and docs/commands.md says so.
func TestBudgetsBoundPeakRSS(t *testing.T) {
	testenv.SkipUnlessSlow(t, "count and exact up to their memory budgets (about 30 s)")
	spill := t.TempDir()
	for _, c := range []struct {
		budget int64
		args   []string
	}{
		{256 << 20, []string{"count", "--board", "8x8", "--force", "--max-memory", "256MiB"}},
		{1 << 30, []string{"count", "--board", "8x8", "--force", "--max-memory", "1GiB"}},
		{1 << 30, []string{"exact", "--board", "6x6", "--rule", "random", "--start", "a1", "--max-memory", "1GiB"}},
		// in memory 9x9 from a1 needs some 150 MiB; spilled it fits 128
		{128 << 20, []string{"exact", "--board", "9x9", "--start", "a1", "--max-memory", "128MiB", "--spill", spill, "--workers", "2"}},
	} {
		p, maxrss := procRSS(t, nil, c.args...)
		out, _ := p.CombinedOutput()
		if _, ok := p.ProcessState.SysUsage().(*syscall.Rusage); !ok {
			t.Skip("no rusage on this system")
		}
		peak := maxrss()
		t.Logf("%v: peak %.0f MiB of %d MiB (%s)", c.args, float64(peak)/(1<<20), c.budget>>20, lastLine(string(out)))
		if float64(peak) > 1.05*float64(c.budget) {
			t.Errorf("%v: peak resident memory %.0f MiB, over the budget of %d MiB", c.args, float64(peak)/(1<<20), c.budget>>20)
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := lines[len(lines)-1]
	if len(l) > 120 {
		l = l[:120] + "…"
	}
	return l
}

// TestTableFromAnotherRunRefused: a table copied into a result
// from another run (another seed, so another config hash) is refused by
// plot and claims, naming both runs, instead of being used as this run's.
func TestTableFromAnotherRunRefused(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	src, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(other, []byte(strings.Replace(string(src), "seed: 3", "seed: 4", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", a, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "run", other, "--out", b, "--quiet"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{results.ClaimsFile, results.SquaresFile} {
		data, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(a, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"claims", a}, {"plot", a, "--figure", "success-heatmap"}} {
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "a table from another run") {
			t.Errorf("%q with a table of another run: %v", args, err)
		}
	}
}

// TestRareRefusals: rare refuses up front what its particles
// could not hold (4096x4096 passed 3 GB in 9 s), and an explicit zero
// where a positive value is needed instead of silently using the default.
func TestRareRefusals(t *testing.T) {
	t0 := time.Now()
	if _, _, err := runCmd(t, "rare", "--board", "4096x4096"); err == nil || !strings.Contains(err.Error(), "saved board states need about 31.3 GiB") {
		t.Errorf("rare 4096x4096: %v", err)
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
	for _, flag := range []string{"--confidence", "--level-fraction", "--pilot"} {
		_, _, err := runCmd(t, "rare", "--board", "20x20", flag, "0")
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), flag+" 0") {
			t.Errorf("rare %s 0: %v; want a usage error naming it", flag, err)
		}
	}
}

// TestUpFrontRefusals: exact and count check --out before
// computing (a missing directory failed after the work, naming a temp
// file), and tour says a closed tour is impossible on an odd board
// instead of spending the search's budget.
func TestUpFrontRefusals(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nodir", "x.parquet")
	for _, args := range [][]string{
		{"exact", "--board", "5x5", "--format", "parquet", "--out", missing},
		{"count", "--board", "5x5", "--format", "parquet", "--out", missing},
	} {
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "does not exist; create it first") {
			t.Errorf("%q: %v", args, err)
		}
	}
	if _, _, err := runCmd(t, "tour", "--board", "7x7", "--start", "a1", "--rule", "backtrack/closed"); err == nil || !strings.Contains(err.Error(), "needs an even number of squares") {
		t.Errorf("tour closed on 7x7: %v", err)
	}
}

// TestAuditCorpus (slow): the audit's command lines (testdata/audit/
// cases.txt), each run as a real process of the command: the exit status,
// a phrase of the error, and every case under 10 s and 1 GiB (5 s for
// the misbehaving rules of testdata/audit/badrules), none printing a Go
// stack trace or, failing, leaving anything in its OUT. Each turn's
// audit starts from them.
func TestAuditCorpus(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the audit corpus as real processes")
	data, err := os.ReadFile("testdata/audit/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 {
			t.Fatalf("cases.txt:%d: want 'status | phrase | arguments'", i+1)
		}
		want, phrase, args := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1]), strings.Fields(parts[2])
		out := t.TempDir()
		full, bad, sigint := false, false, false
		for len(args) > 0 {
			switch args[0] {
			case "FULL":
				full = true
			case "BAD":
				bad = true
			case "INT":
				sigint = true
			default:
				goto prefixed
			}
			args = args[1:]
		}
	prefixed:
		for j := range args {
			args[j] = strings.ReplaceAll(args[j], "OUT", out)
		}
		var env []string
		if bad {
			env = append(env, "KNIGHTWALK_BAD_RULES=1")
		}
		if sigint {
			env = append(env, "KNIGHTWALK_RULE_TIMEOUT=0") // only the signal may stop it
		}
		p, maxrss := procRSS(t, env, args...)
		var stderr strings.Builder
		p.Stderr = &stderr
		if full {
			f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip("no /dev/full here")
			}
			defer f.Close()
			p.Stdout = f
		}
		t0 := time.Now()
		var err error
		if sigint {
			if err = p.Start(); err != nil {
				t.Fatalf("cases.txt:%d: %v", i+1, err)
			}
			time.Sleep(time.Second)
			p.Process.Signal(os.Interrupt)
			err = p.Wait()
		} else {
			err = p.Run()
		}
		took := time.Since(t0)
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("cases.txt:%d: %v", i+1, err)
		}
		if fmt.Sprint(code) != want || !strings.Contains(stderr.String(), phrase) {
			t.Errorf("cases.txt:%d: %q: exit %d, stderr %q; want exit %s and %q", i+1, args, code, stderr.String(), want, phrase)
		}
		if peak := maxrss(); peak > 1<<30 {
			t.Errorf("cases.txt:%d: %q peaked at %d MiB", i+1, args, peak>>20)
		}
		if took > 10*time.Second || bad && took > 5*time.Second {
			t.Errorf("cases.txt:%d: %q took %v", i+1, args, took)
		}
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(l, "goroutine ") || strings.HasPrefix(l, "panic: ") {
				t.Errorf("cases.txt:%d: %q printed a Go stack trace: %s", i+1, args, stderr.String())
				break
			}
		}
		if written, _ := os.ReadDir(out); code != 0 && !sigint && len(written) > 0 {
			t.Errorf("cases.txt:%d: %q failed and left %s in OUT", i+1, args, written[0].Name())
		}
		n++
	}
	t.Logf("%d cases", n)
}

// TestDoubleDashEndsFlags: after "--" everything is positional, even
// what looks like a flag.
func TestDoubleDashEndsFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	force := fs.Bool("force", false, "")
	fs.String("out", "", "")
	got, err := cli.Interleaved(fs, []string{"a", "--out", "o", "--", "--force", "-x.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse(got); err != nil || *force || strings.Join(fs.Args(), " ") != "a --force -x.yaml" {
		t.Fatalf("parsed %q: force %v, args %q, %v", got, *force, fs.Args(), err)
	}
}
