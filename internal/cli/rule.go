package cli

import (
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// RuleFlags are the flags that pick a walk rule, shared by the commands
// that take one: Register declares them, Resolve reads them.
type RuleFlags struct {
	rule, tieBreak, order string
	maxSteps              int
}

// Register declares the flags on fs, def the default --rule.
func (f *RuleFlags) Register(fs interface {
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
}, def string) {
	fs.StringVar(&f.rule, "rule", def, "walk rule: random, warnsdorff, or a full name such as warnsdorff/pohl")
	fs.StringVar(&f.tieBreak, "tie-break", "", "Warnsdorff tie-break: random, first, pohl, roth, or a chain such as roth+first or pohl+roth+random, ending in random or first (default random)")
	fs.StringVar(&f.order, "order", "", `move order for the first tie-break, e.g. "(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"`)
	fs.IntVar(&f.maxSteps, "max-steps", 0, "stop each walk after this many moves (0: no limit)")
}

// Resolve turns the flags into a rule; bad values are usage mistakes.
func (f *RuleFlags) Resolve() (sim.Rule, error) {
	name := f.rule
	if f.tieBreak != "" {
		if strings.Contains(name, "/") || name != "warnsdorff" && name != "backtrack" {
			return sim.Rule{}, Usagef("--tie-break goes with --rule warnsdorff (or backtrack), not %q", name)
		}
		if _, err := sim.ParseTieBreak(f.tieBreak); err != nil {
			return sim.Rule{}, Usagef("--tie-break: %v", err)
		}
		if name == "warnsdorff" {
			name += "/" + f.tieBreak
		}
	}
	r, err := sim.ParseRule(name)
	if err != nil {
		return sim.Rule{}, Usagef("--rule: %v", err)
	}
	if r.Kind == sim.Backtrack && f.tieBreak != "" {
		r.TieBreak, _ = sim.ParseTieBreak(f.tieBreak)
	}
	if f.order != "" {
		// As an experiment file's order: key; a random tie-break has no
		// order to follow, and silently ignoring it misleads.
		if !(r.Kind == sim.Warnsdorff && r.TieBreak.UsesOrder() || r.Kind == sim.Backtrack) {
			return sim.Rule{}, Usagef("--order applies only to warnsdorff with a tie-break ending in first (--tie-break first, pohl+first, roth+first, ...) and to backtrack, not %s", r.Name())
		}
		if r.Order, err = sim.ParseOrder(f.order); err != nil {
			return sim.Rule{}, Usagef("--order: %v", err)
		}
	}
	r.MaxSteps = f.maxSteps
	if err := r.Validate(); err != nil {
		return sim.Rule{}, Usagef("%v", err)
	}
	return r, nil
}

// BoardAndStarts parses --board and --start: all squares when start is "".
func BoardAndStarts(board, start string) (*sim.Board, []int, error) {
	if board == "" {
		return nil, nil, Usagef("--board is required, e.g. --board 8x8")
	}
	b, err := sim.ParseBoard(board)
	if err != nil {
		return nil, nil, Usagef("--board: %v", err)
	}
	if start == "" {
		all := make([]int, b.Squares())
		for i := range all {
			all[i] = i
		}
		return b, all, nil
	}
	sq, err := b.ParseSquare(start)
	if err != nil {
		return nil, nil, Usagef("--start: %v", err)
	}
	return b, []int{sq}, nil
}
