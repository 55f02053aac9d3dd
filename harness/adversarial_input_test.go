package harness

// The adversarial section of the command's tests: inputs chosen to exhaust
// memory or time, signals, and flags used wrongly. Each ends in a clear
// error or a prompt exit; none takes more than a few hundred MiB (the
// memory-heavy cases are tested by their refusal, not by running them).

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/cli"
)

// TestExactRefusesCertainFailure: 8x8 with the random rule would need tens
// of GiB; exact says so up front, with the estimate, instead of growing
// until the machine runs out.
func TestExactRefusesCertainFailure(t *testing.T) {
	_, _, err := runCmd(t, "exact", "--board", "8x8", "--rule", "random", "--start", "a1", "--max-memory", "1GiB")
	if err == nil || !strings.Contains(err.Error(), "its layers hold at least about") ||
		!strings.Contains(err.Error(), "sampled walks)") || !strings.Contains(err.Error(), "over the 649.6 MiB its states may take") {
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

// TestCountRefusesInfeasible: 8x8 open tours have about 10^17 search nodes
// and billions of frontier states; count says so at once instead of
// running for ever.
func TestCountRefusesInfeasible(t *testing.T) {
	_, _, err := runCmd(t, "count", "--board", "8x8")
	if err == nil || !strings.Contains(err.Error(), "count on 8x8: about") || !strings.Contains(err.Error(), "frontier states") ||
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
		{syscall.SIGTERM, []string{"exact", "--board", "6x6", "--rule", "random", "--start", "a1", "--max-memory", "2GiB"}},
		{os.Interrupt, []string{"count", "--board", "7x7", "--method", "search", "--max-nodes", "1e13"}},
		// the frontier sweep, a few hundred MB into a count that takes minutes
		{os.Interrupt, []string{"count", "--board", "7x7", "--method", "frontier", "--paired-ends", "--max-memory", "6GiB"}},
	} {
		p := proc(t, nil, c.args...)
		var stderr strings.Builder
		p.Stderr = &stderr
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(800 * time.Millisecond) // well into the search (each has started its search, or sweep, by then)
		if err := p.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		done := make(chan error, 1)
		go func() { done <- p.Wait() }()
		select {
		case err := <-done:
			var ee interface{ ExitCode() int }
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted by a signal") {
				t.Errorf("%s after %v: %v, stderr %q; want exit status 1 saying it was cancelled", c.args[0], c.sig, err, stderr.String())
			}
			t.Logf("%s exited %v after %v", c.args[0], time.Since(t0), c.sig)
		case <-time.After(5 * time.Second):
			_ = p.Process.Kill()
			t.Fatalf("%s still running 5 s after %v", c.args[0], c.sig)
		}
	}
}

// TestQuietSilent: --quiet prints nothing on success, not even the shard
// taken from a scheduler's variables or the claims.
func TestQuietSilent(t *testing.T) {
	defer func(g func(string) string) { getenv = g }(getenv)
	getenv = func(k string) string {
		return map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "1"}[k]
	}
	stdout, stderr, err := runCmd(t, "run", "testdata/small.yaml", "--out", t.TempDir()+"/out", "--quiet")
	if err != nil || stdout != "" || stderr != "" {
		t.Errorf("run --quiet: err %v, stdout %q, stderr %q; want success and nothing printed", err, stdout, stderr)
	}
}

// TestVersion: version reports the build info, and the commit recorded in
// results comes from it alone: the test binary carries no VCS stamp, so it
// is "unknown" although the tests run inside a git checkout.
func TestVersion(t *testing.T) {
	out, _, err := runCmd(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"experiment " + version + "\n", "\nmodule:   github.com/knightwalk/knightwalk", "\nrevision: ", "\nmodified: ", "\ngo:       go1."} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	if c := buildinfo.Read().Revision; c != "" {
		t.Errorf("revision %q in a binary without a VCS stamp; want none (never the current directory's git)", c)
	}
	if !strings.Contains(out, "\nrevision: unknown\n") {
		t.Errorf("version output does not say the revision is unknown:\n%s", out)
	}
	if _, _, err := runCmd(t, "version", "extra"); err == nil {
		t.Error("version extra: want a usage error")
	}
}

// TestShardConvention: --shard K/N counts K from 0 in the flag, the help,
// the command's documentation (docs/commands.md) and the scheduler
// mappings alike.
func TestShardConvention(t *testing.T) {
	out, _, _ := runCmd(t, "help", "run")
	if readme := docPage(t, "README.md"); strings.Contains(readme, "K-th of N") {
		t.Error("the README describes --shard as the K-th of N; K counts from 0")
	}
	for _, text := range []string{out, docPage(t, "docs/commands.md")} {
		if !strings.Contains(text, "counting from 0") || strings.Contains(text, "K-th of N") {
			t.Errorf("want --shard described as K counting from 0, never as the K-th of N, in:\n%.400s", text)
		}
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, "0/4"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, "3/4"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "KNIGHTWALK_SHARDS": "4"}, "0/4"},
		{map[string]string{"JOB_COMPLETION_INDEX": "3", "KNIGHTWALK_SHARDS": "4"}, "3/4"},
	} {
		s, from, ok, err := cli.ShardFromEnv(func(k string) string { return c.env[k] })
		if err != nil || !ok || s.String() != c.want || from == "" {
			t.Errorf("%v: shard %v from %q (%v, %v); want %s", c.env, s, from, ok, err, c.want)
		}
	}
	_, _, err := runCmd(t, "run", "--shard", "4/4", "--dry-run")
	if err == nil || !strings.Contains(err.Error(), "0 <= K < N") {
		t.Errorf("--shard 4/4: %v; want the 0-based range in the error", err)
	}
}

// TestWorkersBounded: a mistyped worker count is a usage error, not a
// million goroutines (count would split its search into 32 million tasks).
func TestWorkersBounded(t *testing.T) {
	for _, args := range [][]string{
		{"count", "--board", "5x5", "--workers", "1000000"},
		{"exact", "--board", "5x5", "--workers", "0"},
		{"run", "testdata/small.yaml", "--workers", "100000", "--dry-run"},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "want 1 to 1024") {
			t.Errorf("%q: got %v; want a usage error naming the range", args, err)
		}
	}
}

// TestSecondSignalKills: validate blocked opening a FIFO that no one
// writes cannot see its context; the first SIGTERM cancels it, a second
// one ends the process.
func TestSecondSignalKills(t *testing.T) {
	fifo := t.TempDir() + "/fifo.yaml"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	p := proc(t, nil, "validate", fifo)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Wait() }()
	time.Sleep(500 * time.Millisecond)
	for range 2 {
		_ = p.Process.Signal(syscall.SIGTERM)
		time.Sleep(300 * time.Millisecond)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("validate of an unwritten FIFO exited 0")
		}
	case <-time.After(5 * time.Second):
		_ = p.Process.Kill()
		t.Fatal("still running 5 s after two SIGTERMs")
	}
}

// TestNoVCSNote: a binary without VCS information (go run, go test: the
// README's first command) prints one note, not a warning (--quiet, none), and its
// manifest says it in full; a build of this module names no embedded
// harness (version prints no harness line).
func TestNoVCSNote(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "small")
	_, stderr, err := runCmd(t, "run", "testdata/small.yaml", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stderr, "experiment: "+buildinfo.NoVCSNote+"\n"); n != 1 || strings.Contains(stderr, "warning") {
		t.Errorf("stderr has the note %d times (want 1) or a warning:\n%s", n, stderr)
	}
	m, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(m), buildinfo.NoVCSWarning) || strings.Contains(string(m), "knightwalk_") {
		t.Errorf("manifest lacks the no-VCS line, or names an embedded harness:\n%s", m)
	}
	out, _, err := runCmd(t, "version")
	if err != nil || strings.Contains(out, "harness:") {
		t.Errorf("version of this module's build: %v\n%s", err, out)
	}
}
