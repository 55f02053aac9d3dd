package rare

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

func mustRule(t testing.TB, name string) sim.Rule {
	t.Helper()
	r, err := sim.ParseRule(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// exactTail is the exact P(path length ≥ target) of r from start on b.
func exactTail(t testing.TB, b *sim.Board, r sim.Rule, start, target int) float64 {
	t.Helper()
	x, err := exact.Walk(context.Background(), b, r, start, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := 0.0
	for l := target; l < len(x.Lengths); l++ {
		p += x.Lengths[l]
	}
	return p
}

func estimate(t testing.TB, o Options) Result {
	t.Helper()
	res, err := Estimate(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestExact: splitting agrees with the exact engine, within four standard
// errors that are themselves small, for the random walk (the 5×5 value the
// issue quotes), randomised Warnsdorff tie-breaks, intermediate targets
// and step limits.
func TestExact(t *testing.T) {
	b5, b6, b8 := sim.MustBoard(5, 5), sim.MustBoard(6, 6), sim.MustBoard(8, 8)
	if p := exactTail(t, b5, mustRule(t, "random"), 0, 25); math.Abs(p-0.002214199177) > 1e-12 {
		t.Fatalf("exact 5x5 random from a1: %.12f, want 0.002214199177", p)
	}
	cases := []struct {
		b             *sim.Board
		rule          string
		maxSteps      int
		start, target int
		maxRel        float64 // the relative standard error it must reach
	}{
		{b5, "random", 0, 0, 0, 0.3},
		{b5, "random", 0, 12, 0, 0.6},
		{sim.MustBoard(4, 5), "random", 0, 0, 0, 0.3},
		{sim.MustBoard(3, 7), "random", 0, 0, 0, 0.3},
		{b8, "warnsdorff/random", 0, 0, 0, 0.01},
		{b5, "random", 22, 0, 23, 0.2},
		{b5, "random", 18, 12, 19, 0.05},
		{b6, "random", 10, 8, 9, 0.05},
		{sim.MustBoard(7, 7), "random", 8, 24, 9, 0.05},
	}
	for _, c := range cases {
		r := mustRule(t, c.rule)
		r.MaxSteps = c.maxSteps
		target := c.target
		if target == 0 {
			target = c.b.Squares()
		}
		want := exactTail(t, c.b, r, c.start, target)
		res := estimate(t, Options{Board: c.b, Rule: r, Start: c.start, Seed: 11, Target: c.target, Particles: 400, Replicates: 20})
		t.Logf("%s %s max_steps %d start %d target %d: %.6g ± %.2g (rel %.3f), exact %.6g, levels %v", c.b, r, c.maxSteps, c.start, target, res.Estimate, res.StdErr, res.RelStdErr, want, res.Levels)
		if math.Abs(res.Estimate-want) > 4*res.StdErr || res.RelStdErr > c.maxRel {
			t.Errorf("%s %s max_steps %d start %d target %d: splitting %.6g ± %.2g (rel %.3f, want ≤ %.2f), exact %.6g",
				c.b, r, c.maxSteps, c.start, target, res.Estimate, res.StdErr, res.RelStdErr, c.maxRel, want)
		}
	}
}

// TestUnbiased: with three segments a stage, where a biased allocation or
// product would show, the mean of many replicates still converges to the
// exact value; so does a plain estimate (one level, the target).
func TestUnbiased(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r := mustRule(t, "random")
	want := exactTail(t, b, r, 0, 25)
	reps := 30000
	if testenv.Slow() {
		reps = 300000
	}
	for _, levels := range [][]int{{8, 14, 18, 21, 23}, {20}} {
		res := estimate(t, Options{Board: b, Rule: r, Seed: 5, Levels: levels, Particles: 3, Replicates: reps, Workers: 1})
		t.Logf("levels %v: %.6g ± %.2g, exact %.6g", res.Levels, res.Estimate, res.StdErr, want)
		if math.Abs(res.Estimate-want) > 4*res.StdErr {
			t.Errorf("levels %v, 3 particles, %d replicates: mean %.6g ± %.2g, exact %.6g", res.Levels, reps, res.Estimate, res.StdErr, want)
		}
	}
}

// TestWorkers: the estimate does not depend on the number of workers.
func TestWorkers(t *testing.T) {
	b := sim.MustBoard(12, 12)
	o := Options{Board: b, Rule: mustRule(t, "warnsdorff/random"), Start: 0, Seed: 3, Particles: 50, Replicates: 3}
	var first Result
	for i, w := range []int{1, 2, 5} {
		o.Workers = w
		res := estimate(t, o)
		if i == 0 {
			first = res
			continue
		}
		if !reflect.DeepEqual(res, first) {
			t.Errorf("%d workers: %+v\n1 worker: %+v", w, res, first)
		}
	}
	o.Seed = 4
	if res := estimate(t, o); reflect.DeepEqual(res.Replicates, first.Replicates) {
		t.Error("seeds 3 and 4 give the same replicates")
	}
}

// TestAllocate: residual resampling gives each state ⌊n/m⌋ or ⌈n/m⌉
// segments, n in all, and the leftovers to distinct states.
func TestAllocate(t *testing.T) {
	key := sim.Key(42)
	for _, mn := range [][2]int{{1, 7}, {3, 7}, {7, 3}, {5, 5}, {10, 1}} {
		m, n := mn[0], mn[1]
		seen := map[string]bool{}
		for i := range uint64(50) {
			a := allocate(m, n, key.Stream(i))
			counts := make([]int, m)
			for _, p := range a {
				counts[p]++
			}
			for s, c := range counts {
				if c != n/m && c != n/m+1 {
					t.Fatalf("m %d n %d: state %d has %d segments (alloc %v)", m, n, s, c, a)
				}
			}
			if len(a) != n {
				t.Fatalf("m %d n %d: %d segments", m, n, len(a))
			}
			seen[fmt.Sprint(a)] = true
		}
		if n%m != 0 && len(seen) < 2 {
			t.Errorf("m %d n %d: the leftovers always go to the same states", m, n)
		}
	}
}

// TestRefuses: options that cannot give an estimate are refused with what
// would be valid.
func TestRefuses(t *testing.T) {
	b := sim.MustBoard(6, 6)
	ok := Options{Board: b, Rule: mustRule(t, "random"), Particles: 10, Replicates: 2}
	for _, c := range []struct {
		mod  func(o *Options)
		want string
	}{
		{func(o *Options) { o.Rule = mustRule(t, "warnsdorff/first") }, "never draws"},
		{func(o *Options) { o.Rule = mustRule(t, "backtrack") }, "backtrack"},
		{func(o *Options) { o.Replicates = 1 }, "at least 2"},
		{func(o *Options) { o.Particles = 0 }, "particles 0"},
		{func(o *Options) { o.Target = 37 }, "2..36"},
		{func(o *Options) { o.Rule.MaxSteps = 10 }, "max_steps 10"},
		{func(o *Options) { o.Levels = []int{5, 5} }, "strictly increasing"},
		{func(o *Options) { o.Levels = []int{36} }, "below the target"},
		{func(o *Options) { o.Start = 36 }, "off the"},
		{func(o *Options) { o.Confidence = 1 }, "confidence"},
		{func(o *Options) { o.LevelFraction = 1.5 }, "level fraction"},
	} {
		o := ok
		c.mod(&o)
		if _, err := Estimate(context.Background(), o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want one saying %q", err, c.want)
		}
	}
}
