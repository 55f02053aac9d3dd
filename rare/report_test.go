package rare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

func reportOptions4x5(t *testing.T) Options {
	t.Helper()
	b, err := sim.ParseBoard("4x5")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule("random")
	if err != nil {
		t.Fatal(err)
	}
	return Options{Board: b, Rule: r, Start: 0, Seed: 1, Particles: 1000, Replicates: 10, Workers: 1}
}

// TestNewReport: the plain walks needed for the same relative standard
// error are (1-p)/(p·RSE²), their steps those walks times the pilot's
// mean length; a target short of every square is named; an undefined
// relative standard error is -1 (JSON has no infinity).
func TestNewReport(t *testing.T) {
	o := reportOptions4x5(t)
	res := Result{Target: 12, Estimate: 0.2, StdErr: 0.02, RelStdErr: 0.1, PlainMeanSteps: 7}
	rep := NewReport(o, res, 1.5, 3)
	p, rse := res.Estimate, res.RelStdErr // in float64, as the report computes
	if want := (1 - p) / (p * rse * rse); rep.PlainWalks != want || rep.PlainSteps != want*7 {
		t.Errorf("plain walks %v, steps %v; want %v, %v", rep.PlainWalks, rep.PlainSteps, want, want*7)
	}
	if rep.Quantity != "P(path length reaches 12)" || rep.WallSeconds != 1.5 || rep.CPUSeconds != 3 {
		t.Errorf("quantity %q, wall %v, cpu %v", rep.Quantity, rep.WallSeconds, rep.CPUSeconds)
	}
	rep.AddPlain(PlainResult{Walks: 1000, RelStdErr: math.Inf(1)}, 2)
	if want := 2.0 / 1000 * rep.PlainWalks; rep.PlainCPUSame != want || rep.Plain.RelStdErr != -1 {
		t.Errorf("plain CPU for the same RSE %v, want %v; plain RSE %v, want -1", rep.PlainCPUSame, want, rep.Plain.RelStdErr)
	}
	zero := NewReport(o, Result{Target: 20, RelStdErr: math.Inf(1)}, 0, 0)
	if zero.RelStdErr != -1 || zero.PlainWalks != 0 || zero.Quantity != "P(success)" {
		t.Errorf("estimate 0: RSE %v, plain walks %v, quantity %q; want -1, 0, P(success)", zero.RelStdErr, zero.PlainWalks, zero.Quantity)
	}
	var w bytes.Buffer
	zero.Print(&w)
	if !strings.Contains(w.String(), "(relative standard error undefined (estimate 0))") {
		t.Errorf("text of an estimate 0:\n%s", w.String())
	}
}
