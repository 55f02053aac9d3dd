package buildinfo

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Host is the machine a run ran on, as benchmark tools record it (Google
// Benchmark's context, pytest-benchmark's machine_info): enough to tell
// whether two timings or two sets of results can be compared. Empty or
// zero fields are unknown on this system.
type Host struct {
	Hostname   string `json:"hostname"`
	OS         string `json:"os"`         // runtime.GOOS
	OSRelease  string `json:"os_release"` // the kernel release (uname -r), from /proc/sys/kernel/osrelease
	Arch       string `json:"arch"`       // runtime.GOARCH
	CPUModel   string `json:"cpu_model"`  // "model name" in /proc/cpuinfo
	CPUVendor  string `json:"cpu_vendor"` // "vendor_id"
	CPUFamily  string `json:"cpu_family"` // "cpu family" (x86: 25 is AMD Zen 3/4, 6 most Intel cores)
	CPUModelID string `json:"cpu_model_id"`
	CPUs       int    `json:"cpus"`       // logical CPUs the process may use (runtime.NumCPU)
	GOMAXPROCS int    `json:"gomaxprocs"` // Go's parallelism when the results were written
	MemoryMiB  int64  `json:"memory_mib"` // MemTotal of /proc/meminfo
	// KernelPath is how walks on boards of at most 64 squares run on this
	// CPU (sim.SmallBoardKernel: AVX-512, PDEP or scalar); larger boards
	// always use the general kernel. Every path walks the same walks.
	KernelPath string `json:"kernel_path"`
}

// ReadHost describes this machine; kernelPath is sim.SmallBoardKernel()
// (passed in: this package does not depend on the simulation).
func ReadHost(kernelPath string) Host {
	h := Host{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), KernelPath: kernelPath}
	h.Hostname, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		h.OSRelease = strings.TrimSpace(string(b))
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		cpu := fields(f, "model name", "vendor_id", "cpu family", "model")
		f.Close()
		h.CPUModel, h.CPUVendor, h.CPUFamily, h.CPUModelID = cpu[0], cpu[1], cpu[2], cpu[3]
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		mem := fields(f, "MemTotal")[0] // "131072000 kB"
		f.Close()
		if kb, err := strconv.ParseInt(strings.TrimSuffix(mem, " kB"), 10, 64); err == nil {
			h.MemoryMiB = kb / 1024
		}
	}
	return h
}

// fields returns the first value of each key in a "key : value" file
// (/proc/cpuinfo, /proc/meminfo), "" for a key that is missing.
func fields(r io.Reader, keys ...string) []string {
	out := make([]string, len(keys))
	found := 0
	sc := bufio.NewScanner(r)
	for sc.Scan() && found < len(keys) {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		for i, want := range keys {
			if out[i] == "" && strings.TrimSpace(k) == want {
				out[i] = strings.TrimSpace(v)
				found++
			}
		}
	}
	return out
}

// HasVCS reports whether the binary carries the commit it was built from.
func (in Info) HasVCS() bool { return in.Revision != "" }

// Traceable reports whether results name the code that wrote them: the
// binary carries the commit it was built from, or the module system built
// it at a version (`go install …/cmd/experiment@v0.1.0`, whose version
// names the code). Otherwise (go run, go test, -buildvcs=false in GOFLAGS,
// a build outside a checkout) the manifest and report carry NoVCSWarning
// and commands print NoVCSNote.
func (in Info) Traceable() bool {
	return in.Revision != "" || moduleVersion.MatchString(in.ModuleVersion)
}

// NoVCSNote is the one line commands print on stderr when the binary is
// not Traceable: a note, since the README's first command (go run) is
// such a binary and its results are fine; the manifest says it in full.
const NoVCSNote = "note: built without VCS information or a module version (go run?), so the results record no commit; manifest.json says so (go build in a git checkout records the commit, go install MODULE/cmd/experiment@VERSION the version)"

// NoVCSWarning is the line manifests (warnings) and reports carry when
// the binary is not Traceable. It says both ways to provenance, since a
// binary may come from a clone or from the module proxy (a program of
// your own built on knightwalk, in a directory with no git: knightwalk's
// version is recorded, the program's own code is not).
const NoVCSWarning = "this binary carries no VCS information and no module version (built by go run or go test, with -buildvcs=false, or outside a git checkout): its results record no commit of the code it was built from; " +
	"build it with go build in a git checkout to record the commit, or install a published version with go install MODULE/cmd/NAME@VERSION (e.g. github.com/knightwalk/knightwalk/cmd/experiment@latest) to record its module version instead; " +
	"a program of your own built on knightwalk records the knightwalk module version it embeds either way"

// infoJSON is Info as manifest.json writes it: vcs_modified a JSON boolean,
// null when unknown.
type infoJSON struct {
	Module        string `json:"module"`
	Revision      string `json:"vcs_revision"`
	Time          string `json:"vcs_time"`
	Modified      *bool  `json:"vcs_modified"`
	GoVersion     string `json:"go_version"`
	ModuleVersion string `json:"module_version"`
	GOOS          string `json:"goos"`
	GOARCH        string `json:"goarch"`
	CPU           string `json:"cpu"`

	HarnessModule  string `json:"knightwalk_module,omitempty"`
	HarnessVersion string `json:"knightwalk_version,omitempty"`
	HarnessCommit  string `json:"knightwalk_commit,omitempty"`
	HarnessReplace string `json:"knightwalk_replace,omitempty"`
}

// MarshalJSON writes vcs_modified as true, false or null.
func (in Info) MarshalJSON() ([]byte, error) {
	j := infoJSON{Module: in.Module, Revision: in.Revision, Time: in.Time, GoVersion: in.GoVersion,
		ModuleVersion: in.ModuleVersion, GOOS: in.GOOS, GOARCH: in.GOARCH, CPU: in.CPU,
		HarnessModule: in.HarnessModule, HarnessVersion: in.HarnessVersion, HarnessCommit: in.HarnessCommit, HarnessReplace: in.HarnessReplace}
	if in.Modified == "true" || in.Modified == "false" {
		b := in.Modified == "true"
		j.Modified = &b
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads vcs_modified as a boolean or null, and as the
// strings "true", "false" and "" that manifests before it held.
func (in *Info) UnmarshalJSON(data []byte) error {
	var j struct {
		infoJSON
		Modified json.RawMessage `json:"vcs_modified"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*in = Info{Module: j.Module, Revision: j.Revision, Time: j.Time, GoVersion: j.GoVersion,
		ModuleVersion: j.ModuleVersion, GOOS: j.GOOS, GOARCH: j.GOARCH, CPU: j.CPU,
		HarnessModule: j.HarnessModule, HarnessVersion: j.HarnessVersion, HarnessCommit: j.HarnessCommit, HarnessReplace: j.HarnessReplace}
	switch m := strings.TrimSpace(string(j.Modified)); m {
	case "", "null", `""`:
	case "true", `"true"`:
		in.Modified = "true"
	case "false", `"false"`:
		in.Modified = "false"
	default:
		return fmt.Errorf("vcs_modified: %s is not true, false or null", m)
	}
	return nil
}
