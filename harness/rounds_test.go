package harness

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/runner"
)

const roundsYAML = `name: seq-cli
description: A sequential run with claims, split into shards round by round.
seed: 3
boards: [6x6]
starts: [a1, b1, c3]
walks: {until: decided, min: 200, max: 200000}
rules: [{name: warnsdorff}, {name: random}, {name: warnsdorff, tie_break: first}]
exact: off
claims:
  - {id: a1, rule: warnsdorff/random, square: a1, above: 0.9}
  - {id: c3, rule: warnsdorff/random, square: c3, above: 0.73}
`

// TestRunShardSequential: the same command, run --shard K/3, runs every
// round of a sequential run (the next one each time), merge says how far
// it is until the rounds decide the run, and then writes one run's
// squares, claims and lengths tables byte for byte.
func TestRunShardSequential(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "seq.yaml")
	if err := os.WriteFile(cfg, []byte(roundsYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one")
	if _, _, err := runCmd(t, "run", cfg, "--out", one, "--quiet"); err != nil {
		t.Fatal(err)
	}
	parts, merged := filepath.Join(dir, "parts"), filepath.Join(dir, "merged")
	for round := 1; ; round++ {
		if round > 30 {
			t.Fatal("not decided after 30 rounds")
		}
		for k := range 3 {
			if _, _, err := runCmd(t, "run", cfg, "--shard", fmt.Sprintf("%d/3", k), "--out", parts, "--quiet"); err != nil {
				t.Fatalf("round %d shard %d/3: %v", round, k, err)
			}
		}
		out, _, err := runCmd(t, "merge", "--out", merged, parts)
		if err == nil {
			break
		}
		if !errors.Is(err, runner.ErrNotDecided) {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("rounds merged: %d of at most ", round); !strings.Contains(out, want) || !strings.Contains(out, "squares still running: ") {
			t.Errorf("merge after round %d printed %q", round, out)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("--round %d --out %s", round+1, parts)) {
			t.Errorf("merge after round %d: %v", round, err)
		}
		if _, err := os.Stat(merged); err == nil {
			t.Fatalf("merge after round %d wrote %s", round, merged)
		}
		st, _, err := runCmd(t, "merge", "--status", parts)
		if want := fmt.Sprintf("rounds merged: %d of at most ", round); err != nil || !strings.Contains(st, want) || !strings.Contains(st, fmt.Sprintf("round %d: 0 of 3 parts done", round+1)) {
			t.Errorf("merge --status after round %d: %v %q", round, err, st)
		}
	}
	if st, _, err := runCmd(t, "merge", "--status", parts); err != nil || !strings.Contains(st, "decided after round ") {
		t.Errorf("merge --status once decided: %v %q", err, st)
	}
	for _, name := range []string{"squares.parquet", "claims.parquet", "lengths.parquet", "boards.parquet"} {
		a, _ := os.ReadFile(filepath.Join(one, name))
		b, err := os.ReadFile(filepath.Join(merged, name))
		if err != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs from one run's (%v)", name, err)
		}
	}
	// Once decided, a shard has nothing to run and writes nothing.
	if _, stderr, err := runCmd(t, "run", cfg, "--shard", "0/3", "--out", parts); err != nil || !strings.Contains(stderr, "has nothing to run") {
		t.Errorf("a shard after the decision: %v\n%s", err, stderr)
	}
	// --round without a sequential run or a shard is a usage error.
	if _, _, err := runCmd(t, "run", cfg, "--round", "2", "--out", filepath.Join(dir, "x")); err == nil || !strings.Contains(err.Error(), "--round is for a sequential run") {
		t.Errorf("--round without --shard: %v", err)
	}
}
