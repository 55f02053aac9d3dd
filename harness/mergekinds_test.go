package harness

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMergeChecksKindsFirst: a part that does not belong in a sequential
// run's parts directory (a fixed run's part, a part of another seed, of
// another shard count, of another round) is refused by merge --status
// and by merge alike, each naming the part that does not belong and not a
// genuine one, with no Go panic and nothing written.
func TestMergeChecksKindsFirst(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	seq := write("seq.yaml", roundsYAML)
	otherSeed := write("seed.yaml", strings.Replace(roundsYAML, "seed: 3", "seed: 4", 1))
	fixed := write("fixed.yaml", strings.Replace(roundsYAML, "walks: {until: decided, min: 200, max: 200000}", "walks: 100", 1))
	shards := func(cfg, parts string, n int, rounds ...string) {
		t.Helper()
		for _, r := range rounds {
			for k := range n {
				if _, _, err := runCmd(t, "run", cfg, "--shard", strings.Join([]string{itoa(k), itoa(n)}, "/"), "--round", r, "--out", parts, "--quiet"); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	genuine := filepath.Join(dir, "genuine")
	shards(seq, genuine, 2, "1", "2")
	seeded := filepath.Join(dir, "seeded")
	shards(otherSeed, seeded, 2, "1")
	three := filepath.Join(dir, "three")
	shards(seq, three, 3, "1")
	fixedParts := filepath.Join(dir, "fixed")
	for k := range 2 {
		if _, _, err := runCmd(t, "run", fixed, "--shard", itoa(k)+"/2", "--out", filepath.Join(fixedParts, "part-"+itoa(k)), "--quiet"); err != nil {
			t.Fatal(err)
		}
	}
	// copyDir copies the genuine parts and puts part.json of from at round-1/part-0.
	place := func(t *testing.T, from string, round string) string {
		t.Helper()
		parts := filepath.Join(t.TempDir(), "parts")
		if err := os.CopyFS(parts, os.DirFS(genuine)); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(parts, "round-"+round, "part-0", "part.json")
		data, err := os.ReadFile(filepath.Join(from, "part.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(target, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return parts
	}
	for _, c := range []struct {
		name, from, round, want string
	}{
		{"a fixed run's part", filepath.Join(fixedParts, "part-0"), "1", "a run of a fixed number of walks"},
		{"a part of another seed", filepath.Join(seeded, "round-1", "part-0"), "1", "is a part of another run (config "},
		{"a part of 3 shards", filepath.Join(three, "round-1", "part-0"), "1", "3 shards) than the other 3 parts here"},
		{"a part of round 1 in round 2", filepath.Join(genuine, "round-1", "part-0"), "2", "is a part of round 1, found where round 2 belongs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts := place(t, c.from, c.round)
			bad := filepath.Join(parts, "round-"+c.round, "part-0", "part.json")
			out := filepath.Join(filepath.Dir(parts), "out")
			for _, args := range [][]string{{"merge", "--status", parts}, {"merge", "--out", out, parts}} {
				_, _, err := runCmd(t, args...)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), bad) {
					t.Errorf("%s: %v; want an error naming %s with %q", args[:2], err, bad, c.want)
				}
				if err != nil && strings.Contains(err.Error(), "part-1") {
					t.Errorf("%s blames a genuine part: %v", args[:2], err)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
	// Parts of a fixed run: a 3-shard part among 2-shard ones is refused
	// by both, naming it; one part of two is progress to --status and
	// incomplete to merge.
	mixed := filepath.Join(t.TempDir(), "mixed")
	for k := range 2 {
		if err := os.CopyFS(filepath.Join(mixed, "part-"+itoa(k)), os.DirFS(filepath.Join(fixedParts, "part-"+itoa(k)))); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCmd(t, "run", fixed, "--shard", "2/3", "--out", filepath.Join(mixed, "part-2"), "--quiet"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge", "--status", mixed}, {"merge", "--out", filepath.Join(dir, "out3"), mixed}} {
		_, _, err := runCmd(t, args...)
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(mixed, "part-2", "part.json")+" is a part of another run") && !strings.Contains(err.Error(), ": "+filepath.Join(mixed, "part-2", "part.json")+" is a part of another run") {
			t.Errorf("%s: %v; want part-2 named", args[:2], err)
		}
	}
	half := filepath.Join(t.TempDir(), "half")
	if err := os.CopyFS(filepath.Join(half, "part-0"), os.DirFS(filepath.Join(fixedParts, "part-0"))); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCmd(t, "merge", "--status", half); err != nil || !strings.Contains(out, "1 of 2 parts done") {
		t.Errorf("merge --status of 1 part of 2: %v, %q", err, out)
	}
	if _, _, err := runCmd(t, "merge", "--out", filepath.Join(dir, "out4"), half); err == nil || !strings.Contains(err.Error(), "incomplete set of shards: 1 of 2 given; missing [1]") {
		t.Errorf("merge of 1 part of 2: %v", err)
	}

	// Two parts of round 1 only, of two seeds: neither is taken for the
	// genuine one; both are named, by status and merge alike.
	parts := filepath.Join(t.TempDir(), "parts")
	if err := os.CopyFS(filepath.Join(parts, "round-1", "part-1"), os.DirFS(filepath.Join(genuine, "round-1", "part-1"))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(parts, "round-1", "part-0"), os.DirFS(filepath.Join(seeded, "round-1", "part-0"))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge", "--status", parts}, {"merge", "--out", filepath.Join(dir, "out2"), parts}} {
		_, _, err := runCmd(t, args...)
		if err == nil || !strings.Contains(err.Error(), "part-0") || !strings.Contains(err.Error(), "part-1") || !strings.Contains(err.Error(), "as many parts here of each") {
			t.Errorf("%s: %v; want both parts named as of different runs", args[:2], err)
		}
	}
}

func itoa(k int) string { return strconv.Itoa(k) }
