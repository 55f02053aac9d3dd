package results

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// TestStreamedRowsSameFiles: a design past maxReportRules rules writes its
// squares, lengths and deadends rows as it makes them (StreamsRows), and
// every table and the report are the files the rows held in memory give,
// byte for byte: random and deterministic cells, two boards, several walks.
func TestStreamedRowsSameFiles(t *testing.T) {
	const yaml = `name: streamed
seed: 7
boards: [5x5, 6x6]
walks: 3
rules:
  - {name: warnsdorff, tie_break: [first, roth+first, pohl+first], order: rotations}
  - {name: random, max_steps: [12, 40]}
`
	c, err := config.Parse("s.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "s.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Rules) != 26 || !StreamsRows(e) {
		t.Fatalf("%d rules, streamed %v: want 26 rules, streamed", len(e.Rules), StreamsRows(e))
	}
	ts := tallies(t, e)
	tally := func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] }
	write := func(stream bool) string {
		t.Helper()
		defer func(v bool) { streamRows = v }(streamRows)
		streamRows = stream
		tab, err := Build(e, tally)
		if err != nil {
			t.Fatal(err)
		}
		if held := len(tab.Squares) > 0; held == stream {
			t.Fatalf("stream %v: %d squares rows held", stream, len(tab.Squares))
		}
		dir := t.TempDir()
		if err := Write(dir, e, tab, RunInfo{Meta: Metadata(e, "v", buildinfo.Info{Revision: "c"}), Shard: "0/1", Workers: 1, Units: 9}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	held, streamed := write(false), write(true)
	files, err := filepath.Glob(filepath.Join(held, "*"))
	if err != nil || len(files) < 9 {
		t.Fatalf("%d files written (%v)", len(files), err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if name == ManifestFile { // its finish time differs
			continue
		}
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(streamed, name))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: streamed %d bytes (%v), held %d bytes: not the same file", name, len(b), err, len(a))
		}
	}
	ma, err1 := ReadManifest(held)
	mb, err2 := ReadManifest(streamed)
	if err1 != nil || err2 != nil || ma.Walks != mb.Walks || ma.Successes != mb.Successes || ma.Closed != mb.Closed || ma.Walks != 3*26*(25+36) {
		t.Errorf("manifests: %v %v, walks %d/%d, successes %d/%d", err1, err2, ma.Walks, mb.Walks, ma.Successes, mb.Successes)
	}
}
