package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/procstat"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/sim"
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
	CPUSeconds float64 `json:"cpu_seconds,omitempty"` // kernels: CPU time of their thread
	Path       string  `json:"path,omitempty"`        // kernels: the kernel path (sim.KernelPath) that ran
}

// Report is one Run's measurements, what `experiment bench` prints.
type Report struct {
	GOOS, GOARCH string
	CPUs         int     `json:"cpus"`
	CPU          sim.CPU `json:"cpu"`
	// KernelEnv is sim.KernelEnv as set for the run ("" or auto: each
	// rule on the fastest path, which Kernels' paths name).
	KernelEnv string   `json:"kernel_env"`
	Kernels   []Result `json:"kernels"`
	// PathKernels times the two 8x8 kernels (Warnsdorff/random, random,
	// alternating) forced onto each path this CPU has, most vectorised
	// first; PathOverC are their speed ratios over C (on CPU time).
	PathKernels []Result  `json:"path_kernels"`
	PathOverC   []float64 `json:"path_over_c,omitempty"`
	Scalar      []Result  `json:"scalar_kernels"`      // the previous kernel, for reference
	OverScalar  []float64 `json:"kernel_over_scalar"`  // speed ratios, on CPU time
	C           []Result  `json:"c,omitempty"`         // bench/c/kernels.c on the two 8x8 kernels
	GoOverC     []float64 `json:"go_over_c,omitempty"` // speed ratios, on CPU time
	CNote       string    `json:"c_note,omitempty"`
	// OwnRules times rules of your own that copy the two 8x8 kernels'
	// rules (Warnsdorff/random, random) through sim.Position, on the
	// policy kernel behind the guard, one walk a call, then the same in
	// lanes (sim.LanePolicy, 16 walks a call); OwnOverBuiltin is each
	// one's CPU time per walk over the built-in's (Kernels[i%2], on the
	// path KernelEnv asks for), OwnOverPath[i][p] over the built-in's on
	// path p forced (PathKernels[2p+i%2]).
	OwnRules       []Result    `json:"own_rules"`
	OwnOverBuiltin []float64   `json:"own_over_builtin"`
	OwnOverPath    [][]float64 `json:"own_over_path"`
	EndToEnd       Result      `json:"end_to_end"`
	// EndToEndRatio is end-to-end walks/s over kernel walks/s × workers, on
	// wall time; EndToEndCPURatio the same on CPU time (the runner's process
	// against the kernel's thread): the runner's own overhead, whatever share
	// of the cores a shared machine gives the run.
	EndToEndRatio    float64   `json:"end_to_end_over_kernel"`
	EndToEndCPURatio float64   `json:"end_to_end_over_kernel_cpu,omitempty"`
	Python           []Result  `json:"python,omitempty"`
	PythonRatios     []float64 `json:"go_over_python,omitempty"`
	PythonNote       string    `json:"python_note,omitempty"`
	// Large times the general kernel from the corner of 100x100 and
	// 1000x1000 (random, Warnsdorff/random), LargeC bench/c/large.c on
	// the same walks, LargeOverC Go's speed over C per case (CPU time).
	Large      []Result  `json:"large"`
	LargeC     []Result  `json:"large_c,omitempty"`
	LargeOverC []float64 `json:"large_over_c,omitempty"`
	LargeNote  string    `json:"large_note,omitempty"`
	PeakRSSMiB float64   `json:"peak_rss_mib"`
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
	rep := &Report{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), CPU: sim.CPUInfo(), KernelEnv: os.Getenv(sim.KernelEnv)}
	if _, err := sim.KernelPathFromEnv(); err != nil {
		return nil, err
	}
	for _, k := range kernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := sim.MustBoard(k.rows, k.cols)
		r, _ := sim.ParseRule(k.rule)
		rep.Kernels = append(rep.Kernels, kernelBench(b, r, d, false))
		rep.Scalar = append(rep.Scalar, kernelBench(b, r, d, true))
		rep.OverScalar = append(rep.OverScalar, speed(rep.Kernels[len(rep.Kernels)-1])/speed(rep.Scalar[len(rep.Scalar)-1]))
	}
	for _, p := range sim.KernelPaths() {
		for _, k := range kernels[:2] {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b := sim.MustBoard(k.rows, k.cols)
			r, _ := sim.ParseRule(k.rule)
			w, err := sim.NewPathWalker(b, r, p)
			if err != nil {
				return nil, err
			}
			rep.PathKernels = append(rep.PathKernels, timeWalker(w, "kernel, path forced", d, false))
		}
	}
	var err error
	if rep.OwnRules, rep.OwnOverBuiltin, err = ownRuleBench(rep.Kernels[:2], d); err != nil {
		return nil, err
	}
	rep.OwnOverPath = ownOverPaths(rep.OwnRules, rep.PathKernels)
	if rep.C, rep.GoOverC, rep.CNote, err = cBench(ctx, rep.Kernels[:2], d); err != nil {
		return nil, err
	}
	if rep.Large, rep.LargeC, rep.LargeOverC, rep.LargeNote, err = largeBench(ctx, d); err != nil {
		return nil, err
	}
	for i, pk := range rep.PathKernels {
		if len(rep.C) == 2 {
			rep.PathOverC = append(rep.PathOverC, speed(pk)/speed(rep.C[i%2]))
		}
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
	t0, c0 := time.Now(), processCPU()
	if err := runner.Execute(ctx, p, p.Units(runner.All), runner.Options{Workers: workers}, func(res runner.Result) error { return ts.Add(res.Unit.Cell(), res.Tally) }); err != nil {
		return nil, err
	}
	secs, cpu := time.Since(t0).Seconds(), (processCPU() - c0).Seconds()
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
	if cpu > 0 && k0.CPUSeconds > 0 {
		rep.EndToEnd.CPUSeconds = cpu
		rep.EndToEndCPURatio = speed(rep.EndToEnd) / speed(k0)
	}
	if python {
		rep.Python, rep.PythonRatios, rep.PythonNote = pythonBench(ctx, rep.Kernels[:2], d)
	}
	rep.PeakRSSMiB = float64(procstat.PeakRSSBytes()) / (1 << 20)
	return rep, nil
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
