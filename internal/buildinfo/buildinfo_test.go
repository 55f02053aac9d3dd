package buildinfo

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/knightwalk/knightwalk", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abc123"},
			{Key: "vcs.time", Value: "2026-11-23T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := From(bi, "linux", "amd64", "Some CPU")
	want := Info{Module: "github.com/knightwalk/knightwalk", Revision: "abc123", Time: "2026-11-23T10:00:00Z", Modified: "true", GoVersion: "go1.26.0", ModuleVersion: "(devel)",
		GOOS: "linux", GOARCH: "amd64", CPU: "Some CPU"}
	if got != want {
		t.Errorf("From: %+v, want %+v", got, want)
	}
	// no build information, or none from a VCS: unknown, not guessed
	if got := From(nil, "linux", "arm64", ""); got != (Info{GOOS: "linux", GOARCH: "arm64"}) {
		t.Errorf("From(nil): %+v", got)
	}
	if got := From(&debug.BuildInfo{GoVersion: "go1.26.0"}, "", "", ""); got.Revision != "" || got.Modified != "" {
		t.Errorf("no vcs settings: %+v", got)
	}
}

// TestRead: a test binary has build information (Go version, no VCS stamp)
// and this machine's OS and architecture.
func TestRead(t *testing.T) {
	in := Read()
	if in.GOOS != runtime.GOOS || in.GOARCH != runtime.GOARCH || in.GoVersion != runtime.Version() {
		t.Errorf("Read: %+v", in)
	}
}

func TestParseCPUInfo(t *testing.T) {
	const x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nflags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: other\n"
	if got := parseCPUInfo(strings.NewReader(x86)); got != "Intel(R) Xeon(R) CPU @ 2.20GHz" {
		t.Errorf("x86: %q", got)
	}
	const arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
	if got := parseCPUInfo(strings.NewReader(arm)); got != "" {
		t.Errorf("no model name: %q", got)
	}
	if got := cpuModel("/nonexistent/cpuinfo"); got != "" {
		t.Errorf("missing file: %q", got)
	}
}

// TestInfoJSON: vcs_modified is a JSON boolean (null when unknown), and
// manifests that wrote it as a string still read.
func TestInfoJSON(t *testing.T) {
	for mod, want := range map[string]string{"true": `"vcs_modified":true`, "false": `"vcs_modified":false`, "": `"vcs_modified":null`} {
		in := Info{Revision: "abc", Modified: mod}
		b, err := json.Marshal(in)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("Modified %q: %s, %v; want %s", mod, b, err, want)
		}
		var back Info
		if err := json.Unmarshal(b, &back); err != nil || back != in {
			t.Errorf("Modified %q: read back %+v, %v", mod, back, err)
		}
		var legacy Info
		if err := json.Unmarshal([]byte(`{"vcs_revision":"abc","vcs_modified":"`+mod+`"}`), &legacy); err != nil || legacy != in {
			t.Errorf("legacy string %q: %+v, %v", mod, legacy, err)
		}
	}
	var bad Info
	if err := json.Unmarshal([]byte(`{"vcs_modified":"maybe"}`), &bad); err == nil || !strings.Contains(err.Error(), "vcs_modified") {
		t.Errorf("vcs_modified maybe: %v", err)
	}
}

// TestHostFields: /proc-style files are read by key, first value wins.
func TestHostFields(t *testing.T) {
	got := fields(strings.NewReader("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9B14\nprocessor\t: 1\nmodel name\t: other\n"),
		"model name", "vendor_id", "cpu family", "model", "flags")
	want := []string{"AMD EPYC 9B14", "AuthenticAMD", "25", "17", ""}
	if !slices.Equal(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
	h := ReadHost("scalar")
	if h.CPUs < 1 || h.GOMAXPROCS < 1 || h.KernelPath != "scalar" || h.OS == "" {
		t.Errorf("ReadHost: %+v", h)
	}
}
