package runner

// Issue 21: the ways a finished result could still be deleted, each
// reproduced as it was found, and the class behind them: a run removes
// only DIR.partial, and only when it holds the tool's unfinished run.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFinishedResultNamedPartial: a finished result directory that is
// called X.partial (moved there by hand, or written by --out X.partial
// before such names were refused) survives a run into X.
func TestFinishedResultNamedPartial(t *testing.T) {
	s := testSpec(t)
	s.Walks = 20
	root := t.TempDir()
	x := filepath.Join(root, "dl")
	if _, err := Run(context.Background(), s, RunOptions{Out: x + "-done", Workers: 1, Shard: All}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(x+"-done", x+".partial"); err != nil {
		t.Fatal(err)
	}
	before := tree(t, x+".partial")
	for _, force := range []bool{false, true} {
		_, err := Run(context.Background(), s, RunOptions{Out: x, Force: force, Workers: 1, Shard: All})
		if err == nil || !strings.Contains(err.Error(), "no checkpoint") {
			t.Errorf("force %v: want a refusal saying %s.partial holds no checkpoint, got %v", force, x, err)
		}
		if got := tree(t, x+".partial"); len(got) != len(before) {
			t.Fatalf("force %v: the finished result in %s.partial was changed: %d entries, had %d", force, x, len(got), len(before))
		}
	}
}

// TestReservedOutNames: --out X.partial, X.lock and X.replaced-… are
// refused before anything is created.
func TestReservedOutNames(t *testing.T) {
	s := testSpec(t)
	s.Walks = 10
	root := t.TempDir()
	for _, name := range []string{"dl.partial", "dl.lock", "dl.replaced-12-ab", "dl.partial/"} {
		_, err := Run(context.Background(), s, RunOptions{Out: filepath.Join(root, name), Workers: 1, Shard: All})
		if err == nil || !strings.Contains(err.Error(), "reserves") {
			t.Errorf("--out %s: want a refusal, got %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("something was created: %v", ents)
	}
}

// TestInterruptedRunNotDiscardedSilently: a run without --resume over an
// interrupted run's progress refuses, saying how far it got, and keeps it;
// --force discards it and runs afresh; an empty DIR.partial is reused.
func TestInterruptedRunNotDiscardedSilently(t *testing.T) {
	s := testSpec(t)
	s.Walks = 20
	dir := filepath.Join(t.TempDir(), "r")
	full, _ := interrupted(t, s, dir, 3)
	cp, _ := os.ReadFile(filepath.Join(dir+".partial", checkpointName))
	_, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All})
	if err == nil || !strings.Contains(err.Error(), "3 of ") || !strings.Contains(err.Error(), "this experiment") || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("want a refusal naming 3 units done and --resume, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir+".partial", checkpointName)); string(b) != string(cp) {
		t.Fatal("the checkpoint was changed by a refused run")
	}
	got, err := Run(context.Background(), s, RunOptions{Out: dir, Force: true, Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	if got.Walks != full.Walks {
		t.Errorf("--force ran %d walks, want all %d afresh", got.Walks, full.Walks)
	}
	// Another config's progress cannot be resumed: it is discarded, saying so.
	leavePartial(t, s, dir, All, []int{0, 1})
	other := *s
	other.Walks++
	other.ConfigHash = strings.Repeat("ab", 32)
	other.WorkHash = other.ConfigHash
	var log strings.Builder
	if _, err := Run(context.Background(), &other, RunOptions{Out: dir, Force: true, Workers: 1, Shard: All, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + ".partial"); !os.IsNotExist(err) {
		t.Errorf("partial directory left: %v", err)
	}
	leavePartial(t, s, dir+"2", All, []int{0})
	log.Reset()
	if _, err := Run(context.Background(), &other, RunOptions{Out: dir + "2", Workers: 1, Shard: All, Log: &log}); err != nil || !strings.Contains(log.String(), "another config") {
		t.Errorf("another config's progress: err %v, log %q", err, log.String())
	}
	empty := filepath.Join(t.TempDir(), "e")
	os.Mkdir(empty+".partial", 0o755)
	if _, err := Run(context.Background(), s, RunOptions{Out: empty, Workers: 1, Shard: All}); err != nil {
		t.Errorf("an empty partial directory should be reused: %v", err)
	}
}

// TestOutNotADirectory: a file or symbolic link at --out is refused with
// a message that does not suggest --force, with and without it.
func TestOutNotADirectory(t *testing.T) {
	s := testSpec(t)
	s.Walks = 10
	root := t.TempDir()
	f := filepath.Join(root, "afile")
	os.WriteFile(f, []byte("mine"), 0o644)
	l := filepath.Join(root, "alink")
	os.Symlink(f, l)
	for _, out := range []string{f, l} {
		for _, force := range []bool{false, true} {
			_, err := Run(context.Background(), s, RunOptions{Out: out, Force: force, Workers: 1, Shard: All})
			if err == nil || !strings.Contains(err.Error(), "never replaces") {
				t.Errorf("--out %s force %v: %v", out, force, err)
			}
		}
	}
	if b, _ := os.ReadFile(f); string(b) != "mine" {
		t.Error("the user's file changed")
	}
}

// TestMergeOutIsAPart: merge --out naming one of its inputs (or a
// directory inside one, or a link to one) is refused, with and without
// --force, and the parts stay as they were.
func TestMergeOutIsAPart(t *testing.T) {
	s := testSpec(t)
	s.Walks = 20
	dirs := shards(t, s, 3)
	before := tree(t, dirs[0])
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(dirs[0], link)
	for _, out := range []string{dirs[0], dirs[0] + "/", filepath.Join(dirs[1], "sub"), link} {
		for _, force := range []bool{false, true} {
			parts, err := ReadParts(dirs)
			if err != nil {
				t.Fatal(err)
			}
			ts := NewTallies()
			if err := MergeInto(s, ts, parts); err != nil {
				t.Fatal(err)
			}
			_, err = WriteMerged(context.Background(), s, RunOptions{Out: out, Force: force, Workers: 1, Shard: All}, ts, parts, 0)
			if err == nil || !strings.Contains(err.Error(), "being merged") {
				t.Errorf("--out %s force %v: want a refusal, got %v", out, force, err)
			}
		}
	}
	if after := tree(t, dirs[0]); len(after) != len(before) {
		t.Fatal("a part changed")
	}
	if _, err := os.Stat(filepath.Join(dirs[1], "sub")); !os.IsNotExist(err) {
		t.Error("something was created inside a part")
	}
}

// TestDescriptionEditKeepsProgress (issue 33): editing an interrupted
// experiment's description does not discard its completed units: the
// checkpoint is keyed by the config without its description, and
// --resume runs only the rest, to the tables a whole run of the edited
// file writes.
func TestDescriptionEditKeepsProgress(t *testing.T) {
	s := specOf(t, "description: first words\n"+testYAML)
	s.Walks = 20
	dir := filepath.Join(t.TempDir(), "r")
	leavePartial(t, s, dir, All, []int{0, 1, 2})
	edited := specOf(t, "description: other words\n"+testYAML)
	edited.Walks = 20
	if edited.ConfigHash == s.ConfigHash || edited.WorkHash != s.WorkHash {
		t.Fatalf("config hashes %s %s, work hashes %s %s: want the description in the first only", s.ConfigHash, edited.ConfigHash, s.WorkHash, edited.WorkHash)
	}
	got, err := Run(context.Background(), edited, RunOptions{Out: dir, Resume: true, Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Run(context.Background(), edited, RunOptions{Out: dir + "-full", Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	if got.Walks >= full.Walks {
		t.Errorf("resumed run made %d walks, a whole one %d: the completed units were discarded", got.Walks, full.Walks)
	}
	sameFiles(t, dir, dir+"-full", "squares", "claims", "lengths")
}
