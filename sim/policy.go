package sim

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Rules as policies (docs/design.md, "Rules of your own").
//
// Every walk rule is a Policy: given the board, the squares visited so far
// and the current square, it returns the squares the rule allows next. The
// walk draws uniformly among them, in ascending square order, with one
// draw from its stream (Uniform(src, m)) when there are m ≥ 2; with one
// square it moves there without drawing; with none the walk ends. That is
// exactly how the built-in rules use their streams, so a built-in rule's
// Policy walks the same walks as its kernels, bit for bit
// (TestBuiltinPoliciesMatchKernels); the kernels are that policy made fast.
//
// A rule of your own implements Policy and is registered by name
// (Register); from then on the name is a rule like any other: in
// experiment files, claims, exact enumeration, tour, shards and merges.

// Position is what a rule sees when it chooses: the board, the visited
// squares and the current square. It does not expose the order of the
// path, so that two walks that reach the same visited set and current
// square are in the same position: the exact enumeration merges them.
type Position struct {
	board   *Board
	visited []bool
	count   int
	cur     int
	start   int

	// Boards of at most 128 squares answer from bitboards: vis the
	// visited squares (bit sq of word sq/64), nb[sq] the knight
	// neighbours of sq (words = 1 on boards of at most 64 squares, 2 up
	// to 128; 0: the padded layout below answers).
	words int
	vis   [2]uint64
	nb    [][2]uint64

	// pad is visited on the board padded by two squares of permanently
	// visited border (as the general kernel lays it out), so that Moves
	// and Degree look at a neighbour without a bounds check; padAt[sq] is
	// sq's index in pad; off are the padded offsets of sortedMoves, step
	// their offsets on the board.
	pad   []bool
	padAt []int32
	pc    int
	off   [8]int
	step  [8]int

	// deg[q] is the number of unvisited knight neighbours of padded
	// square q, kept as squares are visited (boards of more than 128
	// squares, where counting them afresh takes eight loads): Degree.
	deg      []int8
	degFresh []int8 // deg with nothing visited
	degOn    bool   // deg is kept: set by the first Degree (a rule that never asks, the random walk's, pays nothing a step)

	trail []int32 // the visited squares, to undo them at the next reset

	// gen counts the position's changes; mv holds Moves's last answer on
	// the padded layout (mvN squares, for the square mvSq at gen mvGen),
	// so that the kernel's check of an answer that is exactly it is a
	// comparison (policyKernel.walkGuarded) rather than a check of each
	// square.
	gen       uint64
	mv        [8]int
	mvN, mvSq int
	mvGen     uint64

	// moveOf[d+2·cols+2] is the index in step of the move d squares on
	// (-1: none); boards of more than 4 columns only, where the steps
	// differ (the answer check's fast path, neighboursOnce)
	moveOf []int8
}

func newPosition(b *Board) *Position {
	n := b.Squares()
	p := &Position{board: b, visited: make([]bool, n), pc: b.Cols + 4}
	p.pad = make([]bool, (b.Rows+4)*p.pc)
	p.padAt = make([]int32, n)
	for sq := range n {
		r, c := b.RowCol(sq)
		p.padAt[sq] = int32((r+2)*p.pc + c + 2)
	}
	for i, m := range sortedMoves {
		p.off[i] = m.DR*p.pc + m.DC
		p.step[i] = m.DR*b.Cols + m.DC
	}
	p.fillBorder()
	if n > 128 {
		p.deg = make([]int8, len(p.pad))
		p.fillDegrees()
		p.degFresh = slices.Clone(p.deg)
	}
	if n <= 128 {
		p.words = 1 + (n-1)/64
		p.nb = make([][2]uint64, n)
		for sq := range n {
			for _, t := range b.Neighbours(nil, sq) {
				p.nb[sq][t/64] |= 1 << (t % 64)
			}
		}
	}
	if b.Cols > 4 {
		p.moveOf = make([]int8, 4*b.Cols+5)
		for i := range p.moveOf {
			p.moveOf[i] = -1
		}
		for i, st := range p.step {
			p.moveOf[st+2*b.Cols+2] = int8(i)
		}
	}
	return p
}

// fillBorder marks every padded square visited but the board's.
func (p *Position) fillBorder() {
	for i := range p.pad {
		p.pad[i] = true
	}
	for sq := range p.visited {
		p.pad[p.padOf(sq)] = p.visited[sq]
	}
}

// fillDegrees counts deg afresh from pad (board squares only).
func (p *Position) fillDegrees() {
	for _, q := range p.padAt {
		d := int8(8)
		for i := range p.off {
			d -= int8(b2i(p.pad[int(q)+p.off[i]]))
		}
		p.deg[q] = d
	}
}

func (p *Position) padOf(sq int) int { return int(p.padAt[sq]) }

// mark and unmark set and clear sq's visited state in every layout
// (without the count, the current square or the trail).
func (p *Position) mark(sq int) {
	q := int(p.padAt[sq])
	p.visited[sq], p.pad[q] = true, true
	p.vis[sq>>6&1] |= 1 << (sq & 63)
	p.gen++
	if p.degOn {
		for i := range p.off {
			p.deg[q+p.off[i]]--
		}
	}
}

func (p *Position) unmark(sq int) {
	q := int(p.padAt[sq])
	p.visited[sq], p.pad[q] = false, false
	p.vis[sq>>6&1] &^= 1 << (sq & 63)
	p.gen++
	if p.degOn {
		for i := range p.off {
			p.deg[q+p.off[i]]++
		}
	}
}

// Board returns the board.
func (p *Position) Board() *Board { return p.board }

// Current returns the square the walk is on.
func (p *Position) Current() int { return p.cur }

// Start returns the square the walk started on.
func (p *Position) Start() int { return p.start }

// Visited reports whether sq has been visited (the current square has).
// Squares off the board count as visited.
func (p *Position) Visited(sq int) bool {
	if p.words != 0 {
		return uint(sq) >= uint(len(p.nb)) || p.vis[sq>>6&1]>>(sq&63)&1 != 0
	}
	return uint(sq) >= uint(len(p.visited)) || p.visited[sq]
}

// VisitedCount returns the number of visited squares, the current one
// included.
func (p *Position) VisitedCount() int { return p.count }

// Moves appends to dst the unvisited knight neighbours of sq in ascending
// square order and returns it.
func (p *Position) Moves(sq int, dst []int) []int {
	if p.words == 1 { // bitboards: the set bits are in ascending order
		for u := p.nb[sq][0] &^ p.vis[0]; u != 0; u &= u - 1 {
			dst = append(dst, bits.TrailingZeros64(u))
		}
		return dst
	}
	if p.words == 2 {
		nb := &p.nb[sq]
		for u := nb[0] &^ p.vis[0]; u != 0; u &= u - 1 {
			dst = append(dst, bits.TrailingZeros64(u))
		}
		for u := nb[1] &^ p.vis[1]; u != 0; u &= u - 1 {
			dst = append(dst, 64+bits.TrailingZeros64(u))
		}
		return dst
	}
	start := len(dst)
	q := p.padOf(sq)
	n := start
	dst = slices.Grow(dst, 8)[:start+8]
	out := (*[8]int)(dst[start:])
	for i := range p.off { // branch-free: a branch on the board's contents mispredicts
		out[n-start] = sq + p.step[i]
		n += 1 - b2i(p.pad[q+p.off[i]])
	}
	dst = dst[:n]
	if p.board.Cols <= 4 { // sortedMoves is ascending square order only on wider boards
		slices.Sort(dst[start:])
	}
	if sq == p.cur { // the answer the kernel may be handed back (walkGuarded)
		p.mv, p.mvN, p.mvSq, p.mvGen = *out, n-start, sq, p.gen
	}
	return dst
}

// Degree returns the number of unvisited knight neighbours of sq:
// Warnsdorff's score.
func (p *Position) Degree(sq int) int {
	if p.degOn {
		return int(p.deg[p.padAt[sq]])
	}
	return p.degree(sq)
}

// degree is Degree on bitboards, and on the padded layout the first time:
// Degree, inlined into the rule, is then a lookup.
func (p *Position) degree(sq int) int {
	if p.words == 1 {
		return bits.OnesCount64(p.nb[sq][0] &^ p.vis[0])
	}
	if p.words != 0 {
		nb := &p.nb[sq]
		return bits.OnesCount64(nb[0]&^p.vis[0]) + bits.OnesCount64(nb[1]&^p.vis[1])
	}
	p.degreesOn()
	return int(p.deg[p.padAt[sq]])
}

// degreesOn starts keeping deg (the first Degree on the padded layout).
func (p *Position) degreesOn() {
	p.fillDegrees()
	p.degOn = true
}

// MoveTo returns the square reached from sq by move m, or -1 off the board.
func (p *Position) MoveTo(sq int, m Move) int {
	r, c := p.board.RowCol(sq)
	if !p.board.On(r+m.DR, c+m.DC) {
		return -1
	}
	return p.board.Square(r+m.DR, c+m.DC)
}

// reset puts the position at the start of a walk from start.
func (p *Position) reset(start int) {
	if p.degOn && len(p.trail) > len(p.deg)/32 { // a long walk: copying the fresh degrees is cheaper than unmarking
		copy(p.deg, p.degFresh)
		for _, sq := range p.trail {
			p.visited[sq], p.pad[p.padAt[sq]] = false, false
		}
	} else {
		for _, sq := range p.trail {
			p.unmark(int(sq))
		}
	}
	p.trail = p.trail[:0]
	p.count = 0
	p.move(start)
	p.start = start
}

// move visits sq and makes it current.
func (p *Position) move(sq int) {
	p.mark(sq)
	p.trail = append(p.trail, int32(sq))
	p.count++
	p.cur = sq
}

// undo takes back the last move, making prev (the square before it)
// current again: backtracking.
func (p *Position) undo(prev int) {
	p.unmark(p.cur)
	p.trail = p.trail[:len(p.trail)-1]
	p.count--
	p.cur = prev
}

// setVisited makes the position (visited, cur) that Choices asks about
// (exact enumeration).
func (p *Position) setVisited(visited func(sq int) bool, cur, start int) {
	p.trail = p.trail[:0]
	p.count = 0
	p.gen++
	p.vis = [2]uint64{}
	for sq := range p.visited {
		v := visited(sq)
		p.visited[sq], p.pad[p.padAt[sq]] = v, v
		if v {
			p.vis[sq>>6&1] |= 1 << (sq & 63)
			p.count++
			p.trail = append(p.trail, int32(sq))
		}
	}
	if p.degOn {
		p.fillDegrees()
	}
	p.cur, p.start = cur, start
}

// String describes the position for error messages.
func (p *Position) String() string {
	return fmt.Sprintf("%s board, on %s after %d squares (start %s)", p.board, p.board.SquareName(p.cur), p.count, p.board.SquareName(p.start))
}

// Policy is a walk rule.
type Policy interface {
	// Allowed appends to dst the squares the rule allows next from p and
	// returns it: unvisited knight neighbours of p.Current(), each at
	// most once, in any order. The walk draws uniformly among them; an
	// empty answer ends the walk.
	Allowed(p *Position, dst []int) []int
}

// PolicyFunc makes a function a Policy.
type PolicyFunc func(p *Position, dst []int) []int

// Allowed calls f.
func (f PolicyFunc) Allowed(p *Position, dst []int) []int { return f(p, dst) }

// CustomRule is a rule of your own, for Register.
type CustomRule struct {
	// Name is the rule's name in experiment files and tables, e.g.
	// "mine/degree-sum2". It is hashed into every walk's random stream,
	// so changing it changes the walks. It must not be a built-in rule's
	// name or start with "random", "warnsdorff" or "backtrack".
	Name string
	// Doc says in a line what the rule does (validate and the report
	// print it).
	Doc string
	// New returns the rule's policy for a board (never nil). It is called
	// once per worker and board, so the policy may keep scratch state; it
	// must not share mutable state between the policies it returns, and
	// its answers must depend on the position alone: the first use of the
	// rule on a board replays a few walks on fresh policies to check
	// (replay.go). Every call into the rule goes through the guard
	// (guard.go): a panic, a bad answer or a call that does not return
	// is an error naming the rule and the position.
	New func(b *Board) Policy
	// Deterministic promises that Allowed never returns more than one
	// square: every walk from a square is then the same walk, and an
	// experiment runs one walk per start. A policy that breaks the promise
	// stops the run with an error. A Stateful policy must make it.
	Deterministic bool
	// Boards, when set, refuses the boards the rule is not defined on
	// (Squirrel & Cull's rule is stated for n×n boards), with an error
	// that says why.
	Boards func(b *Board) error
}

var registry = struct {
	sync.RWMutex
	rules   map[string]CustomRule
	builtin map[string]bool // the literature's rules, registered by sim itself
}{rules: map[string]CustomRule{}, builtin: map[string]bool{}}

// Register makes a rule of your own known by its name. It refuses a name
// that is empty, has spaces, collides with a built-in rule's name or
// family, or is registered already.
func Register(c CustomRule) error {
	name := c.Name
	switch {
	case name == "" || strings.TrimSpace(name) != name || strings.ContainsAny(name, " \t\n,;"):
		return fmt.Errorf("register rule %q: a name is one word without spaces, e.g. mine/degree-sum2", name)
	case c.New == nil:
		return fmt.Errorf("register rule %q: New is nil; it must return the rule's policy for a board", name)
	}
	for _, fam := range []string{"random", "warnsdorff", "backtrack"} {
		if name == fam || strings.HasPrefix(name, fam+"/") || strings.HasPrefix(name, fam) {
			return fmt.Errorf("register rule %q: the name collides with the built-in rules (%s, warnsdorff/<tie-break chain>); pick another, e.g. mine/%s", name, strings.Join(RuleNames, ", "), strings.TrimPrefix(strings.TrimPrefix(name, fam), "/"))
		}
	}
	registry.Lock()
	defer registry.Unlock()
	if _, ok := registry.rules[name]; ok {
		return fmt.Errorf("register rule %q: registered already", name)
	}
	registry.rules[name] = c
	return nil
}

// MustRegister is Register that panics on an error (for init functions).
func MustRegister(c CustomRule) {
	if err := Register(c); err != nil {
		panic("sim: " + err.Error())
	}
}

// CustomRules returns the names of the rules registered by the program
// (not the literature's rules that sim registers itself), sorted.
func CustomRules() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.rules))
	for n := range registry.rules {
		if !registry.builtin[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func lookupCustom(name string) (CustomRule, bool) {
	registry.RLock()
	defer registry.RUnlock()
	c, ok := registry.rules[name]
	return c, ok
}

// Policy returns the rule's policy on board b: for a registered rule the
// one it registered, for a built-in walk rule (random, warnsdorff with any
// tie-break chain) a straightforward implementation of its definition that
// walks the same walks as the kernels. Backtrack is a search, not a walk
// policy: its Policy is the Warnsdorff rule that orders its search.
func (r Rule) Policy(b *Board) (Policy, error) {
	switch {
	case r.Custom != "": // a rule of your own, or the one that orders backtrack/NAME
		c, ok := lookupCustom(r.Custom)
		if !ok {
			return nil, fmt.Errorf("rule %q is not registered", r.Custom)
		}
		g, err := makeGuard(b, r, c) // New and Boards called through the guard
		if err != nil {
			return nil, err
		}
		return g.pol, nil
	case r.Kind == RandomWalk:
		return PolicyFunc(func(p *Position, dst []int) []int { return p.Moves(p.cur, dst) }), nil
	case r.Kind == Warnsdorff || r.Kind == Backtrack:
		return &warnsdorffPolicy{rule: r}, nil
	}
	return nil, fmt.Errorf("rule kind %d has no policy", r.Kind)
}

// CheckBoard reports whether rule r is defined on board b: every built-in
// is; a rule of your own may refuse some boards (CustomRule.Boards). Its
// arguments come in CheckRule's order, board first.
func CheckBoard(b *Board, r Rule) error {
	if r.Custom == "" {
		return nil
	}
	c, ok := lookupCustom(r.Custom)
	if !ok {
		return fmt.Errorf("rule %q is not registered", r.Custom)
	}
	if err := (&guard{name: c.Name, b: b, w: newCallWatch(c.Name, b)}).boards(c); err != nil { // through the guard
		return err
	}
	if r.Kind == Backtrack {
		g, err := makeGuard(b, r, c)
		if err != nil {
			return err
		}
		if g.state != nil {
			return fmt.Errorf("rule %s: %s keeps state along its walk, which a search cannot undo when it backs up; order the search by a rule without state", r.Name(), r.Custom)
		}
	}
	return nil
}

// warnsdorffPolicy is Warnsdorff's rule from its definition: the unvisited
// neighbours of minimum degree, narrowed by the tie-break chain's refining
// and first criteria (tiebreak.go); a chain ending in random leaves the
// survivors to the walk's draw.
type warnsdorffPolicy struct {
	rule Rule
	p    *Position
	buf  []int
	tie  bool // the last answer was a tie decision (Outcome.Ties)
}

// tieReporter is a policy that says whether its last answer was a tie
// decision in the sense of Outcome.Ties (more than one square of minimum
// degree, whether or not the tie-break then left one). A policy without it
// counts the steps where it allowed more than one square.
type tieReporter interface{ tied() bool }

func (w *warnsdorffPolicy) tied() bool { return w.tie }

func (w *warnsdorffPolicy) Allowed(p *Position, dst []int) []int {
	w.buf = p.Moves(p.cur, w.buf[:0])
	w.tie = false
	if len(w.buf) == 0 {
		return dst
	}
	best := 9
	var tied [8]int32
	n := 0
	for _, sq := range w.buf {
		d := p.Degree(sq)
		if d < best {
			best, n = d, 0
		}
		if d == best {
			tied[n] = int32(sq)
			n++
		}
	}
	w.tie = n > 1
	if n > 1 && w.rule.TieBreak != TieRandom {
		w.p = p
		n = narrowTies(w.rule.TieBreak.chain(), tied[:n], w)
	}
	for _, sq := range tied[:n] {
		dst = append(dst, int(sq))
	}
	return dst
}

// The tie scores of warnsdorffPolicy, from the definitions (TieScorer).

func (w *warnsdorffPolicy) SecondDegree(sq int32) int {
	s := 0
	for _, t := range w.p.Moves(int(sq), nil) {
		s += w.p.Degree(t)
	}
	return s
}

func (w *warnsdorffPolicy) SecondDegreeMin(sq int32) int {
	m, any := 0, false
	for _, t := range w.p.Moves(int(sq), nil) {
		if d := w.p.Degree(t); !any || d < m {
			m, any = d, true
		}
	}
	return m
}

func (w *warnsdorffPolicy) CurDegree() int { return w.p.Degree(w.p.cur) }

func (w *warnsdorffPolicy) CentreDist2(sq int32) int { return w.p.board.CentreDist2(int(sq)) }

// CornerDist2 and EdgeDist from their definitions (docs/design.md).
func (w *warnsdorffPolicy) CornerDist2(sq int32) int {
	b := w.p.board
	r, c := b.RowCol(int(sq))
	best := -1
	for _, corner := range [][2]int{{0, 0}, {0, b.Cols - 1}, {b.Rows - 1, 0}, {b.Rows - 1, b.Cols - 1}} {
		if d := (r-corner[0])*(r-corner[0]) + (c-corner[1])*(c-corner[1]); best < 0 || d < best {
			best = d
		}
	}
	return best
}

// Lookahead from its definition: mark sq and each square of the
// continuation visited on the position, count, and unmark.
func (w *warnsdorffPolicy) Lookahead(sq int32, k int) int {
	p := w.p
	var marked []int
	mark := func(s int) { p.mark(s); marked = append(marked, s) }
	defer func() {
		for _, s := range marked {
			p.unmark(s)
		}
	}()
	cur := int(sq)
	mark(cur)
	for moves := 0; ; moves++ {
		next := p.Moves(cur, nil) // ascending
		if moves == k || len(next) == 0 {
			return moves
		}
		best := next[0]
		for _, t := range next[1:] {
			if p.Degree(t) < p.Degree(best) {
				best = t
			}
		}
		mark(best)
		cur = best
	}
}

func (w *warnsdorffPolicy) EdgeDist(sq int32) int {
	b := w.p.board
	r, c := b.RowCol(int(sq))
	return min(r, c, b.Rows-1-r, b.Cols-1-c)
}

func (w *warnsdorffPolicy) MoveRank(sq int32) int {
	for i, m := range w.rule.orderOn(w.p.board) {
		if w.p.MoveTo(w.p.cur, m) == int(sq) {
			return i
		}
	}
	panic("sim: tied square is not a move from the current square")
}

// RuleError is a policy's answer that no walk may take: a square that is
// not an unvisited knight neighbour of the current square, one given
// twice, or several from a rule registered as deterministic.
//
// It is also what the guard (guard.go) makes of a rule's panic, of a New
// that returns nil, of two fresh policies that answer one position
// differently, and of a call that does not return (Stuck).
type RuleError struct {
	Rule     string
	Square   int // the offending square (-1: none in particular)
	Position string
	Problem  string
	Fix      string // what to do about it ("": the contract of Policy.Allowed)
	Stuck    bool   // a call that has not returned (CallWatch)
}

func (e *RuleError) Error() string {
	fix := e.Fix
	if fix == "" {
		fix = "a rule's Allowed must return unvisited knight neighbours of p.Current() (p.Moves lists them), each once"
	}
	return fmt.Sprintf("rule %s: %s (%s); %s", e.Rule, e.Problem, e.Position, fix)
}

// checkAllowed checks a policy's answer and sorts it ascending.
func checkAllowed(rule *Rule, p *Position, allowed []int, deterministic bool) error {
	if p.neighboursOnce(allowed) && (!deterministic || len(allowed) <= 1) {
		return nil
	}
	return answerProblem(rule, p, allowed, deterministic)
}

// answerProblem names what is wrong with an answer that failed the fast
// check (sorting it ascending).
//
//go:noinline
func answerProblem(rule *Rule, p *Position, allowed []int, deterministic bool) error {
	b := p.board
	bad := func(sq int, format string, args ...any) error {
		return &RuleError{Rule: rule.Name(), Square: sq, Position: p.String(), Problem: fmt.Sprintf(format, args...)}
	}
	slices.Sort(allowed)
	cr, cc := b.RowCol(p.cur)
	for i, sq := range allowed {
		if sq < 0 || sq >= b.Squares() {
			return bad(sq, "returned square %d, which is off the board (0..%d)", sq, b.Squares()-1)
		}
		r, c := b.RowCol(sq)
		dr, dc := r-cr, c-cc
		if dr*dr+dc*dc != 5 {
			return bad(sq, "returned %s, which is not a knight's move from %s", b.SquareName(sq), b.SquareName(p.cur))
		}
		if p.visited[sq] {
			return bad(sq, "returned %s, which is visited already", b.SquareName(sq))
		}
		if i > 0 && allowed[i-1] == sq {
			return bad(sq, "returned %s twice", b.SquareName(sq))
		}
	}
	if deterministic && len(allowed) > 1 {
		names := make([]string, len(allowed))
		for i, sq := range allowed {
			names[i] = b.SquareName(sq)
		}
		e := bad(-1, "is registered as deterministic but allowed %d squares (%s)", len(allowed), strings.Join(names, ", ")).(*RuleError)
		e.Fix = "register it without Deterministic, or make it allow one square at each step"
		return e
	}
	return nil
}

// neighboursOnce reports whether allowed holds unvisited knight neighbours
// of the current square, each once, and then sorts it ascending: the
// answer check's fast path (the padded board needs no bounds check and no
// division a square), which leaves every problem to checkAllowed to name.
func (p *Position) neighboursOnce(allowed []int) bool {
	if len(allowed) > 8 {
		return false
	}
	if p.words != 0 {
		return p.neighboursOnceBits(allowed)
	}
	q := p.padOf(p.cur)
	if p.moveOf == nil { // at most 4 columns: two moves may have one step, of which one lands on the board
		var mask uint8
		for _, sq := range allowed {
			d, found := sq-p.cur, false
			for i, st := range p.step {
				if st == d && !p.pad[q+p.off[i]] {
					if mask&(1<<i) != 0 {
						return false
					}
					mask, found = mask|1<<i, true
					break
				}
			}
			if !found {
				return false
			}
		}
		slices.Sort(allowed)
		return true
	}
	var mask uint8
	span := 2*p.board.Cols + 2
	prev, ascending := -1, true
	for _, sq := range allowed {
		d := sq - p.cur + span
		if d < 0 || d >= len(p.moveOf) {
			return false
		}
		i := p.moveOf[d]
		if i < 0 || p.pad[q+p.off[i]] || mask&(1<<i) != 0 {
			return false
		}
		mask |= 1 << i
		ascending = ascending && sq > prev
		prev = sq
	}
	if ascending { // sorted already (as Moves answers)
		return true
	}
	k := 0 // sortedMoves is ascending square order here: rebuild from the mask
	for i, st := range p.step {
		if mask&(1<<i) != 0 {
			allowed[k] = p.cur + st
			k++
		}
	}
	return true
}

// neighboursOnceBits is neighboursOnce on the bitboards: each answer is a
// bit of the current square's unvisited neighbours, set once; the sorted
// answer is read back from the bits.
func (p *Position) neighboursOnceBits(allowed []int) bool {
	if p.words == 1 {
		free, seen := p.nb[p.cur][0]&^p.vis[0], uint64(0)
		prev := -1 // an ascending answer (as Moves gives) is sorted and has no repeat
		for _, sq := range allowed {
			if sq <= prev || sq >= 64 {
				seen = free + 1 // not ascending: the general loop below decides
				break
			}
			seen |= 1 << sq
			prev = sq
		}
		if seen&^free == 0 {
			return true
		}
		seen = 0
		for _, sq := range allowed {
			b := uint64(1) << (uint(sq) & 63)
			if uint(sq) >= 64 || free&b == 0 || seen&b != 0 {
				return false
			}
			seen |= b
		}
		for i := range allowed {
			allowed[i] = bits.TrailingZeros64(seen)
			seen &= seen - 1
		}
		return true
	}
	nb := &p.nb[p.cur]
	free := [2]uint64{nb[0] &^ p.vis[0], nb[1] &^ p.vis[1]}
	var seen [2]uint64
	for _, sq := range allowed {
		if uint(sq) >= uint(len(p.nb)) {
			return false
		}
		w, b := sq>>6&1, uint64(1)<<(sq&63)
		if free[w]&b == 0 || seen[w]&b != 0 {
			return false
		}
		seen[w] |= b
	}
	k := 0
	for u := seen[0]; u != 0; u &= u - 1 {
		allowed[k] = bits.TrailingZeros64(u)
		k++
	}
	for u := seen[1]; u != 0; u &= u - 1 {
		allowed[k] = 64 + bits.TrailingZeros64(u)
		k++
	}
	return true
}
