package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// sameBits says how two results differ, field by field and bit for bit
// ("" when they do not).
func sameBits(a, b Result) string {
	var diffs []string
	f := func(name string, x, y float64) {
		if math.Float64bits(x) != math.Float64bits(y) {
			diffs = append(diffs, fmt.Sprintf("%s %.17g != %.17g", name, x, y))
		}
	}
	f("PSuccess", a.PSuccess, b.PSuccess)
	f("PClosed", a.PClosed, b.PClosed)
	f("PStopped", a.PStopped, b.PStopped)
	f("MeanLength", a.MeanLength, b.MeanLength)
	f("MeanTies", a.MeanTies, b.MeanTies)
	f("TreeNodes", a.TreeNodes, b.TreeNodes)
	f("Unresolved", a.Unresolved, b.Unresolved)
	if a.Start != b.Start || a.Nodes != b.Nodes || a.Dropped != b.Dropped {
		diffs = append(diffs, fmt.Sprintf("start, nodes, dropped %d %d %d != %d %d %d", a.Start, a.Nodes, a.Dropped, b.Start, b.Nodes, b.Dropped))
	}
	if len(a.Lengths) != len(b.Lengths) || len(a.DeadEnds) != len(b.DeadEnds) {
		return "array lengths differ"
	}
	for i := range a.Lengths {
		f(fmt.Sprintf("Lengths[%d]", i), a.Lengths[i], b.Lengths[i])
	}
	for i := range a.DeadEnds {
		f(fmt.Sprintf("DeadEnds[%d]", i), a.DeadEnds[i], b.DeadEnds[i])
	}
	return strings.Join(diffs, "; ")
}

// spillCase is one enumeration checked spilled against in memory.
type spillCase struct {
	board, rule, start string
	mem                int64 // the states' budget of the spilled run
	threads            int
	growth             float64 // forced growth guess (0: measured)
	maxSteps           int
}

// runSpilled enumerates c spilled to a fresh directory and returns the
// result, the most runs (passes) a layer took, the passes retried, and
// how many steps with walks that ended took more than one pass.
func runSpilled(t *testing.T, c spillCase) (x Result, maxRuns, retried, multiEnds int) {
	t.Helper()
	b := mustParseBoard(t, c.board)
	r, err := sim.ParseRule(c.rule)
	if err != nil {
		t.Fatal(err)
	}
	r.MaxSteps = c.maxSteps
	s, err := b.ParseSquare(c.start)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lim := exactLimits{spill: dir, spillRead: 16 << 10, threads: c.threads, spillGrowth: c.growth}
	if c.mem > 0 {
		lim.mem = &memoryBudget{limit: c.mem}
	}
	// the steps with several passes where walks ended: seen through the
	// lengths afterwards (a walk that ends at length L ends in the step
	// that expands layer L, building layer L+1)
	runsAt := map[int]int{}
	named := 0 // files seen in the directory while the enumeration runs
	lim.layers = func(l Layer) {
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			named++
		}
		maxRuns = max(maxRuns, l.Runs)
		retried += l.Retried
		runsAt[l.Depth-1] = l.Runs
	}
	x, err = exactWalk(context.Background(), b, r, s, lim)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	for depth, runs := range runsAt {
		if runs > 1 && depth < len(x.Lengths) && x.Lengths[depth] > 0 {
			multiEnds++
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 || named > 0 {
		t.Errorf("%+v: %d files left in the spill directory, files seen there in %d steps; want none: removed as soon as made, they disappear however the process ends", c, len(left), named)
	}
	return x, maxRuns, retried, multiEnds
}

func mustParseBoard(t *testing.T, s string) *sim.Board {
	t.Helper()
	var r, c int
	if _, err := fmt.Sscanf(s, "%dx%d", &r, &c); err != nil {
		t.Fatal(err)
	}
	return sim.MustBoard(r, c)
}

// TestExactSpillMatches: an enumeration spilled to disk in several passes
// a layer, read back in small chunks, gives the in-memory result bit for
// bit, in every field and per-length array, with one goroutine or two, and
// when passes outgrow the budget and are run again as halves. Walks end in
// steps of several passes, so a pass other than the first that added the
// end-of-walk sums would double them and fail the comparison.
func TestExactSpillMatches(t *testing.T) {
	cases := []spillCase{
		{"5x5", "random", "a1", 256 << 10, 2, 0, 10},
		{"12x12", "warnsdorff/random", "a1", 4 << 20, 2, 0, 70}, // four-word sets
		{"6x6", "warnsdorff/random", "a1", 160 << 10, 2, 0, 0},
		{"7x7", "warnsdorff/random", "a1", 160 << 10, 1, 0, 0},
		{"7x7", "warnsdorff/random", "d4", 160 << 10, 2, 0.25, 0}, // passes planned too few: halves rerun
		{"8x8", "warnsdorff/random", "a1", 0, 2, 0, 0},            // no budget: one pass a step, still on disk
		{"6x6", "warnsdorff/first", "c3", 120 << 10, 1, 0, 0},     // deterministic ties: one walk
		{"5x6", "random", "b2", 256 << 10, 1, 0, 9},               // cut by the step limit
	}
	if testenv.Slow() {
		cases = append(cases,
			spillCase{"8x8", "warnsdorff/random", "d4", 256 << 10, 2, 0.25, 0},
			spillCase{"5x5", "random", "a1", 2 << 20, 2, 0, 0},
			spillCase{"9x9", "warnsdorff/random", "a1", 24 << 20, 2, 0, 0},
			spillCase{"6x6", "random", "a1", 8 << 20, 2, 0, 12},
		)
	}
	var multiPass, rerun, endsInPasses bool
	for _, c := range cases {
		b := mustParseBoard(t, c.board)
		r, err := sim.ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		r.MaxSteps = c.maxSteps
		s, _ := b.ParseSquare(c.start)
		want, err := exactWalk(context.Background(), b, r, s, exactLimits{threads: c.threads})
		if err != nil {
			t.Fatal(err)
		}
		got, maxRuns, retried, multiEnds := runSpilled(t, c)
		if d := sameBits(got, want); d != "" {
			t.Errorf("%+v: spilled differs from in memory: %s", c, d)
		}
		if c.mem == 0 && maxRuns > max(1, c.threads) {
			t.Errorf("%+v: %d passes a step with no budget; want one a goroutine", c, maxRuns)
		}
		multiPass = multiPass || maxRuns > 1
		rerun = rerun || retried > 0
		endsInPasses = endsInPasses || multiEnds > 0
		t.Logf("%s %s from %s: %d states, up to %d passes a step, %d retried, %d steps with ends in several passes", c.board, c.rule, c.start, got.Nodes, maxRuns, retried, multiEnds)
	}
	if !multiPass || !rerun || !endsInPasses {
		t.Errorf("the cases did not force several passes (%v), reruns (%v) and walks ending in steps of several passes (%v)", multiPass, rerun, endsInPasses)
	}
}

// TestExactSpillOnePassOnly: the one-pass and many-pass spilled runs
// agree, so passes after the first add no end-of-walk sums: were they
// added by every pass, P(success) would be a multiple of the exact one.
func TestExactSpillOnePassOnly(t *testing.T) {
	one, runs1, _, _ := runSpilled(t, spillCase{"7x7", "warnsdorff/random", "b1", 0, 1, 0, 0})
	many, runs, _, multiEnds := runSpilled(t, spillCase{"7x7", "warnsdorff/random", "b1", 100 << 10, 1, 0, 0})
	if runs1 != 1 || runs < 4 || multiEnds == 0 {
		t.Fatalf("passes %d and %d (%d steps with ends in several): want 1 and at least 4", runs1, runs, multiEnds)
	}
	if d := sameBits(many, one); d != "" {
		t.Errorf("many passes differ from one: %s", d)
	}
	sum := many.PSuccess + many.PStopped
	for _, p := range many.DeadEnds {
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("success, stops and dead ends sum to %.17g, want 1", sum)
	}
}

// TestExactSpillTooSmall: a budget that the chunks read back take, or that
// one bucket's pass does not fit, fails with ErrMemory naming the budget;
// bounds then fall back to the in-memory enumeration, which drops states
// to fit.
func TestExactSpillTooSmall(t *testing.T) {
	b := sim.MustBoard(7, 7)
	r, _ := sim.ParseRule("warnsdorff/random")
	dir := t.TempDir()
	lim := exactLimits{spill: dir, spillRead: 1 << 10, mem: &memoryBudget{limit: 16 << 10}, spillBuckets: 4}
	_, err := exactWalk(context.Background(), b, r, 0, lim)
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "spilling to "+dir+" needs more than") {
		t.Errorf("16 KiB: %v; want ErrMemory naming the spill's needs", err)
	}
	// 40 KiB less the 11 KiB read back hold 194 states, and a quarter of
	// 7x7's largest layers do not
	lim.mem.limit = 40 << 10
	_, err = exactWalk(context.Background(), b, r, 0, lim)
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "a 4th of the states at path length") || !strings.Contains(err.Error(), "more than the 194 states") {
		t.Errorf("40 KiB: %v; want ErrMemory for one bucket", err)
	}
	lim.bounds = true
	x, err := exactWalk(context.Background(), b, r, 0, lim)
	if err != nil || x.IsExact() || !(x.PLower() <= x.PUpper()) {
		t.Errorf("40 KiB with bounds: %d dropped, %v; want bounds", x.Dropped, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d files left in the spill directory", len(left))
	}
}

// TestExactSpillBadDir: a spill directory that cannot take files is an
// error naming it, before any state is expanded.
func TestExactSpillBadDir(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r, _ := sim.ParseRule("warnsdorff/random")
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := Walks(context.Background(), b, r, []int{0}, Options{Spill: missing})
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "spill a layer") {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing directory was made: %v", err)
	}
}
