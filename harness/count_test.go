package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

func TestCountText(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "5x5", "--unique", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	want := `directed open tours from each start square, 5x5

5  304   0  56   0 304
4    0  56   0  56   0
3   56   0  64   0  56
2    0  56   0  56   0
1  304   0  56   0 304
     a   b   c   d   e

directed tours: 1728
undirected tours: 864
up to symmetry (8 symmetries): 112
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant it to begin\n%s", out, want)
	}
}

func TestCountOneStart(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "5x5", "--start", "c3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3   .  . 64  .  .\n") || strings.Contains(out, "directed tours:") {
		t.Errorf("want only c3 counted and no totals, got\n%s", out)
	}
	out, _, err = runCmd(t, "count", "--board", "5x6", "--closed", "--unique", "--start", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "closed tours (cycles): 8\n") || !strings.Contains(out, "up to symmetry (4 symmetries): 3\n") {
		t.Errorf("5x6 closed from a1: got\n%s", out)
	}
}

func TestCountCSV(t *testing.T) {
	out, _, err := runCmd(t, "count", "--board", "3x4", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	want := `board,rows,cols,start,kind,count
3x4,3,4,a1,open,2
3x4,3,4,b1,open,0
3x4,3,4,c1,open,0
3x4,3,4,d1,open,2
3x4,3,4,a2,open,4
3x4,3,4,b2,open,0
3x4,3,4,c2,open,0
3x4,3,4,d2,open,4
3x4,3,4,a3,open,2
3x4,3,4,b3,open,0
3x4,3,4,c3,open,0
3x4,3,4,d3,open,2
3x4,3,4,,open,16
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, _, err = runCmd(t, "count", "--board", "5x5", "--closed", "--format", "csv", "--start", "a1")
	if err != nil || out != "board,rows,cols,start,kind,count\n5x5,5,5,a1,closed,0\n5x5,5,5,,closed,0\n" {
		t.Errorf("5x5 closed from a1: %q, %v", out, err)
	}
}

// TestCountMethodsAgree runs both methods through the command on boards
// where both finish at once, and compares the csv.
func TestCountMethodsAgree(t *testing.T) {
	for _, args := range [][]string{
		{"--board", "5x5"},
		{"--board", "4x6"},
		{"--board", "5x6", "--closed"},
		{"--board", "3x10", "--closed"},
		{"--board", "6x5", "--start", "b2"},
		{"--board", "4x5", "--paired-ends"},
	} {
		var outs [2]string
		for i, m := range []string{"search", "frontier"} {
			out, _, err := runCmd(t, append([]string{"count", "--method", m, "--format", "csv"}, args...)...)
			if err != nil {
				t.Fatalf("%q --method %s: %v", args, m, err)
			}
			outs[i] = out
		}
		if outs[0] != outs[1] {
			t.Errorf("%q: search\n%s\nfrontier\n%s", args, outs[0], outs[1])
		}
	}
	out, _, err := runCmd(t, "count", "--board", "6x6", "--closed")
	if err != nil || !strings.Contains(out, "closed tours (cycles): 9862\n") || !strings.Contains(out, "frontier: 1 frontier sweeps") {
		t.Errorf("6x6 closed (auto picks the frontier): %v\n%s", err, out)
	}
}

// TestCountForce: --force starts what the estimate refuses, says so, and
// the budget still stops the sweep when a table would really pass it; a
// budget the sweep fits finishes with the count.
func TestCountForce(t *testing.T) {
	args := []string{"count", "--board", "6x6", "--method", "frontier", "--max-memory", "1MiB"}
	if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "so not started (") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("6x6 open in 1 MiB: %v, want the refusal naming --force", err)
	}
	_, stderr, err := runCmd(t, append(args, "--force")...)
	if !errors.Is(err, count.ErrBudget) || !strings.Contains(stderr, "started anyway (--force)") {
		t.Errorf("6x6 open in 1 MiB, forced: %v\n%s; want the warning, then the budget's stop", err, stderr)
	}
	// 6x6 closed is estimated at 10.8 MiB of tables and takes 6.7 MiB;
	// 64 MiB leaves 9.6 MiB for tables.
	out, stderr, err := runCmd(t, "count", "--board", "6x6", "--closed", "--method", "frontier", "--max-memory", "64MiB", "--force")
	if err != nil || !strings.Contains(out, "closed tours (cycles): 9862\n") || !strings.Contains(stderr, "started anyway") {
		t.Errorf("6x6 closed in 64 MiB, forced: %v\n%s\n%s", err, out, stderr)
	}
	dir := t.TempDir()
	if _, _, err := runCmd(t, "count", "--board", "7x7", "--closed", "--method", "frontier", "--spill", dir, "--max-memory", "1MiB"); err == nil || !strings.Contains(err.Error(), "a 256th") {
		t.Errorf("7x7 closed spilled in 1 MiB: %v, want the refusal", err)
	}
}

func TestCountLayers(t *testing.T) {
	_, stderr, err := runCmd(t, "count", "--board", "5x6", "--closed", "--layers")
	if err != nil || strings.Count(stderr, "\n") != 30 || !strings.Contains(stderr, "count 5x6: sweep closed square 30/30 states 0 tables") {
		t.Errorf("5x6 --layers: %v\n%s", err, stderr)
	}
}

// TestCountSpill counts closed tours with the layers on disk in a budget
// the sweep's widest steps exceed: the published count, steps in passes
// (--layers), and no file left behind. 5x6 (8 closed tours) spills in 2
// MiB in half a CPU-second; 6x6 (9,862), seven times the CPU, is the slow
// pass's.
func TestCountSpill(t *testing.T) {
	cases := []struct{ board, want string }{{"5x6", "8"}}
	if testenv.Slow() {
		cases = append(cases, struct{ board, want string }{"6x6", "9862"})
	}
	for _, c := range cases {
		dir := t.TempDir()
		out, stderr, err := runCmd(t, "count", "--board", c.board, "--closed", "--method", "frontier", "--spill", dir, "--max-memory", "2MiB", "--layers")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "closed tours (cycles): "+c.want+"\n") {
			t.Errorf("%s closed spilled: got\n%s", c.board, out)
		}
		if !strings.Contains(stderr, " passes 2 ") {
			t.Errorf("%s: no step took two passes in 2 MiB:\n%s", c.board, stderr)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: %d files left in the spill directory", c.board, len(left))
		}
	}
}

func TestCountParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counts.parquet")
	if _, _, err := runCmd(t, "count", "--board", "5x6", "--closed", "--format", "parquet", "--out", path); err != nil {
		t.Fatal(err)
	}
	rows, md, err := table.Read[table.CountRow](path)
	if err != nil {
		t.Fatal(err)
	}
	// the command line as exact's files record it (the flags given, by
	// name), and how the tours were counted
	if len(rows) != 31 || md.Extra["count_method"] != "frontier" || md.Extra["command"] != "count --board=5x6 --closed" {
		t.Fatalf("%d rows, metadata %v", len(rows), md.Extra)
	}
	if r := rows[0]; r.Board != "5x6" || r.Start != "a1" || r.Kind != "closed" || r.Count != 16 {
		t.Errorf("first row %+v", r)
	}
	if r := rows[30]; r.Start != "" || r.Kind != "closed" || r.Count != 8 {
		t.Errorf("total row %+v", r)
	}
	_, _, err = runCmd(t, "count", "--board", "5x6", "--format", "parquet", "--out", path)
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing --out: %v, want a usage error", err)
	}
}

func TestCountErrors(t *testing.T) {
	for _, args := range [][]string{
		{"count"},
		{"count", "--board", "5y5"},
		{"count", "--board", "5x5", "--format", "json"},
		{"count", "--board", "5x5", "--start", "f9"},
		{"count", "--board", "5x5", "--workers", "0"},
		{"count", "--board", "5x5", "--unique", "--start", "a1"},
		{"count", "--board", "5x5", "--bogus"},
		{"count", "--board", "5x5", "extra"},
		{"count", "--board", "0x0"},
		{"count", "--board", "5x5", "--format", "parquet"},
		{"count", "--board", "5x5", "--out", "x.parquet"},
		{"count", "--board", "5x5", "--method", "magic"},
		{"count", "--board", "8x9", "--unique", "--method", "frontier"}, // the folded searches: 64 squares at most
		{"count", "--board", "5x5", "--max-memory", "0"},
		{"count", "--board", "5x5", "--spill", "/no/such/dir"},
		{"count", "--board", "5x5", "--spill", "count_test.go"},
	} {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
	var u usageError
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"count", "--board", "9x9"}, "shorter side is at most 8"},
		{[]string{"count", "--board", "1000x1000"}, "shorter side is at most 8"},
		{[]string{"count", "--board", "8x8", "--method", "search"}, "years"},
		{[]string{"count", "--board", "9x9", "--method", "search"}, "64 squares"},
		{[]string{"count", "--board", "8x8", "--unique"}, "raise --max-memory"}, // the sweep, as the search is hopeless
		{[]string{"count", "--board", "8x8", "--unique", "--method", "search"}, "over --max-nodes"},
		{[]string{"count", "--board", "8x8", "--max-memory", "1MiB"}, "raise --max-memory"},
		{[]string{"count", "--board", "8x8", "--max-memory", "1MiB", "--paired-ends"}, "raise --max-memory"},
		{[]string{"count", "--board", "7x7", "--closed", "--max-memory", "1MiB"}, "raise --max-memory"},
		{[]string{"count", "--board", "8x8", "--closed", "--max-memory", "1MiB", "--spill", "."}, "a 256th of their tables"},
	} {
		_, _, err := runCmd(t, c.args...)
		if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want a plain error about %q", c.args, err, c.want)
		}
	}
}
