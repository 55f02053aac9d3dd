package main

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
