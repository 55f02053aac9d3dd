package stats_test

import (
	"fmt"

	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

func ExampleProportion_Interval() {
	p := stats.Proportion{Successes: 9796, Trials: 10000}
	fmt.Println(p.Interval(0.95, stats.Wilson))
	fmt.Println(p.Interval(0.95, stats.ClopperPearson))

	few := stats.Proportion{Successes: 1, Trials: 29}
	s := few.Interval(0.95, stats.Wilson)
	fmt.Println(s)
	for _, w := range s.Warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// 97.96% [97.66, 98.22]
	// 97.96% [97.66, 98.23]
	// 3.45% [0.61, 17.18]
	// warning: only 29 trials: interval is wide and its coverage uneven
	// warning: 1 successes, 28 failures: Wilson coverage may fall below nominal near 0 or 1; clopper-pearson is conservative
}

func ExampleTally() {
	// Two shards of walks from the same start square, merged.
	a, b := stats.NewTally(25), stats.NewTally(25)
	a.Add(sim.Outcome{Length: 25, End: 14, Success: true})
	a.Add(sim.Outcome{Length: 18, End: 7})
	b.Add(sim.Outcome{Length: 25, End: 2, Success: true, Closed: true})
	b.Add(sim.Outcome{Length: 21, End: 7})
	if err := a.Merge(b); err != nil {
		fmt.Println(err)
		return
	}
	ls := a.LengthStats()
	fmt.Printf("walks %d, successes %d, closed %d, dead ends on square 7: %d\n", a.Walks, a.Successes, a.Closed, a.DeadEnds[7])
	fmt.Printf("length mean %.2f sd %.2f, median %d, range %d..%d\n", ls.Mean, ls.SD, ls.Median, ls.Min, ls.Max)
	// Output:
	// walks 4, successes 2, closed 1, dead ends on square 7: 2
	// length mean 22.25 sd 3.40, median 21, range 18..25
}

func ExampleVerdict() {
	// Seed 000: "corner below 20 %" for Warnsdorff's rule.
	claim := stats.Claim{Kind: stats.Below, Value: 0.20}
	for _, p := range []stats.Proportion{{Successes: 150, Trials: 1000}, {Successes: 190, Trials: 1000}, {Successes: 250, Trials: 1000}} {
		s := p.Interval(0.95, stats.Wilson)
		fmt.Printf("%v: %v\n", s, stats.Verdict(claim, s))
	}
	// Output:
	// 15.00% [12.92, 17.35]: consistent
	// 19.00% [16.69, 21.55]: inconclusive
	// 25.00% [22.42, 27.78]: refuted
}

func ExampleCompare() {
	c := stats.Compare(stats.Proportion{Successes: 56, Trials: 70}, stats.Proportion{Successes: 48, Trials: 80}, 0.95)
	fmt.Printf("difference %v, z = %.3f, p = %.4f\n", c.Diff, c.Z, c.PValue)
	// Output:
	// difference 20.00% [5.24, 33.39], z = 2.650, p = 0.0080
}

func ExampleQuantile() {
	// hist[L] counts walks of length L: 5 of length 10, 95 of length 11.
	hist := make([]uint64, 12)
	hist[10], hist[11] = 5, 95
	fmt.Println(stats.Quantile(hist, 5, 100), stats.Quantile(hist, 6, 100))
	// Output:
	// 10 11
}
