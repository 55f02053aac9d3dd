package sim

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time this OS thread has used. On a shared
// machine it is steadier than wall time: time slices other processes take
// do not count.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchKernel runs walks of rule on a rows×cols board in runs of 256
// consecutive indices per start (as the runner's units do), cycling through
// every start of boards up to 64 squares and a corner, the centre and an
// edge square of larger ones, with the previous kernels (NewPreviousWalker,
// one walk at a time) or the current ones (WalkRange: 16 walks in flight on
// boards up to 64 squares). It reports CPU and wall ns per walk, ns per
// step and walks/s.
func benchKernel(b *testing.B, rows, cols int, rule string, batched bool) {
	benchKernelWith(b, rows, cols, rule, batched, nil)
}

// benchKernelWith is benchKernel with set applied to the walker's bitboard
// kernel first (e.g. to turn the AVX-512 rounds off).
func benchKernelWith(b *testing.B, rows, cols int, rule string, batched bool, set func(*fastKernel)) {
	bd := MustBoard(rows, cols)
	r, err := ParseRule(rule)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWalker(bd, r)
	if !batched {
		w, err = NewPreviousWalker(bd, r)
	}
	if err != nil {
		b.Fatal(err)
	}
	if set != nil && w.fast != nil {
		set(w.fast)
	}
	starts := []int{0, bd.Square(rows/2, cols/2), bd.Square(0, cols/2)}
	if bd.Squares() <= 64 {
		starts = starts[:0]
		for s := range bd.Squares() {
			starts = append(starts, s)
		}
	}
	keys := make([]Key, len(starts))
	for i, s := range starts {
		keys[i] = NewKey(1, bd, r, s)
	}
	out := make([]Outcome, 256)
	steps, walks := 0, 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	cpu0 := threadCPU()
	for i := 0; walks < b.N; i++ {
		j := i % len(starts)
		run := out[:min(len(out), b.N-walks)]
		lo := uint64(walks)
		if batched {
			w.WalkRange(starts[j], keys[j], lo, run)
		} else {
			for k := range run {
				run[k] = w.Walk(starts[j], keys[j], lo+uint64(k))
			}
		}
		for _, o := range run {
			steps += o.Length - 1
		}
		walks += len(run)
	}
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/walk")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/walk")
	if steps > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "walks/s")
}

func BenchmarkKernel8x8WarnsdorffScalar(b *testing.B) {
	benchKernel(b, 8, 8, "warnsdorff/random", false)
}
func BenchmarkKernel8x8WarnsdorffBatch(b *testing.B) { benchKernel(b, 8, 8, "warnsdorff/random", true) }
func BenchmarkKernel8x8RandomScalar(b *testing.B)    { benchKernel(b, 8, 8, "random", false) }

// The deterministic first tie-break, as a design of move orders walks it
// (marateck-orders-all: 2,580,480 walks of it).
func BenchmarkKernel8x8WarnsdorffFirstBatch(b *testing.B) {
	benchKernel(b, 8, 8, "warnsdorff/first", true)
}
func BenchmarkKernel8x8RandomBatch(b *testing.B) { benchKernel(b, 8, 8, "random", true) }

// Batch runs the path auto-selection picks; GoRounds, AVX2 and AVX512
// force a path (PathPDEP16: the batched kernel with its rounds in Go).
func BenchmarkKernel8x8WarnsdorffGoRounds(b *testing.B) {
	benchPath(b, "warnsdorff/random", PathPDEP16)
}
func BenchmarkKernel8x8RandomGoRounds(b *testing.B) { benchPath(b, "random", PathPDEP16) }
func BenchmarkKernel8x8WarnsdorffAVX2(b *testing.B) { benchPath(b, "warnsdorff/random", PathAVX2) }
func BenchmarkKernel8x8RandomAVX2(b *testing.B)     { benchPath(b, "random", PathAVX2) }
func BenchmarkKernel8x8WarnsdorffAVX512(b *testing.B) {
	benchPath(b, "warnsdorff/random", PathAVX512)
}
func BenchmarkKernel8x8RandomAVX512(b *testing.B) { benchPath(b, "random", PathAVX512) }

// benchPath benchmarks rule on 8x8 with WalkRange forced onto path p,
// skipping where the CPU cannot run it.
func benchPath(b *testing.B, rule string, p KernelPath) {
	if why := p.lacks(); why != "" {
		b.Skip("this CPU lacks " + why)
	}
	benchKernelWith(b, 8, 8, rule, true, func(k *fastKernel) { k.setPath(p) })
}

// The general kernel (boards over 64 squares) walks one walk at a time;
// Previous is the general kernel before its allowed moves became masks.
func BenchmarkKernel50x50WarnsdorffPrevious(b *testing.B) {
	benchKernel(b, 50, 50, "warnsdorff/random", false)
}
func BenchmarkKernel50x50Warnsdorff(b *testing.B) { benchKernel(b, 50, 50, "warnsdorff/random", true) }
func BenchmarkKernel200x200WarnsdorffPrevious(b *testing.B) {
	benchKernel(b, 200, 200, "warnsdorff/random", false)
}
func BenchmarkKernel200x200Warnsdorff(b *testing.B) {
	benchKernel(b, 200, 200, "warnsdorff/random", true)
}

// ScalarPath forces PathScalar (WalkRange as the runner calls it: 16 walks
// in flight, the select by knightSelect); Scalar above is one walk at a
// time (Walk).
func BenchmarkKernel8x8WarnsdorffScalarPath(b *testing.B) {
	benchPath(b, "warnsdorff/random", PathScalar)
}
func BenchmarkKernel8x8RandomScalarPath(b *testing.B) { benchPath(b, "random", PathScalar) }
