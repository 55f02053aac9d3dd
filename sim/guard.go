package sim

import (
	"fmt"
	"sync"
	"sync/atomic"
	"weak"
)

// The guard: every call sim makes into a rule of your own (its New and
// Boards, its policy's Allowed, and a Stateful policy's Begin and Moved)
// goes through one small layer, whatever calls it (a LanePolicy's
// AllowedLanes too: lanes.go): the walk kernel, the stepper of rare
// splitting, exact enumeration in memory or spilled (package exact,
// through Choices), backtracking ordered by the rule, and so tour and the
// dry run's calibration. The guard
//
//   - checks every answer (checkAllowed: on the board, a knight's move
//     from the current square, unvisited, each square once, and one square
//     at most from a rule registered Deterministic);
//   - turns a panic inside the rule into a *RuleError naming the rule, the
//     board, the start and the position, so that a command exits 1 with a
//     message rather than a Go stack trace;
//   - refuses a New that returns nil or panics, and a policy that keeps
//     state along its walk (Stateful) from a rule not registered
//     Deterministic;
//   - marks each call in progress where a CallWatch can see it, so that a
//     command notices a call that does not return (RuleCallStuck) and can
//     stop without waiting for it;
//   - at the first use of a rule on a board in a process, replays a few
//     walks on two fresh policies and compares their answers (replay.go).
//
// The built-in rules never pass through it: their kernels do not call a
// Policy. BenchmarkGuard measures what it adds to a call, BenchmarkPosition
// each piece of a step, BenchmarkOwnRule whole walks of rules written
// through Position beside the built-ins they copy.

// guard is a rule's policy on one board behind the guard. Like the
// policy, it is scratch state for one goroutine.
type guard struct {
	rule   Rule // as named in tables (backtrack/NAME for a search ordered by NAME)
	name   string
	b      *Board
	pol    Policy
	state  Stateful
	ties   tieReporter
	det    bool       // answers of more than one square are refused
	w      *callWatch // nil: a built-in rule's reference policy, trusted
	start  int        // the start last published to w
	method int        // in a walk (walkCall): the method last called, for a panic's message
}

// Methods of a rule that the guard calls, as named in messages.
const (
	callAllowed = iota
	callBegin
	callMoved
	callNew
	callBoards
	callLanes
)

var callNames = [...]string{"Allowed", "Begin", "Moved", "New", "Boards", "AllowedLanes"}

// callWatch is what a CallWatch sees of a guard's calls: seq is odd while
// a call is in progress, at says which call and where. A walk of the
// policy kernel (walkBegin, walkCall, walkEnd) keeps seq odd for the whole
// walk and marks each call by at alone, which its visited count makes
// unique within the walk: (seq, at) names one call either way.
type callWatch struct {
	at    uint64 // method<<60 | square<<30 | visited count; square 1<<30-1: no position (first: aligned for atomics)
	rule  string
	b     *Board
	seq   atomic.Uint64
	start atomic.Int64
}

// watches lists the callWatches of the guards alive; a guard dropped by
// its kernel leaves a nil pointer, pruned by CallWatch.Stuck.
var watches struct {
	sync.Mutex
	list   []weak.Pointer[callWatch]
	pruned int // the list's length when last pruned
}

func newCallWatch(rule string, b *Board) *callWatch {
	w := &callWatch{rule: rule, b: b}
	watches.Lock()
	if len(watches.list) >= 2*watches.pruned+64 { // a program that never polls must not keep every guard's entry
		pruneWatches()
	}
	watches.list = append(watches.list, weak.Make(w))
	watches.Unlock()
	return w
}

// pruneWatches drops the entries of guards no longer alive (watches held).
func pruneWatches() {
	live := watches.list[:0]
	for _, wp := range watches.list {
		if wp.Value() != nil {
			live = append(live, wp)
		}
	}
	clear(watches.list[len(live):])
	watches.list, watches.pruned = live, len(live)
}

const noSquare = 1<<30 - 1

func (w *callWatch) enter(method int, p *Position) {
	at := uint64(method)<<60 | noSquare<<30
	if p != nil {
		at = uint64(method)<<60 | uint64(p.cur)<<30 | uint64(p.count)
	}
	atomic.StoreUint64(&w.at, at)
	w.seq.Add(1)
}

func (w *callWatch) leave() { w.seq.Add(1) }

// walkBegin, walkCall and walkEnd are enter and leave for a whole walk of
// the policy kernel (policyKernel.walkGuarded): two atomic adds a walk and
// one release store a call rather than two atomic adds and a store a call.
// walkCall marks a call of method at p; between calls of one walk the
// kernel runs only its own bounded code, so a watch that sees the same
// (seq, at) for long sees one call that has not returned.
func (g *guard) walkBegin(p *Position) {
	if p.start != g.start {
		g.start = p.start
		g.w.start.Store(int64(p.start))
	}
	g.w.seq.Add(1)
}

func (g *guard) walkCall(method int, p *Position) {
	g.method = method
	storeRelease(&g.w.at, uint64(method)<<60|uint64(p.cur)<<30|uint64(p.count))
}

func (g *guard) walkEnd() { g.w.seq.Add(1) }

// newGuard puts rule r's policy on b (the registered rule r.Custom) behind
// the guard: New and Boards called through it, the policy checked, and on
// the first use of the rule on b in this process the replay (replayOnce).
func newGuard(b *Board, r Rule) (*guard, error) {
	c, ok := lookupCustom(r.Custom)
	if !ok {
		return nil, fmt.Errorf("rule %q is not registered", r.Custom)
	}
	g, err := makeGuard(b, r, c)
	if err != nil {
		return nil, err
	}
	if err := replayOnce(b, r, c); err != nil {
		return nil, err
	}
	return g, nil
}

// makeGuard is newGuard without the replay.
func makeGuard(b *Board, r Rule, c CustomRule) (*guard, error) {
	g := &guard{rule: r, name: c.Name, b: b, w: newCallWatch(c.Name, b), start: -1}
	if err := g.boards(c); err != nil {
		return nil, err
	}
	pol, err := g.newPolicy(c)
	if err != nil {
		return nil, err
	}
	g.pol = pol
	g.ties, _ = pol.(tieReporter)
	g.state, _ = pol.(Stateful)
	g.det = r.Kind == Custom && c.Deterministic
	if g.state != nil && !c.Deterministic {
		return nil, &RuleError{Rule: c.Name, Square: -1, Position: b.String() + " board",
			Problem: "keeps state along its walk (its policy implements sim.Stateful) but is not registered Deterministic",
			Fix:     "a rule with state must allow one square at each step and say so (CustomRule.Deterministic: true), since exact enumeration merges, and splitting saves and restores, walks that its state would tell apart; or drop the state and answer from the Position alone"}
	}
	return g, nil
}

// builtinGuard is the guard of a built-in rule's reference policy: checked,
// not watched (the kernels are held to it, and it neither panics nor blocks).
func builtinGuard(b *Board, r Rule) (*guard, error) {
	pol, err := r.Policy(b)
	if err != nil {
		return nil, err
	}
	g := &guard{rule: r, name: r.Name(), b: b, pol: pol, start: -1}
	g.ties, _ = pol.(tieReporter)
	return g, nil
}

// ruleBug is a *RuleError for a panic or a refusal of the rule's own code.
func (g *guard) ruleBug(method int, p *Position, problem, fix string) *RuleError {
	where := g.b.String() + " board"
	if p != nil {
		where = p.String()
	}
	return &RuleError{Rule: g.name, Square: -1, Position: where, Problem: problem, Fix: fix}
}

// recovered turns the value of a panic in method into a *RuleError.
func (g *guard) recovered(method int, p *Position, v any) *RuleError {
	return g.ruleBug(method, p, fmt.Sprintf("panicked in its %s: %v", callNames[method], v),
		"the fault is in the rule's code, not the run: fix its "+callNames[method]+" so that it returns an answer for every position")
}

func (g *guard) newPolicy(c CustomRule) (pol Policy, err error) {
	g.w.enter(callNew, nil)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.recovered(callNew, nil, v)
		}
	}()
	pol = c.New(g.b)
	if pol == nil {
		return nil, g.ruleBug(callNew, nil, "New returned a nil policy",
			"New must return the rule's policy (a sim.Policy) on every board it accepts; refuse other boards with CustomRule.Boards")
	}
	return pol, nil
}

func (g *guard) boards(c CustomRule) (err error) {
	if c.Boards == nil {
		return nil
	}
	g.w.enter(callBoards, nil)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.recovered(callBoards, nil, v)
		}
	}()
	return c.Boards(g.b)
}

// allowed asks the policy for its answer at p, appended to dst, and checks
// it (sorted ascending, as checkAllowed leaves it).
func (g *guard) allowed(p *Position, dst []int) (out []int, err error) {
	if g.w == nil {
		out = g.pol.Allowed(p, dst)
		return out, checkAllowed(&g.rule, p, out[len(dst):], g.det)
	}
	if p.start != g.start {
		g.start = p.start
		g.w.start.Store(int64(p.start))
	}
	out, err = g.call(p, dst)
	if err != nil {
		return dst, err
	}
	return out, checkAllowed(&g.rule, p, out[len(dst):], g.det)
}

func (g *guard) call(p *Position, dst []int) (out []int, err error) {
	g.w.enter(callAllowed, p)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.recovered(callAllowed, p, v)
		}
	}()
	return g.pol.Allowed(p, dst), nil
}

// tied says whether the last answer was a tie decision (Outcome.Ties).
func (g *guard) tied(allowed int) bool {
	if g.ties != nil {
		return g.ties.tied()
	}
	return allowed > 1
}

// begin and moved call a Stateful policy's Begin and Moved (nothing for
// another policy).
func (g *guard) begin(p *Position) (err error) {
	if g.state == nil {
		return nil
	}
	if p.start != g.start {
		g.start = p.start
		g.w.start.Store(int64(p.start))
	}
	g.w.enter(callBegin, p)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.recovered(callBegin, p, v)
		}
	}()
	g.state.Begin(p)
	return nil
}

func (g *guard) moved(p *Position, sq int) (err error) {
	if g.state == nil {
		return nil
	}
	g.w.enter(callMoved, p)
	defer func() {
		g.w.leave()
		if v := recover(); v != nil {
			err = g.recovered(callMoved, p, v)
		}
	}()
	g.state.Moved(p, sq)
	return nil
}
