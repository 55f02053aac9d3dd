package harness

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestTourReplaysWalksTable runs a small experiment with the walks table,
// then replays walks from it with `tour` and checks each one's length, end
// and outcome against its row: the command draws the run's streams.
func TestTourReplaysWalksTable(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "w.yaml")
	os.WriteFile(cfg, []byte("name: w\nseed: 7\nboards: [5x5]\nstarts: [a1, c3]\nwalks: 40\nrules: [{name: random}, {name: warnsdorff}]\noutputs: {walks: true}\nexact: off\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, _, err := runCmd(t, "run", cfg, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.Read[table.WalkRow](filepath.Join(out, "walks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var tours, fails int
	for _, r := range rows {
		if r.Walk%7 != 3 {
			continue
		}
		rule := strings.TrimPrefix(r.Rule, "warnsdorff/")
		args := []string{"tour", "--board", r.Board, "--start", r.Start, "--seed", "7", "--walk", strconv.FormatInt(r.Walk, 10), "--format", "csv", "--rule", "random"}
		if rule != r.Rule {
			args = append(args[:len(args)-1], "warnsdorff", "--tie-break", rule)
		}
		stdout, _, err := runCmd(t, args...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		last := strings.Split(lines[len(lines)-1], ",")
		if len(lines)-1 != int(r.Length) || last[1] != r.End {
			t.Errorf("%s %s walk %d: tour shows %d squares ending %s, table %d ending %s", r.Rule, r.Start, r.Walk, len(lines)-1, last[1], r.Length, r.End)
		}
		var u usageError
		switch {
		case r.Success:
			tours++
			if err != nil {
				t.Errorf("%s %s walk %d: a tour, but %v", r.Rule, r.Start, r.Walk, err)
			}
		case err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "not a full tour"):
			t.Errorf("%s %s walk %d: not a tour, but err = %v", r.Rule, r.Start, r.Walk, err)
		default:
			fails++
		}
	}
	if tours == 0 || fails == 0 {
		t.Errorf("replayed %d tours and %d failures; want both", tours, fails)
	}
}

func TestTourText(t *testing.T) {
	out, _, err := runCmd(t, "tour", "--board", "5x5", "--start", "a1", "--rule", "warnsdorff", "--tie-break", "first")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "walk 0 of warnsdorff/first from a1 on 5x5, seed 1\n") || !strings.HasSuffix(out, "an open tour, 25 squares\n") {
		t.Errorf("got\n%s", out)
	}
	for n := 1; n <= 25; n++ {
		if !strings.Contains(out, " "+strconv.Itoa(n)+" ") && !strings.Contains(out, " "+strconv.Itoa(n)+"\n") {
			t.Errorf("square number %d missing:\n%s", n, out)
		}
	}
	out, _, err = runCmd(t, "tour", "--board", "6x6", "--start", "c3", "--rule", "backtrack/closed", "--format", "json")
	var got struct {
		Closed  bool
		Squares []string
	}
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || !got.Closed || len(got.Squares) != 36 || got.Squares[0] != "c3" {
		t.Errorf("6x6 closed: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, sq := range got.Squares {
		seen[sq] = true
	}
	if len(seen) != 36 {
		t.Errorf("6x6 closed: %d distinct squares of 36", len(seen))
	}
}

func TestTourErrors(t *testing.T) {
	for _, args := range [][]string{
		{"tour", "--board", "5x5"},
		{"tour", "--start", "a1"},
		{"tour", "--board", "0x0", "--start", "a1"},
		{"tour", "--board", "5x5", "--start", "f9"},
		{"tour", "--board", "5x5", "--start", "a1", "--format", "xml"},
		{"tour", "--board", "5x5", "--start", "a1", "--rule", "bogus"},
		{"tour", "--board", "5x5", "--start", "a1", "--node-budget", "5"},
		{"tour", "--board", "5x5", "--start", "a1", "extra"},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
}
