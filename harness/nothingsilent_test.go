package harness

// Issue 53, "Nothing silent": commands that hung, panicked or ignored a
// signal, as real processes.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
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
