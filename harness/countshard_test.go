package harness

import (
	"encoding/json"
	"fmt"
	"github.com/knightwalk/knightwalk/count/countcmd"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// countShards writes the n count parts of board (with extra flags) into
// a new directory and returns it.
func countShards(t *testing.T, board string, n int, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	for k := range n {
		args := append([]string{"count", "--board", board, "--workers", "2", "--shard", fmt.Sprintf("%d/%d", k, n),
			"--out", filepath.Join(dir, fmt.Sprintf("part-%d.json", k))}, extra...)
		if _, stderr, err := runCmd(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
	}
	return dir
}

// TestCountShardsMerge is the check: 6x6 open tours in 3 parts
// merge into the counts table of one count, 6,637,920 in all, every start
// square's row equal to the one run's (5x5, 1,728, in the default suite;
// 6x6 with KNIGHTWALK_SLOW=1 and in CI's Slurm check).
func TestCountShardsMerge(t *testing.T) {
	// units: the paired-end sweeps (first ends) that shard 1 of 3 runs
	board, squares, total, units := "5x5", 25, int64(1728), 3
	if testenv.Slow() {
		board, squares, total, units = "6x6", 36, 6637920, 7
	}
	dir := countShards(t, board, 3, "--paired-ends")
	one := filepath.Join(t.TempDir(), "one.parquet")
	if _, _, err := runCmd(t, "count", "--board", board, "--method", "frontier", "--paired-ends", "--format", "parquet", "--out", one); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(t.TempDir(), "merged.parquet")
	out, _, err := runCmd(t, "merge", "--out", merged, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, fmt.Sprintf("directed tours: %d\n", total)) {
		t.Errorf("merge printed\n%s", out)
	}
	want, _, err := table.Read[table.CountRow](one)
	if err != nil {
		t.Fatal(err)
	}
	got, md, err := table.Read[table.CountRow](merged)
	if err != nil {
		t.Fatal(err)
	}
	if c := md.Extra["command"]; c != "count --board="+board {
		t.Errorf("merged counts: command %q, want the whole count's", c)
	}
	// the merged table's metadata is the whole count's: its command names
	// what was counted, not the invocation (CI's Slurm check compares the
	// two files byte for byte)
	if a, b := countsMeta(t, one), countsMeta(t, merged); a != b {
		t.Errorf("merged counts' metadata differs from the whole count's:\n%s\n%s", a, b)
	}
	if len(got) != squares+1 || len(got) != len(want) {
		t.Fatalf("%d rows merged, %d in one run, want %d", len(got), len(want), squares+1)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: merged %+v, one run %+v", i, got[i], want[i])
		}
	}
	if got[squares].Start != "" || got[squares].Count != total {
		t.Errorf("total row %+v", got[squares])
	}
	// Each part records its sweeps' states, time and memory.
	b, err := os.ReadFile(filepath.Join(dir, "part-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p countcmd.Part
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Units) != units || len(p.Sweeps) == 0 || p.PeakStates <= 0 || p.PeakTableBytes <= 0 || p.PeakRSSBytes <= 0 || p.Seconds <= 0 {
		t.Errorf("part 1/3 records %d units, %d sweeps, peak %d states, %d table bytes, %d RSS, %g s",
			len(p.Units), len(p.Sweeps), p.PeakStates, p.PeakTableBytes, p.PeakRSSBytes, p.Seconds)
	}
	for _, s := range p.Sweeps {
		if s.Steps <= 0 || s.Steps > 1 && (s.States <= 0 || s.PeakStates <= 0) || s.PeakBytes <= 0 { // a sweep of the last square ends with no states
			t.Errorf("sweep %+v", s)
		}
	}
}

// TestCountShardsPerStartAndClosed: per-start sweeps (the default when
// they fit) and closed tours merge to the one run's rows too.
func TestCountShardsPerStartAndClosed(t *testing.T) {
	for _, c := range []struct {
		board string
		extra []string
		total string
	}{
		{"5x5", nil, "directed tours: 1728\n"},
		{"6x6", []string{"--closed"}, "closed tours (cycles): 9862\n"},
	} {
		dir := countShards(t, c.board, 3, c.extra...)
		out, _, err := runCmd(t, "merge", "--out", filepath.Join(t.TempDir(), "c.parquet"), dir)
		if err != nil {
			t.Fatal(err)
		}
		oneArgs := append([]string{"count", "--board", c.board, "--method", "frontier"}, c.extra...)
		one, _, err := runCmd(t, oneArgs...)
		if err != nil {
			t.Fatal(err)
		}
		grid := func(s string) string { return s[:strings.Index(s, c.total)+len(c.total)] }
		if !strings.Contains(out, c.total) || grid(out) != grid(one) {
			t.Errorf("%s %v: merged\n%s\none run\n%s", c.board, c.extra, out, one)
		}
	}
}

// TestCountMergeRefuses: a missing part, one given twice, parts of another
// board, kind or shard count, and an edited part are refused naming the
// part, and nothing is written.
func TestCountMergeRefuses(t *testing.T) {
	d3 := countShards(t, "5x5", 3)
	d2 := countShards(t, "5x5", 2)
	closed := countShards(t, "4x5", 3, "--closed")
	other := countShards(t, "4x5", 3)
	p := func(dir string, k int) string { return filepath.Join(dir, fmt.Sprintf("part-%d.json", k)) }
	edited := filepath.Join(t.TempDir(), "part-2.json")
	b, _ := os.ReadFile(p(d3, 2))
	os.WriteFile(edited, []byte(strings.Replace(string(b), `"count": "`, `"count": "1`, 1)), 0o644)
	for _, c := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"missing", []string{p(d3, 0), p(d3, 2)}, "missing shard 1/3 (sweeps: from "},
		{"twice", []string{p(d3, 0), p(d3, 1), p(d3, 1), p(d3, 2)}, "shard 1/3 given twice"},
		{"shard count", []string{p(d3, 0), p(d3, 1), p(d2, 1)}, p(d2, 1) + " is shard 1/2"},
		{"board", []string{p(d3, 0), p(d3, 1), p(other, 2)}, p(other, 2) + " is shard 2/3 of a count of 4x5 open"},
		{"kind", []string{p(other, 0), p(other, 1), p(closed, 2)}, p(closed, 2) + " is shard 2/3 of a count of 4x5 closed"},
		{"edited", []string{p(d3, 0), p(d3, 1), edited}, edited + ": checksum mismatch"},
	} {
		out := filepath.Join(t.TempDir(), "c.parquet")
		_, _, err := runCmd(t, append([]string{"merge", "--out", out}, c.parts...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("%s: %s written", c.name, out)
		}
	}
	// A part is never overwritten.
	if _, _, err := runCmd(t, "count", "--board", "5x5", "--shard", "0/3", "--out", p(d3, 0)); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("count over an existing part: %v", err)
	}
}

// countsMeta is a counts file's metadata as text, for comparing two
// counts: every key the file holds.
func countsMeta(t *testing.T, path string) string {
	t.Helper()
	_, md, err := table.Read[table.CountRow](path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s %v %v", md.Experiment, md.Levels, md.Extra)
}
