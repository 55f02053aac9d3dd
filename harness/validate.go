package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// validateCommand is `experiment validate`; main.go lists it.
func validateCommand() *command {
	return &command{
		name:  "validate",
		usage: "FILE...",
		short: "check experiment files without running them",
		long:  manual.Validate,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usagef("validate: name at least one experiment file")
				}
				bad := 0
				for _, a := range args {
					if n, ok, err := expfile.Sources(a); ok {
						if err != nil {
							fmt.Fprintln(e.stderr, err)
							bad++
						} else {
							fmt.Fprintf(e.stdout, "%s: ok: the sources file, %d publications (not an experiment: the claims' sources, built into the binary; rebuild for an edit to count)\n", a, n)
						}
						continue
					}
					s, err := interruptible(ctx, func() (*config.Experiment, error) { return expfile.Load(a) })
					if ctx.Err() != nil {
						return ctx.Err()
					}
					if err != nil {
						fmt.Fprintln(e.stderr, err)
						bad++
						continue
					}
					file := s.SourceFile
					if s.Sieve != nil { // its plan is its stages', not every board's units
						fmt.Fprintf(e.stdout, "%s: ok: %s, %s\n", file, s.Name, runner.SieveSize(s))
						continue
					}
					p, err := interruptible(ctx, func() (*runner.Plan, error) { return runner.NewPlan(s) })
					if ctx.Err() != nil {
						return ctx.Err()
					}
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
