package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// roundsYAMLs are sequential experiments with claims: squares of one
// board pooled by two claims, and a share claim over boards read as
// counts (its boards stop one by one).
var roundsYAMLs = []string{
	strings.Replace(seqYAML, "outputs: {walks: true}\n", "", 1),
	`name: seq-share
seed: 20
boards: [{sizes: 5..7}]
starts: [a1]
walks: {until: decided, min: 100, max: 1000000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: g, rule: warnsdorff/random, square: a1, sizes: 5..6, part_of_range: true, range: [0.98, 1], share: 1, per_board: count, source: ganzfried-2004-98-to-25}
`,
}

// runRounds runs every round of s in n shards into parts, merging after
// each, until the merge writes out; it returns the rounds it took.
func runAllRounds(t *testing.T, s *config.Experiment, parts, out string, n int) int {
	t.Helper()
	for round := 1; ; round++ {
		for k := range n {
			if _, err := Run(context.Background(), s, roundOpts(s, parts, Shard{k, n}, NextRound(parts, k))); err != nil {
				t.Fatalf("round %d, shard %d/%d: %v", round, k, n, err)
			}
		}
		_, st, err := MergeRounds(context.Background(), s, parts, n, roundOpts(s, out, All, 0))
		if err == nil {
			return st.Rounds
		}
		if !errors.Is(err, ErrNotDecided) {
			t.Fatal(err)
		}
		if st.Rounds != round || st.Running == 0 {
			t.Fatalf("after round %d the merge reports %+v", round, st)
		}
	}
}

func roundOpts(s *config.Experiment, out string, sh Shard, r int) RunOptions {
	return RunOptions{Out: out, Workers: 2, Shard: sh, Round: r, Meta: table.Metadata{Experiment: s.Name, Seed: s.Seed, ConfigHash: s.ConfigHash}}
}

// sameParquet fails unless dir holds the Parquet tables of want, byte for
// byte.
func sameParquet(t *testing.T, want, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(want, "*.parquet"))
	if len(files) < 3 {
		t.Fatalf("%s: %d tables", want, len(files))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from one run's (%v)", filepath.Join(dir, filepath.Base(f)), err)
		}
	}
}

// TestRoundsEqualOneRun: a sequential run split into 2, 3 and 4 shards
// round by round gives one run's tables byte for byte, in as many rounds.
func TestRoundsEqualOneRun(t *testing.T) {
	for _, y := range roundsYAMLs {
		s := specOf(t, y)
		one := filepath.Join(t.TempDir(), "one")
		if _, err := runTo(t, context.Background(), s, one, 2, All, false); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 3, 4} {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out")
			rounds := runAllRounds(t, s, filepath.Join(tmp, "parts"), out, n)
			if rounds < 2 {
				t.Errorf("%s: decided in %d round: the test wants a run of several", s.Name, rounds)
			}
			sameParquet(t, one, out)
		}
	}
}

// TestRoundInterrupted: a shard of a round cancelled mid-way and run
// again continues from its checkpoint, and the merge gives the same
// bytes.
func TestRoundInterrupted(t *testing.T) {
	s := specOf(t, strings.Replace(roundsYAMLs[0], "min: 200,", "min: 200000,", 1)) // round 1 of many units, so that a busy machine still cancels it part-way
	one := filepath.Join(t.TempDir(), "one")
	if _, err := runTo(t, context.Background(), s, one, 2, All, false); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	parts := filepath.Join(tmp, "parts")
	ctx := cancelAfter(RoundPartDir(parts, 1, 1), 0) // at the first unit checkpointed: the earliest, so a loaded machine cannot let the round finish first
	if _, err := Run(ctx, s, RunOptions{Out: parts, Workers: 1, Shard: Shard{1, 2}, Round: 1}); err == nil {
		t.Fatal("the cancelled shard finished: it needs more units")
	}
	if _, err := os.Stat(filepath.Join(RoundPartDir(parts, 1, 1)+".partial", checkpointName)); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	o := roundOpts(s, parts, Shard{1, 2}, 1)
	o.Log = &log
	if _, err := Run(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "resuming: ") {
		t.Errorf("the shard run again did not resume from its checkpoint:\n%s", log.String())
	}
	runAllRounds(t, s, parts, filepath.Join(tmp, "out"), 2)
	sameParquet(t, one, filepath.Join(tmp, "out"))
}

// TestRoundPartsRefused: a missing part, a part of another round, of
// another shard count and of another run are refused naming the part,
// and nothing is written.
func TestRoundPartsRefused(t *testing.T) {
	s := specOf(t, roundsYAMLs[0])
	tmp := t.TempDir()
	parts := filepath.Join(tmp, "parts")
	for r := 1; r <= 2; r++ {
		for k := range 2 {
			if _, err := Run(context.Background(), s, roundOpts(s, parts, Shard{k, 2}, r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	other := specOf(t, strings.Replace(roundsYAMLs[0], "seed: 3", "seed: 4", 1))
	otherParts := filepath.Join(tmp, "other")
	for k := range 2 {
		if _, err := Run(context.Background(), other, roundOpts(other, otherParts, Shard{k, 2}, 1)); err != nil {
			t.Fatal(err)
		}
	}
	swap := func(t *testing.T, a, b string) {
		t.Helper()
		tmpName := a + ".swap"
		for _, m := range [][2]string{{a, tmpName}, {b, a}, {tmpName, b}} {
			if err := os.Rename(m[0], m[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	merge := func(want string) {
		t.Helper()
		out := filepath.Join(tmp, "out")
		_, _, err := MergeRounds(context.Background(), s, parts, 2, roundOpts(s, out, All, 0))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("merge: %v, want an error with %q", err, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s written", out)
		}
	}
	// A part of round 1 where round 2's belongs.
	swap(t, RoundPartDir(parts, 1, 1), RoundPartDir(parts, 2, 1))
	merge(filepath.Join(RoundPartDir(parts, 1, 1), partName) + " is a part of round 2, found where round 1 belongs")
	swap(t, RoundPartDir(parts, 1, 1), RoundPartDir(parts, 2, 1))
	// A part of another run.
	swap(t, RoundPartDir(parts, 1, 0), RoundPartDir(otherParts, 1, 0))
	merge(filepath.Join(RoundPartDir(parts, 1, 0), partName) + " is a part of config")
	swap(t, RoundPartDir(parts, 1, 0), RoundPartDir(otherParts, 1, 0))
	// A missing part: the merge and the next round's shards say which.
	if err := os.Rename(RoundPartDir(parts, 2, 1), filepath.Join(tmp, "away")); err != nil {
		t.Fatal(err)
	}
	merge("round 2 of seq is incomplete: no part of shard 1 of 2")
	if _, err := Run(context.Background(), s, roundOpts(s, parts, Shard{0, 2}, 3)); err == nil || !strings.Contains(err.Error(), "no part of shard 1 of 2") {
		t.Errorf("round 3 with round 2 incomplete: %v", err)
	}
	if got := NextRound(parts, 1); got != 2 {
		t.Errorf("next round of shard 1: %d, want 2", got)
	}
	if got := NextRound(parts, 0); got != 3 {
		t.Errorf("next round of shard 0: %d, want 3", got)
	}
	// Parts of 2 shards read as 3.
	if _, _, err := MergeRounds(context.Background(), s, parts, 3, roundOpts(s, filepath.Join(tmp, "out"), All, 0)); err == nil || !strings.Contains(err.Error(), "is shard 0/2, found where shard 0/3 belongs") {
		t.Errorf("2 shards merged as 3: %v", err)
	}
}
