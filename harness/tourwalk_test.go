package harness

import (
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

func tourBoard(t *testing.T, s string) *sim.Board {
	t.Helper()
	b, err := sim.ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tourRule(t *testing.T, s string) sim.Rule {
	t.Helper()
	r, err := sim.ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTourWalkTour: Warnsdorff/random completes a tour from a1 of 5x5 with
// probability 1 (the exact enumeration's value), so every walk is one:
// 25 distinct squares from a1, each a knight's move from the one before;
// the same walk index gives the same path, as a run draws it.
func TestTourWalkTour(t *testing.T) {
	b, r := tourBoard(t, "5x5"), tourRule(t, "warnsdorff/random")
	for walk := uint64(0); walk < 4; walk++ {
		o, err := tourWalk(b, r, 0, 2026, walk)
		if err != nil {
			t.Fatal(err)
		}
		if !o.Success || o.Length != 25 || len(o.Path) != 25 || o.Path[0] != 0 {
			t.Fatalf("walk %d: success %v, length %d, path %v", walk, o.Success, o.Length, o.Path)
		}
		seen := map[int]bool{}
		for i, sq := range o.Path {
			seen[int(sq)] = true
			if i == 0 {
				continue
			}
			r0, c0 := b.RowCol(int(o.Path[i-1]))
			r1, c1 := b.RowCol(int(sq))
			if d := (r1-r0)*(r1-r0) + (c1-c0)*(c1-c0); d != 5 {
				t.Fatalf("walk %d: step %d from %s to %s is not a knight's move", walk, i, b.SquareName(int(o.Path[i-1])), b.SquareName(int(sq)))
			}
		}
		if len(seen) != 25 {
			t.Errorf("walk %d visits %d distinct squares, want 25", walk, len(seen))
		}
		if got := tourOutcome(b, o); got != "an open tour, 25 squares" {
			t.Errorf("walk %d: outcome %q", walk, got)
		}
		again, _ := tourWalk(b, r, 0, 2026, walk)
		if !reflect.DeepEqual(again.Path, o.Path) {
			t.Errorf("walk %d replayed: %v, first %v", walk, again.Path, o.Path)
		}
	}
}

// TestTourWalkClosedOddBoard: a closed tour on a board of an odd number of
// squares is refused at once, saying why.
func TestTourWalkClosedOddBoard(t *testing.T) {
	_, err := tourWalk(tourBoard(t, "5x5"), tourRule(t, "backtrack/closed"), 0, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "a closed tour needs an even number of squares") {
		t.Errorf("closed tour on 5x5: %v", err)
	}
}

// TestTourOutcome: how a walk that is not a tour ended, in words.
func TestTourOutcome(t *testing.T) {
	b := tourBoard(t, "5x5")
	for _, c := range []struct {
		o    sim.Outcome
		want string
	}{
		{sim.Outcome{Success: true, Closed: true}, "a closed tour, 25 squares"},
		{sim.Outcome{BudgetExceeded: true, Nodes: 99, Length: 20}, "the search gave up at its node budget after 99 nodes (deepest path 20 of 25 squares)"},
		{sim.Outcome{Stopped: true, Length: 7, End: 7}, "stopped at --max-steps after 7 of 25 squares, on c2"},
		{sim.Outcome{Length: 12, End: 24}, "a dead end on e5 after 12 of 25 squares"},
	} {
		if got := tourOutcome(b, c.o); got != c.want {
			t.Errorf("tourOutcome(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}
