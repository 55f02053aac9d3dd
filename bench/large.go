package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"runtime"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// largeCases are the general kernel's (board side, rule) pairs measured
// against bench/c/large.c, from the corner: the boards of sweeps and
// searches, where the walks are long and the board does not fit a word.
var largeCases = []struct {
	n    int
	rule string
}{{100, "random"}, {1000, "random"}, {100, "warnsdorff/random"}, {1000, "warnsdorff/random"}}

// largeBench times the general kernel from the corner square (walk w on
// stream w of the corner's key, in calls of 64 walks as the runner makes
// them on large boards) for about d on one thread, then bench/c/large.c
// (built with the system's C compiler, -O3 -march=native, the project's
// stream: the same walks) on as many walks. The C program must report the
// same steps as the Go walks, else the comparison is an error. It returns
// the Go and C results, alternating (Go, C per case), and Go's speed over
// C on CPU time per case; or a note saying why there is no C comparison
// (the Go rows are then still returned).
func largeBench(ctx context.Context, d time.Duration) (goRes, cRes []Result, ratios []float64, note string, err error) {
	bin, cleanup, note, err := buildC(ctx, "large", LargeC)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if bin != "" {
		defer cleanup()
	} else {
		note += ": no C comparison on large boards"
	}
	for _, c := range largeCases {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, "", err
		}
		b := sim.MustBoard(c.n, c.n)
		r, _ := sim.ParseRule(c.rule)
		g, steps := cornerWalks(b, r, d)
		goRes = append(goRes, g)
		if bin == "" {
			continue
		}
		cname := "warnsdorff"
		if r.Kind == sim.RandomWalk {
			cname = "random"
		}
		raw, xerr := exec.CommandContext(ctx, bin, cname, fmt.Sprint(c.n), fmt.Sprint(g.Walks)).Output()
		if xerr != nil {
			return nil, nil, nil, "", fmt.Errorf("bench/c/large.c %s %d: %v", cname, c.n, xerr)
		}
		var res struct {
			Walks      uint64  `json:"walks"`
			Steps      uint64  `json:"steps"`
			Seconds    float64 `json:"seconds"`
			CPUSeconds float64 `json:"cpu_seconds"`
		}
		if jerr := json.Unmarshal(raw, &res); jerr != nil {
			return nil, nil, nil, "", fmt.Errorf("bench/c/large.c output: %v", jerr)
		}
		if res.Walks != g.Walks || res.Steps != steps {
			return nil, nil, nil, "", fmt.Errorf("bench/c/large.c %s %dx%d: %d steps in %d walks, the Go kernel %d in %d: the C version walks other walks", cname, c.n, c.n, res.Steps, res.Walks, steps, g.Walks)
		}
		cr := result("C (cc -O3 -march=native)", b, r, 1, res.Walks, res.Steps, res.Seconds)
		cr.CPUSeconds = res.CPUSeconds
		cRes = append(cRes, cr)
		ratios = append(ratios, speed(g)/speed(cr))
	}
	return goRes, cRes, ratios, note, nil
}

// cornerWalks times walks of r on b from the corner for about d (at least
// 4 walks), 64 a call through WalkRange, on a locked thread, and returns
// the steps they took.
func cornerWalks(b *sim.Board, r sim.Rule, d time.Duration) (Result, uint64) {
	w, _ := sim.NewWalker(b, r)
	key := sim.NewKey(1, b, r, 0)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var out [64]sim.Outcome
	var walks, steps uint64
	t0, c0 := time.Now(), threadCPU()
	for time.Since(t0) < d || walks < 4 {
		run := out[:min(len(out), int(max(4, walks)))] // a short first call: one 1000x1000 Warnsdorff walk takes milliseconds
		w.WalkRange(0, key, walks, run)
		for _, o := range run {
			steps += uint64(o.Length - 1)
		}
		walks += uint64(len(run))
	}
	res := result("kernel, from the corner", b, r, 1, walks, steps, time.Since(t0).Seconds())
	res.CPUSeconds = (threadCPU() - c0).Seconds()
	res.Path = string(w.KernelPath())
	return res, steps
}
