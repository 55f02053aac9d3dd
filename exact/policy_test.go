package exact

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// Rules of your own: the enumeration asks them through sim.Choices (sim's
// tests hold Choices and the guard behind it to the walks' answers).

func registerOnce(t testing.TB, c sim.CustomRule) {
	t.Helper()
	if slices.Contains(sim.CustomRules(), c.Name) {
		return
	}
	if err := sim.Register(c); err != nil {
		t.Fatal(err)
	}
}

// degreeSum2 is the example rule of docs/rules.md (as sim's tests have
// it): Warnsdorff's minimum degree, ties kept by the smallest sum of
// degrees two moves ahead, the rest drawn.
type degreeSum2 struct{ buf, buf2 []int }

func (d *degreeSum2) Allowed(p *sim.Position, dst []int) []int {
	d.buf = p.Moves(p.Current(), d.buf[:0])
	best, bestSum := 9, 0
	start := len(dst)
	for _, sq := range d.buf {
		deg := p.Degree(sq)
		sum := 0
		d.buf2 = p.Moves(sq, d.buf2[:0])
		for _, t := range d.buf2 {
			sum += p.Degree(t)
		}
		switch {
		case deg < best || deg == best && sum < bestSum:
			best, bestSum = deg, sum
			dst = append(dst[:start], sq)
		case deg == best && sum == bestSum:
			dst = append(dst, sq)
		}
	}
	return dst
}

// TestExactCustomRule: a rule of your own is enumerated through its policy:
// degreeSum2 from c1 of 7x7 succeeds with probability 61/72 (which sim's
// TestCustomRuleWalks holds its walks to), the distributions add up, and
// the states merge as the built-ins' do.
func TestExactCustomRule(t *testing.T) {
	registerOnce(t, sim.CustomRule{Name: "test/degree-sum2", New: func(*sim.Board) sim.Policy { return &degreeSum2{} }})
	r, err := sim.ParseRule("test/degree-sum2")
	if err != nil {
		t.Fatal(err)
	}
	b := sim.MustBoard(7, 7)
	x, err := Walk(context.Background(), b, r, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(x.PSuccess-61.0/72) > 1e-15 {
		t.Errorf("7x7 c1: P(success) %.17g, want 61/72", x.PSuccess)
	}
	checkExactConsistent(t, x, b.Squares())
	if float64(x.Nodes) >= x.TreeNodes {
		t.Errorf("%d states for %v tree nodes: no walks merged", x.Nodes, x.TreeNodes)
	}
}

// TestExactRuleErrors: a rule of your own whose code panics (at the first
// use or deep in its walks), answers what no walk may take, or keeps state
// along its walk stops the enumeration with an error naming the rule:
// a *sim.RuleError, or for the state the refusal to merge.
func TestExactRuleErrors(t *testing.T) {
	moves := func(p *sim.Position, dst []int) []int { return p.Moves(p.Current(), dst) }
	registerOnce(t, sim.CustomRule{Name: "exact/panic-deep", New: func(*sim.Board) sim.Policy {
		return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
			if p.VisitedCount() == 20 {
				var m map[int]int
				m[1] = 1 // a runtime error, as a real bug would be
			}
			return moves(p, dst)
		})
	}})
	registerOnce(t, sim.CustomRule{Name: "exact/visited", New: func(*sim.Board) sim.Policy {
		return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
			if p.VisitedCount() > 2 {
				return append(dst, p.Start()) // not a neighbour, or visited
			}
			return moves(p, dst)
		})
	}})
	registerOnce(t, sim.CustomRule{Name: "exact/nil", New: func(*sim.Board) sim.Policy { return nil }})
	b := sim.MustBoard(5, 5)
	for name, want := range map[string]string{
		"exact/panic-deep": "rule exact/panic-deep: panicked in its Allowed: assignment to entry in nil map (5x5 board, on ",
		"exact/visited":    "rule exact/visited: ",
		"exact/nil":        "rule exact/nil: New returned a nil policy (5x5 board)",
	} {
		r, err := sim.ParseRule(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Walk(context.Background(), b, r, 0, 0)
		var re *sim.RuleError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant a *sim.RuleError saying %q", name, err, want)
		}
	}
	r, _ := sim.ParseRule("squirrel-cull")
	if _, err := Walk(context.Background(), sim.MustBoard(6, 6), r, 0, 0); err == nil || !strings.Contains(err.Error(), "keeps state along its walk, so walks that reach the same squares cannot be merged") {
		t.Errorf("squirrel-cull: %v, want the refusal of a rule that keeps state", err)
	}
}

// TestExactThroughPolicy: the exact enumeration of a rule of your own
// that is a built-in's policy equals the built-in's own enumeration.
func TestExactThroughPolicy(t *testing.T) {
	for _, name := range []string{"random", "warnsdorff/random", "warnsdorff/roth+first", "warnsdorff/pohl", "warnsdorff/corner+random", "warnsdorff/edge+roth+first", "warnsdorff/lookahead2+random", "warnsdorff/lookahead4+first"} {
		builtin, _ := sim.ParseRule(name)
		cname := "test/as-policy-" + strings.ReplaceAll(name, "/", "-")
		registerOnce(t, sim.CustomRule{Name: cname, New: func(b *sim.Board) sim.Policy {
			p, err := builtin.Policy(b)
			if err != nil {
				panic(err)
			}
			return p
		}})
		custom, _ := sim.ParseRule(cname)
		boards := [][2]int{{3, 4}, {5, 5}, {6, 6}}
		if name == "random" {
			boards = [][2]int{{3, 4}, {4, 4}} // the random walk's states grow fast
		}
		for _, bs := range boards {
			b := sim.MustBoard(bs[0], bs[1])
			for _, start := range []int{0, b.Cols + 1} {
				a, err1 := Walk(context.Background(), b, builtin, start, 0)
				c, err2 := Walk(context.Background(), b, custom, start, 0)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if a.PSuccess != c.PSuccess || a.PClosed != c.PClosed || a.MeanLength != c.MeanLength || a.MeanTies != c.MeanTies || !slices.Equal(a.Lengths, c.Lengths) || a.Nodes != c.Nodes {
					t.Errorf("%s %s from %s: built-in %+v\nthrough its policy %+v", b, name, b.SquareName(start), a, c)
				}
			}
		}
	}
}
