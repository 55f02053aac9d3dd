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

	"knightwalk/internal/config"
	"knightwalk/internal/runner"
	"knightwalk/sim"
)

// Result is one line of the bench table.
type Result struct {
	Name       string  `json:"name"`
	Board      string  `json:"board"`
	Rule       string  `json:"rule"`
	Workers    int     `json:"workers"`
	Walks      uint64  `json:"walks"`
	Seconds    float64 `json:"seconds"`
	WalksPerS  float64 `json:"walks_per_second"`
	NsPerWalk  float64 `json:"ns_per_walk"`
	NsPerStep  float64 `json:"ns_per_step"`
	MeanLength float64 `json:"mean_length"`
}

// Report is one Run's measurements, what `experiment bench` prints.
type Report struct {
	GOOS, GOARCH  string
	CPUs          int       `json:"cpus"`
	Kernels       []Result  `json:"kernels"`
	EndToEnd      Result    `json:"end_to_end"`
	EndToEndRatio float64   `json:"end_to_end_over_kernel"`
	Python        []Result  `json:"python,omitempty"`
	PythonRatios  []float64 `json:"go_over_python,omitempty"`
	PythonNote    string    `json:"python_note,omitempty"`
	PeakRSSMiB    float64   `json:"peak_rss_mib"`
}

// kernels are the (board, rule) pairs Run times, in the order it reports them.
var kernels = []struct {
	rows, cols int
	rule       string
}{
	{8, 8, "warnsdorff/random"}, {8, 8, "random"}, {50, 50, "warnsdorff/random"}, {200, 200, "warnsdorff/random"}, {1000, 1000, "warnsdorff/random"},
}

// Run measures every kernel for about d each on one goroutine, then the
// end-to-end runner on workers goroutines, then (with python) the plain
// Python versions of the two 8x8 kernels. workers must be at least 1. Only
// cancellation of ctx is an error; a missing or failing python3 is noted in
// Report.PythonNote.
func Run(ctx context.Context, d time.Duration, workers int, python bool) (*Report, error) {
	rep := &Report{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU()}
	for _, k := range kernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := sim.MustBoard(k.rows, k.cols)
		r, _ := sim.ParseRule(k.rule)
		rep.Kernels = append(rep.Kernels, kernelBench(b, r, d))
	}
	// End to end: the runner on all 64 squares of 8x8 Warnsdorff/random,
	// sized to take about 2×d on the given workers.
	k0 := rep.Kernels[0]
	perStart := max(1000, uint64(k0.WalksPerS*float64(workers)*2*d.Seconds()/64))
	b := sim.MustBoard(8, 8)
	r, _ := sim.ParseRule("warnsdorff/random")
	starts := make([]int, 64)
	for i := range starts {
		starts[i] = i
	}
	s := &config.Experiment{Name: "bench", Seed: 1, Boards: []*sim.Board{b}, Rules: []sim.Rule{r}, Starts: [][]int{starts}, Walks: perStart}
	p, err := runner.NewPlan(s)
	if err != nil {
		return nil, err
	}
	ts := runner.NewTallies()
	t0 := time.Now()
	if err := runner.Execute(ctx, p, p.Units(runner.All), runner.Options{Workers: workers}, func(res runner.Result) error { return ts.Add(res.Unit.Cell(), res.Tally) }); err != nil {
		return nil, err
	}
	secs := time.Since(t0).Seconds()
	var walks, steps uint64
	for _, st := range starts {
		t := ts.Of(0, 0, st)
		walks += t.Walks
		for l, c := range t.Lengths {
			steps += uint64(max(l-1, 0)) * c
		}
	}
	rep.EndToEnd = result("end-to-end runner", b, r, workers, walks, steps, secs)
	rep.EndToEndRatio = rep.EndToEnd.WalksPerS / (k0.WalksPerS * float64(workers))
	if python {
		rep.Python, rep.PythonRatios, rep.PythonNote = pythonBench(ctx, rep.Kernels[:2], d)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		rep.PeakRSSMiB = float64(ru.Maxrss) / 1024 // Linux reports KiB
	}
	return rep, nil
}

// kernelBench times walks of (b, r) on one walker for about d.
func kernelBench(b *sim.Board, r sim.Rule, d time.Duration) Result {
	w, _ := sim.NewWalker(b, r)
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
	var walks, steps uint64
	t0 := time.Now()
	for time.Since(t0) < d || walks < 3 {
		for j := 0; j < 16; j++ {
			// Runs of walks from one start, as the runner's units do.
			i := walks / 1024 % uint64(len(starts))
			o := w.Walk(starts[i], keys[i], walks)
			walks++
			steps += uint64(o.Length - 1)
		}
	}
	return result("kernel", b, r, 1, walks, steps, time.Since(t0).Seconds())
}

// result fills in a Result's rates from its counts.
func result(name string, b *sim.Board, r sim.Rule, workers int, walks, steps uint64, secs float64) Result {
	return Result{Name: name, Board: b.String(), Rule: r.Name(), Workers: workers, Walks: walks, Seconds: secs,
		WalksPerS: float64(walks) / secs, NsPerWalk: secs * 1e9 / float64(walks), NsPerStep: secs * 1e9 / float64(max(steps, 1)),
		MeanLength: 1 + float64(steps)/float64(walks)}
}

// pythonBench times bench/knight_py.py for the two 8x8 kernels and returns
// the Go/Python walks/s ratios.
func pythonBench(ctx context.Context, kernels []Result, d time.Duration) ([]Result, []float64, string) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, nil, "python3 not found: no Python comparison"
	}
	dir, err := os.MkdirTemp("", "knightwalk-bench")
	if err != nil {
		return nil, nil, err.Error()
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "knight_py.py")
	if err := os.WriteFile(script, KnightPy, 0o644); err != nil {
		return nil, nil, err.Error()
	}
	var out []Result
	var ratios []float64
	for i, rule := range []string{"warnsdorff", "random"} {
		// Size the Python run to take about d: Python is ~500x slower.
		walks := max(200, int(kernels[i].WalksPerS*d.Seconds()/500))
		raw, err := exec.CommandContext(ctx, py, script, rule, "8", fmt.Sprint(walks)).Output()
		if err != nil {
			return nil, nil, fmt.Sprintf("python3 failed: %v", err)
		}
		var res struct {
			Walks   uint64
			Seconds float64
			Steps   uint64
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, nil, fmt.Sprintf("python3 output: %v", err)
		}
		b := sim.MustBoard(8, 8)
		r, _ := sim.ParseRule(kernels[i].Rule)
		pr := result("python (seed 00"+fmt.Sprint(i)+")", b, r, 1, res.Walks, res.Steps, res.Seconds)
		out = append(out, pr)
		ratios = append(ratios, kernels[i].WalksPerS/pr.WalksPerS)
	}
	return out, ratios, ""
}
