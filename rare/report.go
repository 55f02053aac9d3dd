package rare

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Report is what `experiment rare` prints of an estimate: the estimate,
// its effort, and what plain sampling would need for the same relative
// standard error. JSON keys are its fields'.
type Report struct {
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
	Plain        *PlainResult `json:"plain,omitempty"`
	PlainCPU     float64      `json:"plain_cpu_seconds,omitempty"`
	PlainCPUSame float64      `json:"plain_cpu_seconds_same_rse,omitempty"`
	WallSeconds  float64      `json:"wall_seconds"`
	CPUSeconds   float64      `json:"cpu_seconds"`
	Warnings     []string     `json:"warnings"`
}

// NewReport is the report of the estimate res of o, which took wall and
// cpu seconds.
func NewReport(o Options, res Result, wall, cpu float64) Report {
	rep := Report{Board: o.Board.String(), Rule: o.Rule.Name(), Start: o.Board.SquareName(o.Start), Seed: o.Seed,
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

// AddPlain records a measured plain run and, from its CPU time per walk,
// the CPU time plain sampling needs for the splitting's relative standard
// error: (1-p)/(p·RSE²) walks at the splitting's p. The plain run need not
// see a success for that, only measure what a walk costs.
func (r *Report) AddPlain(pr PlainResult, cpu float64) {
	r.Plain, r.PlainCPU = &pr, cpu
	r.PlainCPUSame = cpu / float64(pr.Walks) * r.PlainWalks
	if math.IsInf(pr.RelStdErr, 0) {
		r.Plain.RelStdErr = -1
	}
}

// Print writes the report as text to w.
func (r Report) Print(w io.Writer) {
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
