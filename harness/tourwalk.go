package harness

// The work of `experiment tour`: one walk, walk index W of (seed, board,
// rule, start) drawn from the stream a run draws it from, with its path
// kept, and how it ended in words.

import (
	"errors"
	"fmt"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/sim"
)

// tourWalk walks walk index walk of (seed, b, r, start) with its path. A rule
// the command line got wrong is a usage error; a rule of your own at fault
// is not; a closed tour asked of a board with an odd number of squares is
// refused before searching.
func tourWalk(b *sim.Board, r sim.Rule, start int, seed, walk uint64) (sim.Outcome, error) {
	if r.Closed && b.Squares() > 1 && b.Squares()%2 == 1 {
		// A knight alternates colours, so a closed tour has as
		// many squares of each: none exists on an odd board, and
		// the search would only spend its budget finding that out.
		return sim.Outcome{}, fmt.Errorf("tour: %s asks for a closed tour, and %s has %d squares: a knight's move changes colour, so a closed tour needs an even number of squares; none exists (ask for an open tour with --rule backtrack)", r.Name(), b, b.Squares())
	}
	w, err := sim.NewWalker(b, r)
	var re *sim.RuleError
	if errors.As(err, &re) { // a rule of your own at fault, not the command line
		return sim.Outcome{}, fmt.Errorf("tour: %w", err)
	}
	if err != nil {
		return sim.Outcome{}, cli.Usagef("%v", err)
	}
	w.KeepPaths(true)
	o := w.Walk(start, sim.NewKey(seed, b, r, start), walk)
	if err := w.Err(); err != nil {
		return sim.Outcome{}, fmt.Errorf("tour: %w", err)
	}
	return o, nil
}

// tourOutcome says how a walk ended, in words.
func tourOutcome(b *sim.Board, o sim.Outcome) string {
	n := b.Squares()
	switch {
	case o.Closed:
		return fmt.Sprintf("a closed tour, %d squares", n)
	case o.Success:
		return fmt.Sprintf("an open tour, %d squares", n)
	case o.BudgetExceeded:
		return fmt.Sprintf("the search gave up at its node budget after %d nodes (deepest path %d of %d squares)", o.Nodes, o.Length, n)
	case o.Stopped:
		return fmt.Sprintf("stopped at --max-steps after %d of %d squares, on %s", o.Length, n, b.SquareName(o.End))
	}
	return fmt.Sprintf("a dead end on %s after %d of %d squares", b.SquareName(o.End), o.Length, n)
}
