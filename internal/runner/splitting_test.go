package runner

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// splitYAML estimates the 5x5 random walk from a1 (exact P(success)
// 0.002214199177, by enumeration) by splitting, beside plain walks of
// Warnsdorff's rule, with a claim on each.
const splitYAML = `name: split
seed: 5
boards: [5x5]
starts: [a1, c3]
walks: 2000
exact: off
rules:
  - {name: random, estimator: splitting, particles: 2000, replicates: 20}
  - {name: warnsdorff}
claims:
  - {id: rw-a1, rule: random, square: a1, range: [0.001, 0.004]}
  - {id: rw-pool, rule: random, class: corner, below: 0.01}
  - {id: w-a1, rule: warnsdorff/random, square: a1, above: 0.5}
`

// TestSplittingEstimator: a rule with estimator: splitting gets rows that
// say so, an estimate whose interval covers the exact value, claims
// decided on it, no class rows, and the same tables for any workers and
// from merged shards.
func TestSplittingEstimator(t *testing.T) {
	s := specOf(t, splitYAML)
	var first *Completed
	for _, w := range []int{1, 2} {
		sum, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "out"), w, All, false)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = sum
			continue
		}
		if !sameValues(sum.Tables, first.Tables) {
			t.Fatal("2 workers: tables differ from 1 worker")
		}
		sameFiles(t, first.Dir, sum.Dir, "squares", "claims")
	}
	const exact = 0.002214199177
	for _, r := range first.Tables.Squares {
		switch r.Rule {
		case "random":
			if r.Estimator != table.EstimatorSplitting || r.Walks == 0 || !(r.SuccessSE > 0) {
				t.Errorf("random from %s: estimator %q, %d walks, SE %v", r.Start, r.Estimator, r.Walks, r.SuccessSE)
			}
			if r.Start == "a1" && !(r.SuccessLo <= exact && exact <= r.SuccessHi) {
				t.Errorf("random from a1: %v [%v, %v] misses the exact %v", r.SuccessRate, r.SuccessLo, r.SuccessHi, exact)
			}
			if r.Start == "a1" && math.Abs(r.SuccessRate-exact)/exact > 0.5 {
				t.Errorf("random from a1: %v, exact %v", r.SuccessRate, exact)
			}
		default:
			if r.Estimator != table.EstimatorWalks || r.Walks != 2000 {
				t.Errorf("%s from %s: estimator %q, %d walks", r.Rule, r.Start, r.Estimator, r.Walks)
			}
		}
	}
	for _, c := range first.Tables.Classes {
		if c.Rule == "random" {
			t.Errorf("a class row for the splitting rule: %+v", c)
		}
	}
	want := map[string]string{"rw-a1": "consistent", "rw-pool": "consistent", "w-a1": "consistent"}
	for _, c := range first.Tables.Claims {
		if c.Verdict != want[c.ID] {
			t.Errorf("claim %s: %s [%v, %v], want %s", c.ID, c.Verdict, c.Lo, c.Hi, want[c.ID])
		}
	}
	// Shards run no splitting; their merge computes it, to the same tables.
	var parts []string
	for k := range 2 {
		dir := filepath.Join(t.TempDir(), "part")
		if _, err := runTo(t, context.Background(), s, dir, 1, Shard{k, 2}, false); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, dir)
	}
	merged, err := merge(s, filepath.Join(t.TempDir(), "merged"), parts)
	if err != nil {
		t.Fatal(err)
	}
	if !sameValues(merged.Tables.Squares, first.Tables.Squares) || !sameValues(merged.Tables.Claims, first.Tables.Claims) {
		t.Fatal("merged shards: tables differ from one run")
	}
}
