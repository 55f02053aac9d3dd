package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"knightwalk/internal/buildinfo"
	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/stats"
)

// TestProvenance: every table carries the resolved configuration as JSON and
// the binary's provenance, and no time, so writing the same tables twice
// gives byte-identical files; manifest.json has the same provenance and the
// start and finish times.
func TestProvenance(t *testing.T) {
	e := experiment(t)
	ts := tallies(t, e)
	tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err != nil {
		t.Fatal(err)
	}
	build := buildinfo.Info{Revision: "0123abc", Modified: "false", GoVersion: "go1.26.0", ModuleVersion: "(devel)",
		GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU"}
	started := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var dirs []string
	for i := range 2 {
		dir := t.TempDir()
		run := RunInfo{Meta: Metadata(e, "v", build), Shard: "0/1", Workers: 1 + i, Units: 9, Started: started}
		if err := Write(dir, e, tab, run); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
		if i == 0 {
			time.Sleep(1100 * time.Millisecond) // a later finish time
		}
	}
	m, err := ReadManifest(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Build != build || m.GitCommit != "0123abc" || m.StartedAt != "2026-11-23T12:00:00Z" {
		t.Errorf("manifest provenance: %+v %q %q", m.Build, m.GitCommit, m.StartedAt)
	}
	if fin, err := time.Parse(time.RFC3339, m.FinishedAt); err != nil || fin.Before(started) {
		t.Errorf("finished_at %q: %v", m.FinishedAt, err)
	}
	for _, name := range m.Tables {
		md, err := table.ReadMetadata(filepath.Join(dirs[0], name))
		if err != nil {
			t.Fatal(err)
		}
		if md.Build != build {
			t.Errorf("%s: build %+v", name, md.Build)
		}
		var cfg config.Canonical
		if err := json.Unmarshal([]byte(md.Config), &cfg); err != nil || !reflect.DeepEqual(cfg, e.Config) {
			t.Errorf("%s: config %s does not decode to the resolved configuration: %v", name, md.Config, err)
		}
		for k := range md.Extra {
			if k != "confidence" && k != "interval" {
				t.Errorf("%s: unexpected key %q", name, k)
			}
		}
		a, _ := os.ReadFile(filepath.Join(dirs[0], name))
		b, _ := os.ReadFile(filepath.Join(dirs[1], name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: written twice, a second later, the files differ", name)
		}
	}
}
