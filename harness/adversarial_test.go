package harness

// The adversarial section of the command: real processes, real signals
// (issue 12).

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// longYAML runs for minutes: the processes of these tests are killed long
// before it ends.
const longYAML = `name: long
seed: 1
boards: [8x8]
starts: [a1]
walks: 1000000000
rules: [{name: warnsdorff}]
`

// TestLockTwoProcesses: a second run into the --out of a running one fails
// at once naming the holder's pid and leaves the first run's work alone;
// once the first is killed (its lock file stays behind) the next run takes
// the lock over.
func TestLockTwoProcesses(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "long.yaml")
	os.WriteFile(cfg, []byte(longYAML), 0o644)
	out := filepath.Join(tmp, "out")
	first := proc(t, nil, "run", cfg, "--out", out, "--workers", "1", "--quiet")
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	pid := "pid " + strconv.Itoa(first.Process.Pid)
	waitFor(t, func() bool {
		b, _ := os.ReadFile(out + ".lock")
		_, err := os.Stat(filepath.Join(out+".partial", "checkpoint.jsonl"))
		return strings.Contains(string(b), pid) && err == nil
	})
	for _, args := range [][]string{{"run", cfg, "--out", out}, {"run", cfg, "--out", out, "--resume"}, {"run", "testdata/small.yaml", "--out", out, "--force"}} {
		var stderr bytes.Buffer
		second := proc(t, nil, args...)
		second.Stderr = &stderr
		t0 := time.Now()
		err := second.Run()
		if err == nil || !strings.Contains(stderr.String(), "another run ("+pid) {
			t.Fatalf("%v while another run holds the lock: %v\n%s", args, err, stderr.String())
		}
		if d := time.Since(t0); d > 20*time.Second {
			t.Errorf("%v waited %v instead of failing at once", args, d)
		}
	}
	if _, err := os.Stat(filepath.Join(out+".partial", "checkpoint.jsonl")); err != nil {
		t.Fatalf("the first run's checkpoint is gone: %v", err)
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	if _, err := os.Stat(out + ".lock"); err != nil {
		t.Fatalf("a killed run leaves its lock file (that is what this test is about): %v", err)
	}
	if b, err := proc(t, nil, "run", "testdata/small.yaml", "--out", out, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("run after the holder was killed: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out waiting")
}

// TestForceRefusesForeign: the command's --force leaves a directory that is
// not a result untouched, and --out . leaves no "..partial".
func TestForceRefusesForeign(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "thesis")
	os.MkdirAll(filepath.Join(dir, "chapters"), 0o755)
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("mine"), 0o644)
	_, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", dir, "--force", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "not a result directory") {
		t.Fatalf("--force on a thesis: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "thesis.tex")); err != nil || string(b) != "mine" {
		t.Fatal("thesis.tex lost")
	}
	small, _ := filepath.Abs("testdata/small.yaml")
	t.Chdir(dir)
	if _, _, err := runCmd(t, "run", small, "--out", ".", "--force", "--quiet"); err == nil || !strings.Contains(err.Error(), "current directory") {
		t.Fatalf("--out .: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 1 {
		t.Fatalf("--out . left %d entries beside the directory", len(ents))
	}
}

const perWalkYAML = `name: perwalk
seed: 11
boards: [5x5, 6x6]
starts: [corner, c3]
walks: 700
rules: [{name: warnsdorff}, {name: random}]
outputs:
  walks: true
  row_group: 300
exact: off
`

// TestShardsPerWalk: shards of an experiment with the per-walk table merge
// into walks.parquet identical, byte for byte, to one run's, and the
// report does not ask for the option that is set.
func TestShardsPerWalk(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "perwalk.yaml")
	os.WriteFile(cfg, []byte(perWalkYAML), 0o644)
	one := filepath.Join(tmp, "one")
	if _, _, err := runCmd(t, "run", cfg, "--out", one, "--quiet"); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for k := range 4 {
		d := filepath.Join(tmp, "parts", strconv.Itoa(k))
		os.MkdirAll(filepath.Dir(d), 0o755)
		if _, _, err := runCmd(t, "run", cfg, "--shard", strconv.Itoa(k)+"/4", "--out", d, "--quiet"); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, d)
	}
	merged := filepath.Join(tmp, "merged")
	if _, _, err := runCmd(t, append([]string{"merge", "--out", merged}, parts...)...); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"walks", "squares", "lengths"} {
		a, _ := os.ReadFile(filepath.Join(one, name+".parquet"))
		b, _ := os.ReadFile(filepath.Join(merged, name+".parquet"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s.parquet: merged shards differ from one run", name)
		}
	}
	report, _ := os.ReadFile(filepath.Join(merged, "report.md"))
	if bytes.Contains(report, []byte("outputs.walks")) {
		t.Error("the merged report asks for outputs.walks, which is set")
	}
}

// TestHugePlanDryRun: --dry-run and validate of 10^12 walks per start on
// 8x8 answer at once, without listing units.
func TestHugePlanDryRun(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "huge.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(longYAML, "walks: 1000000000", "walks: 1000000000000", 1)), 0o644)
	out, _, err := runCmd(t, "run", cfg, "--dry-run", "--shard", "1/3")
	if err != nil {
		t.Fatal(err)
	}
	// 10^12 walks in units of 2^17 walks: 7,629,395 units, the last short;
	// shard 1 of 3 holds units 1, 4, ...: 2,543,132 units.
	if !strings.Contains(out, "total: 2543132 units, 333333336064 walks (shard 1/3)") {
		t.Errorf("dry run:\n%s", out)
	}
	if out, _, err = runCmd(t, "validate", cfg); err != nil || !strings.Contains(out, "7629395 units, 1000000000000 walks") {
		t.Errorf("validate: %v\n%s", err, out)
	}
}

// TestInterruptResumePerWalk: a real process of an experiment with the
// per-walk table, interrupted with SIGINT after a few units, resumes to a
// walks.parquet identical, byte for byte, to an uninterrupted run's.
func TestInterruptResumePerWalk(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "pw.yaml")
	// 30x30: units of 9,320 walks of about 900 steps each, 3 units in all.
	os.WriteFile(cfg, []byte("name: pw\nseed: 2\nboards: [30x30]\nstarts: [r0c0]\nwalks: 20000\nrules: [{name: warnsdorff}]\noutputs: {walks: true}\n"), 0o644)
	out := filepath.Join(tmp, "out")
	first := proc(t, nil, "run", cfg, "--out", out, "--workers", "1", "--quiet")
	var stderr bytes.Buffer
	first.Stderr = &stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	waitFor(t, func() bool {
		b, _ := os.ReadFile(filepath.Join(out+".partial", "checkpoint.jsonl"))
		select {
		case err := <-exited: // finished or failed already: let the check below say which
			exited <- err
			return true
		default:
		}
		return bytes.Count(b, []byte("\n")) >= 2 // the header and a unit
	})
	first.Process.Signal(os.Interrupt)
	if err := <-exited; err == nil {
		t.Skip("the run finished before it was interrupted")
	}
	if !strings.Contains(stderr.String(), "cancelled") {
		t.Fatalf("interrupted run: %s", stderr.String())
	}
	if b, err := proc(t, nil, "run", cfg, "--out", out, "--resume", "--workers", "2", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	one := filepath.Join(tmp, "one")
	if b, err := proc(t, nil, "run", cfg, "--out", one, "--workers", "2", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("one run: %v\n%s", err, b)
	}
	for _, name := range []string{"walks", "squares"} {
		a, _ := os.ReadFile(filepath.Join(one, name+".parquet"))
		b, _ := os.ReadFile(filepath.Join(out, name+".parquet"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s.parquet: resumed run differs from an uninterrupted one", name)
		}
	}
	if _, err := os.Stat(out + ".partial"); !os.IsNotExist(err) {
		t.Errorf("%s.partial left after the resumed run", out)
	}
}
