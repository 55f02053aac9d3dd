package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"text/tabwriter"
	"time"

	"knightwalk/bench"
	"knightwalk/internal/runner"
	"knightwalk/sim"
)

func init() {
	register(&command{
		name:  "bench",
		usage: "[--time D] [--workers N] [--json] [--no-python]",
		short: "measure the walk kernels, the end-to-end runner and a plain Python baseline",
		long: `Runs a fixed set of kernels on one goroutine (8x8 Warnsdorff/random, 8x8
random rule, 50x50, 200x200 and 1000x1000 Warnsdorff/random) and the
end-to-end runner on --workers goroutines, and prints walks/s, ns per walk
and per step, the end-to-end over kernel ratio and peak memory. With python3
on the PATH it also times plain Python versions of seed 000 and seed 001
(bench/knight_py.py) and reports the speed ratio measured in the same run.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			d := fs.Duration("time", time.Second, "time per kernel")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "workers for the end-to-end run")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			noPy := fs.Bool("no-python", false, "skip the Python comparison")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("bench takes no arguments")
				}
				if *workers < 1 || *d <= 0 {
					return usagef("--workers and --time must be positive")
				}
				rep, err := runBench(ctx, *d, *workers, !*noPy)
				if err != nil {
					return err
				}
				if *asJSON {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(rep)
				}
				printBench(e, rep)
				return nil
			}
		},
	})
}

// BenchResult is one line of the bench table.
type BenchResult struct {
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
}

// BenchReport is what bench prints.
type BenchReport struct {
	GOOS, GOARCH  string
	CPUs          int           `json:"cpus"`
	Kernels       []BenchResult `json:"kernels"`
	Scalar        []BenchResult `json:"scalar_kernels"`      // the previous kernel, for reference
	OverScalar    []float64     `json:"kernel_over_scalar"`  // speed ratios, on CPU time
	C             []BenchResult `json:"c,omitempty"`         // bench/c/kernels.c on the two 8x8 kernels
	GoOverC       []float64     `json:"go_over_c,omitempty"` // speed ratios, on CPU time
	CNote         string        `json:"c_note,omitempty"`
	EndToEnd      BenchResult   `json:"end_to_end"`
	EndToEndRatio float64       `json:"end_to_end_over_kernel"`
	// The same on CPU time (the runner's process against the kernel's
	// thread): the runner's own overhead, whatever share of the cores a
	// shared machine gives the run.
	EndToEndCPURatio float64       `json:"end_to_end_over_kernel_cpu,omitempty"`
	Python           []BenchResult `json:"python,omitempty"`
	PythonRatios     []float64     `json:"go_over_python,omitempty"`
	PythonNote       string        `json:"python_note,omitempty"`
	PeakRSSMiB       float64       `json:"peak_rss_mib"`
}

var benchKernels = []struct {
	rows, cols int
	rule       string
}{
	{8, 8, "warnsdorff/random"}, {8, 8, "random"}, {50, 50, "warnsdorff/random"}, {200, 200, "warnsdorff/random"}, {1000, 1000, "warnsdorff/random"},
}

func runBench(ctx context.Context, d time.Duration, workers int, python bool) (*BenchReport, error) {
	rep := &BenchReport{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU()}
	for _, k := range benchKernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := sim.MustBoard(k.rows, k.cols)
		r, _ := sim.ParseRule(k.rule)
		rep.Kernels = append(rep.Kernels, kernelBench(b, r, d, false))
		rep.Scalar = append(rep.Scalar, kernelBench(b, r, d, true))
		rep.OverScalar = append(rep.OverScalar, speed(rep.Kernels[len(rep.Kernels)-1])/speed(rep.Scalar[len(rep.Scalar)-1]))
	}
	var err error
	if rep.C, rep.GoOverC, rep.CNote, err = cBench(ctx, rep.Kernels[:2], d); err != nil {
		return nil, err
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
	s := &runner.Spec{Name: "bench", Seed: 1, Boards: []*sim.Board{b}, Rules: []sim.Rule{r}, Starts: [][]int{starts}, Walks: perStart}
	p := runner.NewPlan(s)
	ts := runner.NewTallies()
	t0, c0 := time.Now(), processCPU()
	if err := runner.Execute(ctx, p, p.Units, runner.Options{Workers: workers}, func(res runner.Result) error { return ts.Add(res.Unit.Key(), res.Tally) }); err != nil {
		return nil, err
	}
	secs, cpu := time.Since(t0).Seconds(), (processCPU() - c0).Seconds()
	var walks, steps uint64
	for _, st := range starts {
		t := ts.Get(runner.Key{Board: 0, Rule: 0, Start: st})
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
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		rep.PeakRSSMiB = float64(ru.Maxrss) / 1024 // Linux reports KiB
	}
	return rep, nil
}

func result(name string, b *sim.Board, r sim.Rule, workers int, walks, steps uint64, secs float64) BenchResult {
	return BenchResult{Name: name, Board: b.String(), Rule: r.Name(), Workers: workers, Walks: walks, Seconds: secs,
		WalksPerS: float64(walks) / secs, NsPerWalk: secs * 1e9 / float64(walks), NsPerStep: secs * 1e9 / float64(max(steps, 1)),
		MeanLength: 1 + float64(steps)/float64(walks)}
}

// pythonBench times bench/knight_py.py for the two 8x8 kernels and returns
// the Go/Python walks/s ratios.
func pythonBench(ctx context.Context, kernels []BenchResult, d time.Duration) ([]BenchResult, []float64, string) {
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
	if err := os.WriteFile(script, bench.KnightPy, 0o644); err != nil {
		return nil, nil, err.Error()
	}
	var out []BenchResult
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

func printBench(e *env, rep *BenchReport) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "what\tboard\trule\tworkers\twalks/s\tns/walk\tns/step\tmean length\t")
	row := func(r BenchResult) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.4g\t%.4g\t%.3g\t%.1f\t\n", r.Name, r.Board, r.Rule, r.Workers, r.WalksPerS, r.NsPerWalk, r.NsPerStep, r.MeanLength)
	}
	for i, r := range rep.Kernels {
		row(r)
		row(rep.Scalar[i])
	}
	for _, r := range rep.C {
		row(r)
	}
	row(rep.EndToEnd)
	for _, r := range rep.Python {
		row(r)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "\nend-to-end / (kernel × workers): %.3f (on CPU time: %.3f)\n", rep.EndToEndRatio, rep.EndToEndCPURatio)
	for i, r := range rep.OverScalar {
		fmt.Fprintf(e.stdout, "kernel / previous scalar kernel, %s %s: %.2f×\n", rep.Kernels[i].Rule, rep.Kernels[i].Board, r)
	}
	for i, r := range rep.GoOverC {
		fmt.Fprintf(e.stdout, "Go kernel / C, %s 8x8: %.2f×\n", rep.Kernels[i].Rule, r)
	}
	if rep.CNote != "" {
		fmt.Fprintln(e.stdout, rep.CNote)
	}
	for i, r := range rep.PythonRatios {
		fmt.Fprintf(e.stdout, "Go kernel / plain Python, %s 8x8: %.0f×\n", rep.Kernels[i].Rule, r)
	}
	if rep.PythonNote != "" {
		fmt.Fprintln(e.stdout, rep.PythonNote)
	}
	fmt.Fprintf(e.stdout, "peak memory (RSS): %.1f MiB; %d CPUs\n", rep.PeakRSSMiB, rep.CPUs)
}
