package sim

import "fmt"

// Choices asks a rule of your own (Kind Custom) which squares it allows at
// a position given by its visited squares, its current square and its
// start alone, without walking there: what exact enumeration (package
// exact) asks at each state it expands. The questions go through the
// guard, as a walk's do: the answers are checked, a panic in the rule is a
// *RuleError, and the first use of the rule on a board replays it. Like a
// Walker, it is scratch state for one goroutine.
type Choices struct {
	g   *guard
	pos *Position
}

// NewChoices puts rule r's policy on b behind the guard; r must be a rule
// of your own.
func NewChoices(b *Board, r Rule) (*Choices, error) {
	if r.Kind != Custom {
		return nil, fmt.Errorf("rule %s is not a rule of your own", r.Name())
	}
	g, err := newGuard(b, r)
	if err != nil {
		return nil, err
	}
	return &Choices{g: g, pos: newPosition(b)}, nil
}

// Stateful reports whether the rule's policy keeps state along its walk
// (it implements Stateful, and the rule is registered Deterministic):
// its answers then depend on more than the position, so walks that reach
// the same position cannot be merged.
func (c *Choices) Stateful() bool { return c.g.state != nil }

// Allowed appends to dst the squares the rule allows, in ascending order,
// at the position whose visited squares are those for which visited
// reports true (cur among them), on cur, from start; and it reports
// whether the step is a tie decision (as Outcome.Ties counts them). An
// answer that no walk may take, or a panic in the rule, is a *RuleError.
func (c *Choices) Allowed(visited func(sq int) bool, cur, start int, dst []int) (out []int, tie bool, err error) {
	c.pos.setVisited(visited, cur, start)
	if out, err = c.g.allowed(c.pos, dst); err != nil {
		return out, false, err
	}
	return out, c.g.tied(len(out) - len(dst)), nil
}
