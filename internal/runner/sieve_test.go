package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

const sieveYAML = `name: sieve-test
seed: 9
boards:
  - {sizes: "9", keep: succeeds}
  - {sizes: "10..12", step: 2, keep: succeeds}
  - {rows: "5..7", cols: "5..8", keep: fails}
starts: [r0c0, r1c2]
walks: 1
rules:
  - {name: warnsdorff, tie_break: [first, roth+first], order: rotations}
  - {name: random}
`

// TestSieveAgainstWalks holds a sieve to the walks it stands for: every
// cell's record of every stage it entered is what walking the cell on
// each board of the stage in order, up to its first failure, gives (walk
// 0 of its stream, as a run with walks: 1 takes), the cells that enter a
// stage are exactly those that passed the one before, and the table is
// byte for byte the same on 1 and 3 workers.
func TestSieveAgainstWalks(t *testing.T) {
	s := specOf(t, sieveYAML)
	if len(s.Sieve) != 3 || len(s.Sieve[1].Boards) != 2 || s.Sieve[2].Keep != "fails" {
		t.Fatalf("stages %+v", s.Sieve)
	}
	if b := s.Boards[s.Sieve[1].Boards[0]]; b.Rows != 10 {
		t.Fatalf("stage 2 walks %s first, want 10x10 (the order given)", b)
	}
	var tables [][]byte
	for _, workers := range []int{1, 3} {
		dir := filepath.Join(t.TempDir(), "out")
		if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: workers}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, results.SieveFile))
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, b)
		if workers > 1 {
			continue
		}
		rows, _, err := table.Read[table.SieveRow](filepath.Join(dir, results.SieveFile))
		if err != nil {
			t.Fatal(err)
		}
		checkSieveRows(t, s, rows)
	}
	if !bytes.Equal(tables[0], tables[1]) {
		t.Error("the sieve table differs between 1 and 3 workers")
	}
}

func checkSieveRows(t *testing.T, s *config.Experiment, rows []table.SieveRow) {
	t.Helper()
	type cell struct{ rule, start int }
	var alive []cell
	for ri := range s.Rules {
		for si := range s.Starts[0] {
			alive = append(alive, cell{ri, si})
		}
	}
	everKept := 0
	i := 0
	for stage, st := range s.Sieve {
		var next []cell
		for _, c := range alive {
			if i >= len(rows) {
				t.Fatalf("stage %d: rows end before cell %+v", stage+1, c)
			}
			r := rows[i]
			i++
			rule := s.Rules[c.rule]
			want := table.SieveRow{Experiment: s.Name, Stage: int32(stage + 1), Keep: st.Keep, Rule: rule.Name(), Params: results.Params(rule)}
			for _, bi := range st.Boards {
				b := s.Boards[bi]
				start := s.Starts[bi][c.start]
				row, col := b.RowCol(start)
				want.StartRow, want.StartCol = int32(row), int32(col)
				w, err := sim.NewWalker(b, rule)
				if err != nil {
					t.Fatal(err)
				}
				o := w.Walk(start, sim.NewKey(s.Seed, b, rule, start), 0)
				want.Boards++
				want.Steps += int64(o.Length)
				if !o.Success {
					want.FailedBoard = b.String()
					want.FailedRows, want.FailedCols = table.Int32Of(int32(b.Rows)), table.Int32Of(int32(b.Cols))
					want.FailedLength = table.Int64Of(int64(o.Length))
					break
				}
			}
			want.Start = r.Start // checked through StartRow, StartCol
			want.Passed = want.FailedBoard != "" == (st.Keep == "fails")
			want.Kept = r.Kept
			if r != want {
				t.Errorf("stage %d cell %+v:\n got %+v\nwant %+v", stage+1, c, r, want)
			}
			if want.Passed {
				next = append(next, c)
			}
		}
		alive = next
	}
	if i != len(rows) {
		t.Errorf("%d rows, want %d", len(rows), i)
	}
	for _, r := range rows {
		inLast := r.Stage == int32(len(s.Sieve)) && r.Passed
		if inLast {
			everKept++
		}
		if r.Kept != slices.ContainsFunc(rows, func(x table.SieveRow) bool {
			return x.Stage == int32(len(s.Sieve)) && x.Passed && x.Params.Spec == r.Params.Spec && x.Start == r.Start
		}) {
			t.Errorf("%s from %s stage %d: kept %v", r.Params.Spec, r.Start, r.Stage, r.Kept)
		}
	}
	if everKept == 0 || everKept == len(s.Rules)*len(s.Starts[0]) {
		t.Errorf("the sieve keeps %d of %d cells: the test wants a sieve that keeps some and drops some", everKept, len(s.Rules)*len(s.Starts[0]))
	}
}

// TestSieveRefusesShardsAndResume: a sieve's stages depend on each other;
// it runs whole.
func TestSieveRefusesShardsAndResume(t *testing.T) {
	s := specOf(t, sieveYAML)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: Shard{0, 2}}); err == nil {
		t.Error("a shard of a sieve ran")
	}
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Resume: true}); err == nil {
		t.Error("a sieve resumed")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("refused runs left %s: %v", dir, err)
	}
	// cancelled, it leaves nothing behind: there is nothing to resume
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, s, RunOptions{Out: dir, Workers: 2}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("a cancelled sieve: %v", err)
	}
	for _, p := range []string{dir, dir + ".partial"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a cancelled sieve left %s: %v", p, err)
		}
	}
}

var registerSievePanic = sync.OnceValue(func() error {
	return sim.Register(sim.CustomRule{Name: "runnertest/sievepanic", Doc: "panics on walks from b2 once they reach 5 squares",
		New: func(*sim.Board) sim.Policy {
			return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
				if p.Start() == p.Board().Square(1, 1) && p.VisitedCount() >= 5 { // past the first use's check (corners, centre)
					panic("runnertest: a bug")
				}
				return p.Moves(p.Current(), dst)
			})
		}})
})

// TestSieveRuleOfYourOwnFails: a rule of your own that breaks its
// contract in a sieve (it lies about being deterministic, or panics)
// stops the sieve with the rule's error, naming it, and leaves nothing
// behind, as a run does.
func TestSieveRuleOfYourOwnFails(t *testing.T) {
	if err := registerSum2(); err != nil {
		t.Fatal(err)
	}
	if err := registerSievePanic(); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"runnertest/liar", "runnertest/sievepanic"} {
		s := specOf(t, "name: s\nseed: 1\nwalks: 1\nstarts: [r1c1]\nrules: [{name: "+rule+"}]\nboards:\n  - {sizes: \"6..9\", keep: succeeds}\n")
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 2})
		var re *sim.RuleError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), rule) {
			t.Errorf("%s: err = %v", rule, err)
		}
		for _, d := range []string{dir, dir + ".partial"} {
			if _, err := os.Stat(d); !os.IsNotExist(err) {
				t.Errorf("%s: %s written: %v", rule, d, err)
			}
		}
	}
}
