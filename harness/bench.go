package harness

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/knightwalk/knightwalk/bench"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/sim"
)

// maxBenchTime bounds --time: the bench times a dozen kernels, so an hour
// per kernel would run for half a day.
const maxBenchTime = 5 * time.Minute

// benchCommand is `experiment bench`; main.go lists it.
func benchCommand() *command {
	return &command{
		name:  "bench",
		usage: "[--time D] [--workers N] [--json] [--no-python]",
		short: "measure the walk kernels, the end-to-end runner and a plain Python baseline",
		long:  manual.Bench,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			d := fs.Duration("time", time.Second, "time per kernel")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "workers for the end-to-end run")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			noPy := fs.Bool("no-python", false, "skip the Python comparison")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("bench takes no arguments")
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				if *d <= 0 || *d > maxBenchTime {
					return usagef("--time %v: want a duration above 0 and at most %v per kernel", *d, maxBenchTime)
				}
				rep, err := bench.Run(ctx, *d, *workers, !*noPy)
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
	}
}

func printBench(e *env, rep *bench.Report) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "what\tboard\trule\tworkers\twalks/s\tns/walk\tns/step\tmean length\t")
	row := func(r bench.Result) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.4g\t%.4g\t%.3g\t%.1f\t\n", r.Name, r.Board, r.Rule, r.Workers, r.WalksPerS, r.NsPerWalk, r.NsPerStep, r.MeanLength)
	}
	for i, r := range rep.Kernels {
		row(r)
		row(rep.Scalar[i])
	}
	for _, r := range rep.PathKernels {
		r.Name += " " + r.Path
		row(r)
	}
	for _, r := range rep.OwnRules {
		row(r)
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
	for i, r := range rep.OwnOverBuiltin {
		k := rep.Kernels[i%2] // the own rules copy the two 8x8 kernels, one walk a call then in lanes
		fmt.Fprintf(e.stdout, "own rule (%s) / built-in %s 8x8 (%s), CPU per walk: %.2f×", rep.OwnRules[i].Rule, k.Rule, k.Path, r)
		if i < len(rep.OwnOverPath) {
			for p, pr := range rep.OwnOverPath[i] {
				fmt.Fprintf(e.stdout, "; over %s forced %.2f×", rep.PathKernels[2*p+i%2].Path, pr)
			}
		}
		fmt.Fprintln(e.stdout)
	}
	for i, r := range rep.GoOverC {
		fmt.Fprintf(e.stdout, "Go kernel (%s) / C, %s 8x8: %.2f×\n", rep.Kernels[i].Path, rep.Kernels[i].Rule, r)
	}
	for i, r := range rep.PathOverC {
		pk := rep.PathKernels[i]
		fmt.Fprintf(e.stdout, "path %s forced / C, %s 8x8: %.2f×\n", pk.Path, pk.Rule, r)
	}
	if rep.CNote != "" {
		fmt.Fprintln(e.stdout, rep.CNote)
	}
	for i, r := range rep.LargeOverC {
		g := rep.Large[i]
		fmt.Fprintf(e.stdout, "general kernel / C, %s %s from the corner: %.2f× (%.1f against %.1f ns a step)\n", g.Rule, g.Board, r, g.NsPerStep, rep.LargeC[i].NsPerStep)
	}
	if rep.LargeNote != "" {
		fmt.Fprintln(e.stdout, rep.LargeNote)
	}
	for i, r := range rep.PythonRatios {
		fmt.Fprintf(e.stdout, "Go kernel / plain Python, %s 8x8: %.0f×\n", rep.Kernels[i].Rule, r)
	}
	if rep.PythonNote != "" {
		fmt.Fprintln(e.stdout, rep.PythonNote)
	}
	c := rep.CPU
	fmt.Fprintf(e.stdout, "peak memory (RSS): %.1f MiB; %d CPUs: %s %s (family %#x model %#x), %s; %s=%q\n",
		rep.PeakRSSMiB, rep.CPUs, c.Arch, c.Name, c.Family, c.Model, strings.Join(c.Features, " "), sim.KernelEnv, rep.KernelEnv)
}
