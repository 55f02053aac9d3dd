package harness

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/knightwalk/knightwalk/harness/testdata/audit/badrules"
)

// TestMain lets the test binary act as the experiment command itself when
// KNIGHTWALK_BE_MAIN is set, so tests can start real processes of it.
func TestMain(m *testing.M) {
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
		if _, _, _, err := shardFromEnv(func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v: want an error", env)
		}
	}
	if s, _, ok, err := shardFromEnv(func(string) string { return "" }); ok || err != nil || s.N != 1 {
		t.Errorf("no variables: %v %v %v", s, ok, err)
	}
}
