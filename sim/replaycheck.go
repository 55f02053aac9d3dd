package sim

import (
	"fmt"
	"slices"
)

// The replay check (docs/design.md, "The replay check"): the replay at a
// rule's first use (replay.go) meets a rule that misbehaves on the few
// walks it tries, but not one that drifts later (an AllowedLanes that
// turns into another rule after its first calls, or disagrees with
// Allowed only at positions those walks never reach) nor one whose answer
// reads state that only a long run moves (a counter shared between its
// policies). So while walks of a rule of your own are counted, the
// policy kernel replays a deterministic sample of them through Allowed
// (the general path, the form exact values, tour and the first replay
// use), each on a fresh policy from New and drawing from the walk's own
// stream, and compares the two walks square for square (and their ties
// and whether MaxSteps cut them). A walk that does not replay stops the
// walker with a *RuleError naming the rule, the walk (board, start, walk
// index) and the step where the two walks part.
//
// The sample is walk 0 of every (board, rule, start) and every walk whose
// stream's first seed word has its top replayShift bits zero: 1 walk in
// 64, decided by the walk's stream alone (seed, board, rule, start, walk
// index), never by workers, units or the order walks run in, so a run
// that passes with 1 worker passes with 2. A splitting segment (Stepper)
// is sampled the same way by the stream it draws from. The built-in rules
// and the literature's rules that sim registers itself are not replayed:
// their kernels are tested against their policies.
const replayShift = 6 // 1 walk in 1<<replayShift

// sampledStream says whether a walk drawing from the stream seeded
// (hi, ·) is replayed: hi is Mix64 of the stream key and walk index.
func sampledStream(hi uint64) bool { return hi>>(64-replayShift) == 0 }

// replayCheck is a policy kernel's replay check: the rule, and a second
// kernel whose guard is handed a fresh policy for each walk replayed.
type replayCheck struct {
	c       CustomRule
	rk      *policyKernel
	pend    []laneWalk // lanes: the sampled walks of the last walkLanes
	visited []bool     // a Stepper: the position a sampled segment starts from
	count   int        // walks (or segments) replayed, for tests
}

// laneWalk is a sampled walk of walkLanes: its index in out and squares.
type laneWalk struct {
	slot int
	path []int32
}

// newReplayCheck returns the replay check of k, nil where k's walks are
// not checked (a built-in's reference policy, the literature's rules, a
// search).
func newReplayCheck(k *policyKernel) *replayCheck {
	if k.rule.Custom == "" || k.rule.Kind != Custom || k.g.w == nil || trustedRule(k.rule.Custom) {
		return nil
	}
	c, ok := lookupCustom(k.rule.Custom)
	if !ok {
		return nil
	}
	return &replayCheck{c: c}
}

// fresh returns the replay's kernel with a fresh policy from New.
func (k *policyKernel) fresh() (*policyKernel, error) {
	rc := k.check
	if rc.rk == nil {
		g := *k.g // the same rule, board and call watch (the replay runs on k's goroutine)
		rc.rk = &policyKernel{b: k.b, rule: k.rule, g: &g, maxSteps: k.maxSteps, pos: newPosition(k.b)}
	}
	rk := rc.rk
	rc.count++
	pol, err := rk.g.newPolicy(rc.c)
	if err != nil {
		return nil, err
	}
	rk.g.pol = pol
	rk.g.ties, _ = pol.(tieReporter)
	rk.g.state, _ = pol.(Stateful)
	if (rk.g.state != nil) != (k.g.state != nil) {
		return nil, rk.g.ruleBug(callNew, nil, "New returned a policy that keeps state along its walk (sim.Stateful) and another that does not",
			"New must return the same kind of policy every time")
	}
	rk.err = nil
	return rk, nil
}

// replayWalk walks walk idx from start again through Allowed on a fresh
// policy, drawing from the stream (hi, lo) that the run's walk drew from,
// and compares it with that walk: its squares (start first), ties and
// Stopped. inLanes says the run's walk was walked in AllowedLanes.
func (k *policyKernel) replayWalk(start int, idx, hi, lo uint64, path []int32, got Outcome, inLanes bool) error {
	rk, err := k.fresh()
	if err != nil {
		return err
	}
	var src PCG
	src.Seed(hi, lo)
	o := rk.walk(start, &src, false)
	if rk.err != nil {
		return rk.err
	}
	again := rk.pos.trail
	if slices.Equal(again, path) && o.Ties == got.Ties && o.Stopped == got.Stopped {
		return nil
	}
	return k.replayProblem(fmt.Sprintf("walk %d from %s on the %s board", idx, k.b.SquareName(start), k.b), start, path, again, got, o, inLanes)
}

// replayProblem is the *RuleError of a walk (what) whose replay through
// Allowed (again, o) parts from the walk the run counted (path, got).
func (k *policyKernel) replayProblem(what string, start int, path, again []int32, got, o Outcome, inLanes bool) error {
	s := 0
	for s < len(path) && s < len(again) && path[s] == again[s] {
		s++
	}
	// the position both walks share before they part: squares path[:s]
	p := newPosition(k.b)
	where := k.b.String() + " board"
	if s > 0 {
		p.reset(int(path[0]))
		for _, sq := range path[1:s] {
			p.move(int(sq))
		}
		where = p.String()
	}
	step := func(w []int32) string {
		if s < len(w) {
			return "went to " + k.b.SquareName(int(w[s]))
		}
		return "ended there"
	}
	form, fix := "in the run", "a rule's answer must depend on the position alone (board, visited squares, current square, start): it may keep no state between calls unless it implements sim.Stateful (Begin starts each walk afresh), read nothing shared between its policies or walks (a global counter, a cache filled in call order) and draw nothing itself; otherwise the tables depend on --workers and on which walks ran first, and contradict exact values and tour"
	if inLanes {
		form = "in the run, in AllowedLanes,"
		fix = "a rule's two forms must agree on every call, not only on the first ones: AllowedLanes must allow, in each lane, exactly the squares Allowed allows at that lane's position, from the position alone (Monte Carlo walks on boards of up to 64 squares ask AllowedLanes; exact values, tour and this replay ask Allowed)"
	}
	var problem string
	if s == len(path) && s == len(again) {
		problem = fmt.Sprintf("%s %s took the same squares as its replay through Allowed on a fresh policy, but counted %d ties (Stopped %v) against the replay's %d (Stopped %v)",
			what, form, got.Ties, got.Stopped, o.Ties, o.Stopped)
	} else {
		problem = fmt.Sprintf("%s does not replay: at its step %d %s it %s, and replayed through Allowed on a fresh policy, drawing from the same stream, it %s",
			what, s, form, step(path), step(again))
	}
	return &RuleError{Rule: k.g.name, Square: -1, Position: where, Problem: problem, Fix: fix}
}

// replayLaneWalks replays the sampled walks of the last walkLanes (walks
// lo+slot from start of key's streams), and returns the first that does
// not replay.
func (k *policyKernel) replayLaneWalks(start int, key Key, lo uint64, out []Outcome) error {
	rc := k.check
	defer func() { rc.pend = rc.pend[:0] }()
	for _, lw := range rc.pend {
		idx := lo + uint64(lw.slot)
		hi, l := key.Seeds(idx)
		if err := k.replayWalk(start, idx, hi, l, lw.path, out[lw.slot], true); err != nil {
			return err
		}
	}
	return nil
}

// keepLaneWalk records the walk of lane j (slot in out, its squares
// path) for replayLaneWalks.
func (rc *replayCheck) keepLaneWalk(slot int, path []int32) {
	n := len(rc.pend)
	if n < cap(rc.pend) {
		rc.pend = rc.pend[:n+1]
	} else {
		rc.pend = append(rc.pend, laneWalk{})
	}
	lw := &rc.pend[n]
	lw.slot, lw.path = slot, append(lw.path[:0], path...)
}
