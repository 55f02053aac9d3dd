package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/table"
)

// TestCountSample runs `count --method sample` as a user does: the text
// names the estimate, its interval and the command that redraws it; the
// parquet table holds the same estimate, covering the exact 5x6 count.
func TestCountSample(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "5x6", "--method", "sample", "--samples", "200000", "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"directed open tours on 5x6, sampled: ", "95% normal interval", "proposal softmin(beta=0.3), tail 20, seed 3",
		"trusted: no diagnostic raised a warning", "again: experiment count --board=5x6 --method=sample --proposal=softmin:0.3 --tail=20 --seed=3 --samples=204000"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	dir := t.TempDir()
	pq := filepath.Join(dir, "e.parquet")
	if _, _, err := runCmd(t, "count", "--board", "5x6", "--method", "sample", "--samples", "200000", "--seed", "3", "--per-start", "--format", "parquet", "--out", pq); err != nil {
		t.Fatal(err)
	}
	rows, md, err := table.Read[table.TourEstimateRow](pq)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 31 || rows[0].Start != "all" || rows[1].Start != "a1" || md.Seed != 3 || md.Extra["count_method"] != "sample" {
		t.Fatalf("got %d rows, first %+v, metadata %+v", len(rows), rows[0], md)
	}
	if a := rows[0]; !(a.Lo <= 37568 && 37568 <= a.Hi) || !a.Trusted || a.Samples != 204000 || a.Kind != "open" {
		t.Errorf("5x6 open: %+v, want an interval covering 37568", a)
	}
	// csv: the same row
	csvOut, _, err := runCmd(t, "count", "--board", "5x6", "--method", "sample", "--samples", "200000", "--seed", "3", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if l := strings.Split(csvOut, "\n"); len(l) < 2 || !strings.HasPrefix(l[1], "5x6,5,6,open,all,softmin(beta=0.3),20,") {
		t.Errorf("csv:\n%s", csvOut)
	}
}

// TestCountSampleShardsMerge: three parts merged give the table of one
// run, value for value (the wall time aside).
func TestCountSampleShardsMerge(t *testing.T) {
	dir := t.TempDir()
	args := []string{"count", "--board", "6x6", "--closed", "--method", "sample", "--samples", "100000", "--seed", "5"}
	one := filepath.Join(dir, "one.parquet")
	if _, _, err := runCmd(t, append(args, "--format", "parquet", "--out", one)...); err != nil {
		t.Fatal(err)
	}
	parts := filepath.Join(dir, "parts")
	os.Mkdir(parts, 0o755)
	for _, k := range []string{"0/3", "1/3", "2/3"} {
		if _, _, err := runCmd(t, append(args, "--shard", k, "--out", filepath.Join(parts, "p"+k[:1]+".json"))...); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCmd(t, append(args, "--shard", "0/3", "--out", filepath.Join(parts, "p0.json"))...); err == nil {
		t.Error("a shard over an existing part: no error")
	}
	merged := filepath.Join(dir, "merged.parquet")
	if _, _, err := runCmd(t, "merge", "--out", merged, parts); err != nil {
		t.Fatal(err)
	}
	a, _, err := table.Read[table.TourEstimateRow](one)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := table.Read[table.TourEstimateRow](merged)
	if err != nil {
		t.Fatal(err)
	}
	a[0].Seconds, b[0].Seconds = 0, 0
	if len(a) != 1 || len(b) != 1 || a[0] != b[0] {
		t.Errorf("one run %+v\nmerged   %+v", a, b)
	}
	if !(a[0].Lo <= 9862 && 9862 <= a[0].Hi) {
		t.Errorf("6x6 closed: %+v, want an interval covering 9862", a[0])
	}
	// two of three parts: refused, naming the missing shard
	os.Remove(filepath.Join(parts, "p1.json"))
	if _, _, err := runCmd(t, "merge", "--out", filepath.Join(dir, "m2.parquet"), parts); err == nil || !strings.Contains(err.Error(), "missing 1/3") {
		t.Errorf("merge of 2 of 3 parts: %v", err)
	}
}

// TestCountSampleUsage: every flag mistake is a usage error naming it.
func TestCountSampleUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "sample"}, "needs a stopping rule"},
		{[]string{"--method", "sample", "--samples", "10", "--unique"}, "--unique"},
		{[]string{"--method", "sample", "--samples", "10", "--confidence", "1"}, "--confidence 1"},
		{[]string{"--method", "sample", "--samples", "10", "--proposal", "greedy"}, "valid proposals are"},
		{[]string{"--method", "sample", "--samples", "10", "--proposal", "softmin:-1"}, "B from 0 to 20"},
		{[]string{"--method", "sample", "--precision", "0.01", "--shard", "0/2", "--out", "x.json"}, "give --samples and --out"},
		{[]string{"--method", "sample", "--samples", "10", "--per-start", "--closed"}, "--per-start"},
		{[]string{"--precision", "0.01"}, "are for --method sample"},
		{[]string{"--method", "sample", "--samples", "100000", "--shard", "0/100", "--out", "x.json", "--check"}, "at most 25 shards"},
	} {
		_, _, err := runCmd(t, append([]string{"count", "--board", "5x6"}, c.args...)...)
		var u cli.UsageError
		if err == nil || !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("count %v: %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}
