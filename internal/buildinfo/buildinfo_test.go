package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "knightwalk", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abc123"},
			{Key: "vcs.time", Value: "2026-11-23T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := From(bi, "linux", "amd64", "Some CPU")
	want := Info{Module: "knightwalk", Revision: "abc123", Time: "2026-11-23T10:00:00Z", Modified: "true", GoVersion: "go1.26.0", ModuleVersion: "(devel)",
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
