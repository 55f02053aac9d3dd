package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

const testYAML = `name: t
seed: 9
boards: [6x6, 5x5]
walks: 3000
rules: [{name: warnsdorff}, {name: random}]
claims:
  - {id: c1, rule: warnsdorff/random, class: corner, below: 0.2}
  - {id: c2, rule: random, board: 5x5, square: a1, rate: 0.0022142}
exact: off
`

// testSpec resolves testYAML: two boards, two rules, claims on both boards
// and on one. Without exact values: enumerating the random walk on 5x5
// from its 25 squares costs more CPU than all the walks of every test
// that uses testYAML; shards, rounds and resumes with exact values in the
// tables are TestCustomRuleThroughRunner's (exact: on, merged from three
// shards) and the harness's.
func testSpec(t *testing.T) *config.Experiment { return specOf(t, testYAML) }

func runTo(t *testing.T, ctx context.Context, s *config.Experiment, dir string, workers int, shard Shard, resume bool) (*Completed, error) {
	t.Helper()
	return Run(ctx, s, RunOptions{Out: dir, Workers: workers, Shard: shard, Resume: resume,
		Meta: table.Metadata{Experiment: s.Name, Seed: s.Seed, ConfigHash: s.ConfigHash}})
}

// TestSameTablesAnyWorkers: 1, 2 and 7 workers give identical tables.
func TestSameTablesAnyWorkers(t *testing.T) {
	s := testSpec(t)
	var want *results.Tables
	for _, w := range []int{1, 2, 7} {
		sum, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "out"), w, All, false)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = sum.Tables
			continue
		}
		if !sameValues(sum.Tables, want) {
			t.Fatalf("%d workers: tables differ from 1 worker", w)
		}
	}
	// The tables read back equal what was built.
	if len(want.Squares) != 2*(36+25) || len(want.Claims) != 3 {
		t.Fatalf("%d square rows, %d claim rows", len(want.Squares), len(want.Claims))
	}
}

// TestShardsMerge: three shards merged give the tables of one run.
func TestShardsMerge(t *testing.T) {
	s := testSpec(t)
	one, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "one"), 2, All, false)
	if err != nil {
		t.Fatal(err)
	}
	merged, dirs := mergedShards(t, s, 3)
	tmp := filepath.Dir(filepath.Dir(dirs[0]))
	if _, err := ReadParts(dirs[:2]); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("two of three shards: %v", err)
	}
	if _, err := ReadParts([]string{dirs[0], dirs[0], dirs[1]}); err == nil {
		t.Error("a shard given twice: want error")
	}
	if !sameValues(merged, one.Tables) {
		t.Fatal("merged shards differ from one run")
	}
	other := testSpec(t)
	other.ConfigHash = "def"
	d := filepath.Join(tmp, "other")
	if _, err := runTo(t, context.Background(), other, d, 1, Shard{2, 3}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParts([]string{dirs[0], dirs[1], d}); err == nil || !strings.Contains(err.Error(), "different runs") {
		t.Errorf("mixed configs: %v", err)
	}
}

// mergedShards runs s in n shards and builds the tables of their merged
// parts, as `experiment merge` does; it returns them and the part
// directories.
func mergedShards(t *testing.T, s *config.Experiment, n int) (*results.Tables, []string) {
	t.Helper()
	tmp := t.TempDir()
	var dirs []string
	for k := range n {
		d := filepath.Join(tmp, "part", string(rune('a'+k)))
		os.MkdirAll(filepath.Dir(d), 0o755)
		if _, err := runTo(t, context.Background(), s, d, 2, Shard{k, n}, false); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	parts, err := ReadParts(dirs)
	if err != nil {
		t.Fatal(err)
	}
	ts := NewTallies()
	if err := MergeInto(s, ts, parts); err != nil {
		t.Fatal(err)
	}
	exact, err := computeExact(context.Background(), s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := results.BuildRun(s, results.Inputs{Tally: ts.Of, Exact: exact.Of})
	if err != nil {
		t.Fatal(err)
	}
	merged.ExactNotes = exact.Notes
	return merged, dirs
}

// TestCancelAndResume: a run cancelled part-way leaves no result directory,
// and --resume finishes it with the tables of an uninterrupted run.
func TestCancelAndResume(t *testing.T) {
	testenv.SkipUnlessSlow(t, "cancel and resume of 200,000 walks per start")
	s := testSpec(t)
	s.Walks = 200000
	full, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "full"), 2, All, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	_, err = runTo(t, cancelAfter(dir, 5), s, dir, 2, All, false)
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("cancelled run: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a cancelled run left %s", dir)
	}
	resumeLike(t, s, dir, 3, full)
	sq, _, err := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if err != nil || !sameValues(sq, full.Tables.Squares) {
		t.Fatalf("squares.parquet read back: %v", err)
	}
	if _, err := runTo(t, context.Background(), s, dir, 1, All, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("existing result: %v", err)
	}
}

// TestPerWalkTable: the walks table holds one row per walk, in plan order,
// each agreeing with a fresh replay of that walk, and is identical for any
// number of workers.
func TestPerWalkTable(t *testing.T) {
	s := testSpec(t)
	s.Walks = 500
	s.PerWalk, s.RowGroup = true, 1000
	var first []table.WalkRow
	for _, workers := range []int{1, 3} {
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: workers, Shard: All})
		if err != nil {
			t.Fatal(err)
		}
		rows, _, err := table.Read[table.WalkRow](filepath.Join(dir, "walks.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if want := 2 * (36 + 25) * 500; len(rows) != want {
			t.Fatalf("%d walk rows, want %d", len(rows), want)
		}
		if first == nil {
			first = rows
			// Replay a few walks and compare.
			for _, i := range []int{0, 1, 777, len(rows) - 1} {
				r := rows[i]
				b, _ := sim.ParseBoard(r.Board)
				rule, _ := sim.ParseRule(r.Rule)
				start, _ := b.ParseSquare(r.Start)
				w, _ := sim.NewWalker(b, rule)
				o := w.Walk(start, sim.NewKey(s.Seed, b, rule, start), uint64(r.Walk))
				if o.Length != int(r.Length) || o.Success != r.Success || b.SquareName(o.End) != r.End || o.Ties != int(r.Ties) {
					t.Errorf("row %d %+v disagrees with its replay %+v", i, r, o)
				}
			}
			continue
		}
		if !reflect.DeepEqual(rows, first) {
			t.Fatalf("walks table with %d workers differs", workers)
		}
	}
}

// TestSparseTallyJSON: the checkpoint and part encoding keeps every count,
// and refuses bins out of range, out of order or empty, and a tally of
// another board size.
func TestSparseTallyJSON(t *testing.T) {
	b := sim.MustBoard(7, 9)
	r, _ := sim.ParseRule("random")
	w, _ := sim.NewWalker(b, r)
	x := stats.NewTally(b.Squares())
	for i := uint64(0); i < 500; i++ {
		x.Add(w.Walk(3, sim.NewKey(1, b, r, 3), i))
	}
	x.NodeSum, x.BacktrackSum, x.BudgetExceeded = 5, 6, 7
	data, err := json.Marshal(sparseOf(x))
	if err != nil {
		t.Fatal(err)
	}
	var back sparseTally
	if err := decodeStrict(data, &back); err != nil {
		t.Fatal(err)
	}
	got, err := back.tally(63)
	if err != nil || !reflect.DeepEqual(got, x) {
		t.Fatalf("round trip changed the tally (%v):\n%+v\n%+v", err, got, x)
	}
	if _, err := back.tally(64); err == nil {
		t.Error("a tally of 63 squares taken for a board of 64")
	}
	for _, bad := range []string{`{"squares":0}`, `{"squares":5,"lengths":[[6,1]]}`, `{"squares":5,"deadends":[[5,1]]}`,
		`{"squares":5,"lengths":[[2,1],[2,1]]}`, `{"squares":5,"lengths":[[3,1],[2,1]]}`, `{"squares":5,"lengths":[[2,0]]}`} {
		var s sparseTally
		if err := decodeStrict([]byte(bad), &s); err != nil {
			t.Fatal(err)
		}
		if _, err := s.tally(5); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
	if err := decodeStrict([]byte(`{"squares":5,"extra":1}`), &back); err == nil {
		t.Error("unknown key accepted")
	}
}

// TestTalliesSparse: a large board's tally, kept sparse between Adds, comes
// back from Of equal field for field to the dense merge of the same units.
func TestTalliesSparse(t *testing.T) {
	const n = sparseAbove + 1
	ts, want := NewTallies(), stats.NewTally(n)
	k := Cell{1, 2, 3}
	for i := range 3 {
		u := stats.NewTally(n)
		u.Add(sim.Outcome{Length: 10 + i, End: 7 * i})
		u.Add(sim.Outcome{Length: n, End: 5, Success: true, Ties: 4})
		if err := want.Merge(u); err != nil {
			t.Fatal(err)
		}
		if err := ts.Add(k, u); err != nil {
			t.Fatal(err)
		}
	}
	if len(ts.m) != 0 || len(ts.sparse) != 1 {
		t.Fatalf("%d dense and %d sparse cells, want 0 and 1", len(ts.m), len(ts.sparse))
	}
	if got := ts.Of(1, 2, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("Of after three Adds differs from their dense merge")
	}
	if ts.Of(0, 0, 0) != nil {
		t.Error("Of of a cell never added is not nil")
	}
}

// TestResumeLeavesNoTemporaryFiles (issue 33): a kill while the tables
// were written leaves their temporary files in DIR.partial; --resume
// writes the tables again and the finished result holds none of them
// (a 9 MB .walks.parquet.tmp-NNN did, twice out of two). A file that is
// not a temporary of the tool's is not touched (and refuses the resume's
// commit as before).
func TestResumeLeavesNoTemporaryFiles(t *testing.T) {
	s := testSpec(t)
	s.Walks = 5000
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := runTo(t, cancelAfter(dir, 3), s, dir, 2, All, false); err == nil {
		t.Skip("the run finished before it could be cancelled")
	}
	for _, name := range []string{".squares.parquet.tmp-12345", ".walks.parquet.tmp-999"} {
		if err := os.WriteFile(filepath.Join(dir+".partial", name), []byte("cut short"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := runTo(t, context.Background(), s, dir, 2, All, true); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("the finished result holds %s", e.Name())
		}
	}
}

// TestLongSearchHeedsCancel (issue 33): a backtracking search that runs
// for minutes (closed tours on 7×7, which has none, with a huge node
// budget) stops within a moment of a cancel, in a run and in the dry
// run's calibration, and a run leaves its partial directory for --resume
// and no lock.
func TestLongSearchHeedsCancel(t *testing.T) {
	s := specOf(t, `name: long
seed: 1
boards: [7x7]
starts: [a1]
walks: 2
rules: [{name: backtrack, closed: true, node_budget: 100000000000}]
`)
	for _, what := range []string{"run", "dry run"} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		t0 := time.Now()
		var err error
		dir := filepath.Join(t.TempDir(), "out")
		if what == "run" {
			_, err = runTo(t, ctx, s, dir, 2, All, false)
		} else {
			_, err = EstimateRun(ctx, s, All, 2)
		}
		cancel()
		if d := time.Since(t0); d > 3*time.Second {
			t.Errorf("%s: stopped %v after the cancel", what, d)
		}
		if err == nil {
			t.Errorf("%s: no error after a cancel", what)
		}
		if what == "run" {
			if _, err := os.Stat(dir + ".lock"); err == nil {
				t.Errorf("run left %s.lock", dir)
			}
		}
	}
}

// TestExactOnTooLargeSaysSo (issue 33): exact: on on a board the engine
// does not take gets a note in the report, not silence.
func TestExactOnTooLargeSaysSo(t *testing.T) {
	s := specOf(t, "name: big\nseed: 1\nboards: [26x26]\nstarts: [corner]\nwalks: 2\nrules: [{name: warnsdorff}]\nexact: on\n")
	x, err := computeExact(context.Background(), s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Notes) != 1 || !strings.Contains(x.Notes[0], "at most 640 squares, and 26x26 has 676") {
		t.Errorf("notes %q", x.Notes)
	}
}
