package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayCheckStopsRuns: rules of your own that pass the replay at
// their first use but whose walks do not replay later (badrules'
// bad/lanes-drift, whose AllowedLanes turns into the random walk after 10
// calls; bad/lanes-rare, whose AllowedLanes disagrees with Allowed only on
// e5 after 45 squares; bad/global-counter, which reads a counter shared by
// all its policies) make run, with 1 worker and with 2, and rare exit 1
// with an error naming the rule, the walk and the step, and write nothing.
// Before the replay check the walks runs exited 0 (with tables that
// differed between --workers 1 and 2 for the last); the splitting ones
// meet rare's own pilot replay or the Stepper's replay check, and a run
// that failed there left DIR.partial.
func TestReplayCheckStopsRuns(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "testdata/audit/bad/lanes-drift-walks.yaml"}, []string{"rule bad/lanes-drift: walk ", " from a1 on the 8x8 board does not replay: at its step ", "in AllowedLanes", "(8x8 board, on "}},
		{[]string{"run", "testdata/audit/bad/lanes-rare-walks.yaml"}, []string{"rule bad/lanes-rare: walk ", " from a1 on the 8x8 board does not replay: at its step 45 in the run, in AllowedLanes", "(8x8 board, on e5 after 45 squares (start a1))"}},
		{[]string{"run", "testdata/audit/bad/global-counter-walks.yaml"}, []string{"rule bad/global-counter: walk ", " on the 8x8 board does not replay: at its step ", "replayed through Allowed on a fresh policy"}},
		{[]string{"run", "testdata/audit/bad/global-counter-splitting.yaml"}, []string{"rule bad/global-counter: "}},
		{[]string{"rare", "--board", "8x8", "--rule", "bad/global-counter", "--start", "a1", "--particles", "500", "--replicates", "4"}, []string{"rule bad/global-counter: "}},
	} {
		workers := [][]string{nil}
		if c.args[0] == "run" {
			workers = [][]string{{"--workers", "1"}, {"--workers", "2"}}
		}
		for _, wk := range workers {
			dir := t.TempDir()
			args := append(append([]string(nil), c.args...), wk...)
			if c.args[0] == "run" {
				args = append(args, "--out", filepath.Join(dir, "r"), "--quiet")
			}
			p := proc(t, []string{"KNIGHTWALK_BAD_RULES=1"}, args...)
			var stderr bytes.Buffer
			p.Stderr = &stderr
			err := p.Run()
			if err == nil || p.ProcessState.ExitCode() != 1 {
				t.Errorf("%q: %v, want exit 1\n%s", args, err, stderr.String())
				continue
			}
			msg := stderr.String()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q: stderr lacks %q:\n%s", args, w, msg)
				}
			}
			if strings.Contains(msg, "goroutine ") {
				t.Errorf("%q printed a stack trace:\n%s", args, msg)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("%q failed and left %s", args, left[0].Name())
			}
		}
	}
}
