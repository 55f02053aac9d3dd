package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// registerWarnsdorffFirst registers Warnsdorff's rule with the first
// tie-break as a rule of your own: ordering backtrack by it must give the
// built-in backtrack, search for search.
func registerWarnsdorffFirst(t *testing.T) {
	registerOnce(t, CustomRule{Name: "test/wf", New: func(b *Board) Policy {
		p, err := Rule{Kind: Warnsdorff, TieBreak: TieFirst}.Policy(b)
		if err != nil {
			panic(err)
		}
		return p
	}})
}

// TestPolicyBacktrackIsBacktrack: backtrack ordered by a policy that is
// Warnsdorff's rule with the first tie-break searches exactly as the
// built-in backtrack (first): the same nodes, backtracks, ties, outcome
// and tour, open and closed, with budgets that cut the search and move
// orders; the name parses and round-trips.
func TestPolicyBacktrackIsBacktrack(t *testing.T) {
	registerWarnsdorffFirst(t)
	for _, name := range []string{"backtrack/test/wf", "backtrack/closed/test/wf"} {
		r, err := ParseRule(name)
		if err != nil || r.Name() != name || r.Kind != Backtrack || r.Custom != "test/wf" {
			t.Fatalf("ParseRule(%q) = %+v, %v", name, r, err)
		}
	}
	order, _ := ParseOrder("(1,2),(2,1),(2,-1),(1,-2),(-1,-2),(-2,-1),(-2,1),(-1,2)")
	for _, bs := range [][2]int{{5, 5}, {3, 4}, {5, 6}, {6, 6}, {8, 8}} {
		b := MustBoard(bs[0], bs[1])
		for _, closed := range []bool{false, true} {
			for _, o := range [][]Move{nil, order} {
				for _, budget := range []int64{300, 20000} {
					built := Rule{Kind: Backtrack, TieBreak: TieFirst, Closed: closed, Order: o, NodeBudget: budget}
					mine := built
					mine.Custom = "test/wf"
					bw, err := NewWalker(b, built)
					if err != nil {
						t.Fatal(err)
					}
					mw, err := NewWalker(b, mine)
					if err != nil {
						t.Fatal(err)
					}
					bw.KeepPaths(true)
					mw.KeepPaths(true)
					for start := 0; start < b.Squares(); start++ {
						want := bw.Walk(start, NewKey(1, b, built, start), 0)
						got := mw.Walk(start, NewKey(1, b, mine, start), 0)
						if fmt.Sprint(got) != fmt.Sprint(want) || !slices.Equal(got.Path, want.Path) {
							t.Fatalf("%s %s start %s budget %d:\nbuilt-in %+v\npolicy   %+v", b, mine.Name(), b.SquareName(start), budget, want, got)
						}
					}
				}
			}
		}
	}
}

// TestPolicyBacktrackRandom: with tie-break random the search ordered by
// a rule of your own finds valid tours, the same stream gives the same
// search, different walks differ, and a closed search ends on a closed
// tour.
func TestPolicyBacktrackRandom(t *testing.T) {
	registerOnce(t, CustomRule{Name: "test/degree-sum2", New: func(*Board) Policy { return &degreeSum2{} }})
	for _, closed := range []bool{false, true} {
		r := Rule{Kind: Backtrack, TieBreak: TieRandom, Custom: "test/degree-sum2", Closed: closed}
		if r.Deterministic() {
			t.Fatal("random tie-break called deterministic")
		}
		b := MustBoard(6, 6)
		w, err := NewWalker(b, r)
		if err != nil {
			t.Fatal(err)
		}
		w.KeepPaths(true)
		key := NewKey(3, b, r, 0)
		paths := map[string]bool{}
		for i := range uint64(20) {
			o := w.Walk(0, key, i)
			if !o.Success || o.BudgetExceeded {
				t.Fatalf("%s walk %d: %+v", r.Name(), i, o)
			}
			checkWalk(t, b, o, r)
			if closed && !o.Closed {
				t.Fatalf("%s walk %d: not closed", r.Name(), i)
			}
			again := w.Walk(0, key, i)
			if !slices.Equal(again.Path, o.Path) || again.Nodes != o.Nodes {
				t.Fatal("same stream, different search")
			}
			paths[fmt.Sprint(o.Path)] = true
		}
		if len(paths) < 2 {
			t.Errorf("%s: 20 searches found one tour", r.Name())
		}
	}
}

// TestPolicyBacktrackRefusals: an unregistered name, a stateful rule and a
// bad answer are refused with errors that name them; a long search heeds
// its context.
func TestPolicyBacktrackRefusals(t *testing.T) {
	if _, err := ParseRule("backtrack/test/nope"); err == nil || !strings.Contains(err.Error(), "is not one") {
		t.Errorf("unregistered: %v", err)
	}
	b := MustBoard(8, 8)
	if _, err := NewWalker(b, Rule{Kind: Backtrack, TieBreak: TieFirst, Custom: "squirrel-cull"}); err == nil || !strings.Contains(err.Error(), "keeps state") {
		t.Errorf("stateful order: %v", err)
	}
	registerOnce(t, CustomRule{Name: "test/bt-bad", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int { return append(dst, p.Current()) })
	}})
	var re *RuleError
	if _, err := NewWalker(b, Rule{Kind: Backtrack, TieBreak: TieFirst, Custom: "test/bt-bad"}); err == nil || !strings.Contains(err.Error(), "test/bt-bad") || !errors.As(err, &re) {
		t.Errorf("bad answer at the first use (the guard's replay): %v", err)
	}
	// one that answers badly deeper than the replay looks is refused by the search
	registerOnce(t, CustomRule{Name: "test/bt-bad-deep", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			if p.VisitedCount() > replaySteps+1 {
				return append(dst, p.Current())
			}
			return p.Moves(p.Current(), dst)
		})
	}})
	w, err := NewWalker(b, Rule{Kind: Backtrack, TieBreak: TieFirst, Custom: "test/bt-bad-deep"})
	if err != nil {
		t.Fatal(err)
	}
	o := w.Walk(0, NewKey(1, b, Rule{Kind: Backtrack, Custom: "test/bt-bad-deep"}, 0), 0)
	if err := w.Err(); err == nil || !strings.Contains(err.Error(), "test/bt-bad-deep") || !w.Stopped() || o.Success {
		t.Errorf("bad answer: %v %+v", err, o)
	} else if !errors.As(err, &re) {
		t.Errorf("error %T, want *RuleError", err)
	}
	// A closed search on 7×7 with a huge budget runs for a long time: a
	// cancelled context stops it.
	registerWarnsdorffFirst(t)
	r := Rule{Kind: Backtrack, TieBreak: TieFirst, Custom: "test/wf", Closed: true, NodeBudget: 1 << 40}
	b = MustBoard(7, 7)
	w, err = NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	release := w.StopOn(ctx)
	defer release()
	o = w.Walk(0, NewKey(1, b, r, 0), 0) // an odd board has no closed tour: the search would run for ever
	if o.Success || !w.Stopped() {
		t.Errorf("closed search on 7x7 not stopped by its context: %+v", o)
	}
}
