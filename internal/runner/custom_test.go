package runner

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// sum2 is a rule of your own for these tests: Warnsdorff's minimum degree,
// ties kept by the smallest sum of the degrees of the onward squares, the
// rest drawn.
type sum2 struct{ a, b []int }

func (d *sum2) Allowed(p *sim.Position, dst []int) []int {
	d.a = p.Moves(p.Current(), d.a[:0])
	best, bestSum, start := 9, 0, len(dst)
	for _, sq := range d.a {
		deg, sum := p.Degree(sq), 0
		d.b = p.Moves(sq, d.b[:0])
		for _, t := range d.b {
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

var registerSum2 = sync.OnceValue(func() error {
	if err := sim.Register(sim.CustomRule{Name: "runnertest/sum2", Doc: "Warnsdorff, ties by the smallest degree sum ahead",
		New: func(*sim.Board) sim.Policy { return &sum2{} }}); err != nil {
		return err
	}
	// the liar lies on walks from b2 only, which the first use's replay
	// (from the corners and the centre) does not take: the run meets it
	return sim.Register(sim.CustomRule{Name: "runnertest/liar", Doc: "says it is deterministic and is not", Deterministic: true,
		New: func(*sim.Board) sim.Policy {
			return sim.PolicyFunc(func(p *sim.Position, dst []int) []int {
				m := p.Moves(p.Current(), dst)
				if p.Start() != p.Board().Square(1, 1) && len(m) > 1 {
					m = m[:1]
				}
				return m
			})
		}})
})

const customYAML = `name: custom
seed: 3
boards: [7x7, 5x6]
walks: 800
exact: on
rules: [{name: runnertest/sum2}]
claims:
  - {id: c, rule: runnertest/sum2, board: 7x7, square: c1, above: 0.5}
`

// TestCustomRuleThroughRunner: a rule of your own runs through the whole
// runner: its rows name it, 1 and 2 workers and 3 merged shards give the
// same tables, its exact values come from enumerating its policy, and its
// Monte Carlo intervals cover them.
func TestCustomRuleThroughRunner(t *testing.T) {
	if err := registerSum2(); err != nil {
		t.Fatal(err)
	}
	s := specOf(t, customYAML)
	one, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "one"), 1, All, false)
	if err != nil {
		t.Fatal(err)
	}
	two, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "two"), 2, All, false)
	if err != nil {
		t.Fatal(err)
	}
	if !sameValues(one.Tables, two.Tables) {
		t.Fatal("1 and 2 workers differ")
	}
	merged, _ := mergedShards(t, s, 3)
	if !sameValues(merged, one.Tables) {
		t.Fatal("3 merged shards differ from one run")
	}
	// Exact values, and coverage by the 99.9 % Wilson-type band of each
	// square (a fixed seed: the count of misses is fixed too).
	covered, withExact := 0, 0
	for _, r := range one.Tables.Squares {
		if r.Rule != "runnertest/sum2" {
			t.Fatalf("square row names rule %q", r.Rule)
		}
		if math.IsNaN(r.ExactSuccess) {
			continue
		}
		withExact++
		p, n := r.ExactSuccess, float64(r.Walks)
		if math.Abs(float64(r.Successes)/n-p) <= 3.29*math.Sqrt(p*(1-p)/n)+1e-9 {
			covered++
		}
	}
	if withExact != 49+30 {
		t.Fatalf("%d squares with exact values, want 79", withExact)
	}
	if covered < withExact-1 {
		t.Errorf("%d of %d exact values inside their 99.9%% bands", covered, withExact)
	}
	if len(one.Tables.Claims) != 1 || one.Tables.Claims[0].Rule != "runnertest/sum2" {
		t.Errorf("claims: %+v", one.Tables.Claims)
	}
}

// TestCustomRuleErrorStopsRun: a policy that breaks its promise stops the
// run with an error naming the rule and the position, and writes nothing.
func TestCustomRuleErrorStopsRun(t *testing.T) {
	if err := registerSum2(); err != nil {
		t.Fatal(err)
	}
	c := specOf(t, "name: liar\nseed: 1\nboards: [6x6]\nwalks: 10\nexact: off\nrules: [{name: runnertest/liar}]\n")
	dir := filepath.Join(t.TempDir(), "out")
	_, err := runTo(t, context.Background(), c, dir, 2, All, false)
	var re *sim.RuleError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "runnertest/liar") || !strings.Contains(err.Error(), "deterministic") {
		t.Fatalf("err = %v", err)
	}
	for _, d := range []string{dir, dir + ".partial"} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s written: %v", d, err)
		}
	}
}
