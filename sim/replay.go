package sim

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The replay: at the first use of a rule of your own on a board in a
// process, the guard walks a few short walks on one fresh policy and asks
// a second fresh policy the same positions in another order (the last
// walk's last position first; a Stateful policy, whose state belongs to
// its walk, replays the walks forward, the last walk first), and compares
// the answers. A rule whose answer depends on anything but the position
// (a count of its calls, the previous walk, its own random draws, state
// shared between its policies) answers differently and is refused with
// the position and both answers; such a rule would give different tables
// for different --workers, and exact enumeration, which merges walks
// reaching the same position, would be wrong. The replay also meets most
// wrong answers and panics before a command writes anything. It costs at
// most 3·replayWalks·replaySteps+1 calls and 3 New (a LanePolicy: a New and
// a call of AllowedLanes per LaneCount positions more), once per rule and
// board.
const (
	replayWalks = 3
	replaySteps = 48
)

var replayed sync.Map // replayKey -> error (nil: the rule passed)

type replayKey struct{ rule, board string }

// replayOnce replays rule c on b once per process (not the literature's
// rules that sim registers itself: they are tested).
func replayOnce(b *Board, r Rule, c CustomRule) error {
	if trustedRule(c.Name) {
		return nil
	}
	k := replayKey{c.Name, b.String()}
	if v, ok := replayed.Load(k); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	err := replay(b, r, c)
	if err == nil {
		replayed.Store(k, nil)
	} else {
		replayed.Store(k, err)
	}
	return err
}

// CheckRule is what the first use of rule r on board b checks, for a
// command to call before it writes anything: for a rule of your own (or
// backtrack/NAME), that it is defined on b (CustomRule.Boards), that New
// returns a policy, and the replay of a few walks on two fresh policies
// (see above); nil for a built-in rule.
func CheckRule(b *Board, r Rule) error {
	if r.Custom == "" || trustedRule(r.Custom) {
		return nil
	}
	_, err := newGuard(b, r)
	return err
}

func replay(b *Board, r Rule, c CustomRule) error {
	one, err := makeGuard(b, r, c)
	if err != nil {
		return err
	}
	two, err := makeGuard(b, r, c)
	if err != nil {
		return err
	}
	three, err := makeGuard(b, r, c)
	if err != nil {
		return err
	}
	n := b.Squares()
	var starts []int
	for _, s := range []int{0, n - 1, n / 2} {
		if !slices.Contains(starts, s) && len(starts) < replayWalks {
			starts = append(starts, s)
		}
	}
	// the first policy walks: paths[i] the squares moved to, answers[i][j]
	// its answer before move j
	paths, answers := make([][]int, len(starts)), make([][][]int, len(starts))
	p := newPosition(b)
	var src PCG
	for i, s := range starts {
		p.reset(s)
		if err := one.begin(p); err != nil {
			return err
		}
		src.Seed(uint64(i), 0x5eed)
		for range replaySteps {
			ans, err := one.allowed(p, nil)
			if err != nil {
				return err
			}
			answers[i] = append(answers[i], slices.Clone(ans)) // a policy may answer in a buffer of its own
			if len(ans) == 0 {
				break
			}
			next := ans[0]
			if len(ans) > 1 {
				next = ans[Uniform(&src, uint32(len(ans)))]
			}
			p.move(next)
			if err := one.moved(p, next); err != nil {
				return err
			}
			paths[i] = append(paths[i], next)
		}
	}
	// the second policy: the same positions in another order
	at := func(i, j int) { // position j of walk i on p
		p.reset(starts[i])
		for _, sq := range paths[i][:j] {
			p.move(sq)
		}
	}
	compare := func(g *guard, i, j int) error {
		ans, err := g.allowed(p, nil)
		if err != nil {
			return err
		}
		if !slices.Equal(ans, answers[i][j]) {
			return &RuleError{Rule: c.Name, Square: -1, Position: p.String(),
				Problem: fmt.Sprintf("answered %s there on one fresh policy and %s on another, asked other positions before", squareNames(b, answers[i][j]), squareNames(b, ans)),
				Fix:     "a rule's answer must depend on the position alone (board, visited squares, current square, start): it may keep no state between calls unless it implements sim.Stateful (Begin starts each walk afresh), draw nothing itself (return every square it allows: the walk draws, from the run's seed) and share nothing between its policies; otherwise runs with different --workers give different tables"}
		}
		return nil
	}
	// two: the last walk's last position first (a Stateful policy: the
	// walks in reverse order, each forward), which an answer that depends
	// on the positions asked before meets
	forward := func(g *guard, i int) error { // walk i forward
		p.reset(starts[i])
		if err := g.begin(p); err != nil {
			return err
		}
		for j := range answers[i] {
			if err := compare(g, i, j); err != nil {
				return err
			}
			if j < len(paths[i]) {
				p.move(paths[i][j])
				if err := g.moved(p, paths[i][j]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i := len(starts) - 1; i >= 0; i-- {
		if two.state != nil {
			if err := forward(two, i); err != nil {
				return err
			}
			continue
		}
		for j := len(answers[i]) - 1; j >= 0; j-- {
			at(i, j)
			if err := compare(two, i, j); err != nil {
				return err
			}
		}
	}
	// three: in the first policy's order after one call more, which an
	// answer that depends on a count of calls (its parity, say) meets
	// even where two asked each position at the same count
	p.reset(starts[0])
	if err := three.begin(p); err != nil {
		return err
	}
	if _, err := three.allowed(p, nil); err != nil {
		return err
	}
	for i := range starts {
		if err := forward(three, i); err != nil {
			return err
		}
	}
	// four: a LanePolicy's AllowedLanes, where Monte Carlo walks ask it,
	// on the same positions, each walk's in lanes: its answers must be
	// Allowed's
	if lp, ok := one.pol.(LanePolicy); ok && r.Kind == Custom && one.state == nil && n <= 64 {
		four, err := makeGuard(b, r, c)
		if err != nil {
			return err
		}
		lp = four.pol.(LanePolicy)
		for i := range starts {
			if err := replayLanes(four, lp, len(answers[i]), func(j int) *Position { at(i, j); return p }, func(j int) []int { return answers[i][j] }); err != nil {
				return err
			}
		}
	}
	return nil
}

// squareNames writes squares as {a1, b3} ({} for none).
func squareNames(b *Board, sqs []int) string {
	names := make([]string, len(sqs))
	for i, sq := range sqs {
		names[i] = b.SquareName(sq)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// trustedRule reports whether name is one of the literature's rules that
// sim registers itself (and tests).
func trustedRule(name string) bool {
	registry.RLock()
	defer registry.RUnlock()
	return registry.builtin[name]
}
