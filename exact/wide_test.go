package exact

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// TestExactWordsAgree: the enumeration gives the same result, to the last
// bit, whichever words hold its visited sets, so the wider sets of boards
// beyond 128 squares follow the two-word path exactly (the sets differ
// only in how many words they have, and the reference order of a layer,
// by highest differing word, is the same in all of them).
func TestExactWordsAgree(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ board, rule, start string }{
		{"5x5", "random", "a1"},
		{"5x5", "random", "b2"},
		{"6x6", "warnsdorff/random", "b2"},
		{"6x6", "warnsdorff/pohl", "a1"},
		{"7x7", "warnsdorff/roth", "c3"},
		{"11x11", "warnsdorff/first", "a1"},
	} {
		b, _ := sim.ParseBoard(c.board)
		r, _ := sim.ParseRule(c.rule)
		s, _ := b.ParseSquare(c.start)
		want, err := exactWalkIn[words128](ctx, b, r, s, exactLimits{})
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]func(context.Context, *sim.Board, sim.Rule, int, exactLimits) (Result, error){
			"4 words":  exactWalkIn[words256],
			"8 words":  exactWalkIn[words512],
			"10 words": exactWalkIn[words640],
		} {
			got, err := f(ctx, b, r, s, exactLimits{})
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s from %s in %s: %v (err %v), want %v as in 2 words", c.board, c.rule, c.start, name, got.PSuccess, err, want.PSuccess)
			}
		}
		// with bounds forced and two threads too
		lim := exactLimits{budget: want.Nodes / 3, bounds: true, threads: 2}
		want, _ = exactWalkIn[words128](ctx, b, r, s, lim)
		if got, err := exactWalkIn[words640](ctx, b, r, s, lim); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s from %s, bounds: 10 words give [%v, %v], 2 words [%v, %v]", c.board, c.rule, c.start, got.PLower(), got.PUpper(), want.PLower(), want.PUpper())
		}
	}
}

// TestExactWideIsTheWalk: on boards beyond 128 squares (12x12: four words;
// 17x17: eight; 25x25: ten) a deterministic rule's enumeration is its one
// walk, which the walk kernels take independently: P(success) 0 or 1 as
// the walk succeeds, its length and dead end certain.
func TestExactWideIsTheWalk(t *testing.T) {
	ctx := context.Background()
	boards := []string{"12x12", "13x13", "17x17", "25x25"}
	for _, board := range boards {
		b, _ := sim.ParseBoard(board)
		for _, rule := range []string{"warnsdorff/first", "warnsdorff/roth+first"} {
			r, _ := sim.ParseRule(rule)
			w, err := sim.NewWalker(b, r)
			if err != nil {
				t.Fatal(err)
			}
			succ := 0
			for s := 0; s < b.Squares(); s += 1 + b.Squares()/40 {
				e, err := Walk(ctx, b, r, s, 0)
				if err != nil {
					t.Fatal(err)
				}
				o := w.Walk(s, 0, 0)
				if e.Lengths[o.Length] != 1 || e.PSuccess != b2f(o.Success) || e.PClosed != b2f(o.Closed) || e.Nodes != int64(o.Length) {
					t.Fatalf("%s %s from %s: exact P(success) %v, length %v; the walk: success %v, length %d", board, rule, b.SquareName(s), e.PSuccess, e.MeanLength, o.Success, o.Length)
				}
				if !o.Success && e.DeadEnds[o.End] != 1 {
					t.Fatalf("%s %s from %s: dead end %s not certain", board, rule, b.SquareName(s), b.SquareName(o.End))
				}
				succ += int(e.PSuccess)
			}
			t.Logf("%s %s: %d successes among the starts checked", board, rule, succ)
		}
	}
}

// TestExactWideTree: on boards beyond 128 squares, the enumeration equals
// a plain recursion over the walk's branch tree (no merging, the reference
// rules of refAllowed): every path length, every dead end, P(success) and
// the tree's nodes, for walks cut by max_steps (dead ends among them on
// the narrow 3x50).
func TestExactWideTree(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		board, rule, start string
		steps              int
	}{
		{"3x50", "warnsdorff/random", "a1", 24},
		{"3x50", "random", "b2", 12},
		{"12x12", "random", "f6", 4},
		{"12x12", "warnsdorff/random", "a1", 40},
		{"17x17", "warnsdorff/random", "b3", 40},
		{"25x25", "warnsdorff/pohl", "m13", 40},
	} {
		b, _ := sim.ParseBoard(c.board)
		r, _ := sim.ParseRule(c.rule)
		r.MaxSteps = c.steps
		s, _ := b.ParseSquare(c.start)
		x, err := Walk(ctx, b, r, s, 0)
		if err != nil {
			t.Fatal(err)
		}
		nbrs := make([][]int, b.Squares())
		for sq := range nbrs {
			nbrs[sq] = b.Neighbours(nil, sq)
		}
		lengths, deadEnds := make([]float64, b.Squares()+1), make([]float64, b.Squares())
		visited := make([]bool, b.Squares())
		nodes := 0.0
		var walk func(cur, moves int, p float64)
		walk = func(cur, moves int, p float64) {
			nodes++
			visited[cur] = true
			defer func() { visited[cur] = false }()
			var next []int
			if r.Kind == sim.RandomWalk {
				for _, n := range nbrs[cur] {
					if !visited[n] {
						next = append(next, n)
					}
				}
			} else {
				next = refAllowed(b, r, nbrs, visited, cur)
			}
			switch {
			case len(next) == 0 && moves+1 < b.Squares():
				deadEnds[cur] += p
			case len(next) == 0 || moves == c.steps:
			default:
				for _, n := range next {
					walk(n, moves+1, p/float64(len(next)))
				}
				return
			}
			lengths[moves+1] += p
		}
		walk(s, 0, 1)
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(a, b) } // sums of millions of terms in different orders
		for l := range lengths {
			if !near(x.Lengths[l], lengths[l]) {
				t.Errorf("%s %s from %s: P(length %d) %.17g, the branch tree %.17g", c.board, c.rule, c.start, l, x.Lengths[l], lengths[l])
			}
		}
		for sq := range deadEnds {
			if !near(x.DeadEnds[sq], deadEnds[sq]) {
				t.Errorf("%s %s from %s: P(dead end %s) %.17g, the branch tree %.17g", c.board, c.rule, c.start, b.SquareName(sq), x.DeadEnds[sq], deadEnds[sq])
			}
		}
		if x.TreeNodes != nodes || !near(x.PSuccess, lengths[b.Squares()]) {
			t.Errorf("%s %s from %s: %v tree nodes, P(success) %v; the branch tree %v, %v", c.board, c.rule, c.start, x.TreeNodes, x.PSuccess, nodes, lengths[b.Squares()])
		}
		if nodes <= float64(c.steps+1) {
			t.Errorf("%s %s from %s: %v tree nodes, %d states: the check needs walks that split", c.board, c.rule, c.start, nodes, x.Nodes)
		}
		t.Logf("%s %s from %s, %d moves: %v tree nodes, %d states, P(success) %.6f, P(stopped) %.6f", c.board, c.rule, c.start, c.steps, nodes, x.Nodes, x.PSuccess, x.PStopped)
	}
}

// TestExactWideBounds: on 12x12 and 25x25 from a1, Warnsdorff's rule with
// random ties under a small budget gives certified bounds that account for
// every walk, stay within the budget, and overlap the 99.9 % interval of
// sampled walks of the kernels (the exact value is not known there; the
// sample is the independent check; on 25x25 such a budget leaves bounds
// too wide for it, and the accounting is what is checked).
func TestExactWideBounds(t *testing.T) {
	ctx := context.Background()
	r, _ := sim.ParseRule("warnsdorff/random")
	cases := []struct {
		board  string
		budget int64
		walks  int
	}{{"12x12", 1_000_000, 4000}, {"25x25", 100_000, 1000}}
	if testenv.Slow() {
		cases = append(cases, struct {
			board  string
			budget int64
			walks  int
		}{"12x12", 30_000_000, 20000}) // 20 CPU-seconds
	}
	for _, c := range cases {
		b, _ := sim.ParseBoard(c.board)
		x, err := Bounds(ctx, b, r, 0, c.budget)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := x.PLower(), x.PUpper()
		total := x.Unresolved
		for _, p := range x.Lengths {
			total += p
		}
		if x.Nodes > c.budget || !(0 <= lo && lo <= hi && hi <= 1) || math.Abs(total-1) > 1e-9 { // the rounding of millions of sums
			t.Errorf("%s a1, budget %d: bounds [%v, %v], %d states, lengths and unresolved sum to %.17g", c.board, c.budget, lo, hi, x.Nodes, total)
		}
		w, _ := sim.NewWalker(b, r)
		key := sim.NewKey(38, b, r, 0)
		k := 0
		for i := range c.walks {
			if w.Walk(0, key, uint64(i)).Success {
				k++
			}
		}
		slo, shi := wilson(k, c.walks, 3.29)
		if shi < lo-boundsTol || slo > hi+boundsTol {
			t.Errorf("%s a1: certified [%.6f, %.6f] misses the sampled 99.9 %% interval [%.6f, %.6f] (%d of %d)", c.board, lo, hi, slo, shi, k, c.walks)
		}
		t.Logf("%s a1, budget %d: [%.6f, %.6f], %d dropped; sampled %d/%d", c.board, c.budget, lo, hi, x.Dropped, k, c.walks)
	}
}

// TestExactStateBytes: a state costs more as its visited set takes more
// words, and the memory estimate of a wide board uses its own size.
func TestExactStateBytes(t *testing.T) {
	prev := int64(0)
	for _, n := range []int{64, 128, 129, 256, 257, 512, 513, 625} {
		got := exactStateBytes(n)
		if got < prev {
			t.Errorf("%d squares: %d bytes a state, fewer than %d", n, got, prev)
		}
		prev = got
	}
	if a, b := exactStateBytes(128), exactStateBytes(129); a >= b {
		t.Errorf("128 squares %d bytes, 129 %d: want more words to cost more", a, b)
	}
	r, _ := sim.ParseRule("warnsdorff/random")
	est, err := estimateExactStates(context.Background(), sim.MustBoard(12, 12), r, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(stateBytes[words256]())*est.States + int64(stateBytes[words256]()+indexEntryBytes[words256]())*est.NextStates; est.Bytes() != want {
		t.Errorf("12x12 estimate: %d bytes, want %d (four-word states)", est.Bytes(), want)
	}
}
