package harness

import (
	"context"
	"flag"
	"os"
	"path/filepath"

	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/results"
)

// claimsCommand is `experiment claims`; main.go lists it.
func claimsCommand() *command {
	return &command{
		name:  "claims",
		usage: "DIR...",
		short: "print the claims of result directories as one Markdown table",
		long:  manual.Claims,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usagef("claims: name at least one result directory")
				}
				if err := distinctDirs(args); err != nil {
					return err
				}
				rows, err := results.GatherClaims(args)
				if err != nil {
					return err
				}
				results.WriteClaimsTable(e.stdout, rows)
				return nil
			}
		},
	}
}

// distinctDirs refuses a result directory named twice (also by another
// path to it): its claims would be counted twice.
func distinctDirs(dirs []string) error {
	seen := map[string]string{}
	var infos []os.FileInfo
	var names []string
	for _, d := range dirs {
		clean := filepath.Clean(d)
		if first, ok := seen[clean]; ok {
			return usagef("claims: %s is named twice (%s and %s): its claims would be counted twice; name each result directory once", clean, first, d)
		}
		seen[clean] = d
		fi, err := os.Stat(d)
		if err != nil {
			continue // ReadManifest says what is wrong with it
		}
		for i, o := range infos {
			if os.SameFile(fi, o) {
				return usagef("claims: %s and %s are the same directory: its claims would be counted twice; name each result directory once", names[i], d)
			}
		}
		infos, names = append(infos, fi), append(names, d)
	}
	return nil
}
