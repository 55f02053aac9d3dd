package runner

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestGroupedUnits: a cell's small random-walk units, walked together in
// one WalkRange (runGroup), give each unit exactly its own walks (per
// walk and tallied) and reach done in unit order, with one worker and
// with three; groups form (several units each) and never mix cells,
// rounds or rules (Warnsdorff's units stay one a job).
func TestGroupedUnits(t *testing.T) {
	bd := sim.MustBoard(400, 400) // blockSize: 64 walks a unit
	var rules []sim.Rule
	for _, name := range []string{"random", "warnsdorff/random"} {
		r, err := sim.ParseRule(name)
		if err != nil {
			t.Fatal(err)
		}
		r.MaxSteps = 300 // short walks: the test is about the units, not the walks
		rules = append(rules, r)
	}
	starts := []int{0, bd.Square(200, 199)}
	const walks = 64*9 + 17
	s := &config.Experiment{Name: "group", Seed: 3, Boards: []*sim.Board{bd}, Rules: rules,
		Starts: [][]int{starts, {0}}, Walks: walks, PerWalk: true}
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	if b := blockSize(bd.Squares(), walks); b != minUnitWalks {
		t.Fatalf("blockSize = %d, the test wants %d", b, minUnitWalks)
	}
	defer func() { groupHook = nil }()
	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		largest := 0
		groupHook = func(us []Unit) {
			mu.Lock()
			defer mu.Unlock()
			largest = max(largest, len(us))
			for i, u := range us {
				if rules[u.Rule].Kind != sim.RandomWalk || i > 0 && !groupable(p, us[i-1], u) {
					t.Errorf("group %v: unit %d does not belong", us, i)
				}
			}
		}
		next := 0
		err := Execute(context.Background(), p, p.Units(All), Options{Workers: workers, PerWalk: true}, func(r Result) error {
			if r.Unit.ID != next {
				return fmt.Errorf("unit %d handed over where unit %d was due", r.Unit.ID, next)
			}
			next++
			w, _ := sim.NewWalker(bd, rules[r.Unit.Rule])
			key := sim.NewKey(s.Seed, bd, rules[r.Unit.Rule], r.Unit.Start)
			want := stats.NewTally(bd.Squares())
			if len(r.Walks) != int(r.Unit.Hi-r.Unit.Lo) {
				return fmt.Errorf("unit %d: %d walks, want %d", r.Unit.ID, len(r.Walks), r.Unit.Hi-r.Unit.Lo)
			}
			for i := r.Unit.Lo; i < r.Unit.Hi; i++ {
				o := w.Walk(r.Unit.Start, key, i)
				if !reflect.DeepEqual(r.Walks[i-r.Unit.Lo], o) {
					return fmt.Errorf("unit %d walk %d: %+v, want %+v", r.Unit.ID, i, r.Walks[i-r.Unit.Lo], o)
				}
				want.Add(o)
			}
			if !reflect.DeepEqual(r.Tally, want) {
				return fmt.Errorf("unit %d: its tally is not its walks'", r.Unit.ID)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if next != p.Len() {
			t.Fatalf("%d workers: %d units handed over of %d", workers, next, p.Len())
		}
		if largest < 4 {
			t.Errorf("%d workers: the largest group was %d units", workers, largest)
		}
	}
}
