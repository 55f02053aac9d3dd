package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
)

// fuzzSpec is a small experiment whose real checkpoints and parts seed the
// fuzzers.
func fuzzSpec(f *testing.F) *config.Experiment {
	const y = "name: fz\nseed: 4\nboards: [5x5, 3x4]\nwalks: 200\nrules: [{name: warnsdorff}, {name: random}]\n"
	c, err := config.Parse("fz.yaml", []byte(y))
	if err != nil {
		f.Fatal(err)
	}
	e, err := config.Resolve(c, "fz.yaml", []byte(y))
	if err != nil {
		f.Fatal(err)
	}
	return e
}

// FuzzReadCheckpoint: whatever bytes a checkpoint holds, reading it never
// panics and never accepts a record that is not exactly as written: what it
// accepts is a prefix of the file of whole lines, each a unit of the plan
// once, each tally exactly its unit's walks.
func FuzzReadCheckpoint(f *testing.F) {
	s := fuzzSpec(f)
	p, _ := NewPlan(s)
	dir := filepath.Join(f.TempDir(), "out")
	for _, k := range []int{0, 1, 5} {
		os.RemoveAll(dir + ".partial")
		os.RemoveAll(dir + "-full")
		interruptedF(f, s, dir, k)
		b, _ := os.ReadFile(filepath.Join(dir+".partial", checkpointName))
		f.Add(b)
		f.Add(b[:len(b)-7])
		f.Add(bytes.Replace(b, []byte(`"walks":200`), []byte(`"walks":201`), 1))
	}
	f.Add([]byte("{}\n"))
	f.Add([]byte(""))
	hdr := checkpointHeader{Format: checkpointFormat, ConfigHash: workKey(s), Shard: All.String(), Units: p.Len()}
	f.Fuzz(func(t *testing.T, data []byte) {
		ts := NewTallies()
		done, valid, err := readCheckpoint(bytes.NewReader(data), "checkpoint.jsonl", hdr, p, All, ts)
		if err != nil {
			return
		}
		if valid > int64(len(data)) || (valid > 0 && data[valid-1] != '\n') {
			t.Fatalf("valid prefix %d of %d bytes", valid, len(data))
		}
		for id := range done {
			u := p.Unit(id)
			if got := ts.Of(u.Board, u.Rule, u.Start); got == nil || got.Walks < u.Hi-u.Lo {
				t.Fatalf("unit %d accepted without its walks", id)
			}
		}
		if n := strings.Count(string(data[:valid]), "\n"); n != len(done)+1 {
			t.Fatalf("%d lines accepted for %d units", n, len(done))
		}
	})
}

// FuzzReadPart: whatever bytes part.json holds, reading and merging it
// never panics, and a part that passes holds exactly the walks of its
// shard.
func FuzzReadPart(f *testing.F) {
	s := fuzzSpec(f)
	tmp := f.TempDir()
	for k := range 2 {
		d := filepath.Join(tmp, "p"+string(rune('0'+k)))
		if _, err := Run(context.Background(), s, RunOptions{Out: d, Workers: 1, Shard: Shard{k, 2}}); err != nil {
			f.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(d, partName))
		f.Add(b)
		f.Add(bytes.Replace(b, []byte(`"walks":`), []byte(`"walks":1`), 1))
	}
	f.Add([]byte(`{"format":"knightwalk-part/2"}`))
	other := filepath.Join(tmp, "p1")
	path := filepath.Join(tmp, "fuzzed", partName) // each fuzz worker is a process with its own tmp
	os.MkdirAll(filepath.Dir(path), 0o755)
	f.Fuzz(func(t *testing.T, data []byte) {
		os.WriteFile(path, data, 0o644)
		if _, err := readPart(path); err != nil {
			return
		}
		parts, err := ReadParts([]string{path, other})
		if err != nil {
			return
		}
		ts := NewTallies()
		if err := MergeInto(s, ts, parts); err != nil {
			return
		}
		for bi := range s.Boards {
			for ri := range s.Rules {
				for _, st := range s.Starts[bi] {
					if got := ts.Of(bi, ri, st); got == nil || got.Walks != s.Walks {
						t.Fatalf("a merged part gives board %d rule %d square %d %v walks, want %d", bi, ri, st, got, s.Walks)
					}
				}
			}
		}
	})
}

// interruptedF is interrupted for a fuzz target's seed corpus.
func interruptedF(f *testing.F, s *config.Experiment, dir string, k int) {
	p, _ := NewPlan(s)
	partial := dir + ".partial"
	os.MkdirAll(partial, 0o755)
	cp, err := openCheckpoint(partial, checkpointHeader{Format: checkpointFormat, ConfigHash: workKey(s), Shard: All.String(), Units: p.Len()})
	if err != nil {
		f.Fatal(err)
	}
	first := func(yield func(Unit) bool) {
		for id := range k {
			if !yield(p.Unit(id)) {
				return
			}
		}
	}
	if err := Execute(context.Background(), p, first, Options{Workers: 1}, cp.Add); err != nil {
		f.Fatal(err)
	}
	cp.Close()
}
