package stats

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

func TestTallyAdd(t *testing.T) {
	ta := NewTally(25)
	ta.Add(sim.Outcome{Length: 25, End: 7, Success: true, Closed: true, Ties: 3})
	ta.Add(sim.Outcome{Length: 25, End: 9, Success: true, Ties: 1})
	ta.Add(sim.Outcome{Length: 12, End: 4, Ties: 2})
	ta.Add(sim.Outcome{Length: 12, End: 4})
	ta.Add(sim.Outcome{Length: 10, End: 6, Stopped: true})
	ta.Add(sim.Outcome{Length: 20, End: 0, Nodes: 1000, Backtracks: 980, BudgetExceeded: true})

	want := &Tally{
		Walks: 6, Successes: 2, Closed: 1, Stopped: 1,
		Lengths:  make([]uint64, 26),
		DeadEnds: make([]uint64, 25),
		TieSum:   6, NodeSum: 1000, BacktrackSum: 980, BudgetExceeded: 1,
	}
	want.Lengths[25], want.Lengths[12], want.Lengths[10], want.Lengths[20] = 2, 2, 1, 1
	want.DeadEnds[4], want.DeadEnds[0] = 2, 1 // not square 6: the stopped walk had moves left
	if !reflect.DeepEqual(ta, want) {
		t.Errorf("tally\n got %+v\nwant %+v", ta, want)
	}
	checkInvariants(t, ta)
}

// checkInvariants checks the invariants documented on Tally.
func checkInvariants(t *testing.T, ta *Tally) {
	t.Helper()
	var lengths, deadEnds uint64
	for _, c := range ta.Lengths {
		lengths += c
	}
	for _, c := range ta.DeadEnds {
		deadEnds += c
	}
	if lengths != ta.Walks {
		t.Errorf("sum(Lengths) = %d, want Walks = %d", lengths, ta.Walks)
	}
	if ta.Successes+ta.Stopped+deadEnds != ta.Walks {
		t.Errorf("Successes %d + Stopped %d + sum(DeadEnds) %d != Walks %d", ta.Successes, ta.Stopped, deadEnds, ta.Walks)
	}
	if ta.Closed > ta.Successes {
		t.Errorf("Closed %d > Successes %d", ta.Closed, ta.Successes)
	}
	if ta.Lengths[0] != 0 {
		t.Errorf("Lengths[0] = %d, want 0", ta.Lengths[0])
	}
}

// TestTallyShardsMerge runs real walks of one (board, rule, start) and checks
// that any split into shards, merged in any order, gives the tally of one
// run (docs/design.md, Reproducibility).
func TestTallyShardsMerge(t *testing.T) {
	b := sim.MustBoard(5, 5)
	rule, err := sim.ParseRule("random")
	if err != nil {
		t.Fatal(err)
	}
	w, err := sim.NewWalker(b, rule)
	if err != nil {
		t.Fatal(err)
	}
	const walks, start = 3000, 0
	key := sim.NewKey(1, b, rule, start)
	outcomes := make([]sim.Outcome, walks)
	whole := NewTally(b.Squares())
	for i := range outcomes {
		outcomes[i] = w.Walk(start, key, uint64(i))
		whole.Add(outcomes[i])
	}
	checkInvariants(t, whole)
	if whole.TieSum == 0 || whole.Lengths[whole.Squares()] == whole.Walks {
		t.Fatalf("5x5 random walks: %+v; want varied outcomes to exercise the fields", whole)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 5 {
		// Cut the walk indices at random points into shards.
		nShards := 2 + trial*3
		cuts := []int{0, walks}
		for range nShards - 1 {
			cuts = append(cuts, rng.IntN(walks))
		}
		slices.Sort(cuts)
		var shards []*Tally
		for i := 0; i+1 < len(cuts); i++ {
			s := NewTally(b.Squares())
			for _, o := range outcomes[cuts[i]:cuts[i+1]] {
				s.Add(o)
			}
			shards = append(shards, s)
		}
		rng.Shuffle(len(shards), func(i, j int) { shards[i], shards[j] = shards[j], shards[i] })
		merged := NewTally(b.Squares())
		for _, s := range shards {
			if err := merged.Merge(s); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(merged, whole) {
			t.Fatalf("%d shards merged differ from one run:\n got %+v\nwant %+v", len(shards), merged, whole)
		}
	}
}

func TestTallyMergeMismatch(t *testing.T) {
	a, b := NewTally(64), NewTally(25)
	b.Add(sim.Outcome{Length: 3, End: 1})
	err := a.Merge(b)
	if err == nil || !strings.Contains(err.Error(), "25 squares into one of 64") {
		t.Errorf("Merge(25 into 64) = %v, want a size-mismatch error", err)
	}
	if a.Walks != 0 {
		t.Errorf("failed merge changed the tally: Walks = %d", a.Walks)
	}
	if err := a.Merge(nil); err == nil {
		t.Error("Merge(nil) = nil, want an error")
	}
}

func TestTallyReset(t *testing.T) {
	ta := NewTally(9)
	ta.Add(sim.Outcome{Length: 9, End: 2, Success: true, Ties: 4, Nodes: 5})
	ta.Add(sim.Outcome{Length: 2, End: 5})
	ta.Reset()
	if !reflect.DeepEqual(ta, NewTally(9)) {
		t.Errorf("after Reset: %+v, want an empty 9-square tally", ta)
	}
}

func TestTallyClone(t *testing.T) {
	ta := NewTally(9)
	ta.Add(sim.Outcome{Length: 2, End: 5})
	c := ta.Clone()
	c.Add(sim.Outcome{Length: 3, End: 5})
	if ta.Walks != 1 || ta.Lengths[3] != 0 || ta.DeadEnds[5] != 1 {
		t.Errorf("Add to a clone changed the original: %+v", ta)
	}
}

func TestTallyAddPanics(t *testing.T) {
	for _, o := range []sim.Outcome{
		{Length: 0, End: 0},
		{Length: 10, End: 0},
		{Length: 3, End: 9},
		{Length: 3, End: -1},
		{Length: 3, End: 1, Ties: -1},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "stats: ") {
					t.Errorf("Add(%+v) on 9 squares: panic %v, want a stats: panic", o, r)
				}
			}()
			NewTally(9).Add(o)
		}()
	}
}

func TestTallyAddDoesNotAllocate(t *testing.T) {
	ta := NewTally(64)
	o := sim.Outcome{Length: 40, End: 17, Ties: 5}
	if n := testing.AllocsPerRun(1000, func() { ta.Add(o) }); n != 0 {
		t.Errorf("Add allocates %v times per call, want 0", n)
	}
}

func BenchmarkTallyAdd(b *testing.B) {
	ta := NewTally(64)
	outs := make([]sim.Outcome, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range outs {
		l := 1 + rng.IntN(64)
		outs[i] = sim.Outcome{Length: l, End: rng.IntN(64), Success: l == 64, Ties: rng.IntN(10)}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ta.Add(outs[i&1023])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "walks/s")
}
