package exact

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

func exactOf(t *testing.T, board, rule, start string, maxSteps int) Result {
	t.Helper()
	b, err := sim.ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule(rule)
	if err != nil {
		t.Fatal(err)
	}
	r.MaxSteps = maxSteps
	s, err := b.ParseSquare(start)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Walk(context.Background(), b, r, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestExactWarnsdorff5x5 checks the values stated in issue 2: P(success) is
// 1 from a corner and the centre, 0.75 from b2.
func TestExactWarnsdorff5x5(t *testing.T) {
	for sq, want := range map[string]float64{"a1": 1, "e5": 1, "c3": 1, "b2": 0.75, "d4": 0.75} {
		e := exactOf(t, "5x5", "warnsdorff/random", sq, 0)
		if e.PSuccess != want {
			t.Errorf("5x5 warnsdorff/random from %s: P(success) = %.17g, want %g", sq, e.PSuccess, want)
		}
	}
	// The other colour has no open tour on 5x5: every walk fails.
	if e := exactOf(t, "5x5", "warnsdorff/random", "b1", 0); e.PSuccess != 0 {
		t.Errorf("5x5 from b1: P(success) = %g, want 0", e.PSuccess)
	}
}

// TestExactRandom5x5 checks the random rule from a corner of 5x5 against
// issue 2's values (P(success) ≈ 0.0022142, E[length] ≈ 15.3534) and the
// internal consistency of the distributions.
func TestExactRandom5x5(t *testing.T) {
	e := exactOf(t, "5x5", "random", "a1", 0)
	if math.Abs(e.PSuccess-0.0022142) > 5e-8 || math.Abs(e.MeanLength-15.3534) > 5e-5 {
		t.Errorf("5x5 random from a1: P(success) %.10g, E[length] %.10g; want 0.0022142, 15.3534", e.PSuccess, e.MeanLength)
	}
	checkExactConsistent(t, e, 25)
	if e.PClosed != 0 {
		t.Errorf("5x5 has no closed tour, got P(closed) %g", e.PClosed)
	}
}

func checkExactConsistent(t *testing.T, e Result, n int) {
	t.Helper()
	var sumL, mean, sumD float64
	for l, p := range e.Lengths {
		sumL += p
		mean += p * float64(l)
	}
	for _, p := range e.DeadEnds {
		sumD += p
	}
	if math.Abs(sumL-1) > 1e-12 || math.Abs(mean-e.MeanLength) > 1e-9 || math.Abs(e.Lengths[n]-e.PSuccess) > 1e-15 {
		t.Errorf("length distribution sums to %.15g, mean %.15g vs %.15g, P(L=n) %g vs %g", sumL, mean, e.MeanLength, e.Lengths[n], e.PSuccess)
	}
	if math.Abs(sumD+e.PSuccess+e.PStopped-1) > 1e-12 {
		t.Errorf("dead ends %.15g + success %.15g + stopped %.15g != 1", sumD, e.PSuccess, e.PStopped)
	}
}

// TestExactFirstIsOneWalk: the first tie-break never branches, so the exact
// result is the single walk the kernel takes, with probability 1.
func TestExactFirstIsOneWalk(t *testing.T) {
	for _, board := range []string{"5x5", "6x6", "8x8", "7x9"} {
		b, _ := sim.ParseBoard(board)
		r, _ := sim.ParseRule("warnsdorff/first")
		w, _ := sim.NewWalker(b, r)
		for s := 0; s < b.Squares(); s++ {
			e, err := Walk(context.Background(), b, r, s, 0)
			if err != nil {
				t.Fatal(err)
			}
			o := w.Walk(s, 0, 0)
			if e.Lengths[o.Length] != 1 || e.PSuccess != b2f(o.Success) || e.PClosed != b2f(o.Closed) || e.MeanTies != float64(o.Ties) {
				t.Fatalf("%s from %s: exact %+v, walk %+v", board, b.SquareName(s), e, o)
			}
			if !o.Success && e.DeadEnds[o.End] != 1 {
				t.Fatalf("%s from %s: dead end %s not certain", board, b.SquareName(s), b.SquareName(o.End))
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestExactMaxSteps: with max_steps k the walk stops after k moves, and the
// enumeration is cut at that depth.
func TestExactMaxSteps(t *testing.T) {
	e := exactOf(t, "8x8", "random", "a1", 3)
	if e.Lengths[4] != e.PStopped || math.Abs(e.PStopped-1) > 1e-14 {
		t.Errorf("8x8 random a1 with 3 steps: P(stopped) %g, P(L=4) %g; want both 1 (no dead end within 3 moves of a1)", e.PStopped, e.Lengths[4])
	}
	checkExactConsistent(t, e, 64)
}

func TestExactErrors(t *testing.T) {
	ctx := context.Background()
	r, _ := sim.ParseRule("random")
	if _, err := Walk(ctx, sim.MustBoard(26, 26), r, 0, 0); err == nil || !strings.Contains(err.Error(), "has 676 squares; exact enumeration handles at most 640") {
		t.Errorf("26x26: got %v, want a board-size error naming the limit", err)
	}
	if _, err := estimateExactStates(ctx, sim.MustBoard(26, 26), r, 0, 1<<30); err == nil || !strings.Contains(err.Error(), "at most 640") {
		t.Errorf("26x26 estimate: got %v, want a board-size error naming the limit", err)
	}
	_, err := Walk(ctx, sim.MustBoard(6, 6), r, 0, 1000)
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "more than 1000 states") {
		t.Errorf("budget 1000: got %v, want ErrBudget", err)
	}
	bt, _ := sim.ParseRule("backtrack")
	if _, err := Walk(ctx, sim.MustBoard(5, 5), bt, 0, 0); err == nil {
		t.Error("backtrack: want an error")
	}
	if _, err := Walk(ctx, sim.MustBoard(5, 5), r, 25, 0); err == nil {
		t.Error("start 25 on 5x5: want an error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Walk(cctx, sim.MustBoard(5, 5), r, 0, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

// TestExactDeterministic: the layer order is fixed, so two runs agree to
// the last bit.
func TestExactDeterministic(t *testing.T) {
	a := exactOf(t, "6x6", "warnsdorff/random", "b2", 0)
	b := exactOf(t, "6x6", "warnsdorff/random", "b2", 0)
	if a.PSuccess != b.PSuccess || a.MeanLength != b.MeanLength || a.Nodes != b.Nodes {
		t.Errorf("two runs differ: %v vs %v", a.PSuccess, b.PSuccess)
	}
}
