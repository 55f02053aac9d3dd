package main

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
)

// version is the tool version recorded in every output.
const version = "0.1.0"

// unknown stands for provenance the binary does not carry.
const unknown = "unknown"

// build is what the binary knows of how it was built: from its build info
// only, never from the directory it runs in (whose git repository, if any,
// may be another project's or a later commit).
type build struct {
	module, modVersion string
	revision, time     string
	modified           string // "true", "false" or unknown
	goVersion          string
}

func readBuild() build {
	b := build{module: unknown, modVersion: unknown, revision: unknown, time: unknown, modified: unknown, goVersion: unknown}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.goVersion = bi.GoVersion
	if bi.Main.Path != "" {
		b.module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		b.modVersion = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value
		}
	}
	return b
}

// gitCommit returns the commit the binary was built from, as its build
// info records it (go build stamps it in a git checkout), or "unknown".
func gitCommit() string { return readBuild().revision }

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
				b := readBuild()
				fmt.Fprintf(e.stdout, "experiment %s\nmodule:   %s %s\nrevision: %s\ntime:     %s\nmodified: %s\ngo:       %s\n",
					version, b.module, b.modVersion, b.revision, b.time, b.modified, b.goVersion)
				return nil
			}
		},
	}
}
