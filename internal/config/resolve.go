package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// checker collects the problems that resolving a Config finds. A nil
// checker ignores them, so the accessors can share the resolving code.
type checker struct {
	c     *Config
	errs  Errors
	names map[string]int // rules per name (checkRules): a design's cells share one
}

func (k *checker) errorf(key, format string, args ...any) {
	if k == nil {
		return
	}
	if k.c.src != nil {
		key = k.c.src.original(key)
	}
	e := Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	if k.c.src != nil {
		e.File, e.Line = k.c.src.file, k.c.src.line(key)
	}
	k.errs = append(k.errs, e)
}

// fileKey returns the key path of a list item as the file numbers it.
func (c *Config) fileKey(key string) string {
	if c.src == nil {
		return key
	}
	return c.src.original(key)
}

// partial reports whether list lost items in decoding (their errors are
// reported), so that what validation concludes from the list's contents
// would be noise.
func (c *Config) partial(list string) bool {
	return c.src != nil && c.src.partial[list]
}

// boardList returns the experiment's boards, expanded, without duplicates,
// in the order the file gives them. It builds each board's knight graph, so
// call it once. Items with problems (see Validate) are left out.
func (c *Config) boardList() []*sim.Board {
	var out []*sim.Board
	for _, s := range c.sizes(nil) {
		if b, err := sim.NewBoard(s.rows, s.cols); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// ruleList returns the experiment's rules, resolved, in the file's order.
// Rules with problems (see Validate) are left out.
func (c *Config) ruleList() []sim.Rule {
	var out []sim.Rule
	specs, keys := c.ruleCells()
	for i, rs := range specs {
		if r, ok := rs.resolve(nil, keys[i]); ok {
			out = append(out, r)
		}
	}
	return out
}

// startSquares returns the start squares on b in ascending order, without
// duplicates.
func (c *Config) startSquares(b *sim.Board) []int {
	return c.starts(nil, nil).pick(size{b.Rows, b.Cols}, nil)
}

// claimSquares returns the squares that claim cl pools on board b: its
// target's squares among the start squares, in ascending order. It returns
// nil when the claim is not about b.
func (c *Config) claimSquares(cl Claim, b *sim.Board) []int {
	s := size{b.Rows, b.Cols}
	if !cl.appliesTo(s) {
		return nil
	}
	t, ok := cl.target(nil, "")
	if !ok {
		return nil
	}
	return c.starts(nil, nil).pick(s, &t)
}

// appliesTo reports whether the claim is about boards of size s.
func (cl Claim) appliesTo(s size) bool {
	if cl.Board == "" {
		return cl.inSizes(s)
	}
	w, ok := parseSize(cl.Board)
	return ok && w == s
}

// ruleName returns the claim's rule as sim.Rule.Name writes it
// ("warnsdorff" becomes "warnsdorff/random"), or the rule as written if it
// does not parse.
func (cl Claim) ruleName() string {
	r, err := sim.ParseRule(cl.Rule)
	if err != nil {
		return cl.Rule
	}
	return r.Name()
}

// resolve turns a rule item into a sim.Rule; ok is false when the item has
// a problem, which goes to k.
func (rs RuleSpec) resolve(k *checker, key string) (r sim.Rule, ok bool) {
	ok = true
	bad := func(sub, format string, args ...any) {
		if at, ok := rs.at[sub]; ok {
			sub = at
		}
		k.errorf(key+sub, format, args...)
		ok = false
	}
	name := strings.TrimSpace(rs.Name)
	named := false // the name fixed the tie-break or closedness
	if kind, err := sim.ParseKind(name); err == nil {
		r.Kind = kind
		if kind == sim.Backtrack {
			r.TieBreak = sim.TieFirst
		}
	} else if full, err := sim.ParseRule(name); err == nil && (strings.Contains(name, "/") || full.Kind == sim.Custom) {
		r, named = full, true
	} else {
		registered := ""
		if cs := sim.CustomRules(); len(cs) > 0 {
			registered = "; registered rules of your own: " + strings.Join(cs, ", ")
		}
		if name == "" {
			bad(".name", "missing; valid: random, warnsdorff, backtrack%s", registered)
		} else {
			bad(".name", "%q is not a rule; valid: random, warnsdorff, backtrack (or a full name: %s)%s", rs.Name, strings.Join(sim.RuleNames, ", "), registered)
		}
		return r, false
	}

	if rs.TieBreak != "" {
		t, err := sim.ParseTieBreak(rs.TieBreak)
		switch {
		case r.Kind == sim.RandomWalk:
			bad(".tie_break", "the random rule has no tie-break; remove it")
		case r.Kind == sim.Custom:
			bad(".tie_break", "%s breaks its own ties (its policy decides where the walk may go); remove tie_break", r.Name())
		case err != nil:
			bad(".tie_break", "%v", err) // sim's error says what is wrong with a chain and what is valid
		case r.Kind == sim.Backtrack && t != sim.TieFirst && t != sim.TieRandom:
			bad(".tie_break", "%q: backtrack orders tied squares by first or random", rs.TieBreak)
		case named && r.Kind == sim.Warnsdorff && t != r.TieBreak:
			bad(".tie_break", "%q contradicts the rule name %s", rs.TieBreak, name)
		default:
			r.TieBreak = t
		}
	}
	if rs.Order != "" || rs.order != nil {
		order, err := rs.order, error(nil)
		if order == nil {
			order, err = sim.ParseOrder(rs.Order)
		}
		switch {
		case !(r.Kind == sim.Warnsdorff && r.TieBreak.UsesOrder() || r.Kind == sim.Backtrack):
			bad(".order", "a move order applies only to warnsdorff with a tie_break ending in first (first, pohl+first, roth+first, ...) and to backtrack, not %s", r.Name())
		case err != nil:
			msg := strings.TrimSuffix(err.Error(), "; want a permutation of the 8 knight moves") // said once, below
			bad(".order", "%s; want a permutation of the 8 knight moves, e.g. %q", msg, canonicalOrder)
		case !slices.Equal(order, sim.CanonicalMoves[:]):
			r.Order = order
		}
	}
	for _, res := range slices.Sorted(maps.Keys(rs.OrderByN)) {
		sub := fmt.Sprintf(".order_by_n_mod_8.%d", res)
		order, err := sim.ParseOrder(rs.OrderByN[res])
		switch {
		case !(r.Kind == sim.Warnsdorff && r.TieBreak.UsesOrder() || r.Kind == sim.Backtrack):
			bad(".order_by_n_mod_8", "move orders apply only to warnsdorff with a tie_break ending in first and to backtrack, not %s", r.Name())
		case res < 0 || res > 7:
			bad(sub, "%d is not a residue; want keys 0 to 7 (n mod 8 of an n×n board)", res)
		case err != nil:
			msg := strings.TrimSuffix(err.Error(), "; want a permutation of the 8 knight moves")
			bad(sub, "%s; want a permutation of the 8 knight moves, e.g. %q", msg, canonicalOrder)
		default:
			r.OrdersMod8[res] = order
		}
		if !ok {
			break
		}
	}
	switch {
	case rs.MaxSteps < 0 || rs.MaxSteps > MaxSteps:
		bad(".max_steps", "%d is out of range; want 0 (no limit) to %d steps", rs.MaxSteps, MaxSteps)
	case rs.MaxSteps > 0 && r.Kind == sim.Backtrack:
		bad(".max_steps", "backtrack has no step limit; bound it with node_budget")
	default:
		r.MaxSteps = rs.MaxSteps
	}
	if rs.Closed {
		if r.Kind != sim.Backtrack {
			bad(".closed", "only backtrack can ask for a closed tour")
		}
		r.Closed = true
	}
	switch {
	case rs.NodeBudget < 0 || rs.NodeBudget > MaxNodeBudget:
		bad(".node_budget", "%d is out of range; want 0 (default %d) to %.0e nodes", rs.NodeBudget, sim.DefaultNodeBudget, float64(MaxNodeBudget))
	case rs.NodeBudget > 0 && r.Kind != sim.Backtrack:
		bad(".node_budget", "only backtrack has a node budget")
	default:
		r.NodeBudget = rs.NodeBudget
	}
	if ok {
		if err := r.Validate(); err != nil {
			bad("", "%v", err)
		}
	}
	return r, ok
}

var canonicalOrder = OrderString(sim.CanonicalMoves[:])

// OrderString writes a move order as "(2,1) (1,2) ...", as experiment
// files and the resolved configuration write it (without fmt: a design
// writes it for every row of 40,320 rules).
func OrderString(order []sim.Move) string {
	b := make([]byte, 0, 8*len(order))
	for i, m := range order {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(m.DR), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.DC), 10)
		b = append(b, ')')
	}
	return string(b)
}

// startSet is the resolved starts: every square, or the union of some
// classes and some squares.
type startSet struct {
	cellsOK bool // the experiment is within MaxCells (checkCells), so its designs may be listed
	all     bool
	classes [len(sim.Classes)]bool
	squares []rc
}

// rc is a square by row and column, independent of the board.
type rc struct{ r, c int }

func (p rc) String() string { return fmt.Sprintf("r%dc%d", p.r, p.c) }

// parseRC reads a square name (a1, r0c0) into its row and column, or
// reports that it is not a square name.
func parseRC(name string) (rc, bool) {
	for _, s := range []size{{sim.MaxSide, 26}, {sim.MaxSide, sim.MaxSide}} {
		if p, err := s.parseSquare(name); err == nil {
			return p, true
		}
	}
	return rc{}, false
}

// startsKey names item i of starts, or starts itself when written as a scalar.
func (c *Config) startsKey(i int) string {
	key := fmt.Sprintf("starts[%d]", i)
	if len(c.Starts) == 1 && (c.src == nil || c.src.lines[key] == 0) {
		return "starts"
	}
	return key
}

// starts resolves c.Starts; with boards given, it also checks that every
// square is on every board and that every board gets a start.
func (c *Config) starts(k *checker, boards []size) startSet {
	var st startSet
	clean := true
	if len(c.Starts) == 0 {
		k.errorf("starts", "empty; want all, or a list of squares (a1, r0c0) and classes (corner, edge, centre, interior)")
		return st
	}
	for i, s := range c.Starts {
		key := c.startsKey(i)
		name := strings.TrimSpace(s)
		if name == "all" {
			st.all = true
			continue
		}
		if cl, err := sim.ParseClass(name); err == nil {
			st.classes[cl] = true
			continue
		}
		p, ok := parseRC(name)
		if !ok {
			k.errorf(key, "%q is not a start; valid: all, corner, edge, centre, interior, or a square such as a1 or r0c0", s)
			clean = false
			continue
		}
		onAll := true
		var off []string
		var first error
		for _, b := range boards {
			if _, err := b.parseSquare(name); err != nil {
				onAll = false
				if first == nil {
					first = err
				}
				off = append(off, b.String())
			}
		}
		if !onAll {
			msg := first.Error()
			if len(off) > 1 {
				msg += fmt.Sprintf(" (and off %d more: %s)", len(off)-1, list(off[1:]))
			}
			k.errorf(key, "%s", msg)
			clean = false
			continue
		}
		if !slices.Contains(st.squares, p) {
			st.squares = append(st.squares, p)
		}
	}
	if clean {
		for _, b := range boards {
			if !st.any(b) {
				k.errorf("starts", "select no square on the %s board; it has no %s squares", b, st.classNames())
			}
		}
	}
	return st
}

// any reports whether the set selects some square of a board of size s.
func (st startSet) any(s size) bool {
	if st.all || len(st.squares) > 0 {
		return true
	}
	for cl, on := range st.classes {
		if on && s.classCount(sim.Class(cl)) > 0 {
			return true
		}
	}
	return false
}

func (st startSet) classNames() string {
	var names []string
	for cl, on := range st.classes {
		if on {
			names = append(names, sim.Class(cl).String())
		}
	}
	return strings.Join(names, " or ")
}

// has reports whether the set selects square p of a board of size s.
func (st startSet) has(s size, p rc) bool {
	return st.all || st.classes[s.class(p)] || slices.Contains(st.squares, p)
}

// pick returns the selected squares of a board of size s that are in
// target t (nil: every square), ascending, as square indices of that
// board. It visits only the squares that can qualify: the named squares,
// the four corners, the edge band for edge, the few centre squares; only starts
// of all or interior with a target as wide meet every square, and then
// every square is in the answer, so the work is proportional to the
// answer (which checkCells bounds), never to the boards' areas alone.
func (st startSet) pick(s size, t *target) []int {
	keep := func(p rc) bool { return st.has(s, p) && (t == nil || t.has(s, p)) }
	var cand []rc
	switch {
	case !st.all && !st.classes[sim.Interior]:
		cand = slices.Clone(st.squares)
		if st.classes[sim.Edge] {
			cand = append(cand, s.band(0)...)
		} else if st.classes[sim.Corner] {
			cand = append(cand, s.corners()...)
		}
		if st.classes[sim.Centre] {
			cand = append(cand, s.centre()...)
		}
	case t != nil && t.kind == "square":
		cand = []rc{t.square}
	case t != nil && t.kind == "class" && t.class == sim.Corner:
		cand = s.corners()
	case t != nil && t.kind == "class" && t.class == sim.Edge:
		cand = s.band(0)
	case t != nil && t.kind == "class" && t.class == sim.Centre:
		cand = s.centre()
	case t != nil && t.kind == "degree" && t.degree < 8:
		cand = s.band(1) // a square two or more from every edge has all 8 moves
	default:
		var out []int
		for sq := range s.rows * s.cols {
			if keep(s.rc(sq)) {
				out = append(out, sq)
			}
		}
		return out
	}
	var out []int
	for _, p := range cand {
		if s.on(p) && keep(p) {
			out = append(out, s.square(p))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// target is what a claim is about: a class, a square or a degree.
type target struct {
	class  sim.Class
	square rc
	degree int
	kind   string // "class", "square" or "degree"
}

// target resolves the claim's target; key is the claim's key path.
func (cl Claim) target(k *checker, key string) (target, bool) {
	var set []string
	if cl.Class != "" {
		set = append(set, "class")
	}
	if cl.Square != "" {
		set = append(set, "square")
	}
	if cl.Degree != nil {
		set = append(set, "degree")
	}
	if len(set) != 1 {
		if len(set) == 0 {
			k.errorf(key, "no target; want exactly one of class, square, degree")
		} else {
			k.errorf(key, "%s: want exactly one of class, square, degree", strings.Join(set, " and "))
		}
		return target{}, false
	}
	t := target{kind: set[0]}
	switch t.kind {
	case "class":
		if cl.Class == "all" { // every start square pooled: a uniformly random start
			t.kind = "all"
			return t, true
		}
		c, err := sim.ParseClass(cl.Class)
		if err != nil {
			k.errorf(key+".class", "%q is not a class; valid: corner, edge, centre, interior, all (every start square: a uniformly random start)", cl.Class)
			return t, false
		}
		t.class = c
	case "square":
		p, ok := parseRC(cl.Square)
		if !ok {
			k.errorf(key+".square", "%q is not a square; want a name such as d4 or r3c3", cl.Square)
			return t, false
		}
		t.square = p
	case "degree":
		if *cl.Degree < 0 || *cl.Degree > 8 {
			k.errorf(key+".degree", "%d is not a knight degree; valid: 0 to 8", *cl.Degree)
			return t, false
		}
		t.degree = *cl.Degree
	}
	return t, true
}

// has reports whether square p of a board of size s is in the target.
func (t target) has(s size, p rc) bool {
	switch t.kind {
	case "all":
		return true
	case "class":
		return s.class(p) == t.class
	case "square":
		return p == t.square
	}
	return s.degree(p.r, p.c) == t.degree
}

func (t target) String() string {
	switch t.kind {
	case "all":
		return "all"
	case "class":
		return t.class.String()
	case "square":
		return t.square.String()
	}
	return fmt.Sprintf("degree %d", t.degree)
}

// list joins names, shortening long lists.
func list(names []string) string {
	if len(names) > 10 {
		return strings.Join(names[:10], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}
