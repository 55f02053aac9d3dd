package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
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

// TestManifestHostAndVCS: manifest.json records the machine (CPU, counts,
// kernel path, OS release) and vcs_modified as a JSON boolean; a binary
// without VCS information gets a warning in the manifest and the report.
func TestManifestHostAndVCS(t *testing.T) {
	e := experiment(t)
	ts := tallies(t, e)
	tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err != nil {
		t.Fatal(err)
	}
	for _, build := range []buildinfo.Info{{Revision: "0123abc", Modified: "true", GoVersion: "go1.26.0"}, {GoVersion: "go1.26.0"},
		// go install …/cmd/experiment@v0.1.0: no commit, but a version that names the code
		{Module: buildinfo.ModulePath, ModuleVersion: "v0.1.0", GoVersion: "go1.26.0"},
		// a module of your own that embeds the harness, built in its checkout
		{Module: "example.com/lab", ModuleVersion: "v0.0.0-20261128021024-0123456789ab", Revision: "0123456789abcdef", Modified: "false",
			HarnessModule: buildinfo.ModulePath, HarnessVersion: "v0.1.0"}} {
		dir := t.TempDir()
		if err := Write(dir, e, tab, RunInfo{Meta: Metadata(e, "v", build), Shard: "0/1", Workers: 1}); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Build    map[string]any `json:"build"`
			Host     map[string]any `json:"host"`
			Warnings []string       `json:"warnings"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		rep, _ := os.ReadFile(filepath.Join(dir, ReportFile))
		warned := bytes.Contains(rep, []byte("**Warning:** "+buildinfo.NoVCSWarning))
		if build.Traceable() {
			if m.Build["vcs_modified"] != (build.Modified == "true") && build.Modified != "" || len(m.Warnings) != 0 || warned {
				t.Errorf("with VCS: vcs_modified %#v, warnings %q, report warns %v", m.Build["vcs_modified"], m.Warnings, warned)
			}
		} else if m.Build["vcs_modified"] != nil || len(m.Warnings) != 1 || !warned {
			t.Errorf("without VCS: vcs_modified %#v, warnings %q, report warns %v", m.Build["vcs_modified"], m.Warnings, warned)
		}
		for _, k := range []string{"hostname", "os", "os_release", "arch", "cpu_model", "cpu_family", "cpus", "gomaxprocs", "memory_mib", "kernel_path"} {
			if _, ok := m.Host[k]; !ok {
				t.Errorf("host has no %s: %v", k, m.Host)
			}
		}
		if m.Host["cpus"].(float64) < 1 || m.Host["gomaxprocs"].(float64) < 1 || m.Host["kernel_path"] == "" {
			t.Errorf("host %v", m.Host)
		}
		if got, want := m.Build["knightwalk_version"], build.HarnessVersion; want != "" && got != want || want == "" && got != nil {
			t.Errorf("build.knightwalk_version %#v, want %q", got, want)
		}
		back, err := ReadManifest(dir)
		if err != nil || back.Build != build {
			t.Errorf("read back build %+v, %v; want %+v", back.Build, err, build)
		}
	}
}
