package harness

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/rare"
)

// TestRareJSON: rare's estimate of the 5×5 random walk's success from a1
// covers the exact value, its plain comparison counts what it ran, and the
// numbers do not depend on --workers.
func TestRareJSON(t *testing.T) {
	var reps []rare.Report
	for _, workers := range []string{"1", "2"} {
		out, _, err := runCmd(t, "rare", "--board", "5x5", "--rule", "random", "--start", "a1", "--seed", "3",
			"--particles", "300", "--replicates", "12", "--plain", "20000", "--workers", workers, "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		var r rare.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v in\n%s", err, out)
		}
		reps = append(reps, r)
	}
	r := reps[0]
	const exact = 0.002214199177
	if r.Estimator != "splitting" || r.Target != 25 || r.Quantity != "P(success)" || len(r.Replicates) != 12 || r.Levels[len(r.Levels)-1] != 25 {
		t.Errorf("report: %+v", r)
	}
	if !(r.Lo <= exact && exact <= r.Hi) || r.RelStdErr <= 0 || r.Plain == nil || r.Plain.Walks != 20000 {
		t.Errorf("estimate %g [%g, %g] rse %g, plain %+v: want an interval around the exact %g", r.Estimate, r.Lo, r.Hi, r.RelStdErr, r.Plain, exact)
	}
	for _, x := range reps {
		x.WallSeconds, x.CPUSeconds, x.PlainCPU, x.PlainCPUSame = 0, 0, 0, 0
		y := reps[0]
		y.WallSeconds, y.CPUSeconds, y.PlainCPU, y.PlainCPUSame = 0, 0, 0, 0
		a, _ := json.Marshal(x)
		b, _ := json.Marshal(y)
		if string(a) != string(b) {
			t.Errorf("--workers 1 and 2 differ:\n%s\n%s", b, a)
		}
	}
	out, _, err := runCmd(t, "rare", "--board", "6x6", "--rule", "random", "--target", "12", "--particles", "50", "--replicates", "4")
	if err != nil || !strings.Contains(out, "P(path length reaches 12)") || !strings.Contains(out, "warning: only 4 replicates") {
		t.Errorf("text output (err %v):\n%s", err, out)
	}
}

// TestRareRefuses: bad flags are usage mistakes naming what is valid.
func TestRareRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rare"}, "--board is required"},
		{[]string{"rare", "--board", "5x5", "--rule", "warnsdorff/first"}, "never draws"},
		{[]string{"rare", "--board", "5x5", "--rule", "backtrack"}, "backtrack"},
		{[]string{"rare", "--board", "5x5", "--replicates", "1"}, "at least 2"},
		{[]string{"rare", "--board", "5x5", "--particles", "0"}, "particles 0"},
		{[]string{"rare", "--board", "5x5", "--levels", "10,x"}, "--levels"},
		{[]string{"rare", "--board", "5x5", "--levels", "10,9"}, "strictly increasing"},
		{[]string{"rare", "--board", "5x5", "--target", "26"}, "2..25"},
		{[]string{"rare", "--board", "5x5", "--rule", "random", "--max-steps", "5"}, "max_steps 5"},
		{[]string{"rare", "--board", "5x5", "--start", "z9"}, "--start"},
		{[]string{"rare", "--board", "5x5", "--format", "xml"}, "valid formats"},
		{[]string{"rare", "--board", "5x5", "--plain", "-1", "--particles", "10", "--replicates", "2"}, "--plain"},
		{[]string{"rare", "--board", "5x5", "extra"}, "no arguments"},
	} {
		_, _, err := runCmd(t, c.args...)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &u) {
			t.Errorf("%q: got %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}
