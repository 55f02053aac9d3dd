package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// validateCommand is `experiment validate`; main.go lists it.
func validateCommand() *command {
	return &command{
		name:  "validate",
		usage: "FILE...",
		short: "check experiment files without running them",
		long: `Decodes and validates each experiment file (or committed experiment name) and
reports every error with its file, line and key; prints the plan's size for
files that are valid. Exit status 1 when any file is invalid.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usagef("validate: name at least one experiment file")
				}
				bad := 0
				for _, a := range args {
					s, err := loadExperiment(a)
					if err != nil {
						fmt.Fprintln(e.stderr, err)
						bad++
						continue
					}
					file := s.SourceFile
					p, err := runner.NewPlan(s)
					if err != nil {
						fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
						bad++
						continue
					}
					rules := designSize(s)
					if q := s.Sequential; q != nil {
						fmt.Fprintf(e.stdout, "%s: ok: %s, %d boards, %s, sequential until %s, %d to %d walks per start square (at most %d walks)\n",
							file, s.Name, len(s.Boards), rules, q.Until, q.Min, q.Max, p.Walks(runner.All, -1, -1))
					} else {
						fmt.Fprintf(e.stdout, "%s: ok: %s, %d boards, %s, %d units, %d walks\n", file, s.Name, len(s.Boards), rules, p.Len(), p.Walks(runner.All, -1, -1))
					}
				}
				if bad > 0 {
					return errors.New(plural(bad, "invalid experiment file"))
				}
				return nil
			}
		},
	}
}

// designSize says how many rules s has and, where some entries are
// designs, how many cells each stands for.
func designSize(s *config.Experiment) string {
	n := fmt.Sprintf("%d rules", len(s.Rules))
	var ds []string
	for _, d := range s.Designs {
		ds = append(ds, fmt.Sprintf("%s: a design of %d cells", d.Key, d.N))
	}
	if ds != nil {
		n += " (" + strings.Join(ds, ", ") + ")"
	}
	return n
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
