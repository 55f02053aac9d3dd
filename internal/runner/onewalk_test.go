package runner

import (
	"fmt"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestOneWalkCells: Tallies keeps a cell of one walk as that walk, and
// gives back the same tally, field for field, as the dense one, for every
// kind of end; a second tally of the cell adds to it exactly, whichever
// comes first. A tally that is not one walk is never taken for one.
func TestOneWalkCells(t *testing.T) {
	outcomes := []sim.Outcome{
		{Length: 25, End: 7, Success: true, Ties: 4},
		{Length: 25, End: 3, Success: true, Closed: true, Ties: 1},
		{Length: 9, End: 12, Ties: 2},
		{Length: 5, End: 4, Stopped: true},
		{Length: 17, End: 24, Nodes: 900, Backtracks: 880, BudgetExceeded: true},
		{Length: 1, End: 0},
	}
	dense := func(os ...sim.Outcome) *stats.Tally {
		x := stats.NewTally(25)
		for _, o := range os {
			x.Add(o)
		}
		return x
	}
	for i, o := range outcomes {
		ts := NewTallies()
		c := Cell{0, i, o.End}
		if err := ts.Add(c, dense(o)); err != nil {
			t.Fatal(err)
		}
		if _, ok := ts.one[c]; !ok || len(ts.m) != 0 {
			t.Errorf("%+v: not kept as one walk", o)
		}
		if got, want := fmt.Sprintf("%+v", ts.Of(0, i, o.End)), fmt.Sprintf("%+v", dense(o)); got != want {
			t.Errorf("%+v: tally\n%s\nwant\n%s", o, got, want)
		}
		other := outcomes[(i+1)%len(outcomes)]
		if err := ts.Add(c, dense(other)); err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprintf("%+v", ts.Of(0, i, o.End)), fmt.Sprintf("%+v", dense(o, other)); got != want || len(ts.one) != 0 {
			t.Errorf("%+v then %+v: tally\n%s\nwant\n%s", o, other, got, want)
		}
	}
	two := dense(outcomes[0], outcomes[2])
	two.Walks = 1 // a tally no single walk gives
	if _, ok := oneWalkOf(two); ok {
		t.Error("a tally of two lengths taken for one walk")
	}
	if _, ok := oneWalkOf(dense()); ok {
		t.Error("an empty tally taken for one walk")
	}
}
