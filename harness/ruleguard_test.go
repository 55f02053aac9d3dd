package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlockedRuleSignalResume: a rule of your own that blocks in a call
// deep into a run (badrules' bad/sleep-late) does not hold the command
// after SIGINT: it exits 1 within 5 s naming the rule and its position,
// leaving the finished units in DIR.partial, and --resume (the rule no
// longer blocking) gives the tables of an uninterrupted run, byte for byte.
func TestBlockedRuleSignalResume(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "late.yaml")
	// 36 units of 5,000 walks; the rule blocks in its 300,000th call, after
	// at least one unit (at most 36 calls a walk) and before the last (at
	// least 5 calls a walk).
	os.WriteFile(cfg, []byte("name: late\nseed: 5\nboards: [6x6]\nwalks: 5000\nexact: off\nrules: [{name: bad/sleep-late}]\n"), 0o644)
	out := filepath.Join(tmp, "out")
	first := proc(t, []string{"KNIGHTWALK_BAD_RULES=1", "KNIGHTWALK_BAD_SLEEP=300000", "KNIGHTWALK_RULE_TIMEOUT=0"}, "run", cfg, "--out", out, "--workers", "1", "--quiet")
	var stderr bytes.Buffer
	first.Stderr = &stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	cp := filepath.Join(out+".partial", "checkpoint.jsonl")
	var last []byte
	stable := time.Now()
	waitFor(t, func() bool { // a unit done, then nothing more for a second: blocked
		select {
		case err := <-exited:
			t.Fatalf("the run ended before it blocked: %v\n%s", err, stderr.String())
		default:
		}
		b, _ := os.ReadFile(cp)
		if !bytes.Equal(b, last) {
			last, stable = b, time.Now()
		}
		return bytes.Count(b, []byte("\n")) >= 2 && time.Since(stable) > time.Second
	})
	t0 := time.Now()
	first.Process.Signal(os.Interrupt)
	select {
	case err := <-exited:
		if err == nil || first.ProcessState.ExitCode() != 1 {
			t.Fatalf("interrupted run: %v, want exit 1\n%s", err, stderr.String())
		}
	case <-time.After(5 * time.Second):
		first.Process.Kill()
		t.Fatalf("the run did not stop within 5 s of SIGINT\n%s", stderr.String())
	}
	msg := stderr.String()
	if !strings.Contains(msg, "run interrupted by a signal, and rule bad/sleep-late: has not returned from a call of its Allowed") ||
		!strings.Contains(msg, "6x6 board, on ") || strings.Contains(msg, "goroutine ") {
		t.Errorf("after %v: %s", time.Since(t0), msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists after the interrupted run", out)
	}
	done := []string{"KNIGHTWALK_BAD_RULES=1", "KNIGHTWALK_BAD_SLEEP=0"}
	if b, err := proc(t, done, "run", cfg, "--out", out, "--resume", "--workers", "2", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	one := filepath.Join(tmp, "one")
	if b, err := proc(t, done, "run", cfg, "--out", one, "--workers", "2", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("one run: %v\n%s", err, b)
	}
	for _, name := range []string{"squares", "lengths"} {
		a, _ := os.ReadFile(filepath.Join(one, name+".parquet"))
		b, _ := os.ReadFile(filepath.Join(out, name+".parquet"))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s.parquet: resumed run differs from an uninterrupted one", name)
		}
	}
}
