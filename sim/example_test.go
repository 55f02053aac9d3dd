package sim_test

import (
	"fmt"

	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// Example estimates how often Warnsdorff's rule (random tie-break) completes
// a tour from a1 on 8×8, from 10⁶ walks with a 95 % Wilson interval. Walk i
// of a (seed, board, rule, start) draws the same numbers on every machine,
// so the output is exact.
func Example() {
	b := sim.MustBoard(8, 8)
	rule, err := sim.ParseRule("warnsdorff/random")
	if err != nil {
		panic(err)
	}
	w, err := sim.NewWalker(b, rule)
	if err != nil {
		panic(err)
	}
	a1 := b.Square(0, 0)
	key := sim.NewKey(1, b, rule, a1)
	p := stats.Proportion{Trials: 1_000_000}
	for i := range p.Trials {
		if w.Walk(a1, key, i).Success {
			p.Successes++
		}
	}
	fmt.Printf("%s from a1: %v\n", rule, p.Interval(0.95, stats.Wilson))
	// Output:
	// warnsdorff/random from a1: 97.96% [97.93, 97.99]
}
