package exact

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// boundsTol is the rounding the comparisons allow: the bounds and the
// exact value are sums of the same probabilities in different groupings.
const boundsTol = 1e-12

// TestExactBoundsContainExact forces certified bounds with small budgets
// on 8x8 (every start of one octant) and 9x9 from a1: they always contain
// the exact value, the other quantities are bounded the same way, the
// states expanded never pass the budget, and the width shrinks to 0 as the
// budget grows.
func TestExactBoundsContainExact(t *testing.T) {
	ctx := context.Background()
	r, _ := sim.ParseRule("warnsdorff/random")
	cases := []struct {
		board  *sim.Board
		starts []string
	}{
		{sim.MustBoard(8, 8), []string{"a1", "b1", "c1", "b2", "d2", "d4"}},
	}
	if testenv.Slow() { // 9x9: 4.6 million states per budget step, 5 CPU-seconds
		cases = append(cases, struct {
			board  *sim.Board
			starts []string
		}{sim.MustBoard(9, 9), []string{"a1"}})
	}
	for _, c := range cases {
		for _, name := range c.starts {
			s, _ := c.board.ParseSquare(name)
			x, err := Walk(ctx, c.board, r, s, 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.board.Squares() > 64 {
				// the budget loop below ends with an exact run
			} else if b, err := Bounds(ctx, c.board, r, s, 0); err != nil || b.Dropped != 0 || b.PSuccess != x.PSuccess || b.PLower() != b.PUpper() {
				t.Errorf("%s from %s: with room, bounds %+v (err %v) are not the exact %.17g", c.board, name, b, err, x.PSuccess)
			}
			widths := []float64{}
			for budget := int64(1000); ; budget *= 4 {
				b, err := Bounds(ctx, c.board, r, s, budget)
				if err != nil {
					t.Fatal(err)
				}
				if b.Nodes > budget {
					t.Errorf("%s from %s, budget %d: %d states expanded", c.board, name, budget, b.Nodes)
				}
				lo, hi := b.PLower(), b.PUpper()
				if !(lo <= x.PSuccess+boundsTol && x.PSuccess <= hi+boundsTol) {
					t.Errorf("%s from %s, budget %d: bounds [%.17g, %.17g] miss the exact %.17g", c.board, name, budget, lo, hi, x.PSuccess)
				}
				if !(b.PClosed <= x.PClosed+boundsTol && x.PClosed <= b.ClosedUpper()+boundsTol) {
					t.Errorf("%s from %s, budget %d: closed bounds [%g, %g] miss the exact %g", c.board, name, budget, b.PClosed, b.ClosedUpper(), x.PClosed)
				}
				// every walk is accounted for: ended, or through a dropped state
				total := b.Unresolved
				for _, p := range b.Lengths {
					total += p
				}
				if math.Abs(total-1) > boundsTol {
					t.Errorf("%s from %s, budget %d: lengths and unresolved sum to %.17g", c.board, name, budget, total)
				}
				for l, p := range b.Lengths {
					if p > x.Lengths[l]+boundsTol {
						t.Errorf("%s from %s, budget %d: P(length %d) %g over the exact %g", c.board, name, budget, l, p, x.Lengths[l])
					}
				}
				if (b.Dropped == 0) != (b.Unresolved == 0) {
					t.Errorf("%s from %s, budget %d: %d dropped, unresolved %g", c.board, name, budget, b.Dropped, b.Unresolved)
				}
				widths = append(widths, hi-lo)
				if b.Dropped == 0 {
					if math.Abs(b.PSuccess-x.PSuccess) > boundsTol {
						t.Errorf("%s from %s, budget %d: nothing dropped, P %.17g, exact %.17g", c.board, name, budget, b.PSuccess, x.PSuccess)
					}
					break
				}
				if budget > 100*x.Nodes {
					t.Fatalf("%s from %s: still %d states dropped at budget %d (exact: %d states)", c.board, name, b.Dropped, budget, x.Nodes)
				}
			}
			if len(widths) < 3 || widths[0] <= 0 {
				t.Errorf("%s from %s: widths %v: the small budgets forced no bounds", c.board, name, widths)
			}
			if w := widths[len(widths)-1]; w != 0 {
				t.Errorf("%s from %s: widths %v do not reach 0", c.board, name, widths)
			}
			t.Logf("%s from %s (exact %d states): widths %v", c.board, name, x.Nodes, widths)
		}
	}
}

// TestExactBoundsMemory forces bounds by the memory share instead of the
// state budget (the layers built are cut as they grow): they contain the
// exact value, and the same options give the same result.
func TestExactBoundsMemory(t *testing.T) {
	ctx := context.Background()
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	starts := []int{b.Square(0, 0), b.Square(1, 2), b.Square(3, 3)}
	want, err := Walks(ctx, b, r, starts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// states memory 0.35 × 9 MiB, about 1 MiB per start: a few thousand
	// states per layer
	mem := int64(9 << 20)
	got, err := Walks(ctx, b, r, starts, Options{MaxMemory: mem, Workers: 4, Bounds: true})
	if err != nil {
		t.Fatal(err)
	}
	// the share of each start depends on the starts run at once, min(workers, starts)
	again, _ := Walks(ctx, b, r, starts, Options{MaxMemory: mem, Workers: 3, Bounds: true})
	for i := range starts {
		g, x := got[i], want[i]
		if g.Dropped == 0 {
			t.Errorf("%s: no state dropped within %d bytes", b.SquareName(starts[i]), mem)
		}
		if !(g.PLower() <= x.PSuccess+boundsTol && x.PSuccess <= g.PUpper()+boundsTol) {
			t.Errorf("%s: bounds [%.17g, %.17g] miss the exact %.17g", b.SquareName(starts[i]), g.PLower(), g.PUpper(), x.PSuccess)
		}
		if g.PSuccess != again[i].PSuccess || g.Unresolved != again[i].Unresolved {
			t.Errorf("%s: 4 workers and 3 differ", b.SquareName(starts[i]))
		}
		t.Logf("%s: [%.6f, %.6f], exact %.6f", b.SquareName(starts[i]), g.PLower(), g.PUpper(), x.PSuccess)
	}
}

// TestKthLargest checks the quickselect against sorting, with many ties.
func TestKthLargest(t *testing.T) {
	for n := 1; n < 200; n += 7 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64((i * 7919) % (n/3 + 1))
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		for k := 1; k <= n; k++ {
			if got := kthLargest(slices.Clone(xs), k); got != sorted[n-k] {
				t.Fatalf("n %d, k %d: %g, want %g", n, k, got, sorted[n-k])
			}
		}
	}
}

// TestExactThreads: a start enumerated by several goroutines (workers
// beyond the starts) gives exactly the result of one, exact or bounded.
func TestExactThreads(t *testing.T) {
	ctx := context.Background()
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	for _, start := range []int{0, b.Square(3, 3)} {
		for _, bounds := range []bool{false, true} {
			opt := Options{Workers: 1, Bounds: bounds}
			if bounds {
				opt.Budget = 100_000
			}
			one, err := Walks(ctx, b, r, []int{start}, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{2, 3} {
				opt.Workers = w
				got, err := Walks(ctx, b, r, []int{start}, opt)
				if err != nil || !reflect.DeepEqual(got, one) {
					t.Errorf("%s, bounds %v: %d goroutines differ from one (err %v)", b.SquareName(start), bounds, w, err)
				}
			}
		}
	}
}
