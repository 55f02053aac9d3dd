package harness

// commands that hung, panicked or ignored a
// signal, as real processes.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// waitOrKill waits for c (started) at most limit, killing it past that.
func waitOrKill(c *exec.Cmd, limit time.Duration) (err error, took time.Duration, ok bool) {
	t0 := time.Now()
	ch := make(chan error, 1)
	go func() { ch <- c.Wait() }()
	select {
	case err = <-ch:
		return err, time.Since(t0), true
	case <-time.After(limit):
		c.Process.Kill()
		<-ch
		return nil, time.Since(t0), false
	}
}

// TestSieveStageOfNoCellsWithProgress: a sieve whose second stage no cell
// enters ends, with its results, when progress is shown. Standard error
// on /dev/null (a character device) shows the live bar as a terminal
// does; the bar of 0 walks waited for ever, and signals with it.
func TestSieveStageOfNoCellsWithProgress(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/null here")
	}
	defer null.Close()
	out := filepath.Join(t.TempDir(), "r")
	c := proc(t, nil, "run", "testdata/audit/silent/sieve-empty-stage.yaml", "--out", out)
	c.Stderr = null
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	err, took, ok := waitOrKill(c, 20*time.Second)
	if !ok {
		t.Fatalf("the sieve still ran after %v (killed)", took)
	}
	if err != nil {
		t.Fatalf("the sieve failed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "sieve.parquet")); err != nil {
		t.Fatalf("the sieve wrote no table: %v", err)
	}
}

// termWithin sends SIGTERM to c (started) and fails unless it exits with
// status 1 within limit.
func termWithin(t *testing.T, c *exec.Cmd, stderr *strings.Builder, limit time.Duration) {
	t.Helper()
	if err := c.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("the command ended before the signal: %v; stderr %s", err, stderr)
	}
	err, took, ok := waitOrKill(c, limit+10*time.Second)
	if !ok || took > limit {
		t.Fatalf("the command ended %v after SIGTERM (killed: %v); want within %v", took, !ok, limit)
	}
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("after SIGTERM: %v, want exit status 1; stderr %s", err, stderr)
	}
}

// TestTermWhilePlanningALargeDesign: SIGTERM while a design of 2.58
// million cells is read and planned stops the run within 2 s, and leaves
// nothing in the output directory (no result, .partial or .lock).
func TestTermWhilePlanningALargeDesign(t *testing.T) {
	for _, delay := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond} {
		out := t.TempDir()
		var stderr strings.Builder
		c := proc(t, nil, "run", "testdata/audit/silent/design-8x8-all.yaml", "--out", filepath.Join(out, "r"), "--quiet")
		c.Stderr = &stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		termWithin(t, c, &stderr, 2*time.Second)
		if left, _ := os.ReadDir(out); len(left) > 0 {
			t.Errorf("SIGTERM after %v left %s in the output directory; stderr %s", delay, left[0].Name(), &stderr)
		}
	}
}

// TestTermWhileWritingADesign: SIGTERM once a design of a million cells
// writes its tables (into DIR.partial) stops it within 2 s, with no
// result directory: the tables took 40 s and the signal was not heard.
func TestTermWhileWritingADesign(t *testing.T) {
	testenv.SkipUnlessSlow(t, "a million walks, then the signal while their tables are written")
	out := t.TempDir()
	r := filepath.Join(out, "r")
	var stderr strings.Builder
	c := proc(t, nil, "run", "testdata/audit/silent/design-5x5-all.yaml", "--out", r, "--quiet")
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(r+".partial", results.SquaresFile)); err == nil {
			break
		}
		if time.Since(t0) > 3*time.Minute {
			c.Process.Kill()
			t.Fatalf("no %s after 3 minutes; stderr %s", results.SquaresFile, &stderr)
		}
	}
	termWithin(t, c, &stderr, 2*time.Second)
	if _, err := os.Stat(r); !os.IsNotExist(err) {
		t.Errorf("a result directory after SIGTERM: %v", err)
	}
	if !strings.Contains(stderr.String(), "cancelled while writing the tables") {
		t.Errorf("stderr %s; want it to say the writing was cancelled", &stderr)
	}
}

// TestFIFORefusedAtOnce: validate and run of a FIFO with no writer answer
// at once (they waited 5 s twice, and before that for ever), exit 1 and
// say what the path is; so does a count part path that is a FIFO.
func TestFIFORefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"validate", fifo}, {"run", fifo, "--out", filepath.Join(dir, "r")}, {"run", fifo, "--dry-run"}} {
		var stderr strings.Builder
		c := proc(t, nil, args...)
		c.Stderr = &stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		err, took, ok := waitOrKill(c, 20*time.Second)
		if !ok || took > 2*time.Second {
			t.Errorf("%q: ended after %v (killed: %v); want at once", args, took, !ok)
		}
		if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "is a FIFO (named pipe), not a regular file") {
			t.Errorf("%q: %v, stderr %q; want exit 1 naming a FIFO", args, err, &stderr)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("left %d entries beside the FIFO", len(left)-1)
	}
}
