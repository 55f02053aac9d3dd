package sim

import (
	"fmt"
	"strings"
)

// Kind is the family of a walk rule.
type Kind uint8

const (
	RandomWalk Kind = iota // uniform among all unvisited neighbours
	Warnsdorff             // a neighbour of minimum degree, ties by TieBreak
	Backtrack              // Warnsdorff-ordered depth-first search
	Custom                 // a registered rule of your own (Register), named by Rule.Custom
)

// Rule is a walk rule with its options. The zero value is the random walk.
type Rule struct {
	Kind     Kind
	TieBreak TieBreak // Warnsdorff and Backtrack

	// Order is the move order for the `first` tie-break (and the order in
	// which Backtrack tries tied squares); nil means CanonicalMoves. It must
	// be a permutation of the 8 knight moves.
	Order []Move

	// MaxSteps stops a walk after this many moves (0: no limit). It does not
	// apply to Backtrack.
	MaxSteps int

	// Closed asks Backtrack for a tour whose last square is a knight's move
	// from the start.
	Closed bool

	// NodeBudget bounds the squares Backtrack may enter per walk
	// (0: DefaultNodeBudget).
	NodeBudget int64

	// Custom names the registered rule of kind Custom (Register).
	Custom string

	// OrdersMod8, where an entry is set, replaces Order on the n×n boards
	// with n mod 8 equal to its index (order_by_n_mod_8 in experiment
	// files: Squirrel & Cull found that the best order depends on n mod 8).
	// Other boards, and residues left nil, use Order.
	OrdersMod8 [8][]Move
}

// DefaultNodeBudget is Backtrack's node budget when none is configured.
const DefaultNodeBudget = 10_000_000

// RuleNames lists the fixed rule names that ParseRule accepts
// (docs/design.md, "Rule names"); it also accepts "warnsdorff/" followed by
// any tie-break chain ParseTieBreak accepts, e.g. "warnsdorff/roth+first".
var RuleNames = []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/pohl", "warnsdorff/roth", "backtrack", "backtrack/closed", "squirrel-cull", "ganzfried"}

// ParseRule parses a rule name as used in tables and claims: "random",
// "warnsdorff" (tie-break random), "warnsdorff/<tie-break chain>", "backtrack" and
// "backtrack/closed".
func ParseRule(name string) (Rule, error) {
	switch n := strings.TrimSpace(name); {
	case n == "random":
		return Rule{Kind: RandomWalk}, nil
	case n == "warnsdorff":
		return Rule{Kind: Warnsdorff, TieBreak: TieRandom}, nil
	case strings.HasPrefix(n, "warnsdorff/"):
		t, err := ParseTieBreak(strings.TrimPrefix(n, "warnsdorff/"))
		if err != nil {
			return Rule{}, fmt.Errorf("rule %q: %v", name, err)
		}
		return Rule{Kind: Warnsdorff, TieBreak: t}, nil
	case n == "backtrack":
		return Rule{Kind: Backtrack, TieBreak: TieFirst}, nil
	case n == "backtrack/closed":
		return Rule{Kind: Backtrack, TieBreak: TieFirst, Closed: true}, nil
	case strings.HasPrefix(n, "backtrack/"): // backtrack[/closed]/NAME: ordered by a rule of your own
		rest, closed := strings.TrimPrefix(n, "backtrack/"), false
		if c, ok := strings.CutPrefix(rest, "closed/"); ok {
			rest, closed = c, true
		}
		if _, ok := lookupCustom(rest); ok {
			return Rule{Kind: Backtrack, TieBreak: TieFirst, Closed: closed, Custom: rest}, nil
		}
		registered := "none"
		if cs := CustomRules(); len(cs) > 0 {
			registered = strings.Join(cs, ", ")
		}
		return Rule{}, fmt.Errorf("rule %q: valid backtracking rules are backtrack, backtrack/closed, or backtrack/NAME ordered by a registered rule NAME, and %q is not one (registered: %s)", name, rest, registered)
	}
	if _, ok := lookupCustom(strings.TrimSpace(name)); ok {
		return Rule{Kind: Custom, Custom: strings.TrimSpace(name)}, nil
	}
	valid := strings.Join(RuleNames, ", ")
	if cs := CustomRules(); len(cs) > 0 {
		valid += ", the registered rules " + strings.Join(cs, ", ")
	}
	return Rule{}, fmt.Errorf("rule %q: valid rules are %s, or warnsdorff/<tie-break chain> such as warnsdorff/roth+first", name, valid)
}

// ParseKind parses a rule family name: "random", "warnsdorff", "backtrack".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "random":
		return RandomWalk, nil
	case "warnsdorff":
		return Warnsdorff, nil
	case "backtrack":
		return Backtrack, nil
	}
	return 0, fmt.Errorf("rule %q: valid rules are random, warnsdorff, backtrack", s)
}

// Name returns the rule's name in tables and claims, e.g.
// "warnsdorff/random". It is also hashed into every walk's random stream, so
// it must never change for a given rule.
func (r Rule) Name() string {
	switch r.Kind {
	case RandomWalk:
		return "random"
	case Warnsdorff:
		return "warnsdorff/" + r.TieBreak.String()
	case Backtrack:
		name := "backtrack"
		if r.Closed {
			name += "/closed"
		}
		if r.Custom != "" {
			name += "/" + r.Custom // ordered by a rule of your own
		}
		return name
	case Custom:
		return r.Custom
	}
	return fmt.Sprintf("Kind(%d)", r.Kind)
}

func (r Rule) String() string { return r.Name() }

// Validate reports options that make no sense for the rule.
func (r Rule) Validate() error {
	switch r.Kind {
	case RandomWalk, Warnsdorff:
	case Backtrack:
		if r.Custom != "" {
			if _, ok := lookupCustom(r.Custom); !ok {
				return fmt.Errorf("rule backtrack/%s: %q is not a registered rule (registered: %s)", r.Custom, r.Custom, strings.Join(CustomRules(), ", "))
			}
		}
	case Custom:
		if _, ok := lookupCustom(r.Custom); !ok {
			return fmt.Errorf("rule %q is not registered (registered: %s)", r.Custom, strings.Join(CustomRules(), ", "))
		}
		if r.TieBreak != TieRandom || r.Order != nil || r.Closed || r.NodeBudget != 0 {
			return fmt.Errorf("rule %s: a rule of your own takes no tie-break, move order, closed or node budget (its policy decides); only max_steps", r.Custom)
		}
	default:
		return fmt.Errorf("rule kind %d: valid rules are random, warnsdorff, backtrack", r.Kind)
	}
	if !r.TieBreak.valid() {
		return fmt.Errorf("rule %s: unknown tie-break %d", r.Kind, r.TieBreak)
	}
	if r.Kind == Backtrack && r.TieBreak != TieFirst && r.TieBreak != TieRandom {
		return fmt.Errorf("rule %s: backtrack orders tied squares by first or random, not %s", r.Name(), r.TieBreak)
	}
	if r.MaxSteps < 0 {
		return fmt.Errorf("rule %s: max_steps %d must be 0 (no limit) or positive", r.Name(), r.MaxSteps)
	}
	if r.NodeBudget < 0 {
		return fmt.Errorf("rule %s: node budget %d must be 0 (default) or positive", r.Name(), r.NodeBudget)
	}
	if r.Order != nil {
		if err := checkOrder(r.Order); err != nil {
			return fmt.Errorf("rule %s: %v", r.Name(), err)
		}
	}
	for i, o := range r.OrdersMod8 {
		if o == nil {
			continue
		}
		if r.Kind != Backtrack && !(r.Kind == Warnsdorff && r.TieBreak.UsesOrder()) {
			return fmt.Errorf("rule %s: move orders by n mod 8 apply only where a move order does (a tie-break ending in first, backtrack)", r.Name())
		}
		if err := checkOrder(o); err != nil {
			return fmt.Errorf("rule %s: order for n mod 8 = %d: %v", r.Name(), i, err)
		}
	}
	return nil
}

func (k Kind) String() string {
	switch k {
	case RandomWalk:
		return "random"
	case Warnsdorff:
		return "warnsdorff"
	case Backtrack:
		return "backtrack"
	case Custom:
		return "custom"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

func checkOrder(order []Move) error {
	if len(order) != 8 {
		return fmt.Errorf("move order has %d moves; want a permutation of the 8 knight moves", len(order))
	}
	seen := map[Move]bool{}
	for _, m := range order {
		if moveIndex(m) < 0 {
			return fmt.Errorf("move order: (%d,%d) is not a knight move", m.DR, m.DC)
		}
		if seen[m] {
			return fmt.Errorf("move order: (%d,%d) appears twice", m.DR, m.DC)
		}
		seen[m] = true
	}
	return nil
}

// ParseOrder parses a move order written as "(2,1) (1,2) ..." or
// "2,1 1,2 ..." into moves.
func ParseOrder(s string) ([]Move, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '(' || r == ')' || r == ' ' || r == ';' || r == '\t' })
	var out []Move
	for _, p := range f {
		var m Move
		if _, err := fmt.Sscanf(strings.TrimSpace(p), "%d,%d", &m.DR, &m.DC); err != nil {
			return nil, fmt.Errorf("move order %q: want moves like (2,1) (1,2) ...", s)
		}
		out = append(out, m)
	}
	if err := checkOrder(out); err != nil {
		return nil, err
	}
	return out, nil
}

// moveIndex returns m's position in CanonicalMoves, or -1.
func moveIndex(m Move) int {
	for i, c := range CanonicalMoves {
		if c == m {
			return i
		}
	}
	return -1
}

// order returns the rule's move order.
func (r Rule) order() []Move {
	if r.Order != nil {
		return r.Order
	}
	return CanonicalMoves[:]
}

// orderOn returns the rule's move order on board b: OrdersMod8's for an
// n×n board where it has one, else order().
func (r Rule) orderOn(b *Board) []Move {
	if b != nil && b.Rows == b.Cols {
		if o := r.OrdersMod8[b.Rows%8]; o != nil {
			return o
		}
	}
	return r.order()
}

// OrderOn is the move order the rule uses on board b (Order, or
// OrdersMod8's entry for an n×n board).
func (r Rule) OrderOn(b *Board) []Move { return r.orderOn(b) }

// HasOrdersMod8 reports whether any residue has an order of its own.
func (r Rule) HasOrdersMod8() bool {
	for _, o := range r.OrdersMod8 {
		if o != nil {
			return true
		}
	}
	return false
}

// Deterministic reports whether every walk of r from a square is the same
// walk: r never draws from its stream (Warnsdorff or backtrack with a
// tie-break ending in first). One walk per start then decides success.
func (r Rule) Deterministic() bool {
	if r.Kind == Custom {
		c, ok := lookupCustom(r.Custom)
		return ok && c.Deterministic
	}
	return r.Kind != RandomWalk && !r.TieBreak.Draws()
}
