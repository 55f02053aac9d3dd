package harness

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/knightwalk/knightwalk/rare"
	"github.com/knightwalk/knightwalk/sim"
)

// rareCommand is `experiment rare`; main.go lists it.
func rareCommand() *command {
	return &command{
		name:  "rare",
		usage: "--board RxC [--rule R] [--tie-break T] [--order O] [--max-steps N] [--start SQ] [--seed S] [--target L] [--particles N] [--replicates R] [--levels auto|L1,L2,...] [--pilot N] [--level-fraction F] [--confidence C] [--plain WALKS] [--workers N] [--max-memory SIZE] [--format text|json]",
		short: "estimate a rare success probability by multilevel splitting",
		long: `Estimates P(success) (or, with --target, P(path length reaches L)) of one
randomised walk rule from one start square by fixed-effort multilevel
splitting on path length (docs/design.md, "Rare events"): unbiased, with the
standard error and Student t interval of --replicates independent
replicates. It reaches probabilities far below what plain sampling can
resolve, e.g. Warnsdorff/random from a corner of 400x400.

The levels are chosen by a pilot run on streams of its own (--levels auto),
or given. The same flags and seed give the same estimate for any --workers.
It also prints what plain sampling would need for the same relative
standard error: (1-p)/(p·RSE²) walks of the pilot's measured mean length.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var rf ruleFlags
			rf.register(fs, "warnsdorff")
			board := fs.String("board", "", "board as ROWSxCOLS, e.g. 400x400 (required)")
			start := fs.String("start", "", "start square, e.g. a1, or r0c0 on boards wider than 26 columns (default: the corner (0,0))")
			seed := fs.Uint64("seed", 1, "seed of the random streams")
			target := fs.Int("target", 0, "path length whose reaching is estimated (0: every square, i.e. success)")
			particles := fs.Int("particles", 1000, "walk segments per stage of a replicate (the effort N)")
			replicates := fs.Int("replicates", 10, "independent replicates, at least 2 (10 or more for a trustworthy interval)")
			levels := fs.String("levels", "auto", "auto (a pilot places them) or increasing path lengths L1,L2,... below the target")
			pilot := fs.Int("pilot", rare.DefaultPilot, "walks per stage of the pilot that places the levels")
			frac := fs.Float64("level-fraction", rare.DefaultLevelFraction, "fraction of the pilot's walks each level lets through")
			conf := fs.Float64("confidence", 0.95, "confidence level of the interval")
			workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines running a stage's segments")
			format := fs.String("format", "text", "output format: text or json")
			maxMem := byteSize(defaultMaxMemory())
			fs.Var(&maxMem, "max-memory", "memory the particles' saved board states may take, e.g. 2GiB; the default is half the machine's memory, at most 4GiB")
			plainWalks := fs.Int64("plain", 0, "also run this many plain walks (those 'experiment run' draws) and compare their cost at the same precision")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("rare takes no arguments, got %q", args)
				}
				if *format != "text" && *format != "json" {
					return usagef("--format %q: valid formats are text, json", *format)
				}
				if err := checkWorkers(*workers); err != nil {
					return err
				}
				// An explicit 0 is a mistake, not "the default".
				if *pilot < 2 {
					return usagef("--pilot %d: want at least 2 walks per stage", *pilot)
				}
				if !(*frac > 0 && *frac < 1) {
					return usagef("--level-fraction %g: want a fraction strictly between 0 and 1, e.g. %g", *frac, rare.DefaultLevelFraction)
				}
				if !(*conf > 0 && *conf < 1) {
					return usagef("--confidence %g: want a level strictly between 0 and 1, e.g. 0.95", *conf)
				}
				if *plainWalks < 0 {
					return usagef("--plain %d: want a number of walks, or 0 for none", *plainWalks)
				}
				o, err := rareOptions(&rf, *board, *start, *levels)
				if err != nil {
					return err
				}
				o.Seed, o.Target, o.Particles, o.Replicates = *seed, *target, *particles, *replicates
				o.Pilot, o.LevelFraction, o.Confidence, o.Workers, o.MaxMemory = *pilot, *frac, *conf, *workers, int64(maxMem)
				t0, cpu0 := time.Now(), cpuSeconds()
				res, err := rare.Estimate(ctx, o)
				var re *sim.RuleError
				if err != nil {
					if ctx.Err() != nil || errors.As(err, &re) { // a rule of your own at fault, not the command line
						return fmt.Errorf("rare: %w", err)
					}
					return usagef("rare: %v", err)
				}
				rep := newRareReport(o, res, time.Since(t0).Seconds(), cpuSeconds()-cpu0)
				if *plainWalks > 0 {
					cpu1 := cpuSeconds()
					pr, err := rare.Plain(ctx, o, *plainWalks)
					if err != nil {
						return err
					}
					rep.addPlain(pr, cpuSeconds()-cpu1)
				}
				if *format == "json" {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(rep)
				}
				rep.print(e)
				return nil
			}
		},
	}
}

// rareOptions parses the board, rule, start and levels flags; every
// mistake is a usage error naming its flag.
func rareOptions(rf *ruleFlags, board, start, levels string) (rare.Options, error) {
	b, starts, err := boardAndStarts(board, start)
	if err != nil {
		return rare.Options{}, err
	}
	if start == "" {
		starts = []int{0}
	}
	r, err := rf.resolve()
	if err != nil {
		return rare.Options{}, err
	}
	o := rare.Options{Board: b, Rule: r, Start: starts[0]}
	if levels != "auto" {
		for _, f := range strings.Split(levels, ",") {
			l, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return rare.Options{}, usagef("--levels %q: want auto or increasing path lengths such as 1000,5000,9000", levels)
			}
			o.Levels = append(o.Levels, l)
		}
	}
	return o, nil
}

// rareReport is what rare prints; JSON keys are its fields'.
type rareReport struct {
	Board      string    `json:"board"`
	Rule       string    `json:"rule"`
	Start      string    `json:"start"`
	Seed       uint64    `json:"seed,string"` // a string: seeds pass 2^53
	Target     int       `json:"target"`
	Quantity   string    `json:"quantity"`
	Estimator  string    `json:"estimator"`
	Estimate   float64   `json:"estimate"`
	StdErr     float64   `json:"std_err"`
	RelStdErr  float64   `json:"rel_std_err"`
	Lo         float64   `json:"lo"`
	Hi         float64   `json:"hi"`
	Confidence float64   `json:"confidence"`
	Levels     []int     `json:"levels"`
	StageHits  []int64   `json:"stage_hits"`
	Particles  int       `json:"particles"`
	Replicates []float64 `json:"replicates"`
	Walks      int64     `json:"walk_segments"`
	Steps      int64     `json:"steps"`
	PilotWalks int64     `json:"pilot_walks"`
	PilotSteps int64     `json:"pilot_steps"`
	// Plain sampling for the same relative standard error, reckoned from
	// the pilot's plain walks (0 when the levels were given or p is 0).
	PlainMeanSteps float64 `json:"plain_mean_steps"`
	PlainWalks     float64 `json:"plain_walks_same_rse"`
	PlainSteps     float64 `json:"plain_steps_same_rse"`
	// A measured plain run (--plain), and its CPU time per walk scaled to
	// the walks needed for the splitting's relative standard error.
	Plain        *rare.PlainResult `json:"plain,omitempty"`
	PlainCPU     float64           `json:"plain_cpu_seconds,omitempty"`
	PlainCPUSame float64           `json:"plain_cpu_seconds_same_rse,omitempty"`
	WallSeconds  float64           `json:"wall_seconds"`
	CPUSeconds   float64           `json:"cpu_seconds"`
	Warnings     []string          `json:"warnings"`
}

func newRareReport(o rare.Options, res rare.Result, wall, cpu float64) rareReport {
	rep := rareReport{Board: o.Board.String(), Rule: o.Rule.Name(), Start: o.Board.SquareName(o.Start), Seed: o.Seed,
		Target: res.Target, Estimator: "splitting", Estimate: res.Estimate, StdErr: res.StdErr, RelStdErr: res.RelStdErr,
		Lo: res.Lo, Hi: res.Hi, Confidence: res.Confidence, Levels: res.Levels, StageHits: res.StageHits,
		Particles: res.Particles, Replicates: res.Replicates, Walks: res.Walks, Steps: res.Steps,
		PilotWalks: res.PilotWalks, PilotSteps: res.PilotSteps, PlainMeanSteps: res.PlainMeanSteps,
		WallSeconds: wall, CPUSeconds: cpu, Warnings: res.Warnings, Quantity: "P(success)"}
	if res.Target != o.Board.Squares() {
		rep.Quantity = fmt.Sprintf("P(path length reaches %d)", res.Target)
	}
	if p := res.Estimate; p > 0 && p < 1 && res.RelStdErr > 0 && res.PlainMeanSteps > 0 {
		rep.PlainWalks = (1 - p) / (p * res.RelStdErr * res.RelStdErr)
		rep.PlainSteps = rep.PlainWalks * res.PlainMeanSteps
	}
	if math.IsInf(rep.RelStdErr, 0) {
		rep.RelStdErr = -1 // JSON has no infinity: -1 says undefined (estimate 0)
	}
	return rep
}

// addPlain records a measured plain run and, from its CPU time per walk,
// the CPU time plain sampling needs for the splitting's relative standard
// error: (1-p)/(p·RSE²) walks at the splitting's p. The plain run need not
// see a success for that, only measure what a walk costs.
func (r *rareReport) addPlain(pr rare.PlainResult, cpu float64) {
	r.Plain, r.PlainCPU = &pr, cpu
	r.PlainCPUSame = cpu / float64(pr.Walks) * r.PlainWalks
	if math.IsInf(pr.RelStdErr, 0) {
		r.Plain.RelStdErr = -1
	}
}

func (r rareReport) print(e *env) {
	w := e.stdout
	fmt.Fprintf(w, "%s %s from %s, seed %d: %s by fixed-effort multilevel splitting\n", r.Board, r.Rule, r.Start, r.Seed, r.Quantity)
	rse := "undefined (estimate 0)"
	if r.RelStdErr >= 0 {
		rse = fmt.Sprintf("%.1f%%", 100*r.RelStdErr)
	}
	fmt.Fprintf(w, "estimate  %.4g ± %.2g (relative standard error %s), %g%% interval [%.4g, %.4g] (Student t over %d replicates)\n",
		r.Estimate, r.StdErr, rse, 100*r.Confidence, r.Lo, r.Hi, len(r.Replicates))
	fmt.Fprintf(w, "levels    %s\n", joinInts(r.Levels))
	fmt.Fprintf(w, "hits      %s (of %d segments a stage and replicate)\n", joinInts64(r.StageHits), r.Particles)
	fmt.Fprintf(w, "effort    %d walk segments, %.4g steps; pilot %d walks, %.4g steps\n", r.Walks, float64(r.Steps), r.PilotWalks, float64(r.PilotSteps))
	if r.PlainWalks > 0 {
		fmt.Fprintf(w, "plain     the same relative standard error by plain sampling: %.3g walks of %.0f steps on average, %.3g steps (%.3gx the splitting's, pilot included)\n",
			r.PlainWalks, r.PlainMeanSteps, r.PlainSteps, r.PlainSteps/float64(r.Steps+r.PilotSteps))
	}
	fmt.Fprintf(w, "time      %.1f s wall, %.1f CPU-s\n", r.WallSeconds, r.CPUSeconds)
	if p := r.Plain; p != nil {
		fmt.Fprintf(w, "measured  plain sampling: %d of %d walks reached the target, %.4g ± %.2g, %.4g steps, %.1f CPU-s",
			p.Hits, p.Walks, p.Estimate, p.StdErr, float64(p.Steps), r.PlainCPU)
		if r.PlainCPUSame > 0 {
			fmt.Fprintf(w, "; for the splitting's relative standard error it would need %.3g walks, %.4g CPU-s (%.3gx the splitting's)", r.PlainWalks, r.PlainCPUSame, r.PlainCPUSame/r.CPUSeconds)
		}
		fmt.Fprintln(w)
	}
	for _, x := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func joinInts64(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, " ")
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
