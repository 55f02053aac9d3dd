package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// TestRun: a very short run still measures every kernel and the runner, with
// counts and rates that agree; cancellation is the one error.
func TestRun(t *testing.T) {
	rep, err := Run(context.Background(), time.Millisecond, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Kernels) != len(kernels) {
		t.Fatalf("%d kernel results, want %d", len(rep.Kernels), len(kernels))
	}
	for i, r := range append(rep.Kernels, rep.EndToEnd) {
		if r.Walks < 3 || r.Seconds <= 0 || r.MeanLength < 1 {
			t.Errorf("result %d: %+v", i, r)
		}
		if got := float64(r.Walks) / r.Seconds; got != r.WalksPerS {
			t.Errorf("result %d: walks/s %v, counts give %v", i, r.WalksPerS, got)
		}
	}
	if k := rep.Kernels[0]; k.Board != "8x8" || k.Rule != "warnsdorff/random" || k.Workers != 1 {
		t.Errorf("first kernel %+v, want 8x8 warnsdorff/random on 1 worker", k)
	}
	if e := rep.EndToEnd; e.Workers != 2 || e.Walks%64 != 0 || rep.EndToEndRatio <= 0 {
		t.Errorf("end to end %+v, ratio %v: want 2 workers, whole walks per start square", e, rep.EndToEndRatio)
	}
	// Every path this CPU has, on both 8x8 kernels, named; the CPU named.
	paths := sim.KernelPaths()
	if len(rep.PathKernels) != 2*len(paths) || rep.CPU.Arch != runtime.GOARCH {
		t.Fatalf("%d path results for paths %v, CPU %+v", len(rep.PathKernels), paths, rep.CPU)
	}
	for i, r := range rep.PathKernels {
		if r.Path != string(paths[i/2]) || r.Board != "8x8" || r.Rule != kernels[i%2].rule || r.Walks < 3 {
			t.Errorf("path result %d: %+v, want path %s, rule %s", i, r, paths[i/2], kernels[i%2].rule)
		}
	}
	if rep.C != nil && len(rep.PathOverC) != len(rep.PathKernels) {
		t.Errorf("%d path/C ratios for %d path results", len(rep.PathOverC), len(rep.PathKernels))
	}
	if k := rep.Kernels[2]; k.Path != string(sim.PathGeneral) {
		t.Errorf("50x50 kernel path %q, want general", k.Path)
	}
	if rep.Python != nil {
		t.Errorf("python results without python: %+v", rep.Python)
	}
	// The large boards from the corner, each against C where a compiler
	// is (largeBench checks that C walked the same walks, step for step).
	if len(rep.Large) != len(largeCases) {
		t.Fatalf("%d large-board results, want %d", len(rep.Large), len(largeCases))
	}
	for i, r := range rep.Large {
		if c := largeCases[i]; r.Board != fmt.Sprintf("%dx%d", c.n, c.n) || r.Rule != c.rule || r.Path != string(sim.PathGeneral) || r.Walks < 4 {
			t.Errorf("large result %d: %+v, want %dx%d %s on the general kernel", i, r, c.n, c.n, c.rule)
		}
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		if rep.LargeC != nil || !strings.Contains(rep.LargeNote, "no C compiler") {
			t.Errorf("no C compiler %s, but %d C results, note %q", cc, len(rep.LargeC), rep.LargeNote)
		}
	} else {
		if len(rep.LargeC) != len(rep.Large) || len(rep.LargeOverC) != len(rep.Large) || rep.LargeNote != "" {
			t.Errorf("a C compiler, but %d C results and %d ratios for %d large cases (%s)", len(rep.LargeC), len(rep.LargeOverC), len(rep.Large), rep.LargeNote)
		}
		for i, c := range rep.LargeC {
			if c.Walks != rep.Large[i].Walks || c.MeanLength != rep.Large[i].MeanLength || rep.LargeOverC[i] <= 0 {
				t.Errorf("large case %d: C %+v against Go %+v", i, c, rep.Large[i])
			}
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, time.Millisecond, 1, false); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

// TestOwnRules: the own-rule copies are timed beside the 8x8 kernels they
// copy, with a ratio each; the Warnsdorff copy walks the walks of
// warnsdorff/random (same streams), so its mean length is the built-in's.
func TestOwnRules(t *testing.T) {
	rep, err := Run(context.Background(), time.Millisecond, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.OwnRules) != 4 || len(rep.OwnOverBuiltin) != 4 || len(rep.OwnOverPath) != 4 {
		t.Fatalf("own rules %+v, ratios %v, %v", rep.OwnRules, rep.OwnOverBuiltin, rep.OwnOverPath)
	}
	for i, r := range rep.OwnRules {
		if r.Rule != ownRules[i].Name || r.Board != "8x8" || r.Walks < 3 || rep.OwnOverBuiltin[i] <= 0 {
			t.Errorf("own rule %d: %+v, ratio %v", i, r, rep.OwnOverBuiltin[i])
		}
		if len(rep.OwnOverPath[i]) != len(sim.KernelPaths()) || slices.Min(rep.OwnOverPath[i]) <= 0 {
			t.Errorf("own rule %d over each path: %v", i, rep.OwnOverPath[i])
		}
	}
	if err := registerOwn(); err != nil {
		t.Fatal(err)
	}
	b := sim.MustBoard(8, 8)
	br, _ := sim.ParseRule("warnsdorff/random")
	or, _ := sim.ParseRule(ownRules[0].Name)
	kw, _ := sim.NewWalker(b, br)
	ow, err := sim.NewWalker(b, or)
	if err != nil {
		t.Fatal(err)
	}
	kw.KeepPaths(true)
	ow.KeepPaths(true)
	for _, start := range []int{0, 27} {
		key := sim.NewKey(3, b, br, start)
		for i := range uint64(500) {
			if ko, oo := kw.Walk(start, key, i), ow.Walk(start, key, i); !slices.Equal(ko.Path, oo.Path) {
				t.Fatalf("from %s walk %d: built-in %v, own copy %v", b.SquareName(start), i, ko.Path, oo.Path)
			}
		}
	}
	// the copies in lanes walk the built-ins' walks, in ranges as timed
	for i, c := range ownRules[2:] {
		br, _ := sim.ParseRule(kernels[i].rule)
		or, _ := sim.ParseRule(c.Name)
		kw, _ := sim.NewWalker(b, br)
		ow, err := sim.NewWalker(b, or)
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range []int{0, 27} {
			key := sim.NewKey(3, b, br, start)
			ko, oo := make([]sim.Outcome, 256), make([]sim.Outcome, 256)
			kw.WalkRange(start, key, 0, ko)
			ow.WalkRange(start, key, 0, oo)
			if err := ow.Err(); err != nil || !slices.EqualFunc(ko, oo, func(a, b sim.Outcome) bool { return a.Length == b.Length && a.End == b.End && a.Ties == b.Ties }) {
				t.Fatalf("%s from %s: the copy in lanes walks other walks (%v)", c.Name, b.SquareName(start), err)
			}
		}
	}
}
