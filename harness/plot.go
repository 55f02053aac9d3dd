package harness

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/manual"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
)

// plotCommand is `experiment plot`; main.go lists it.
func plotCommand() *command {
	return &command{
		name:  "plot",
		usage: "DIR [--figure NAME,...] [--with DIR2,...] [--figure-options FILE]",
		short: "redraw a result directory's figures from its tables alone",
		long:  manual.Plot,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			which := fs.String("figure", "", "comma-separated figures to draw (default: those the experiment asked for; 'all' for every one)")
			withDirs := fs.String("with", "", "comma-separated result directories whose sweeps the sweep-strip figure draws beside DIR's")
			optsFile := fs.String("figure-options", "", "a YAML file of figure options (what an experiment file holds under outputs.figure_options) to draw with in place of the run's")
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) != 1 {
					return usagef("plot: name one result directory")
				}
				var names []string
				switch *which {
				case "":
				case "all":
					names = config.Figures
				default:
					names = strings.Split(*which, ",")
				}
				m, err := results.ReadManifest(args[0])
				if err != nil {
					return err // before the lock file beside it is made
				}
				if err := results.NotForSieve(args[0], m, "draw"); err != nil {
					return err
				}
				var opts *config.FigureOptions
				if *optsFile != "" {
					// Validated against the run's own experiment (its rules,
					// walks and sources) before anything is written.
					base, err := config.FromCanonical(filepath.Join(args[0], results.ManifestFile), m.Config)
					if err != nil {
						return err
					}
					if opts, err = config.LoadFigureOptions(*optsFile, base); err != nil {
						return err
					}
					if opts == nil {
						opts = &config.FigureOptions{} // a file that sets nothing: every default
					}
				}
				var with []string
				if *withDirs != "" {
					with = strings.Split(*withDirs, ",")
					if len(names) != 1 || names[0] != "sweep-strip" {
						return usagef("plot: --with goes with --figure sweep-strip alone")
					}
				}
				release, err := runner.LockResult(args[0])
				if err != nil {
					return err
				}
				defer release()
				drawn, err := drawFigures(ctx, args[0], names, with, opts)
				if ctx.Err() != nil {
					return fmt.Errorf("plot interrupted by a signal: the figures written so far are whole files, %s was not updated; run plot again to finish", results.ReportFile)
				}
				if err != nil {
					return err
				}
				for _, d := range drawn {
					if d.Base == "" {
						fmt.Fprintf(e.stderr, "experiment: %s: %s\n", d.Name, d.Note)
					} else {
						fmt.Fprintf(e.stdout, "%s.{png,svg,pdf}\n", d.Base)
					}
				}
				return nil
			}
		},
	}
}
