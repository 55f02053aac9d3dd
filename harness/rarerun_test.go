package harness

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/rare"
	"github.com/knightwalk/knightwalk/sim"
)

// p4x5 is the random walk's exact P(success) from a1 on 4x5, as
// 'experiment exact --board 4x5 --start a1 --rule random' prints it.
const p4x5 = 0.0036289544753086425

func options4x5(t *testing.T, workers int) rare.Options {
	t.Helper()
	b, err := sim.ParseBoard("4x5")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule("random")
	if err != nil {
		t.Fatal(err)
	}
	return rare.Options{Board: b, Rule: r, Start: 0, Seed: 1, Particles: 1000, Replicates: 10, Workers: workers}
}

// TestRareRunCoversExact: the splitting estimate of the random walk's success
// from a corner of 4x5 (seed 1) has an interval that covers the exact
// value, is the same on 1 and 2 workers, and the report says what it
// estimated; with plain walks beside it, their count is the one asked.
func TestRareRunCoversExact(t *testing.T) {
	x, err := exact.Walks(context.Background(), options4x5(t, 1).Board, options4x5(t, 1).Rule, []int{0}, exact.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if x[0].PSuccess != p4x5 {
		t.Fatalf("exact P(success) %v, want %v", x[0].PSuccess, p4x5)
	}
	one, err := rareRun(context.Background(), options4x5(t, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !(one.Lo <= p4x5 && p4x5 <= one.Hi) || one.Estimate <= 0 {
		t.Errorf("estimate %v [%v, %v] does not cover the exact %v", one.Estimate, one.Lo, one.Hi, p4x5)
	}
	if one.Board != "4x5" || one.Rule != "random" || one.Start != "a1" || one.Target != 20 || one.Quantity != "P(success)" || one.Estimator != "splitting" {
		t.Errorf("report names %s %s %s target %d %q %q", one.Board, one.Rule, one.Start, one.Target, one.Quantity, one.Estimator)
	}
	two, err := rareRun(context.Background(), options4x5(t, 2), 400)
	if err != nil {
		t.Fatal(err)
	}
	if two.Estimate != one.Estimate || !reflect.DeepEqual(two.Replicates, one.Replicates) || !reflect.DeepEqual(two.Levels, one.Levels) {
		t.Errorf("2 workers: estimate %v, replicates %v; 1 worker: %v, %v", two.Estimate, two.Replicates, one.Estimate, one.Replicates)
	}
	if two.Plain == nil || two.Plain.Walks != 400 {
		t.Errorf("plain run %+v, want 400 walks", two.Plain)
	}
}

// TestRareRunUsageError: options the estimator refuses (a single replicate)
// are a usage mistake, exit status 2.
func TestRareRunUsageError(t *testing.T) {
	o := options4x5(t, 1)
	o.Replicates = 1
	_, err := rareRun(context.Background(), o, 0)
	var u cli.UsageError
	if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), "rare: ") {
		t.Errorf("one replicate: %v, want a usage error", err)
	}
}
