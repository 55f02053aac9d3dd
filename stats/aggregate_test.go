package stats

import (
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

func TestPool(t *testing.T) {
	a, b, c := NewTally(16), NewTally(16), NewTally(16)
	a.Add(sim.Outcome{Length: 16, End: 3, Success: true, Closed: true})
	b.Add(sim.Outcome{Length: 5, End: 9, Ties: 2})
	b.Add(sim.Outcome{Length: 16, End: 1, Success: true})
	c.Add(sim.Outcome{Length: 7, End: 9})
	before := a.Clone()

	p, err := Pool(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	want := NewTally(16)
	want.Walks, want.Successes, want.Closed, want.TieSum = 4, 2, 1, 2
	want.Lengths[16], want.Lengths[5], want.Lengths[7] = 2, 1, 1
	want.DeadEnds[9] = 2
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Pool:\n got %+v\nwant %+v", p, want)
	}
	if !reflect.DeepEqual(a, before) {
		t.Error("Pool changed its first input")
	}

	if _, err := Pool(); err == nil || !strings.Contains(err.Error(), "no tallies") {
		t.Errorf("Pool() error %v, want no tallies", err)
	}
	if _, err := Pool(a, NewTally(25)); err == nil || !strings.Contains(err.Error(), "tally 1") {
		t.Errorf("Pool(16, 25 squares) error %v, want a mismatch naming tally 1", err)
	}
	if _, err := Pool(nil); err == nil {
		t.Error("Pool(nil) succeeded")
	}
}

func TestSummarize(t *testing.T) {
	ta := NewTally(64)
	for i := range 263 {
		o := sim.Outcome{Length: 40, End: 10}
		if i < 81 {
			o = sim.Outcome{Length: 64, End: 20, Success: true, Closed: i < 15}
		}
		ta.Add(o)
	}
	r := Summarize(ta, 0.95, Wilson)
	if r.Walks != 263 || r.Successes != 81 || r.Closed != 15 {
		t.Errorf("counts %d %d %d", r.Walks, r.Successes, r.Closed)
	}
	if want := (Proportion{81, 263}).Interval(0.95, Wilson); !reflect.DeepEqual(r.Success, want) {
		t.Errorf("success %v, want %v", r.Success, want)
	}
	if want := (Proportion{15, 263}).Interval(0.95, Wilson); !reflect.DeepEqual(r.ClosedTour, want) {
		t.Errorf("closed %v, want %v", r.ClosedTour, want)
	}
	if r.Length.Min != 40 || r.Length.Max != 64 || r.Length.Median != 40 || r.Length.P75 != 64 {
		t.Errorf("lengths %+v", r.Length)
	}
}
