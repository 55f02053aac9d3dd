package runner

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestLargeBoardUnitTallies: on a board of more than sparseAbove squares a
// unit's tally comes from the pool and its sparse form from the bins its
// walks touched. Each unit's sparse form must be what a scan of its dense
// tally gives, the dense tally must be exactly the unit's walks counted
// afresh (so a reused tally was cleared), and the cells' tallies must be
// those of the walks counted one by one.
func TestLargeBoardUnitTallies(t *testing.T) {
	bd := sim.MustBoard(33, 33) // 1089 squares: just over sparseAbove
	if bd.Squares() <= sparseAbove {
		t.Fatalf("%s has %d squares, not over sparseAbove %d", bd, bd.Squares(), sparseAbove)
	}
	var rules []sim.Rule
	for _, name := range []string{"random", "warnsdorff/random", "warnsdorff/roth+first"} {
		r, err := sim.ParseRule(name)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	rules[1].MaxSteps = 40 // stopped walks: no dead end, an end square all the same
	starts := []int{0, bd.Square(16, 16)}
	const walks = 2*7703 + 300 // blockSize(1089) = 7703: three units per start, the last short
	if b := blockSize(bd.Squares(), walks); b != 7703 {
		t.Fatalf("blockSize = %d, the test wants 7703", b)
	}
	s := &config.Experiment{Name: "pool", Seed: 7, Boards: []*sim.Board{bd}, Rules: rules,
		Starts: [][]int{starts, starts, {0}}, Walks: walks}
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		ts := NewTallies()
		units := 0 // done runs on Execute's goroutine: errors, not t.Fatal
		err := Execute(context.Background(), p, p.Units(All), Options{Workers: workers}, func(r Result) error {
			units++
			if r.sparse == nil {
				return fmt.Errorf("unit %d on %s: no sparse form", r.Unit.ID, bd)
			}
			if got, want := *r.sparse, sparseOf(r.Tally); !reflect.DeepEqual(got, want) {
				return fmt.Errorf("unit %d: sparse form from the touched bins\n%+v\nfrom a scan\n%+v", r.Unit.ID, got, want)
			}
			w, _ := sim.NewWalker(bd, rules[r.Unit.Rule])
			key := sim.NewKey(s.Seed, bd, rules[r.Unit.Rule], r.Unit.Start)
			want := stats.NewTally(bd.Squares())
			for i := r.Unit.Lo; i < r.Unit.Hi; i++ {
				want.Add(w.Walk(r.Unit.Start, key, i))
			}
			if !reflect.DeepEqual(r.Tally, want) {
				return fmt.Errorf("unit %d (workers %d): the tally is not its walks' (a reused tally not cleared?)", r.Unit.ID, workers)
			}
			return ts.addResult(r)
		})
		if err != nil {
			t.Fatal(err)
		}
		if units != p.Len() || units < 12 {
			t.Fatalf("%d units handed over, plan has %d", units, p.Len())
		}
		for ri, r := range rules {
			for _, st := range s.Starts[ri] {
				w, _ := sim.NewWalker(bd, r)
				key := sim.NewKey(s.Seed, bd, r, st)
				want := stats.NewTally(bd.Squares())
				for i := range uint64(s.WalksFor(ri)) {
					want.Add(w.Walk(st, key, i))
				}
				if got := ts.Of(0, ri, st); !reflect.DeepEqual(got, want) {
					t.Errorf("workers %d, %s from %d: the cell's tally is not its walks'", workers, r.Name(), st)
				}
			}
		}
	}
}

// TestSparseAt: the sparse form from a superset of the touched bins, in
// any order and with repeats, is the scan's, empty histograms included.
func TestSparseAt(t *testing.T) {
	x := stats.NewTally(2000)
	if got, want := sparseAt(x, nil, []int{5, 5}), sparseOf(x); !reflect.DeepEqual(got, want) {
		t.Fatalf("empty: %+v, want %+v", got, want)
	}
	x.Walks, x.Successes, x.TieSum = 9, 2, 40
	x.Lengths[2000], x.Lengths[17], x.Lengths[3] = 2, 4, 3
	x.DeadEnds[1999], x.DeadEnds[0], x.DeadEnds[8] = 1, 5, 1
	got := sparseAt(x, []int{17, 2000, 3, 17, 3, 3, 1000}, []int{8, 1999, 0, 0, 7, 1999, 8})
	if want := sparseOf(x); !reflect.DeepEqual(got, want) {
		t.Fatalf("sparseAt = %+v, want %+v", got, want)
	}
}

// TestTallyPoolSizes: a tally put back serves a smaller board's unit next
// (a sweep's units change board every time), empty, of that board's size,
// on the same storage; one too small for the next board is dropped and a
// new one made with room to spare.
func TestTallyPoolSizes(t *testing.T) {
	var p tallyPool
	a := p.get(2000)
	if len(a.Lengths) != 2001 || len(a.DeadEnds) != 2000 || cap(a.DeadEnds) < 2500 {
		t.Fatalf("new tally: %d lengths, %d dead ends, room for %d squares", len(a.Lengths), len(a.DeadEnds), cap(a.DeadEnds))
	}
	a.Add(sim.Outcome{Start: 0, Length: 2000, End: 1999, Success: true})
	a.Add(sim.Outcome{Start: 0, Length: 7, End: 1500})
	sp := sparseOf(a)
	p.put(Result{Tally: a, sparse: &sp})
	b := p.get(1500)
	if &b.DeadEnds[0] != &a.DeadEnds[0] {
		t.Fatal("a free tally with room was not reused")
	}
	if !reflect.DeepEqual(b, stats.NewTally(1500)) {
		t.Fatalf("the reused tally is not empty or not of 1500 squares: %d lengths, %d dead ends", len(b.Lengths), len(b.DeadEnds))
	}
	b.Add(sim.Outcome{Start: 0, Length: 1500, End: 1499, Success: true})
	b.Add(sim.Outcome{Start: 0, Length: 9, End: 3})
	sp = sparseOf(b)
	p.put(Result{Tally: b, sparse: &sp})
	c := p.get(2500) // within a's room: its storage again, every bin b or a wrote cleared
	if &c.DeadEnds[0] != &a.DeadEnds[0] || !reflect.DeepEqual(c, stats.NewTally(2500)) {
		t.Fatal("the tally for 2500 squares is not a's storage, emptied")
	}
	sp = sparseOf(c)
	p.put(Result{Tally: c, sparse: &sp})
	d := p.get(4000)
	if &d.DeadEnds[0] == &a.DeadEnds[0] || len(p.free) != 0 || !reflect.DeepEqual(d, stats.NewTally(4000)) {
		t.Fatal("a tally too small for 4000 squares was not dropped for a new, empty one")
	}
}
