package sim

import "testing"

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
