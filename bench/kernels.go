package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// kernelBench runs walks of r on b on one goroutine for about d: 1024
// consecutive walk indices per start, in calls of 256 walks as the runner
// makes them, with the current kernels (Walker.WalkRange, what the runner
// uses: on boards up to 64 squares on the path sim.KernelEnv forces or
// the fastest) or, with scalar, the previous one-walk-at-a-time kernels
// (sim.NewPreviousWalker), kept for reference. Walk w starts from
// starts[w/1024 % len(starts)] on stream w, like bench/c/kernels.c. It also measures the thread's CPU time, steadier
// than wall time on a shared machine.
func kernelBench(b *sim.Board, r sim.Rule, d time.Duration, scalar bool) Result {
	if scalar {
		w, _ := sim.NewPreviousWalker(b, r)
		return timeWalker(w, "scalar kernel (previous)", d, true)
	}
	w, _ := sim.NewWalker(b, r)
	return timeWalker(w, "kernel", d, false)
}

// timeWalker is kernelBench with the walker given, named name; with
// scalar it calls Walk (one walk at a time) instead of WalkRange.
func timeWalker(w *sim.Walker, name string, d time.Duration, scalar bool) Result {
	b, r := w.Board(), w.Rule()
	// Every square of small boards (the end-to-end run's mix); a corner,
	// the centre and an edge square of large ones.
	starts := []int{0, b.Square(b.Rows/2, b.Cols/2), b.Square(0, b.Cols/2)}
	if b.Squares() <= 64 {
		starts = starts[:0]
		for s := range b.Squares() {
			starts = append(starts, s)
		}
	}
	keys := make([]sim.Key, len(starts))
	for i, s := range starts {
		keys[i] = sim.NewKey(1, b, r, s)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var out [256]sim.Outcome
	var walks, steps uint64
	t0, c0 := time.Now(), threadCPU()
	for time.Since(t0) < d || walks < 3 {
		i := walks / 1024 % uint64(len(starts))
		run := out[:]
		if b.Squares() > 64 {
			run = out[:1] // large boards: a walk takes long enough
		}
		if scalar {
			for j := range run {
				run[j] = w.Walk(starts[i], keys[i], walks+uint64(j))
			}
		} else {
			w.WalkRange(starts[i], keys[i], walks, run)
		}
		for _, o := range run {
			steps += uint64(o.Length - 1)
		}
		walks += uint64(len(run))
	}
	res := result(name, b, r, 1, walks, steps, time.Since(t0).Seconds())
	res.CPUSeconds = (threadCPU() - c0).Seconds()
	res.Path = string(w.KernelPath())
	return res
}

// threadCPU returns the CPU time of the calling OS thread (0 where the
// system cannot tell).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU returns the CPU time of the whole process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// speed returns walks per second of CPU time where measured, else of wall
// time.
func speed(r Result) float64 {
	if r.CPUSeconds > 0 {
		return float64(r.Walks) / r.CPUSeconds
	}
	return r.WalksPerS
}

// cBench builds bench/c/kernels.c with the system's C compiler (-O3
// -march=native) and times it on the two 8x8 kernels, sized like kernels
// (the Go results for 8x8 warnsdorff/random and random, in that order). It
// returns the C results and the Go/C speed ratios (on CPU time), or a note
// saying why there are none. The C kernels walk the same walks as the Go
// ones; a disagreement in their step counts is an error.
func cBench(ctx context.Context, kernels []Result, d time.Duration) ([]Result, []float64, string, error) {
	bin, cleanup, note, err := buildC(ctx, "kernels", KernelsC)
	if bin == "" || err != nil {
		return nil, nil, note + ": no C comparison", err
	}
	defer cleanup()
	var out []Result
	var ratios []float64
	for i, rule := range []string{"warnsdorff", "random"} {
		walks := max(1<<16, uint64(kernels[i].WalksPerS*d.Seconds())/2)
		raw, err := exec.CommandContext(ctx, bin, rule, fmt.Sprint(walks)).Output()
		if err != nil {
			return nil, nil, "", fmt.Errorf("bench/c/kernels.c %s: %v", rule, err)
		}
		var res struct {
			Walks      uint64  `json:"walks"`
			Steps      uint64  `json:"steps"`
			CheckWalks uint64  `json:"check_walks"`
			CheckSteps uint64  `json:"check_steps"`
			Seconds    float64 `json:"seconds"`
			CPUSeconds float64 `json:"cpu_seconds"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, nil, "", fmt.Errorf("bench/c/kernels.c output: %v", err)
		}
		b := sim.MustBoard(8, 8)
		r, _ := sim.ParseRule(kernels[i].Rule)
		if got := goSteps(b, r, res.CheckWalks); res.CheckWalks == 0 || got != res.CheckSteps {
			return nil, nil, "", fmt.Errorf("bench/c/kernels.c %s: %d steps in its first %d walks, the Go kernel %d: the C version walks other walks", rule, res.CheckSteps, res.CheckWalks, got)
		}
		cr := result("C (cc -O3 -march=native)", b, r, 1, res.Walks, res.Steps, res.Seconds)
		cr.CPUSeconds = res.CPUSeconds
		out = append(out, cr)
		ratios = append(ratios, speed(kernels[i])/speed(cr))
	}
	return out, ratios, "", nil
}

// buildC compiles a C baseline, source src, with the system's C compiler
// (-O3 -march=native) into a temporary directory, and returns the binary
// and what removes it; or, where there is no compiler or it fails, "" and
// a note saying why.
func buildC(ctx context.Context, name string, src []byte) (bin string, cleanup func(), note string, err error) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, lerr := exec.LookPath(cc); lerr != nil {
		return "", nil, "no C compiler (" + cc + ") found", nil
	}
	dir, err := os.MkdirTemp("", "knightwalk-bench-"+name)
	if err != nil {
		return "", nil, "", err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path, bin := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		cleanup()
		return "", nil, "", err
	}
	if msg, cerr := exec.CommandContext(ctx, cc, "-O3", "-march=native", "-o", bin, path).CombinedOutput(); cerr != nil {
		cleanup()
		return "", nil, fmt.Sprintf("%s failed on %s.c: %v %s", cc, name, cerr, msg), nil
	}
	return bin, cleanup, "", nil
}

// goSteps returns the steps of the first n walks in kernelBench's (and
// kernels.c's) order on the 8x8 board.
func goSteps(b *sim.Board, r sim.Rule, n uint64) uint64 {
	w, _ := sim.NewWalker(b, r)
	out := make([]sim.Outcome, 1024)
	var steps uint64
	for lo := uint64(0); lo < n; lo += 1024 {
		start := int(lo / 1024 % 64)
		run := out[:min(1024, n-lo)]
		w.WalkRange(start, sim.NewKey(1, b, r, start), lo, run)
		for _, o := range run {
			steps += uint64(o.Length - 1)
		}
	}
	return steps
}
