package harness

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSlurm returns a PATH whose sbatch and scancel record their arguments,
// one call a line, in the file it returns (sbatch answers job ids 101,
// 102, ...), and BIN, a script that runs this test binary as the
// experiment command: deploy/slurm's scripts run without a cluster.
func fakeSlurm(t *testing.T) (path, calls, bin string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	calls = filepath.Join(dir, "calls")
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"sbatch":     "#!/bin/bash\necho \"sbatch $*\" >>" + calls + "\nn=$(wc -l <" + calls + ")\necho $((100 + n))\n",
		"scancel":    "#!/bin/bash\necho \"scancel $*\" >>" + calls + "\n",
		"experiment": "#!/bin/bash\nKNIGHTWALK_BE_MAIN=1 exec " + self + " \"$@\"\n",
	}
	for name, text := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH"), calls, filepath.Join(dir, "experiment")
}

// sieveYAML is a small sieve (two stages, 8 cells).
const sieveYAML = "name: s\nwalks: 1\nstarts: [r0c0]\nrules: [{name: warnsdorff, tie_break: first, order: rotations}]\nboards:\n  - {sizes: \"9\", keep: succeeds}\n  - {rows: \"5..7\", cols: \"5..8\", keep: fails}\n"

// TestSubmitScriptsFailFast: submit.sh and submit-count.sh check the
// experiment, the board and COUNT_FLAGS before queueing anything, and
// what the tasks would refuse (run --check, count --check: a sieve, more
// shards than work units or sweeps, more than Slurm's largest array): bad
// input exits non-zero with the command's own message and no sbatch call;
// good input queues the array, then the merge that depends on it.
func TestSubmitScriptsFailFast(t *testing.T) {
	slurm, _ := filepath.Abs("../deploy/slurm")
	small, _ := filepath.Abs("testdata/small.yaml")
	seq := filepath.Join(t.TempDir(), "seq.yaml")
	if err := os.WriteFile(seq, []byte(roundsYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		env    []string
		args   []string
		ok     bool
		stderr string // a phrase of stderr
		queued []string
	}{
		{"a misspelt experiment", nil, []string{"submit.sh", "pohl-orignal", "3", "P", "O"}, false,
			"pohl-orignal: no such file, and no committed experiment of that name", nil},
		{"an invalid experiment file", nil, []string{"submit.sh", "bad.yaml", "3", "P", "O"}, false, "bad.yaml:3: walks:", nil},
		{"a bad shard count", nil, []string{"submit.sh", small, "x", "P", "O"}, false, "SHARDS must be a whole number", nil},
		{"a good experiment", nil, []string{"submit.sh", small, "3", "P", "O"}, true, "",
			[]string{"sbatch --parsable --array=0-2 ", "array.sbatch", "sbatch --parsable --dependency=afterok:101 ", "merge.sbatch"}},
		{"a sequential experiment", nil, []string{"submit.sh", seq, "2", "P", "O"}, true, "",
			[]string{"sbatch --parsable --array=0-1 ", "array.sbatch", "--dependency=afterok:101 ", "merge.sbatch"}},
		{"a sieve", nil, []string{"submit.sh", "sieve.yaml", "2", "P", "O"}, false, "sieve.yaml is a sieve: it runs whole, in one process", nil},
		{"a sieve in one shard", nil, []string{"submit.sh", "sieve.yaml", "1", "P", "O"}, false, "not as array tasks", nil},
		{"a shard count past bash's arithmetic", nil, []string{"submit.sh", small, "99999999999999999999", "P", "O"}, false,
			"SHARDS 99999999999999999999: at most 4000001 (the largest array Slurm allows)", nil},
		{"a shard count past Slurm's largest array", nil, []string{"submit.sh", small, "4000002", "P", "O"}, false, "at most 4000001", nil},
		{"more shards than work units", nil, []string{"submit.sh", small, "100000", "P", "O"}, false,
			"small: --shard 0/100000: 100000 shards, but the experiment has 12 work units: at most 12 shards", nil},
		{"as many shards as work units", nil, []string{"submit.sh", small, "12", "P", "O"}, true, "",
			[]string{"sbatch --parsable --array=0-11 ", "array.sbatch", "--dependency=afterok:101 ", "merge.sbatch"}},
		{"more shards than a sequential run's largest round has units", nil, []string{"submit.sh", seq, "1000", "P", "O"}, false,
			"seq-cli: --shard 0/1000: 1000 shards, but the experiment has 9 work units in its largest round: at most 9 shards", nil},
		{"a malformed board", nil, []string{"submit-count.sh", "9x9x", "3", "P", "O.parquet"}, false, `board "9x9x": want ROWSxCOLS`, nil},
		{"a flag count does not have", []string{"COUNT_FLAGS=--bogus"}, []string{"submit-count.sh", "5x5", "3", "P", "O.parquet"}, false,
			"flag provided but not defined: -bogus", nil},
		{"more count shards than sweeps", nil, []string{"submit-count.sh", "5x5", "1000000", "P", "O.parquet"}, false,
			"1000000 shards, but counting 5x5 open tours takes 4 sweeps: at most 4 shards", nil},
		{"more count shards than paired sweeps", []string{"COUNT_FLAGS=--paired-ends"}, []string{"submit-count.sh", "5x5", "10", "P", "O.parquet"}, false,
			"counting 5x5 open tours with --paired-ends takes 9 sweeps: at most 9 shards", nil},
		{"a count shard count past Slurm's largest array", nil, []string{"submit-count.sh", "5x5", "99999999999999999999", "P", "O.parquet"}, false,
			"at most 4000001", nil},
		{"a sampled count of more shards than chunks", []string{"COUNT_FLAGS=--method sample --samples 100000"}, []string{"submit-count.sh", "8x8", "100", "P", "O.parquet"}, false,
			"at most 25 shards", nil},
		{"a sampled count without a fixed number of samples", []string{"COUNT_FLAGS=--method sample --precision 0.01"}, []string{"submit-count.sh", "8x8", "4", "P", "O.parquet"}, false,
			"give --samples and --out", nil},
		{"a good sampled count", []string{"COUNT_FLAGS=--method sample --samples 100000"}, []string{"submit-count.sh", "8x8", "4", "P", "O.parquet"}, true, "",
			[]string{"sbatch --parsable --array=0-3 ", "count.sbatch", "sbatch --parsable --dependency=afterok:101 ", "count-merge.sbatch"}},
		{"a good count", []string{"COUNT_FLAGS=--paired-ends"}, []string{"submit-count.sh", "5x5", "3", "P", "O.parquet"}, true, "",
			[]string{"sbatch --parsable --array=0-2 ", "count.sbatch", "sbatch --parsable --dependency=afterok:101 ", "count-merge.sbatch"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, calls, bin := fakeSlurm(t)
			work := t.TempDir()
			if err := os.WriteFile(filepath.Join(work, "bad.yaml"), []byte("name: bad\nrules: [{name: warnsdorff}]\nwalks: 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(work, "sieve.yaml"), []byte(sieveYAML), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", append([]string{filepath.Join(slurm, c.args[0])}, c.args[1:]...)...)
			cmd.Dir = work
			cmd.Env = append(append(os.Environ(), "PATH="+path, "BIN="+bin), c.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			got, _ := os.ReadFile(calls)
			if (err == nil) != c.ok {
				t.Fatalf("exit %v; want ok %v\nstdout %s\nstderr %s", err, c.ok, out, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q; want %q", stderr.String(), c.stderr)
			}
			if !c.ok {
				if len(got) > 0 {
					t.Errorf("queued on bad input:\n%s", got)
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(string(got)), "\n")
			if len(lines) != 2 {
				t.Fatalf("sbatch calls:\n%s\nwant the array and the merge", got)
			}
			for i, want := range c.queued {
				if !strings.Contains(lines[i/2], want) {
					t.Errorf("call %d %q; want %q", i/2+1, lines[i/2], want)
				}
			}
		})
	}
}
