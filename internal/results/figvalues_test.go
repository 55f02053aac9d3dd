package results

import (
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestStartsRateIsTables: StartsRate over a board's (or a class's)
// squares rows is, to the bit, the boards (classes) table's rate and
// interval, in a fixed run and in a sequential one whose squares ran
// unequal walks, so that a figure built on it shows the tables' numbers.
func TestStartsRateIsTables(t *testing.T) {
	for _, seq := range []bool{false, true} {
		y := "name: s\nseed: 3\nboards: [5x5, 6x6]\nstarts: all\nwalks: 40\nrules: [{name: warnsdorff, tie_break: random}, {name: random}]\n"
		if seq {
			y = "name: s\nseed: 3\nboards: [5x5, 6x6]\nstarts: all\nwalks: {until: half_width, half_width: 0.05, min: 20, max: 400}\nrules: [{name: warnsdorff, tie_break: random}, {name: random}]\n"
		}
		c, err := config.Parse("s.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		e, err := config.Resolve(c, "s.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		ts := map[[3]int]*stats.Tally{}
		for bi, b := range e.Boards {
			for ri, r := range e.Rules {
				w, err := sim.NewWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range e.Starts[bi] {
					x := stats.NewTally(b.Squares())
					walks := uint64(40)
					if seq {
						walks = uint64(20 + 7*s) // unequal, as a sequential run stops squares on their own
					}
					for i := range walks {
						x.Add(w.Walk(s, sim.NewKey(e.Seed, b, r, s), i))
					}
					ts[[3]int{bi, ri, s}] = x
				}
			}
		}
		tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
		if err != nil {
			t.Fatal(err)
		}
		same := func(what string, got stats.Summary, rate, lo, hi float64) {
			t.Helper()
			if got.Center != rate || got.Lo != lo || got.Hi != hi {
				t.Errorf("sequential %v, %s: StartsRate %v [%v, %v], table %v [%v, %v]", seq, what, got.Center, got.Lo, got.Hi, rate, lo, hi)
			}
		}
		for _, br := range tab.Boards {
			var succ, closed []StartCount
			for _, s := range tab.Squares {
				if s.Board == br.Board && s.Rule == br.Rule {
					succ = append(succ, StartCount{s.Successes, s.Walks})
					closed = append(closed, StartCount{s.Closed, s.Walks})
				}
			}
			same(br.Board+" "+br.Rule+" success", StartsRate(succ, e.Confidence, e.Method), br.SuccessRate, br.SuccessLo, br.SuccessHi)
			same(br.Board+" "+br.Rule+" closed", StartsRate(closed, e.Confidence, e.Method), br.ClosedRate, br.ClosedLo, br.ClosedHi)
		}
		for _, cr := range tab.Classes {
			if cr.GroupBy != "class" {
				continue
			}
			var succ []StartCount
			for _, s := range tab.Squares {
				if s.Board == cr.Board && s.Rule == cr.Rule && s.StartClass == cr.Group {
					succ = append(succ, StartCount{s.Successes, s.Walks})
				}
			}
			same(cr.Board+" "+cr.Rule+" "+cr.Group, StartsRate(succ, e.Confidence, e.Method), cr.SuccessRate, cr.SuccessLo, cr.SuccessHi)
		}
	}
}
