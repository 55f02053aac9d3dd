// Package badrules registers rules of your own that misbehave, each in one
// way, through sim's public rule interface: the audit corpus
// (../cases.txt, lines starting BAD) runs the experiment command with them
// to check that no rule can crash, hang or fool it. Every rule is named
// bad/WHAT.
package badrules

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// moves is the honest answer: every unvisited knight neighbour.
func moves(p *sim.Position, dst []int) []int { return p.Moves(p.Current(), dst) }

// Rules are the misbehaving rules, by name.
var Rules = []sim.CustomRule{
	{Name: "bad/twice", Doc: "answers its first square twice", New: policy(func(p *sim.Position, dst []int) []int {
		start := len(dst)
		dst = moves(p, dst)
		if len(dst) > start {
			dst = append(dst, dst[start])
		}
		return dst
	})},
	{Name: "bad/off-board", Doc: "answers a square off the board", New: policy(func(p *sim.Position, dst []int) []int {
		return append(moves(p, dst), p.Board().Squares())
	})},
	{Name: "bad/not-knight", Doc: "answers a square that is not a knight's move away", New: policy(func(p *sim.Position, dst []int) []int {
		return append(dst, (p.Current()+1)%p.Board().Squares())
	})},
	{Name: "bad/visited", Doc: "answers every knight neighbour, visited or not", New: policy(func(p *sim.Position, dst []int) []int {
		for _, m := range sim.CanonicalMoves {
			if sq := p.MoveTo(p.Current(), m); sq >= 0 {
				dst = append(dst, sq)
			}
		}
		return dst
	})},
	{Name: "bad/panic", Doc: "panics on its third square", New: policy(func(p *sim.Position, dst []int) []int {
		if p.VisitedCount() == 3 {
			panic("bad/panic: this rule panics on purpose")
		}
		return moves(p, dst)
	})},
	{Name: "bad/nil", Doc: "New returns nil", New: func(*sim.Board) sim.Policy { return nil }},
	{Name: "bad/new-panics", Doc: "New panics", New: func(*sim.Board) sim.Policy { panic("bad/new-panics: New panics on purpose") }},
	{Name: "bad/sleep", Doc: "never returns from its second call", New: func(*sim.Board) sim.Policy {
		calls := 0
		return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
			if calls++; calls == 2 {
				for {
					time.Sleep(time.Hour)
				}
			}
			return moves(p, dst)
		})
	}},
	{Name: "bad/sleep-late", Doc: "answers as the random walk, and never returns from a policy's call number KNIGHTWALK_BAD_SLEEP (default 3000; 0: never)", New: func(*sim.Board) sim.Policy {
		calls, at := 0, 3000
		if v := os.Getenv("KNIGHTWALK_BAD_SLEEP"); v != "" {
			at, _ = strconv.Atoi(v)
		}
		return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
			if calls++; calls == at {
				for {
					time.Sleep(time.Hour)
				}
			}
			return moves(p, dst)
		})
	}},
	{Name: "bad/stateful-random", Doc: "keeps state along its walk and allows every square (the walk draws)", New: func(*sim.Board) sim.Policy { return &statefulAll{} }},
	{Name: "bad/rand", Doc: "registered deterministic, draws one square itself", Deterministic: true, New: policy(func(p *sim.Position, dst []int) []int {
		start := len(dst)
		dst = moves(p, dst)
		if n := len(dst) - start; n > 1 {
			dst = append(dst[:start], dst[start+rand.IntN(n)])
		}
		return dst
	})},
	{Name: "bad/lanes-visited", Doc: "answers as the random walk, but in lanes (sim.LanePolicy) allows visited squares on walks from c3 (a start the replay does not walk)", New: func(*sim.Board) sim.Policy {
		return lanes{func(l *sim.Lanes, j int) uint64 { return l.Neighbours(l.Cur[j]) }}
	}},
	{Name: "bad/lanes-sleep", Doc: "answers as the random walk, but in lanes (sim.LanePolicy) never returns on walks from c3", New: func(*sim.Board) sim.Policy {
		return lanes{func(l *sim.Lanes, j int) uint64 {
			for {
				time.Sleep(time.Hour)
			}
		}}
	}},
	{Name: "bad/lanes-disagree", Doc: "allows its first square in Allowed and every free square in lanes (sim.LanePolicy)", New: func(*sim.Board) sim.Policy { return disagree{} }},
	{Name: "bad/hidden-state", Doc: "counts its calls, across walks too, and answers by the count's parity", New: func(*sim.Board) sim.Policy {
		calls := 0
		return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
			calls++
			start := len(dst)
			dst = moves(p, dst)
			if n := len(dst) - start; n > 1 {
				pick := dst[start]
				if calls%2 == 1 {
					pick = dst[len(dst)-1]
				}
				dst = append(dst[:start], pick)
			}
			return dst
		})
	}},
	{Name: "bad/lanes-drift", Doc: "Warnsdorff's rule in both forms (sim.LanePolicy), but its AllowedLanes allows every free square from its 11th call on", New: func(*sim.Board) sim.Policy { return &drift{} }},
	{Name: "bad/lanes-rare", Doc: "Warnsdorff's rule in both forms (sim.LanePolicy), but in lanes on e5 after exactly 45 squares it allows every free square", New: func(*sim.Board) sim.Policy { return rare{} }},
	{Name: "bad/global-counter", Doc: "the random walk, but once a counter shared by all its policies passes 5000 calls, every third call allows only its first square", New: policy(func(p *sim.Position, dst []int) []int {
		start := len(dst)
		dst = moves(p, dst)
		if n := globalCalls.Add(1); n > 5000 && n%3 == 0 && len(dst) > start+1 {
			dst = dst[:start+1]
		}
		return dst
	})},
}

// globalCalls is bad/global-counter's count of calls, shared by every
// policy (and walk, and worker) of the process.
var globalCalls atomic.Int64

// warnsdorff allows the unvisited neighbours of least degree.
func warnsdorff(p *sim.Position, dst []int) []int {
	best, n := 9, len(dst)
	for _, sq := range p.Moves(p.Current(), nil) {
		if d := p.Degree(sq); d < best {
			best, dst = d, append(dst[:n], sq)
		} else if d == best {
			dst = append(dst, sq)
		}
	}
	return dst
}

// drift is Warnsdorff's rule whose lanes form turns into the random walk
// after 10 calls: past the replay at the rule's first use (a call per 16
// positions of its few walks), deep in the run.
type drift struct{ calls int }

func (*drift) Allowed(p *sim.Position, dst []int) []int { return warnsdorff(p, dst) }

func (d *drift) AllowedLanes(l *sim.Lanes) {
	if d.calls++; d.calls > 10 {
		l.Allowed = l.Free
		return
	}
	l.MinDegrees(&l.Allowed, &l.Free)
}

// rare is Warnsdorff's rule whose lanes form disagrees only on e5 (square
// 36 of 8x8) after exactly 45 squares: about 1 walk from a1 in 23, which
// the replay at the rule's first use (3 walks) does not meet.
type rare struct{}

func (rare) Allowed(p *sim.Position, dst []int) []int { return warnsdorff(p, dst) }

func (rare) AllowedLanes(l *sim.Lanes) {
	l.MinDegrees(&l.Allowed, &l.Free)
	for j := range sim.LaneCount {
		if l.Cur[j] == 36 && bits.OnesCount64(l.Visited[j]) == 45 {
			l.Allowed[j] = l.Free[j]
		}
	}
}

func policy(f func(p *sim.Position, dst []int) []int) func(*sim.Board) sim.Policy {
	return func(*sim.Board) sim.Policy { return sim.PolicyFunc(f) }
}

// statefulAll says it keeps state along its walk (sim.Stateful) and allows
// every unvisited neighbour, leaving the choice to the walk's draw.
type statefulAll struct{ steps int }

func (s *statefulAll) Allowed(p *sim.Position, dst []int) []int { return moves(p, dst) }
func (s *statefulAll) Begin(*sim.Position)                      { s.steps = 0 }
func (s *statefulAll) Moved(*sim.Position, int)                 { s.steps++ }

// lanes is the random walk in both forms, except that in lanes on walks
// from c3 (square 14 of 6x6) it answers bad(l, j).
type lanes struct {
	bad func(l *sim.Lanes, j int) uint64
}

func (lanes) Allowed(p *sim.Position, dst []int) []int { return moves(p, dst) }

func (r lanes) AllowedLanes(l *sim.Lanes) {
	for j := range sim.LaneCount {
		l.Allowed[j] = l.Free[j]
		if l.Start() == 14 && l.Board().Cols == 6 {
			l.Allowed[j] = r.bad(l, j)
		}
	}
}

// disagree allows its first square in Allowed, every free square in lanes.
type disagree struct{}

func (disagree) Allowed(p *sim.Position, dst []int) []int {
	start := len(dst)
	if dst = moves(p, dst); len(dst) > start+1 {
		dst = dst[:start+1]
	}
	return dst
}

func (disagree) AllowedLanes(l *sim.Lanes) { l.Allowed = l.Free }

// Register registers every rule of Rules.
func Register() error {
	for _, r := range Rules {
		if err := sim.Register(r); err != nil {
			return err
		}
	}
	return nil
}
