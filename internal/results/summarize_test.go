package results

import (
	"math"
	"reflect"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// TestSummarizeMemo: summarize is stats.Summarize (intervals undefined
// for a deterministic rule) with or without a memo, and a memo hit is
// never another tally's or a tally with more walks since: the same
// statistics as a fresh summary, tally after tally, one of them given
// a walk between two summaries.
func TestSummarizeMemo(t *testing.T) {
	e := &config.Experiment{Confidence: 0.95, Method: stats.Wilson}
	rnd, _ := sim.ParseRule("random")
	det, _ := sim.ParseRule("warnsdorff/first")
	a, b := stats.NewTally(2000), stats.NewTally(2000)
	for i := range 30 {
		a.Add(sim.Outcome{Length: 100 + 7*i, End: i})
		b.Add(sim.Outcome{Length: 1500 + i%3, End: 2 * i})
	}
	var m lengthMemo
	check := func(x *stats.Tally, r sim.Rule) {
		t.Helper()
		want := stats.Summarize(x, e.Confidence, e.Method)
		if r.Deterministic() {
			want.Success.Lo, want.Success.Hi, want.ClosedTour.Lo, want.ClosedTour.Hi = math.NaN(), math.NaN(), math.NaN(), math.NaN()
			want.Success.Warnings, want.ClosedTour.Warnings = nil, nil // no interval, so no warning about one
		}
		for _, got := range []stats.Rates{summarize(x, r, e, nil), summarize(x, r, e, &m)} {
			if !reflect.DeepEqual(got.Length, want.Length) || got.Walks != want.Walks || got.Successes != want.Successes ||
				!sameSummary(got.Success, want.Success) || !sameSummary(got.ClosedTour, want.ClosedTour) {
				t.Fatalf("%s: summarize %+v, want %+v", r.Name(), got, want)
			}
		}
	}
	for _, r := range []sim.Rule{rnd, det} {
		check(a, r)
		check(a, r)
		check(b, r)
		check(a, r)
		a.Add(sim.Outcome{Length: 1999, End: 5}) // the same tally, a walk more
		check(a, r)
	}
}

func sameSummary(x, y stats.Summary) bool {
	same := func(p, q float64) bool { return p == q || math.IsNaN(p) && math.IsNaN(q) }
	return same(x.Center, y.Center) && same(x.Lo, y.Lo) && same(x.Hi, y.Hi) && x.Confidence == y.Confidence && x.Method == y.Method && reflect.DeepEqual(x.Warnings, y.Warnings)
}
