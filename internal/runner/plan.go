// Package runner plans an experiment as work units, runs them over a pool
// of workers, and collects exact per-(board, rule, start square) tallies.
// Units, shards and resume all cut the same fixed list of units, and
// tallies are integer sums, so every way of running an experiment gives the
// same tallies.
package runner

import (
	"fmt"
	"iter"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
)

// Unit is one block of walk indices [Lo, Hi) of one (board, rule, start).
// Round is the round of a sequential run the block belongs to (0 in a
// run of a fixed number of walks).
type Unit struct {
	ID     int
	Board  int // index into Experiment.Boards
	Rule   int // index into Experiment.Rules
	Start  int // square
	Lo, Hi uint64
	Round  int
}

// Cell identifies a (board, rule, start square) of an experiment: the
// tally a unit adds to.
type Cell struct{ Board, Rule, Start int }

func (u Unit) Cell() Cell { return Cell{u.Board, u.Rule, u.Start} }

// Plan is the fixed list of units of an experiment, in the order board,
// rule, start, block. It is computed, not stored: a unit is found from its
// ID by arithmetic, so a plan's memory grows with boards × rules × starts,
// never with the number of walks. A sequential run's plan holds every
// unit up to its max; which of them run is decided round by round
// (sequential.go).
type Plan struct {
	Exp    *config.Experiment
	groups []groupPlan // per (board, rule), in plan order
	n      int         // units in all
}

// groupPlan is where one (board, rule)'s units lie in the plan: per start
// a run of `per` units, `walks` walks in all (Experiment.WalksFor: one for
// a deterministic rule), in segments: one for a fixed run, one per round
// for a sequential run.
type groupPlan struct {
	board, rule int
	first       int    // ID of the group's first unit
	per         int    // units per start
	walks       uint64 // walks per start
	segs        []segment
}

// segment is the walks [base, base+walks) of every start of a group, in
// units of block walks (the last one shorter), the start's units
// [first, first+per) counted from the start's first unit.
type segment struct {
	base, walks, block uint64
	first, per         int
}

// stepsPerUnit sizes units: about this many knight moves each, so a unit
// takes some tens of milliseconds on any board — long enough that
// scheduling costs nothing, short enough to balance 16 workers and to lose
// little work when a run is killed.
const stepsPerUnit = 1 << 23

// minUnitWalks keeps units on large boards from being a walk or two: each
// unit carries a tally whose histograms are O(squares), so a unit must do
// enough walks for that to be small beside the walking.
const minUnitWalks = 64

// maxUnits bounds a plan so that unit IDs and counts never overflow.
const maxUnits = 1 << 62

// blockSize returns the walks per unit on a board of n squares.
func blockSize(n int, walks uint64) uint64 {
	return max(1, min(walks, max(minUnitWalks, uint64(stepsPerUnit/max(n, 1)))))
}

// NewPlan lays out the units of s. It fails only for a plan of more than
// 2^62 units, which no machine could run.
func NewPlan(s *config.Experiment) (*Plan, error) {
	p := &Plan{Exp: s}
	for bi, b := range s.Boards {
		for ri := range s.Rules {
			walks := s.WalksFor(ri)
			g := groupPlan{board: bi, rule: ri, first: p.n, walks: walks}
			ends := []uint64{walks}
			if s.Sequential != nil && walks > 1 {
				ends = Schedule(uint64(s.Sequential.Min), walks)
			}
			var base uint64
			for _, end := range ends {
				block := blockSize(b.Squares(), end-base)
				per := (end - base + block - 1) / block
				g.segs = append(g.segs, segment{base: base, walks: end - base, block: block, first: g.per, per: int(per)})
				g.per += int(per)
				base = end
			}
			hi, count := bits.Mul64(uint64(g.per), uint64(len(s.Starts[bi])))
			if hi != 0 || count > maxUnits-uint64(p.n) {
				return nil, fmt.Errorf("%s: more than 2^62 work units: fewer walks, starts, rules or boards", s.Name)
			}
			p.groups = append(p.groups, g)
			p.n += int(count)
		}
	}
	return p, nil
}

// Len returns the number of units of the whole plan.
func (p *Plan) Len() int { return p.n }

// Unit returns the unit of the given ID, 0 <= id < Len().
func (p *Plan) Unit(id int) Unit {
	if id < 0 || id >= p.n {
		panic(fmt.Sprintf("runner: unit %d of a plan of %d", id, p.n))
	}
	gi := sort.Search(len(p.groups), func(i int) bool { return p.groups[i].first > id }) - 1
	g := p.groups[gi]
	r := id - g.first
	si, k := r/g.per, r%g.per
	round := sort.Search(len(g.segs), func(i int) bool { return g.segs[i].first > k }) - 1
	seg := g.segs[round]
	lo := seg.base + uint64(k-seg.first)*seg.block
	return Unit{ID: id, Board: g.board, Rule: g.rule, Start: p.Exp.Starts[g.board][si], Lo: lo, Hi: min(lo+seg.block, seg.base+seg.walks), Round: round}
}

// Rounds returns the number of rounds of the plan: the most segments of
// any group (1 for a run of a fixed number of walks).
func (p *Plan) Rounds() int {
	n := 1
	for _, g := range p.groups {
		n = max(n, len(g.segs))
	}
	return n
}

// RoundUnits returns, in plan order, the units of round r of the cells
// for which run says yes.
func (p *Plan) RoundUnits(r int, run func(Cell) bool) iter.Seq[Unit] {
	return func(yield func(Unit) bool) {
		for _, g := range p.groups {
			if r >= len(g.segs) {
				continue
			}
			seg := g.segs[r]
			for si, start := range p.Exp.Starts[g.board] {
				if !run(Cell{g.board, g.rule, start}) {
					continue
				}
				first := g.first + si*g.per + seg.first
				for id := first; id < first+seg.per; id++ {
					if !yield(p.Unit(id)) {
						return
					}
				}
			}
		}
	}
}

// RoundEnd returns the walks per start that (board, rule) has run once
// round r is done (its last round's end for a later r).
func (p *Plan) RoundEnd(board, rule, r int) uint64 {
	g := p.group(board, rule)
	seg := g.segs[min(r, len(g.segs)-1)]
	return seg.base + seg.walks
}

// Schedule returns the ends of the rounds of a sequential run from min to
// max walks per start: min, then each round half as large again as all
// before it (×1.5), the last one max. Growth by a constant factor keeps
// the rounds few (about 30 from 10^3 to 10^8) while a square stops at
// most half as far again past the walks that decided it.
func Schedule(min, max uint64) []uint64 {
	var ends []uint64
	for end := min; ; {
		if end >= max {
			return append(ends, max)
		}
		ends = append(ends, end)
		end += (end + 1) / 2
	}
}

// group returns the plan of (board, rule).
func (p *Plan) group(board, rule int) groupPlan { return p.groups[board*len(p.Exp.Rules)+rule] }

// Units returns the units of shard s in plan order.
func (p *Plan) Units(s Shard) iter.Seq[Unit] {
	return func(yield func(Unit) bool) {
		for id := s.K; id < p.n; id += s.N {
			if !yield(p.Unit(id)) {
				return
			}
		}
	}
}

// ShardLen returns the number of units of shard s.
func (p *Plan) ShardLen(s Shard) int { return s.below(p.n) }

// below returns how many IDs in [0, x) shard s holds.
func (s Shard) below(x int) int {
	if x <= s.K {
		return 0
	}
	return (x-s.K-1)/s.N + 1
}

// cellUnits returns the IDs [first, first+n) of the units of cell c, whose
// start is the si-th of its board.
func (p *Plan) cellUnits(board, rule, si int) (first, n int) {
	g := p.group(board, rule)
	return g.first + si*g.per, g.per
}

// cellWalks returns the walks of (board, rule, the si-th start of the
// board) that shard s runs.
func (p *Plan) cellWalks(s Shard, board, rule, si int) uint64 {
	first, n := p.cellUnits(board, rule, si)
	units := s.below(first+n) - s.below(first)
	if units == 0 {
		return 0
	}
	g := p.group(board, rule)
	if s.N == 1 {
		return g.walks
	}
	if len(g.segs) > 1 { // a sequential plan's blocks differ by round: count them
		var walks uint64
		for id := first + (s.K-first%s.N+s.N)%s.N; id < first+n; id += s.N {
			u := p.Unit(id)
			walks += u.Hi - u.Lo
		}
		return walks
	}
	seg := g.segs[0]
	walks := uint64(units) * seg.block
	if last := first + n - 1; last%s.N == s.K { // the cell's last unit may be short
		walks -= uint64(n)*seg.block - g.walks
	}
	return walks
}

// Walks returns the walks that shard s runs of board and rule (either may
// be -1: every board, every rule).
// It visits only the (board, rule)s asked for: a dry run asks of each of
// a design's 40,320 rules, and visiting every rule for each took seconds
// (quadratic in the rules), deaf to signals.
func (p *Plan) Walks(s Shard, board, rule int) uint64 {
	span := func(want, n int) (lo, hi int) {
		if want < 0 {
			return 0, n
		}
		return want, want + 1
	}
	b0, b1 := span(board, len(p.Exp.Boards))
	r0, r1 := span(rule, len(p.Exp.Rules))
	var total uint64
	for bi := b0; bi < b1; bi++ {
		for ri := r0; ri < r1; ri++ {
			for si := range p.Exp.Starts[bi] {
				total += p.cellWalks(s, bi, ri, si)
			}
		}
	}
	return total
}

// Shard is the K-th (0-based) of N slices of a plan's units.
type Shard struct{ K, N int }

// All is the whole plan as one shard.
var All = Shard{0, 1}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// holds reports whether unit id belongs to shard s: every N-th unit from
// the K-th, so each shard gets a similar mix of boards, rules and squares.
func (s Shard) holds(id int) bool { return id%s.N == s.K }

// ParseShard parses "K/N" with 0 <= K < N.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return Shard{}, fmt.Errorf("shard %q: want K/N with 0 <= K < N, e.g. 0/4", v)
	}
	return Shard{k, n}, nil
}

// BoardRuleUnits returns the units of board and rule that shard s runs.
func (p *Plan) BoardRuleUnits(s Shard, board, rule int) int {
	first, n := p.cellUnits(board, rule, 0)
	n *= len(p.Exp.Starts[board]) // a (board, rule)'s units are consecutive
	return s.below(first+n) - s.below(first)
}
