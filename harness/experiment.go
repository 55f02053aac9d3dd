package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/tables"
)

// Experiment is a resolved experiment, ready to run: what `experiment run
// FILE` runs, decoded and validated once. Load reads one from a file,
// Parse from bytes a program builds or embeds. Rules a program registers
// with sim.Register before Load or Parse may be named in it.
type Experiment struct {
	s *config.Experiment
}

// Load reads the experiment file path (YAML, as docs/experiments.md
// describes it), a committed experiment by name (such as
// "roth-natural-orders"), or a result's manifest.json (which runs exactly
// what wrote that result), as `experiment run` reads its argument; its
// errors name the file, line and key, as the command's do.
func Load(path string) (*Experiment, error) {
	if path == "" {
		return nil, errors.New("harness: Load: no experiment file given")
	}
	s, err := expfile.Load(path)
	if err != nil {
		return nil, err
	}
	return &Experiment{s: s}, nil
}

// Parse reads an experiment from data, an experiment file's contents;
// name is the file name its errors give (and the source file its manifest
// records), such as "lab.yaml".
func Parse(name string, data []byte) (*Experiment, error) {
	cfg, err := expfile.Parse(name, data)
	if err != nil {
		return nil, err
	}
	s, err := config.Resolve(cfg, name, data)
	if err != nil {
		return nil, err
	}
	return &Experiment{s: s}, nil
}

// Name is the experiment's name (its name key), which names its default
// result directory results/<Name>.
func (e *Experiment) Name() string { return e.s.Name }

// ConfigHash identifies the resolved experiment; every table and the
// manifest of its result carry it (tables.Metadata.ConfigHash).
func (e *Experiment) ConfigHash() string { return e.s.ConfigHash }

// RunOptions are a run's options, the flags of `experiment run` that a
// whole run takes; the zero value runs into results/<Name> on every CPU
// and says nothing.
type RunOptions struct {
	// Out is the result directory ("": results/<Name>, as the command's
	// default). It is written whole or not at all: a run writes into a
	// temporary directory beside it and renames it into place.
	Out string
	// Workers is how many goroutines walk in parallel (0: GOMAXPROCS).
	// The tables are the same for any number.
	Workers int
	// Force replaces an existing result directory that experiment wrote
	// (--force); without it such a directory is refused.
	Force bool
	// Resume continues an interrupted run from its completed work units
	// (--resume).
	Resume bool
	// Log, when not nil, receives the command's notes and progress lines
	// (what `experiment run` prints on stderr); nil prints nothing.
	Log io.Writer
	// Claims, when not nil, receives the table of the claims the run
	// decided (what `experiment run` prints on stdout).
	Claims io.Writer
}

// Result is a finished run: its result directory. Tables opens its
// tables and manifest (which records the walks made and the time taken).
type Result struct {
	// Dir is the result directory, holding manifest.json, the tables
	// (docs/tables.md) and report.md.
	Dir string
}

// Tables opens the result directory's tables (tables.Open): its manifest,
// and methods that read each table into typed rows.
func (r *Result) Tables() (*tables.Result, error) { return tables.Open(r.Dir) }

// Run runs the experiment whole as `experiment run` does, by the same
// code: the result directory it writes, with every table, the report, the
// manifest and the figures the experiment asks for, is byte for byte the
// command's (the manifest's timings and machine aside). Cancelling ctx
// stops the run; with Resume a later run continues it.
func (e *Experiment) Run(ctx context.Context, o RunOptions) (*Result, error) {
	if o.Workers < 0 {
		return nil, fmt.Errorf("harness: RunOptions.Workers %d: want 0 (every CPU) or more", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	say, claims := o.Log, o.Claims
	if say == nil {
		say = io.Discard
	}
	if claims == nil {
		claims = io.Discard
	}
	co := runner.CommandOptions{Version: version, Say: say, Out: claims, Workers: o.Workers, Force: o.Force, Resume: o.Resume, Figures: experimentFigures}
	if o.Log != nil {
		co.Log = o.Log
	}
	runner.WarnDeterministic(say, e.s)
	dir := runner.OutDir(e.s, runner.All, o.Out)
	if err := runner.RunCommand(ctx, co, e.s, runner.All, 0, dir, buildinfo.Read()); err != nil {
		return nil, err
	}
	return &Result{Dir: dir}, nil
}
