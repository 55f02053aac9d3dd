package runner

// The adversarial section: inputs and situations that must end in a clear
// error or a correct result, with nothing of the user's lost (issue 12).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/stats"
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
		// An empty directory is replaced by --force (nothing to lose; issue
		// 33: it asked for --force and then refused it): cmd's
		// TestForceReplacesOwnResultWithFigures.
		{"plain file", func(d string) { os.WriteFile(d, []byte("notes"), 0o644) }, "not a result directory"},
		{"symlink", func(d string) { os.Symlink(good, d) }, "not a result directory"},
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
	link := filepath.Join(root, "link")
	os.Symlink(filepath.Join(root, "a"), link)
	for _, out := range []string{".", "..", "../..", cwd, "./", link, filepath.Join(link, "b")} {
		for _, force := range []bool{false, true} {
			_, err := Run(context.Background(), s, RunOptions{Out: out, Force: force, Workers: 1, Shard: All})
			if err == nil || !strings.Contains(err.Error(), "current directory") {
				t.Errorf("--out %s (force %v): %v", out, force, err)
			}
		}
	}
	if got := tree(t, root); len(got) != 4 {
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

// TestLockFileOfTheUser: a file at DIR.lock that is not a lock file of
// the tool is refused, neither overwritten nor removed.
func TestLockFileOfTheUser(t *testing.T) {
	s := testSpec(t)
	s.Walks = 10
	dir := filepath.Join(t.TempDir(), "thesis")
	os.WriteFile(dir+".lock", []byte("my notes about locks\n"), 0o644)
	_, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All})
	if err == nil || !strings.Contains(err.Error(), "not a lock file") {
		t.Fatalf("want a refusal, got %v", err)
	}
	if b, _ := os.ReadFile(dir + ".lock"); string(b) != "my notes about locks\n" {
		t.Fatal("the user's file was changed")
	}
	if got := siblings(t, dir); !reflect.DeepEqual(got, []string{"thesis.lock"}) {
		t.Fatalf("left: %v", got)
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

// interrupted leaves in dir.partial what a run of s killed after its first
// k units leaves: the checkpoint and, with the per-walk table, the
// fragments; and returns the tables of a complete run, with its walks.parquet.
func interrupted(t *testing.T, s *config.Experiment, dir string, k int) (*Completed, []byte) {
	t.Helper()
	full, err := Run(context.Background(), s, RunOptions{Out: dir + "-full", Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	walks, _ := os.ReadFile(filepath.Join(dir+"-full", results.WalksFile))
	var ids []int
	for id := range k {
		ids = append(ids, id)
	}
	leavePartial(t, s, dir, All, ids)
	return full, walks
}

// leavePartial writes into dir.partial the checkpoint (and fragments) of a
// run of shard that finished the units ids, in that order.
func leavePartial(t *testing.T, s *config.Experiment, dir string, shard Shard, ids []int) {
	t.Helper()
	p, _ := NewPlan(s)
	partial := dir + ".partial"
	os.MkdirAll(partial, 0o755)
	cp, err := openCheckpoint(partial, checkpointHeader{Format: checkpointFormat, ConfigHash: workKey(s), Shard: shard.String(), Units: p.Len()})
	if err != nil {
		t.Fatal(err)
	}
	var fw *fragWriter
	if s.PerWalk {
		if fw, err = createFrag(filepath.Join(partial, unitWalksName), workKey(s)); err != nil {
			t.Fatal(err)
		}
	}
	units := func(yield func(Unit) bool) {
		for _, id := range ids {
			if !yield(p.Unit(id)) {
				return
			}
		}
	}
	err = Execute(context.Background(), p, units, Options{Workers: 2, PerWalk: s.PerWalk}, func(r Result) error {
		if fw != nil {
			if err := fw.add(r.Unit, r.Walks); err != nil {
				return err
			}
		}
		return cp.Add(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	cp.Close()
	if fw != nil {
		fw.close()
	}
}

func resume(s *config.Experiment, dir string) (*Completed, error) {
	return Run(context.Background(), s, RunOptions{Out: dir, Workers: 3, Shard: All, Resume: true})
}

// TestResumeDamagedCheckpoint: a checkpoint record changed in any way is
// never used: a torn last line is run again, anything else refuses the
// resume naming the line and unit, and leaves the checkpoint as it was.
func TestResumeDamagedCheckpoint(t *testing.T) {
	s := testSpec(t)
	s.Walks = 300
	base := filepath.Join(t.TempDir(), "base")
	full, _ := interrupted(t, s, base, 6)
	good, _ := os.ReadFile(filepath.Join(base+".partial", checkpointName))
	lines := strings.SplitAfter(string(good), "\n") // header, 6 records, ""
	if len(lines) != 8 {
		t.Fatalf("%d lines", len(lines))
	}
	other := testSpec(t)
	other.ConfigHash = strings.Repeat("ab", 32)
	other.WorkHash = other.ConfigHash // another config, not another description
	otherDir := filepath.Join(t.TempDir(), "other")
	interrupted(t, other, otherDir, 6)
	otherCP, _ := os.ReadFile(filepath.Join(otherDir+".partial", checkpointName))
	otherLines := strings.SplitAfter(string(otherCP), "\n")
	p, _ := NewPlan(s)
	resealed := func(unit int, edit func(*stats.Tally)) string {
		r := Result{Unit: p.Unit(unit)}
		var rec checkpointRecord
		decodeStrict([]byte(lines[1+unit]), &rec)
		r.Tally, _ = rec.Tally.tally(36)
		edit(r.Tally)
		var b strings.Builder
		c := &checkpoint{w: bufio.NewWriter(&b), hash: workKey(s)}
		c.Add(r)
		return b.String()
	}
	join := func(ls ...string) string { return strings.Join(ls, "") }
	rec := lines[1:7]
	cases := []struct {
		name, content, want string
	}{
		{"one number changed", join(lines[0], rec[0], rec[1], strings.Replace(rec[2], `"successes":`, `"successes":1`, 1), rec[3], rec[4], rec[5]), "line 4 (unit 2: 6x6"},
		{"key renamed", join(lines[0], rec[0], strings.Replace(rec[1], `"successes"`, `"sucesses"`, 1), rec[2]), "unknown field"},
		{"sum removed", join(lines[0], rec[0], strings.Replace(rec[1], `,"sum"`, `,"x"`, 1)), "line 3"},
		{"complete last line damaged", join(lines[0], rec[0], rec[1], strings.Replace(rec[2], `"walks":300`, `"walks":301`, 1)), "line 4"},
		{"record twice", join(lines[0], rec[0], rec[1], rec[0]), "recorded twice"},
		{"record of another config", join(lines[0], rec[0], otherLines[2]), "checksum"},
		{"resealed with more walks", join(lines[0], resealed(0, func(x *stats.Tally) { x.Walks += 100; x.Lengths[36] += 100; x.Successes += 100 })), "walks where the plan has 300"},
		{"resealed with counts that disagree", join(lines[0], resealed(0, func(x *stats.Tally) { x.Successes++ })), "disagree"},
		{"unit out of range", join(lines[0], strings.Replace(rec[0], `"unit":0`, `"unit":99999`, 1)), "not a unit"},
		{"header of another config", join(otherLines[0], rec[0]), "line 1"},
		{"header with an extra key", join(strings.Replace(lines[0], `{"format"`, `{"x":1,"format"`, 1), rec[0]), "line 1"},
		{"empty", "", "empty checkpoint"},
		{"garbage line", join(lines[0], rec[0], "}{\n", rec[1]), "line 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			os.MkdirAll(dir+".partial", 0o755)
			path := filepath.Join(dir+".partial", checkpointName)
			os.WriteFile(path, []byte(c.content), 0o644)
			_, err := resume(s, dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error containing %q, got %v", c.want, err)
			}
			if b, _ := os.ReadFile(path); string(b) != c.content {
				t.Error("a refused resume changed the checkpoint")
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Error("a refused resume wrote results")
			}
		})
	}
	for _, c := range []struct{ name, content string }{
		{"intact", string(good)},
		{"torn last line", join(lines[0], rec[0], rec[1], rec[2][:len(rec[2])/2])},
		{"torn last line of only a brace", join(lines[0], rec[0], "{")},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			os.MkdirAll(dir+".partial", 0o755)
			os.WriteFile(filepath.Join(dir+".partial", checkpointName), []byte(c.content), 0o644)
			got, err := resume(s, dir)
			if err != nil {
				t.Fatal(err)
			}
			if !sameValues(got.Tables, full.Tables) {
				t.Fatal("resumed tables differ from an uninterrupted run")
			}
			if got.Walks >= full.Walks {
				t.Errorf("resume ran %d walks of %d: nothing reused", got.Walks, full.Walks)
			}
		})
	}
}

// TestResumePerWalk: an experiment that writes the per-walk table resumes,
// and its walks.parquet is byte for byte that of an uninterrupted run; a
// torn fragment is run again, a damaged one refuses the resume.
func TestResumePerWalk(t *testing.T) {
	s := testSpec(t)
	s.Walks = 300
	s.PerWalk, s.RowGroup = true, 1000
	base := filepath.Join(t.TempDir(), "base")
	full, want := interrupted(t, s, base, 7)
	if len(want) == 0 {
		t.Fatal("no walks.parquet")
	}
	cp, _ := os.ReadFile(filepath.Join(base+".partial", checkpointName))
	frag, _ := os.ReadFile(filepath.Join(base+".partial", unitWalksName))
	lines := strings.SplitAfter(string(cp), "\n")
	for _, c := range []struct {
		name     string
		cp, frag string
		want     string // "" for success
	}{
		{"intact", string(cp), string(frag), ""},
		{"fragment of a unit not checkpointed yet", strings.Join(lines[:7], ""), string(frag), ""},
		{"torn fragment record", strings.Join(lines[:7], ""), string(frag[:len(frag)-40]), ""},
		{"torn fragment of a checkpointed unit", string(cp), string(frag[:len(frag)-40]), "is in the checkpoint but its walks are not here"},
		{"a byte of the fragments flipped", string(cp), string(frag[:100]) + string(frag[100]^1) + string(frag[101:]), "checksum mismatch"},
		{"fragments missing", string(cp), "", "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			os.MkdirAll(dir+".partial", 0o755)
			os.WriteFile(filepath.Join(dir+".partial", checkpointName), []byte(c.cp), 0o644)
			if c.name != "fragments missing" {
				os.WriteFile(filepath.Join(dir+".partial", unitWalksName), []byte(c.frag), 0o644)
			}
			got, err := resume(s, dir)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("want an error containing %q, got %v", c.want, err)
				}
				if strings.Contains(c.name, "flipped") && strings.Contains(err.Error(), "(unit ") {
					t.Errorf("a record that fails its seal is blamed on a unit it cannot be known to hold: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameValues(got.Tables, full.Tables) {
				t.Fatal("resumed tables differ")
			}
			if got.Walks >= full.Walks {
				t.Errorf("resume ran %d walks of %d: nothing reused", got.Walks, full.Walks)
			}
			b, _ := os.ReadFile(filepath.Join(dir, results.WalksFile))
			if !bytes.Equal(b, want) {
				t.Fatal("resumed walks.parquet differs from an uninterrupted run's")
			}
			if ents, _ := os.ReadDir(dir); len(ents) != len(tree(t, base+"-full"))-1 {
				t.Errorf("result holds %d entries", len(ents))
			}
		})
	}
}

// shards runs n shards of s and returns their directories.
func shards(t *testing.T, s *config.Experiment, n int) []string {
	t.Helper()
	tmp := t.TempDir()
	var dirs []string
	for k := range n {
		d := filepath.Join(tmp, "part"+strconv.Itoa(k))
		if _, err := Run(context.Background(), s, RunOptions{Out: d, Workers: 2, Shard: Shard{k, n}}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func merge(s *config.Experiment, out string, dirs []string) (*Completed, error) {
	parts, err := ReadParts(dirs)
	if err != nil {
		return nil, err
	}
	ts := NewTallies()
	if err := MergeInto(s, ts, parts); err != nil {
		return nil, err
	}
	return WriteMerged(context.Background(), s, RunOptions{Out: out, Workers: 1, Shard: All}, ts, parts, 0)
}

// TestMergeDamagedParts: merge refuses a part or fragment changed after it
// was written, even one sealed again with more walks than the config has,
// and writes nothing; intact parts merge to the single run's per-walk table,
// byte for byte.
func TestMergeDamagedParts(t *testing.T) {
	s := testSpec(t)
	s.Walks = 400
	s.PerWalk, s.RowGroup = true, 500
	one := filepath.Join(t.TempDir(), "one")
	full, err := Run(context.Background(), s, RunOptions{Out: one, Workers: 2, Shard: All})
	if err != nil {
		t.Fatal(err)
	}
	dirs := shards(t, s, 3)
	out := filepath.Join(t.TempDir(), "merged")
	got, err := merge(s, out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if !sameValues(got.Tables, full.Tables) {
		t.Fatal("merged tables differ")
	}
	for _, name := range []string{results.WalksFile, results.SquaresFile, results.ClaimsFile} {
		a, _ := os.ReadFile(filepath.Join(one, name))
		b, _ := os.ReadFile(filepath.Join(out, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: merged differs from one run", name)
		}
	}
	m, err := results.ReadManifest(out)
	if err != nil || !slices.Contains(m.Tables, results.WalksFile) {
		t.Errorf("merged manifest does not list the per-walk table: %v", err)
	}

	partPath := filepath.Join(dirs[1], partName)
	goodPart, _ := os.ReadFile(partPath)
	fragPath := filepath.Join(dirs[1], partWalksName)
	goodFrag, _ := os.ReadFile(fragPath)
	var p Part
	decodeStrict(goodPart, &p)
	reseal := func(edit func(*Part)) string {
		q := p
		q.Tallies = slices.Clone(p.Tallies)
		edit(&q)
		q.Sum, _ = sealPart(q)
		b, _ := json.Marshal(q)
		return string(b)
	}
	more := func(q *Part) {
		x, _ := q.Tallies[0].Tally.tally(36)
		x.Walks += 100
		x.Lengths[len(x.Lengths)-1] += 100
		x.Successes += 100
		q.Tallies[0].Tally = sparseOf(x)
	}
	for _, c := range []struct {
		name, part, frag, want string
	}{
		{"walks edited", strings.Replace(string(goodPart), `"walks":`, `"walks":1`, 1), string(goodFrag), "checksum mismatch"},
		{"key renamed", strings.Replace(string(goodPart), `"successes"`, `"sucesses"`, 1), string(goodFrag), "unknown field"},
		{"resealed with more walks", reseal(more), string(goodFrag), "walks where the plan has"},
		{"resealed without a tally", reseal(func(q *Part) { q.Tallies = q.Tallies[1:] }), string(goodFrag), "tally"},
		{"resealed with another plan size", reseal(func(q *Part) { q.Units++ }), string(goodFrag), "different runs"},
		{"resealed without walks", reseal(func(q *Part) { q.Walks = nil }), string(goodFrag), "per-walk"},
		{"fragment byte flipped", string(goodPart), string(goodFrag[:50]) + string(goodFrag[50]^4) + string(goodFrag[51:]), "checksum mismatch"},
		{"fragment cut short", string(goodPart), string(goodFrag[:len(goodFrag)-10]), "walks.frag"},
		{"fragment with a record more", string(goodPart), string(goodFrag) + string(goodFrag[:200]), "walks.frag"},
		{"not json", "{", string(goodFrag), "not a shard result"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer os.WriteFile(partPath, goodPart, 0o644)
			defer os.WriteFile(fragPath, goodFrag, 0o644)
			os.WriteFile(partPath, []byte(c.part), 0o644)
			os.WriteFile(fragPath, []byte(c.frag), 0o644)
			out := filepath.Join(t.TempDir(), "merged")
			_, err := merge(s, out, dirs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error containing %q, got %v", c.want, err)
			}
			if got := siblings(t, out); len(got) != 0 {
				t.Fatalf("a refused merge left %v", got)
			}
		})
	}
}

// TestResumeShardPerWalk: a shard with the per-walk table resumed from
// units finished out of plan order still writes its fragment in plan
// order, and the merge is a single run's walks.parquet, byte for byte.
func TestResumeShardPerWalk(t *testing.T) {
	s := testSpec(t)
	s.Walks = 200
	s.PerWalk, s.RowGroup = true, 700
	one := filepath.Join(t.TempDir(), "one")
	if _, err := Run(context.Background(), s, RunOptions{Out: one, Workers: 2, Shard: All}); err != nil {
		t.Fatal(err)
	}
	dirs := shards(t, s, 3)
	os.RemoveAll(dirs[1])
	leavePartial(t, s, dirs[1], Shard{1, 3}, []int{7, 1, 13, 4})
	got, err := Run(context.Background(), s, RunOptions{Out: dirs[1], Workers: 2, Shard: Shard{1, 3}, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := NewPlan(s)
	if want := p.Walks(Shard{1, 3}, -1, -1) - 4*200; got.Walks != want {
		t.Errorf("the resumed shard ran %d walks, want %d", got.Walks, want)
	}
	out := filepath.Join(t.TempDir(), "merged")
	if _, err := merge(s, out, dirs); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(one, results.WalksFile))
	b, _ := os.ReadFile(filepath.Join(out, results.WalksFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("merged walks.parquet with a resumed shard differs from one run's")
	}
}

// TestPlanLazy: planning 10^12 walks per start on 8x8 allocates a handful
// of objects, whatever the walk count; every unit the arithmetic gives is
// the one an explicit enumeration gives, for every shard.
func TestPlanLazy(t *testing.T) {
	s := testSpec(t)
	s.Walks = 1e12
	allocs := testing.AllocsPerRun(5, func() {
		p, err := NewPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Walks(Shard{1, 4}, -1, -1) + uint64(p.ShardLen(Shard{1, 4}))
		_ = p.Unit(p.Len() - 1)
	})
	if allocs > 10 {
		t.Errorf("planning 10^12 walks per start: %v allocations", allocs)
	}
	for _, walks := range []uint64{1, 63, 64, 65, 1000, 300001} {
		s.Walks = walks
		p, err := NewPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		var units []Unit // the plan as it used to be built
		for bi, b := range s.Boards {
			block := blockSize(b.Squares(), s.Walks)
			for ri := range s.Rules {
				for _, st := range s.Starts[bi] {
					for lo := uint64(0); lo < s.Walks; lo += block {
						units = append(units, Unit{ID: len(units), Board: bi, Rule: ri, Start: st, Lo: lo, Hi: min(lo+block, s.Walks)})
					}
				}
			}
		}
		if p.Len() != len(units) {
			t.Fatalf("walks %d: %d units, want %d", walks, p.Len(), len(units))
		}
		for _, u := range units {
			if got := p.Unit(u.ID); got != u {
				t.Fatalf("walks %d: unit %d = %+v, want %+v", walks, u.ID, got, u)
			}
		}
		for _, sh := range []Shard{All, {0, 2}, {1, 2}, {2, 7}, {6, 7}} {
			var got []Unit
			for u := range p.Units(sh) {
				got = append(got, u)
			}
			var want []Unit
			cell := map[Cell]uint64{}
			br := map[[2]int]int{}
			var total uint64
			for _, u := range units {
				if u.ID%sh.N == sh.K {
					want = append(want, u)
					cell[u.Cell()] += u.Hi - u.Lo
					br[[2]int{u.Board, u.Rule}]++
					total += u.Hi - u.Lo
				}
			}
			if !reflect.DeepEqual(got, want) || p.ShardLen(sh) != len(want) || p.Walks(sh, -1, -1) != total {
				t.Fatalf("walks %d shard %s: %d units (ShardLen %d), want %d", walks, sh, len(got), p.ShardLen(sh), len(want))
			}
			for bi := range s.Boards {
				for ri := range s.Rules {
					if p.BoardRuleUnits(sh, bi, ri) != br[[2]int{bi, ri}] {
						t.Fatalf("walks %d shard %s: BoardRuleUnits(%d, %d)", walks, sh, bi, ri)
					}
					for si, st := range s.Starts[bi] {
						if p.cellWalks(sh, bi, ri, si) != cell[Cell{bi, ri, st}] {
							t.Fatalf("walks %d shard %s: cellWalks(%d, %d, %d) = %d, want %d", walks, sh, bi, ri, si, p.cellWalks(sh, bi, ri, si), cell[Cell{bi, ri, st}])
						}
					}
				}
			}
		}
	}
}

// TestHugeRunCancelled: a run of 10^12 walks per start square starts at
// once, holds little memory, and stops when cancelled.
func TestHugeRunCancelled(t *testing.T) {
	s := testSpec(t)
	s.Walks = 1e12
	s.PerWalk = true
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "out")
	_, err := Run(ctx, s, RunOptions{Out: dir, Workers: 2, Shard: All})
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("want cancelled, got %v", err)
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 256<<20 {
		t.Errorf("a cancelled run of 10^12 walks per start allocated %d MB", grew>>20)
	}
}

// TestOutAppearsDuringRun: a directory put at DIR behind the lock's back
// while the run works is not replaced (without --force at all, with it
// unless it is a result directory); the finished run stays in DIR.partial
// and --resume --force then replaces a result.
func TestOutAppearsDuringRun(t *testing.T) {
	s := testSpec(t)
	s.Walks = 30
	for _, force := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "out")
		mine := func(string) error {
			os.Mkdir(dir, 0o755)
			return os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("mine"), 0o644)
		}
		_, err := Run(context.Background(), s, RunOptions{Out: dir, Force: force, Workers: 1, Shard: All, BeforeCommit: mine})
		if err == nil || !strings.Contains(err.Error(), "left as it is") {
			t.Fatalf("force %v: %v", force, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "mine.txt")); string(b) != "mine" {
			t.Fatal("the user's file is gone")
		}
		if _, err := os.Stat(filepath.Join(dir+".partial", results.ManifestFile)); err != nil {
			t.Fatalf("the finished run is not kept: %v", err)
		}
	}
	dir := filepath.Join(t.TempDir(), "out")
	other := filepath.Join(t.TempDir(), "other")
	if _, err := Run(context.Background(), s, RunOptions{Out: other, Workers: 1, Shard: All}); err != nil {
		t.Fatal(err)
	}
	result := func(string) error { return os.CopyFS(dir, os.DirFS(other)) }
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Workers: 1, Shard: All, BeforeCommit: result}); err == nil {
		t.Fatal("a result that appeared during a run without --force was replaced")
	}
	if _, err := Run(context.Background(), s, RunOptions{Out: dir, Force: true, Resume: true, Workers: 1, Shard: All}); err != nil {
		t.Fatalf("--resume --force after that: %v", err)
	}
}
