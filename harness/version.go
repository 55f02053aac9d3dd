package harness

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/manual"
)

// releaseVersion is the version of this module's latest release, the
// tool version of a binary whose build information names no version of
// the harness (a build in a checkout, which records its commit instead).
const releaseVersion = "0.1.0"

// version is the tool version recorded in every output (tool_version):
// the harness's module version where the module system chose it (go
// install …@v0.1.0, or the version another module requires), without its
// v; else releaseVersion.
var version = toolVersion()

func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return buildinfo.From(bi, "", "", "").ToolVersion(releaseVersion)
}

// orUnknown is s, or "unknown" for provenance the binary does not carry.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// versionCommand is `experiment version`; main.go lists it.
func versionCommand() *command {
	return &command{
		name:  "version",
		usage: "",
		short: "print the tool, module, VCS and Go versions this binary was built with",
		long:  manual.Version,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("version takes no arguments, got %q", args)
				}
				b := buildinfo.Read()
				fmt.Fprintf(e.stdout, "experiment %s\nmodule:   %s %s\nrevision: %s\ntime:     %s\nmodified: %s\ngo:       %s\n",
					version, orUnknown(b.Module), orUnknown(b.ModuleVersion), orUnknown(b.Revision), orUnknown(b.Time),
					orUnknown(b.Modified), orUnknown(b.GoVersion))
				if b.HarnessModule != "" {
					fmt.Fprintf(e.stdout, "harness:  %s %s", b.HarnessModule, orUnknown(b.HarnessVersion))
					if b.HarnessCommit != "" {
						fmt.Fprintf(e.stdout, " (commit %s)", b.HarnessCommit)
					}
					if b.HarnessReplace != "" {
						fmt.Fprintf(e.stdout, " replaced by %s", b.HarnessReplace)
					}
					fmt.Fprintln(e.stdout)
				}
				return nil
			}
		},
	}
}
