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
}

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
