package main

// The adversarial section of the command's tests: inputs chosen to exhaust
// memory or time, signals, and flags used wrongly. Each ends in a clear
// error or a prompt exit; none takes more than a few hundred MiB (the
// memory-heavy cases are tested by their refusal, not by running them).

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExactRefusesCertainFailure: 8x8 with the random rule would need tens
// of GiB; exact says so up front, with the estimate, instead of growing
// until the machine runs out.
func TestExactRefusesCertainFailure(t *testing.T) {
	_, _, err := runCmd(t, "exact", "--board", "8x8", "--rule", "random", "--start", "a1", "--max-memory", "1GiB")
	if err == nil || !strings.Contains(err.Error(), "its layers hold at least about") ||
		!strings.Contains(err.Error(), "estimated from 65536 sampled walks") || !strings.Contains(err.Error(), "over the memory budget of 1.0 GiB") {
		t.Fatalf("got %v; want a refusal stating the estimate", err)
	}
}

func TestExactBadMemoryFlag(t *testing.T) {
	for _, v := range []string{"lots", "-1", "0", "12", "1e30GiB", "NaN"} {
		_, _, err := runCmd(t, "exact", "--board", "5x5", "--max-memory", v)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "want a size from 1MiB") {
			t.Errorf("--max-memory %s: got %v; want a usage error", v, err)
		}
	}
	var b byteSize
	for v, want := range map[string]int64{"4GiB": 4 << 30, "512MiB": 512 << 20, "1.5G": 3 << 29, "2097152": 2 << 20} {
		if err := b.Set(v); err != nil || int64(b) != want {
			t.Errorf("--max-memory %s: %d, %v; want %d", v, b, err, want)
		}
	}
	if m := defaultMaxMemory(); m < 1<<20 || m > 4<<30 {
		t.Errorf("default --max-memory %d; want at most 4 GiB", m)
	}
}

// TestCountRefusesInfeasible: 8x8 has about 10^17 search nodes; count says
// so at once instead of running for ever.
func TestCountRefusesInfeasible(t *testing.T) {
	_, _, err := runCmd(t, "count", "--board", "8x8")
	if err == nil || !strings.Contains(err.Error(), "count on 8x8: about") || !strings.Contains(err.Error(), "years") ||
		!strings.Contains(err.Error(), "not started") {
		t.Fatalf("got %v; want a refusal with the estimate", err)
	}
	// Progress goes to a terminal only: a buffer gets none.
	_, stderr, err := runCmd(t, "count", "--board", "5x5")
	if err != nil || stderr != "" {
		t.Errorf("count 5x5: err %v, stderr %q; want success and silence", err, stderr)
	}
}

// TestSignalStopsPromptly starts real processes of exact and count on
// searches that take minutes, signals them, and checks that they exit
// with a clear error well within a second or two.
func TestSignalStopsPromptly(t *testing.T) {
	for _, c := range []struct {
		sig  os.Signal
		args []string
	}{
		{syscall.SIGTERM, []string{"exact", "--board", "6x6", "--rule", "random", "--start", "a1", "--max-memory", "512MiB"}},
		{os.Interrupt, []string{"count", "--board", "7x7", "--max-nodes", "1e13"}},
	} {
		p := proc(t, nil, c.args...)
		var stderr strings.Builder
		p.Stderr = &stderr
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond) // well into the search
		if err := p.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		done := make(chan error, 1)
		go func() { done <- p.Wait() }()
		select {
		case err := <-done:
			var ee interface{ ExitCode() int }
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "context canceled") {
				t.Errorf("%s after %v: %v, stderr %q; want exit status 1 saying it was cancelled", c.args[0], c.sig, err, stderr.String())
			}
			t.Logf("%s exited %v after %v", c.args[0], time.Since(t0), c.sig)
		case <-time.After(5 * time.Second):
			_ = p.Process.Kill()
			t.Fatalf("%s still running 5 s after %v", c.args[0], c.sig)
		}
	}
}
