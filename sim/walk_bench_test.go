package sim

import (
	"fmt"
	"strings"
	"testing"
)

// benchWalks runs walks of rule on a rows×cols board from every start in
// turn and reports ns per walk, ns per step and walks/s.
func benchWalks(b *testing.B, rows, cols int, rule string, general bool) {
	bd := MustBoard(rows, cols)
	r, err := ParseRule(rule)
	if err != nil {
		b.Fatal(err)
	}
	w, err := newWalker(bd, r, general, PathAuto)
	if err != nil {
		b.Fatal(err)
	}
	starts := []int{0, bd.Square(rows/2, cols/2), bd.Square(0, cols/2)}
	keys := make([]Key, len(starts))
	for i, s := range starts {
		keys[i] = NewKey(1, bd, r, s)
	}
	steps := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(starts)
		o := w.Walk(starts[j], keys[j], uint64(i))
		steps += o.Length - 1
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/walk")
	if steps > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "walks/s")
}

func BenchmarkWalk8x8Warnsdorff(b *testing.B)        { benchWalks(b, 8, 8, "warnsdorff/random", false) }
func BenchmarkWalk8x8WarnsdorffGeneral(b *testing.B) { benchWalks(b, 8, 8, "warnsdorff/random", true) }
func BenchmarkWalk8x8Random(b *testing.B)            { benchWalks(b, 8, 8, "random", false) }
func BenchmarkWalk8x8RandomGeneral(b *testing.B)     { benchWalks(b, 8, 8, "random", true) }
func BenchmarkWalk8x8Pohl(b *testing.B)              { benchWalks(b, 8, 8, "warnsdorff/pohl", false) }
func BenchmarkWalk8x8Roth(b *testing.B)              { benchWalks(b, 8, 8, "warnsdorff/roth", false) }
func BenchmarkWalk50x50Warnsdorff(b *testing.B)      { benchWalks(b, 50, 50, "warnsdorff/random", false) }
func BenchmarkWalk200x200Warnsdorff(b *testing.B) {
	benchWalks(b, 200, 200, "warnsdorff/random", false)
}
func BenchmarkWalk1000x1000Warnsdorff(b *testing.B) {
	benchWalks(b, 1000, 1000, "warnsdorff/random", false)
}
func BenchmarkWalk200x200Random(b *testing.B) { benchWalks(b, 200, 200, "random", false) }
func BenchmarkBacktrack8x8(b *testing.B)      { benchWalks(b, 8, 8, "backtrack", false) }

// BenchmarkWalkLargeCorner times the general kernel alone on the boards of
// 's C comparison, from the corner (walk i on stream i, one walk a
// call): what a walk costs without the runner, so that a per-walk cost
// that grows with the board (a reset or a clear of its state) shows as
// ns/walk growing from 100x100 to 1000x1000 at the same length.
func BenchmarkWalkLargeCorner(b *testing.B) {
	for _, c := range []struct {
		n    int
		rule string
	}{{100, "random"}, {1000, "random"}, {100, "warnsdorff/random"}, {1000, "warnsdorff/random"}} {
		b.Run(fmt.Sprintf("%dx%d/%s", c.n, c.n, strings.ReplaceAll(c.rule, "/", "-")), func(b *testing.B) {
			benchCornerRange(b, c.n, c.rule, 0)
		})
	}
}

// BenchmarkWalkLargeCornerRange is BenchmarkWalkLargeCorner through
// WalkRange, 64 walks a call as the runner asks for them: the general
// kernel's interleaved walks (generalbatch.go), the same walks; also a
// deterministic tie-break (first, the sweeps' Squirrel & Cull) and one
// that narrows through reduceTies (roth).
func BenchmarkWalkLargeCornerRange(b *testing.B) {
	for _, c := range []struct {
		n    int
		rule string
	}{{100, "random"}, {1000, "random"}, {100, "warnsdorff/random"}, {1000, "warnsdorff/random"},
		{1000, "warnsdorff/first"}, {1000, "squirrel-cull"}, {1000, "warnsdorff/roth"}} {
		b.Run(fmt.Sprintf("%dx%d/%s", c.n, c.n, strings.ReplaceAll(c.rule, "/", "-")), func(b *testing.B) {
			benchCornerRange(b, c.n, c.rule, 64)
		})
	}
}

// benchCornerRange times walks from the corner of an n x n board, batch
// walks a WalkRange call (0: one a Walk call), reporting ns a walk and a
// step.
func benchCornerRange(b *testing.B, n int, rule string, batch int) {
	bd := MustBoard(n, n)
	r, err := ParseRule(rule)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWalker(bd, r)
	if err != nil {
		b.Fatal(err)
	}
	key := NewKey(1, bd, r, 0)
	out := make([]Outcome, max(batch, 1))
	steps, walks := 0, 0
	b.ResetTimer()
	for walks < b.N {
		if batch == 0 {
			steps += w.Walk(0, key, uint64(walks)).Length - 1
			walks++
			continue
		}
		m := min(len(out), b.N-walks)
		w.WalkRange(0, key, uint64(walks), out[:m])
		for _, o := range out[:m] {
			steps += o.Length - 1
		}
		walks += m
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/walk")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(steps, 1)), "ns/step")
	b.ReportMetric(float64(steps)/float64(b.N)+1, "squares/walk")
}

// BenchmarkSweepWalk is a deterministic sweep's walk: one walk a board (a
// deterministic rule's one walk decides it), so one walk in flight, from
// the corner of 1000x1000 and 2000x2000, for the rules sweeps run (Roth's
// chain the roth-sweep experiment's).
func BenchmarkSweepWalk(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		for _, rule := range []string{"warnsdorff/first", "warnsdorff/roth+first", "squirrel-cull"} {
			b.Run(fmt.Sprintf("%dx%d/%s", n, n, strings.ReplaceAll(rule, "/", "-")), func(b *testing.B) {
				benchCornerRange(b, n, rule, 1)
			})
		}
	}
}
