// Package runner plans an experiment as work units, runs them over a pool
// of workers, and collects exact per-(board, rule, start square) tallies.
// Units, shards and resume all cut the same fixed list of units, and
// tallies are integer sums, so every way of running an experiment gives the
// same tallies.
package runner

import (
	"fmt"
	"strconv"
	"strings"

	"knightwalk/internal/config"
)

// Unit is one block of walk indices [Lo, Hi) of one (board, rule, start).
type Unit struct {
	ID     int
	Board  int // index into Experiment.Boards
	Rule   int // index into Experiment.Rules
	Start  int // square
	Lo, Hi uint64
}

// Cell identifies a (board, rule, start square) of an experiment: the
// tally a unit adds to.
type Cell struct{ Board, Rule, Start int }

func (u Unit) Cell() Cell { return Cell{u.Board, u.Rule, u.Start} }

// Plan is the fixed list of units of a spec.
type Plan struct {
	Exp   *config.Experiment
	Units []Unit
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

// blockSize returns the walks per unit on a board of n squares.
func blockSize(n int, walks uint64) uint64 {
	return max(1, min(walks, max(minUnitWalks, uint64(stepsPerUnit/max(n, 1)))))
}

// NewPlan lists the units of e in a fixed order: board, rule, start, block.
func NewPlan(s *config.Experiment) *Plan {
	p := &Plan{Exp: s}
	for bi, b := range s.Boards {
		block := blockSize(b.Squares(), s.Walks)
		for ri := range s.Rules {
			for _, start := range s.Starts[bi] {
				for lo := uint64(0); lo < s.Walks; lo += block {
					p.Units = append(p.Units, Unit{ID: len(p.Units), Board: bi, Rule: ri, Start: start, Lo: lo, Hi: min(lo+block, s.Walks)})
				}
			}
		}
	}
	return p
}

// TotalWalks returns the walks in units.
func TotalWalks(units []Unit) uint64 {
	var n uint64
	for _, u := range units {
		n += u.Hi - u.Lo
	}
	return n
}

// Shard is the K-th (0-based) of N slices of a plan's units.
type Shard struct{ K, N int }

// All is the whole plan as one shard.
var All = Shard{0, 1}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

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

// Units returns the units of shard s: every N-th unit from the K-th, so
// each shard gets a similar mix of boards, rules and squares.
func (p *Plan) ShardUnits(s Shard) []Unit {
	var out []Unit
	for _, u := range p.Units {
		if u.ID%s.N == s.K {
			out = append(out, u)
		}
	}
	return out
}
