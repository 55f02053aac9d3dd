package harness

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/knightwalk/knightwalk/harness/testdata/audit/badrules"
	"github.com/knightwalk/knightwalk/internal/cli"
)

// TestMain lets the test binary act as the experiment command itself when
// KNIGHTWALK_BE_MAIN is set, so tests can start real processes of it.
func TestMain(m *testing.M) {
	if f := os.Getenv("KNIGHTWALK_MEASURE_RSS"); f != "" {
		os.Exit(measureRSS(f))
	}
	if os.Getenv("KNIGHTWALK_BE_MAIN") == "1" {
		if os.Getenv("KNIGHTWALK_BAD_RULES") == "1" { // the audit corpus's misbehaving rules
			if err := badrules.Register(); err != nil {
				panic(err)
			}
		}
		Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// proc returns a process of the experiment command with env added.
func proc(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(os.Args[0], args...)
	c.Env = append(append(os.Environ(), "KNIGHTWALK_BE_MAIN=1"), env...)
	return c
}

// procRSS is proc for a test that reads the command's peak resident
// memory: the process started is a small wrapper (this test binary again)
// that runs the command as its own child and reports the child's peak.
// Asking the kernel about a direct child is wrong here: Linux carries the
// parent's high-water mark into a child's ru_maxrss at exec, so once this
// test binary had grown to 2.7 GB every command it started "peaked at
// 2778 MiB" (CI, 2026-11-28), even `version`. The wrapper is a fresh exec
// of a few MiB, so its child's figure is the command's own. peak() is
// valid after the process has been waited for.
func procRSS(t *testing.T, env []string, args ...string) (c *exec.Cmd, peak func() int64) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "maxrss")
	c = exec.Command(os.Args[0], args...)
	c.Env = append(append(os.Environ(), "KNIGHTWALK_MEASURE_RSS="+f), env...)
	return c, func() int64 {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("the measuring wrapper wrote no peak: %v", err)
		}
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			t.Fatalf("the measuring wrapper wrote %q: %v", b, err)
		}
		return n
	}
}

// measureRSS runs the command (this binary as experiment) as a child with
// this process's arguments and standard files, forwards interrupts to it,
// writes its peak resident memory in bytes to file and returns its exit
// status.
func measureRSS(file string) int {
	env := []string{"KNIGHTWALK_BE_MAIN=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KNIGHTWALK_MEASURE_RSS=") {
			env = append(env, kv)
		}
	}
	c := exec.Command(os.Args[0], os.Args[1:]...)
	c.Env, c.Stdin, c.Stdout, c.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	if err := c.Start(); err != nil {
		os.Stderr.WriteString("measure: " + err.Error() + "\n")
		return 99
	}
	go func() {
		for s := range sig {
			c.Process.Signal(s)
		}
	}()
	err := c.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		os.Stderr.WriteString("measure: " + err.Error() + "\n")
		return 99
	}
	ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 99
	}
	if err := os.WriteFile(file, []byte(strconv.FormatInt(int64(ru.Maxrss)*1024, 10)), 0o644); err != nil { // KiB on Linux
		return 99
	}
	return code
}

// TestClusterShards runs N shard processes of the command the way Slurm
// array jobs and Kubernetes Indexed Jobs start them (shard from the
// environment only), merges their parts, and compares with one run.
func TestClusterShards(t *testing.T) {
	// One run to compare both schedulers' merged shards with.
	one := filepath.Join(t.TempDir(), "one")
	if b, err := proc(t, nil, "run", "testdata/small.yaml", "--out", one, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("single run: %v\n%s", err, b)
	}
	for _, sched := range []string{"slurm", "k8s"} {
		t.Run(sched, func(t *testing.T) {
			tmp := t.TempDir()
			const n = 3
			for k := 0; k < n; k++ {
				var env []string
				if sched == "slurm" {
					// Arrays may start at 1: --array=1-3.
					env = []string{"SLURM_ARRAY_TASK_ID=" + strconv.Itoa(k+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=" + strconv.Itoa(n)}
				} else {
					env = []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(k), "KNIGHTWALK_SHARDS=" + strconv.Itoa(n)}
				}
				out := filepath.Join(tmp, "parts", "part-"+strconv.Itoa(k))
				c := proc(t, env, "run", "testdata/small.yaml", "--out", out) // not --quiet: the shard line shows where the shard came from
				if b, err := c.CombinedOutput(); err != nil {
					t.Fatalf("shard %d: %v\n%s", k, err, b)
				} else if !bytes.Contains(b, []byte("shard "+strconv.Itoa(k)+"/3 from")) {
					t.Fatalf("shard %d did not take its shard from the environment:\n%s", k, b)
				}
			}
			merged := filepath.Join(tmp, "merged")
			// The parts directory stands for the parts in it, as in deploy/.
			if b, err := proc(t, nil, "merge", "--out", merged, filepath.Join(tmp, "parts")).CombinedOutput(); err != nil {
				t.Fatalf("merge: %v\n%s", err, b)
			}
			for _, name := range []string{"squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims"} {
				a, _ := os.ReadFile(filepath.Join(one, name+".parquet"))
				b, _ := os.ReadFile(filepath.Join(merged, name+".parquet"))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("%s.parquet: merged shards differ from one run", name)
				}
			}
		})
	}
}

func TestShardFromEnvErrors(t *testing.T) {
	for _, env := range []map[string]string{
		{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3"},
		{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"},
		{"JOB_COMPLETION_INDEX": "0"},
		{"JOB_COMPLETION_INDEX": "5", "KNIGHTWALK_SHARDS": "2"},
	} {
		if _, _, _, err := cli.ShardFromEnv(func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v: want an error", env)
		}
	}
	if s, _, ok, err := cli.ShardFromEnv(func(string) string { return "" }); ok || err != nil || s.N != 1 {
		t.Errorf("no variables: %v %v %v", s, ok, err)
	}
}
