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

// TestHarnessProvenance: a binary built in another module records the
// harness it embeds (path, version, the commit a pseudo-version carries,
// a replacement), and a build of this module records none of it.
func TestHarnessProvenance(t *testing.T) {
	dep := func(version string, replace *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/lab", Version: "(devel)"},
			Deps: []*debug.Module{{Path: "gonum.org/v1/gonum", Version: "v0.17.0"}, {Path: ModulePath, Version: version, Replace: replace}}}
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want [4]string // module, version, commit, replace
		tool string
	}{
		{"release", dep("v0.1.0", nil), [4]string{ModulePath, "v0.1.0", "", ""}, "0.1.0"},
		{"pseudo", dep("v0.0.0-20261128021024-d1f1801abcde", nil), [4]string{ModulePath, "v0.0.0-20261128021024-d1f1801abcde", "d1f1801abcde", ""}, "0.0.0-20261128021024-d1f1801abcde"},
		{"pseudo after a tag", dep("v0.1.1-0.20261128021024-d1f1801abcde", nil), [4]string{ModulePath, "v0.1.1-0.20261128021024-d1f1801abcde", "d1f1801abcde", ""}, "0.1.1-0.20261128021024-d1f1801abcde"},
		{"replaced by a directory", dep("v0.1.0", &debug.Module{Path: "../knightwalk"}), [4]string{ModulePath, "", "", "../knightwalk"}, "fallback"},
		{"replaced by a fork", dep("v0.1.0", &debug.Module{Path: "example.com/fork", Version: "v0.0.0-20260101000000-0123456789ab"}),
			[4]string{ModulePath, "v0.0.0-20260101000000-0123456789ab", "0123456789ab", "example.com/fork"}, "0.0.0-20260101000000-0123456789ab"},
		{"this module, from a checkout", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20261128021024-d1f1801abcde+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "d1f1801abcde0000000000000000000000000000"}}}, [4]string{}, "fallback"},
		{"this module, go install @v0.1.0", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v0.1.0"}}, [4]string{}, "0.1.0"},
		{"this module, go run", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "(devel)"}}, [4]string{}, "fallback"},
		{"no build information", nil, [4]string{}, "fallback"},
	} {
		in := From(tc.bi, "linux", "amd64", "")
		if got := [4]string{in.HarnessModule, in.HarnessVersion, in.HarnessCommit, in.HarnessReplace}; got != tc.want {
			t.Errorf("%s: harness %q, want %q", tc.name, got, tc.want)
		}
		if got := in.ToolVersion("fallback"); got != tc.tool {
			t.Errorf("%s: ToolVersion %q, want %q", tc.name, got, tc.tool)
		}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var back Info
		if err := json.Unmarshal(b, &back); err != nil || back != in {
			t.Errorf("%s: JSON round trip %s: %+v, %v", tc.name, b, back, err)
		}
		if tc.want == [4]string{} && strings.Contains(string(b), "knightwalk_") {
			t.Errorf("%s: %s has knightwalk_ keys; a build of this module writes none", tc.name, b)
		}
	}
}

func TestPseudoCommitAndTraceable(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20261128021024-d1f1801abcde":              "d1f1801abcde",
		"v1.2.4-0.20261128021024-d1f1801abcde":            "d1f1801abcde",
		"v1.3.0-rc.1.0.20261128021024-d1f1801abcde":       "d1f1801abcde",
		"v0.0.0-20261128021024-d1f1801abcde+dirty":        "d1f1801abcde",
		"v2.0.0-20261128021024-d1f1801abcde+incompatible": "d1f1801abcde",
		"v0.1.0": "", "v1.3.0-rc.1": "", "(devel)": "", "": "", "v0.0.0-2026-d1f1801abcde": "",
	} {
		if got := PseudoCommit(v); got != want {
			t.Errorf("PseudoCommit(%q) = %q, want %q", v, got, want)
		}
	}
	for in, want := range map[Info]bool{
		{Revision: "abc"}: true, {ModuleVersion: "v0.1.0"}: true, {ModuleVersion: "v0.0.0-20261128021024-d1f1801abcde"}: true,
		{ModuleVersion: "(devel)"}: false, {}: false, {ModuleVersion: "v0.0.0-20261128021024-d1f1801abcde+dirty"}: false,
	} {
		if got := in.Traceable(); got != want {
			t.Errorf("%+v.Traceable() = %v, want %v", in, got, want)
		}
	}
}
