// Package buildinfo says what binary, built from what, on what machine,
// wrote a set of results. Everything comes from the running binary's build
// information (runtime/debug.ReadBuildInfo, stamped by `go build` from the
// checkout it was built in) and from the machine; never from the current
// directory's git, which may hold other code than the binary was built from.
package buildinfo

import (
	"bufio"
	"io"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is the provenance of a binary and the machine it runs on. Empty
// strings are unknown: a binary built by `go run`, by `go test`, outside a
// VCS checkout or with -buildvcs=false carries no VCS information.
type Info struct {
	Module        string `json:"module"`         // the main module's path
	Revision      string `json:"vcs_revision"`   // vcs.revision: the commit built from
	Time          string `json:"vcs_time"`       // vcs.time: the commit's time
	Modified      string `json:"vcs_modified"`   // vcs.modified: "true" (uncommitted changes), "false", or "" (unknown)
	GoVersion     string `json:"go_version"`     // the Go toolchain that built the binary, e.g. "go1.26.0"
	ModuleVersion string `json:"module_version"` // the main module's version; "(devel)" for a build from a checkout
	GOOS          string `json:"goos"`
	GOARCH        string `json:"goarch"`
	CPU           string `json:"cpu"` // the CPU model ("model name" in /proc/cpuinfo), "" if unknown

	// The harness's provenance in a binary built in another module (a
	// program of yours that registers its rules and calls harness.Main):
	// set only when the main module is not ModulePath, from the build
	// information's dependency on it. In a build of this module, Module,
	// ModuleVersion and Revision already say it, and these are empty.
	HarnessModule  string `json:"knightwalk_module,omitempty"`  // ModulePath
	HarnessVersion string `json:"knightwalk_version,omitempty"` // its version (the replacement's, if replaced); "" unknown
	// HarnessCommit is the commit's 12-hex-digit prefix that a
	// pseudo-version (v0.0.0-20261128021024-d1f1801abcde) carries; ""
	// for a release version or a replacement by a directory.
	HarnessCommit  string `json:"knightwalk_commit,omitempty"`
	HarnessReplace string `json:"knightwalk_replace,omitempty"` // the replace directive's target (a directory or module path), if any
}

// ModulePath is this module's path, as other modules require it.
const ModulePath = "github.com/knightwalk/knightwalk"

// Read returns the running binary's build information and this machine's
// OS, architecture and CPU model.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return From(bi, runtime.GOOS, runtime.GOARCH, cpuModel("/proc/cpuinfo"))
}

// From builds an Info from build information (nil when there is none), an
// OS, an architecture and a CPU model.
func From(bi *debug.BuildInfo, goos, goarch, cpu string) Info {
	in := Info{GOOS: goos, GOARCH: goarch, CPU: cpu}
	if bi == nil {
		return in
	}
	in.GoVersion, in.Module, in.ModuleVersion = bi.GoVersion, bi.Main.Path, bi.Main.Version
	if in.Module != ModulePath {
		for _, d := range bi.Deps {
			if d.Path != ModulePath {
				continue
			}
			in.HarnessModule, in.HarnessVersion = d.Path, d.Version
			if d.Replace != nil { // the code built is the replacement's
				in.HarnessReplace, in.HarnessVersion = d.Replace.Path, d.Replace.Version
			}
			in.HarnessCommit = PseudoCommit(in.HarnessVersion)
		}
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value
		}
	}
	return in
}

// pseudoVersion matches a pseudo-version's timestamp and commit prefix at
// its end (go.dev/ref/mod#pseudo-versions): vX.0.0-yyyymmddhhmmss-abcdef123456,
// vX.Y.(Z+1)-0.yyyymmddhhmmss-abcdef123456 and
// vX.Y.Z-pre.0.yyyymmddhhmmss-abcdef123456, each with an optional
// +incompatible or +dirty.
var pseudoVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+-(?:.*[.-])?[0-9]{14}-([0-9a-f]{12})(?:\+[0-9A-Za-z.-]+)?$`)

// PseudoCommit returns the commit prefix (12 hex digits) a pseudo-version
// carries, or "" for any other version.
func PseudoCommit(version string) string {
	if m := pseudoVersion.FindStringSubmatch(version); m != nil {
		return m[1]
	}
	return ""
}

// moduleVersion matches a module version as the module system resolves it
// (a release, pre-release or pseudo-version; +incompatible allowed), and
// not "(devel)", "" or a version stamped from a checkout with local
// changes (+dirty).
var moduleVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+incompatible)?$`)

// ToolVersion is the version of the harness this binary runs, as outputs
// record it under tool_version (without the leading v): the version the
// module system resolved for it — `go install …/cmd/experiment@v0.1.0`,
// or the version another module requires (or replaces it with) — and
// otherwise fallback (a build in a checkout of this module, whose
// results record its commit instead, or a replacement by a directory).
func (in Info) ToolVersion(fallback string) string {
	v := in.HarnessVersion
	if in.Module == ModulePath && in.Revision == "" {
		v = in.ModuleVersion
	} else if in.Module == ModulePath {
		v = "" // stamped from the checkout: the commit says it
	}
	if !moduleVersion.MatchString(v) {
		return fallback
	}
	return strings.TrimPrefix(v, "v")
}

// cpuModel returns the first "model name" of a /proc/cpuinfo file, or ""
// when the file or the field is missing (other systems, some ARM kernels).
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return parseCPUInfo(f)
}

func parseCPUInfo(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
