package runner

// The adversarial section: inputs and situations that must end in a clear
// error or a correct result, with nothing of the user's lost (issue 12).

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// tree returns every path under dir with its contents ("" for a directory).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() {
			out[p] = ""
		} else {
			b, _ := os.ReadFile(p)
			out[p] = "file:" + string(b)
		}
		return nil
	})
	return out
}

func siblings(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Dir(dir))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestForceReplacesOnlyResults: --force replaces a result directory this
// tool wrote and refuses, leaving it untouched, anything else.
func TestForceReplacesOnlyResults(t *testing.T) {
	s := testSpec(t)
	s.Walks = 50
	run := func(dir string) error {
		_, err := Run(context.Background(), s, RunOptions{Out: dir, Force: true, Workers: 2, Shard: All})
		return err
	}
	writeTree := func(dir string, files map[string]string) {
		for name, body := range files {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	good := filepath.Join(t.TempDir(), "good")
	if err := run(good); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(good, "manifest.json"))
	cases := []struct {
		name  string
		setup func(dir string)
		want  string
	}{
		{"thesis", func(d string) { writeTree(d, map[string]string{"thesis.tex": "\\begin", "chapters/one.tex": "x"}) }, "does not write"},
		{"empty dir", func(d string) { os.Mkdir(d, 0o755) }, "no manifest.json"},
		{"plain file", func(d string) { os.WriteFile(d, []byte("notes"), 0o644) }, "not a directory"},
		{"symlink", func(d string) { os.Symlink(good, d) }, "not a directory"},
		{"manifest {}", func(d string) { writeTree(d, map[string]string{"manifest.json": "{}"}) }, "lacks"},
		{"manifest not json", func(d string) { writeTree(d, map[string]string{"manifest.json": "hello"}) }, "manifest.json"},
		{"manifest unknown key", func(d string) {
			writeTree(d, map[string]string{"manifest.json": strings.Replace(string(manifest), `"seed"`, `"sead"`, 1)})
		}, "unknown field"},
		{"manifest lists a missing table", func(d string) { writeTree(d, map[string]string{"manifest.json": string(manifest)}) }, "missing"},
		{"result plus a user's file", func(d string) {
			copyDir(t, good, d)
			writeTree(d, map[string]string{"my-notes.txt": "keep me"})
		}, "my-notes.txt"},
		{"result plus a user's figure folder file", func(d string) {
			copyDir(t, good, d)
			writeTree(d, map[string]string{"figures/draft.tex": "keep me"})
		}, "draft.tex"},
		{"part.json of another tool", func(d string) { writeTree(d, map[string]string{"part.json": `{"format":"x"}`}) }, "format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			c.setup(dir)
			before := tree(t, dir)
			err := run(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "left untouched") {
				t.Fatalf("want a refusal mentioning %q, got %v", c.want, err)
			}
			if after := tree(t, dir); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s changed", dir)
			}
			if got := siblings(t, dir); !reflect.DeepEqual(got, []string{"out"}) {
				t.Fatalf("left beside it: %v", got)
			}
		})
	}
	// A result directory of the tool is replaced, a shard's part directory too.
	if err := run(good); err != nil {
		t.Fatalf("replacing a result: %v", err)
	}
	part := filepath.Join(t.TempDir(), "part")
	for range 2 {
		if _, err := Run(context.Background(), s, RunOptions{Out: part, Force: true, Workers: 1, Shard: Shard{1, 2}}); err != nil {
			t.Fatalf("replacing a part: %v", err)
		}
	}
	if got := siblings(t, good); !reflect.DeepEqual(got, []string{"good"}) {
		t.Fatalf("left beside the result: %v", got)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// TestOutIsCwdOrParent: --out . (or a parent of the working directory) is
// refused before anything is created: no "..partial", no lock file.
func TestOutIsCwdOrParent(t *testing.T) {
	s := testSpec(t)
	s.Walks = 10
	root := t.TempDir()
	cwd := filepath.Join(root, "a", "b")
	os.MkdirAll(cwd, 0o755)
	t.Chdir(cwd)
	for _, out := range []string{".", "..", "../..", cwd, "./"} {
		for _, force := range []bool{false, true} {
			_, err := Run(context.Background(), s, RunOptions{Out: out, Force: force, Workers: 1, Shard: All})
			if err == nil || !strings.Contains(err.Error(), "current directory") {
				t.Errorf("--out %s (force %v): %v", out, force, err)
			}
		}
	}
	if got := tree(t, root); len(got) != 3 {
		t.Errorf("something was created: %v", got)
	}
}

// TestPartialNotOurs: a DIR.partial holding a user's file is neither
// cleared nor used.
func TestPartialNotOurs(t *testing.T) {
	s := testSpec(t)
	s.Walks = 10
	dir := filepath.Join(t.TempDir(), "thesis")
	os.MkdirAll(dir+".partial", 0o755)
	os.WriteFile(filepath.Join(dir+".partial", "chapter.tex"), []byte("mine"), 0o644)
	_, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All})
	if err == nil || !strings.Contains(err.Error(), "chapter.tex") {
		t.Fatalf("want a refusal naming chapter.tex, got %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir+".partial", "chapter.tex")); err != nil || string(b) != "mine" {
		t.Fatal("the user's file was touched")
	}
}

// TestLockRefusesSecondRun: while one process holds DIR's lock, a run into
// DIR fails at once naming the holder and leaves DIR.partial alone; a lock
// file left behind by a dead holder does not block; the lock file is gone
// after a run.
func TestLockRefusesSecondRun(t *testing.T) {
	s := testSpec(t)
	s.Walks = 20
	dir := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(dir+".partial", 0o755)
	os.WriteFile(filepath.Join(dir+".partial", checkpointName), []byte("the long run's work\n"), 0o644)
	held, err := lockDir(dir) // another descriptor: flock treats it as another holder
	if err != nil {
		t.Fatal(err)
	}
	for _, resume := range []bool{false, true} {
		_, err = Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All, Resume: resume})
		if err == nil || !strings.Contains(err.Error(), "another run") || !strings.Contains(err.Error(), "pid ") {
			t.Fatalf("second run: %v", err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir+".partial", checkpointName)); string(b) != "the long run's work\n" {
		t.Fatal("the second run touched the first run's partial directory")
	}
	held.release()
	// A stale lock file (its holder died: the kernel dropped the flock).
	os.WriteFile(dir+".lock", []byte("pid 999999 on gone since 2001-01-01T00:00:00Z\n"), 0o644)
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All}); err != nil {
		t.Fatalf("stale lock file: %v", err)
	}
	if _, err := os.Stat(dir + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file left after the run: %v", err)
	}
}

// TestLockReleaseKeepsOthersLock: a holder whose lock file was replaced
// (removed and re-created by someone else) does not remove the new one.
func TestLockReleaseKeepsOthersLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	a, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(dir + ".lock")
	b, err := lockDir(dir)
	if err != nil {
		t.Fatalf("a fresh lock file: %v", err)
	}
	a.release()
	if _, err := os.Stat(dir + ".lock"); err != nil {
		t.Fatal("releasing a stale holder removed the live holder's lock file")
	}
	if _, err := lockDir(dir); err == nil {
		t.Fatal("lock taken twice")
	}
	b.release()
	if _, err := os.Stat(dir + ".lock"); !os.IsNotExist(err) {
		t.Fatal("lock file left")
	}
}
