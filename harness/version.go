package harness

import (
	"context"
	"flag"
	"fmt"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
)

// version is the tool version recorded in every output.
const version = "0.1.0"

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
		long: `Prints what the binary's build info records: the module and its version,
the VCS revision and time, whether the working tree had local changes, and
the Go version. Results record the same revision as git_commit; "unknown"
means the binary was built without VCS information (go build -buildvcs=false,
or outside a git checkout).`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) > 0 {
					return usagef("version takes no arguments, got %q", args)
				}
				b := buildinfo.Read()
				fmt.Fprintf(e.stdout, "experiment %s\nmodule:   %s %s\nrevision: %s\ntime:     %s\nmodified: %s\ngo:       %s\n",
					version, orUnknown(b.Module), orUnknown(b.ModuleVersion), orUnknown(b.Revision), orUnknown(b.Time),
					orUnknown(b.Modified), orUnknown(b.GoVersion))
				return nil
			}
		},
	}
}
