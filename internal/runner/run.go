package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// RunOptions say how to run an experiment and where the results go.
type RunOptions struct {
	Out     string // result directory
	Force   bool   // replace an existing result directory
	Resume  bool   // continue an interrupted run from its checkpoint
	Workers int
	Shard   Shard
	// Round, from 1, is the round of a sequential run that Shard runs
	// (RunRound); Out then names the run's parts directory.
	Round int
	Meta  table.Metadata // written into every table

	// BeforeCommit, if set, runs on the complete result directory before
	// it is renamed into place (the figures are drawn there).
	BeforeCommit func(dir string) error

	Log      io.Writer                                             // plain progress lines (nil: none)
	Progress func(total uint64, done *atomic.Uint64) (stop func()) // a live progress display; nil: plain Log lines
}

// Completed is what a finished run or merge reports.
type Completed struct {
	Dir     string
	Tables  *results.Tables // nil for a shard, which writes a part
	Walks   uint64
	Seconds float64
	Started time.Time // when the run or merge started (for the manifest)

	shards []results.ShardRun // a merge's parts' provenance
}

// Run runs the plan of s (or its shard) and writes the results: the
// tables, report and manifest of internal/results, or for a shard its part.
func Run(ctx context.Context, s *config.Experiment, o RunOptions) (*Completed, error) {
	if s.Sieve != nil {
		return runSieve(ctx, s, o)
	}
	started := time.Now()
	if s.Sequential != nil && o.Shard.N > 1 && o.Round > 0 {
		return RunRound(ctx, s, o)
	}
	if err := ShardSequential(s, o.Shard); err != nil {
		return nil, err
	}
	if err := CheckShard(s, o.Shard); err != nil {
		return nil, err
	}
	if o.Meta.Experiment == "" { // every table names its run, so readers can check it against the manifest
		o.Meta = results.Metadata(s, o.Meta.ToolVersion, o.Meta.Build)
	}
	o.Meta.Levels = results.Levels(s) // the tables' categories are the experiment's
	p, err := NewPlan(s)
	if err != nil {
		return nil, err
	}
	if err := CheckRules(s); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil { // planned, and nothing written yet
		return nil, err
	}
	dir, err := prepareOutDir(o.Out, workKey(s), o.Force, o.Resume, o.Log)
	if err != nil {
		return nil, err
	}
	defer dir.release()
	ts := NewTallies()
	var sink tallySink = ts
	var rounds *roundTallies
	if s.Sequential != nil {
		rounds = &roundTallies{by: map[int]*Tallies{}}
		sink = rounds
	}
	st, err := openState(dir.Partial, s, p, o, sink)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	var walked uint64
	var seq *decider
	if s.Sequential == nil {
		todo := func(yield func(Unit) bool) {
			for u := range p.Units(o.Shard) {
				if !st.done[u.ID] && !yield(u) {
					return
				}
			}
		}
		walked, err = st.execute(ctx, p, todo, p.Walks(o.Shard, -1, -1)-st.doneWalks, o, sink)
	} else {
		walked, seq, err = runRounds(ctx, s, p, o, st, rounds, ts)
	}
	if cerr := st.cp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		st.closeWalks()
		if ctx.Err() != nil {
			if !o.Resume && len(st.done)+st.finished == 0 {
				// nothing a rerun could resume: leave nothing behind
				if rerr := os.RemoveAll(dir.Partial); rerr == nil {
					return nil, fmt.Errorf("cancelled before any unit finished: %w; nothing was written", ctx.Err())
				}
			}
			if st.keepDone {
				return nil, fmt.Errorf("cancelled: %s left unchanged; %d units done are kept in %s for --resume", dir.Final, len(st.done), dir.Partial)
			}
			return nil, fmt.Errorf("cancelled: %s left unchanged; %d of %d units done are kept in %s for --resume", dir.Final, len(st.done)+st.finished, p.ShardLen(o.Shard), dir.Partial)
		}
		var re *sim.RuleError
		if errors.As(err, &re) && !o.Resume {
			// a rule of your own answered what no walk may take: the units
			// it finished are suspect, and a --resume after fixing it would
			// mix its two versions under one configuration
			if rerr := os.RemoveAll(dir.Partial); rerr == nil {
				return nil, fmt.Errorf("%w; nothing was written (the units done are removed)", err)
			}
		}
		return nil, err
	}
	sum := &Completed{Dir: dir.Final, Walks: walked, Seconds: time.Since(t0).Seconds(), Started: started}
	if o.Shard.N > 1 {
		err = writePart(dir.Partial, s, p, o, ts, st.walks, sum)
	} else {
		err = writeRun(ctx, dir.Partial, s, p, o, ts, st, sum, seq)
	}
	if cerr := st.closeWalks(); err == nil {
		err = cerr
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cancelled while writing the tables: %s left unchanged; all units are done and kept in %s for --resume", dir.Final, dir.Partial)
		}
		var re *sim.RuleError
		if errors.As(err, &re) && !o.Resume {
			// a rule of your own failed while the tables were made (its
			// splitting estimates): as above, its units are suspect
			if rerr := os.RemoveAll(dir.Partial); rerr == nil {
				return nil, fmt.Errorf("%w; nothing was written (the units done are removed)", err)
			}
		}
		return nil, err
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

// runState is what a run keeps in DIR.partial to be resumable: the
// checkpoint of finished units' tallies and, for an experiment that writes
// the per-walk table, the fragments of their walks.
type runState struct {
	cp        *checkpoint
	walks     *fragWriter // nil without the per-walk table
	done      map[int]bool
	doneWalks uint64

	finished int  // units finished by this process
	keepDone bool // add them to done (a sequential run writes only the units it ran)
}

// execute runs units and records each as it finishes: its tally into ts,
// its walks into the fragments, its line into the checkpoint. total is
// the walks they hold, for the progress display. It returns the walks run.
func (st *runState) execute(ctx context.Context, p *Plan, units iter.Seq[Unit], total uint64, o RunOptions, ts tallySink) (uint64, error) {
	var progress atomic.Uint64
	stopProgress := startProgress(ctx, o, &progress, total)
	defer stopProgress()
	var walked uint64
	err := Execute(ctx, p, units, Options{Workers: o.Workers, PerWalk: st.walks != nil, Progress: &progress}, func(r Result) error {
		if err := ts.addResult(r); err != nil {
			return err
		}
		if st.walks != nil { // the walks first: the checkpoint line vouches for them
			if err := st.walks.add(r.Unit, r.Walks); err != nil {
				return err
			}
		}
		st.finished++
		walked += r.Unit.Hi - r.Unit.Lo
		if st.keepDone {
			st.done[r.Unit.ID] = true
		}
		return st.cp.Add(r)
	})
	return walked, err
}

// openState starts the checkpoint (and fragments) of a run, or with
// o.Resume reads back what an interrupted run finished, into ts.
func openState(partial string, s *config.Experiment, p *Plan, o RunOptions, ts tallySink) (*runState, error) {
	hdr := checkpointHeader{Format: checkpointFormat, ConfigHash: workKey(s), Shard: o.Shard.String(), Units: p.Len()}
	st := &runState{done: map[int]bool{}, keepDone: s.Sequential != nil}
	fragPath := filepath.Join(partial, unitWalksName)
	var err error
	if !o.Resume {
		if st.cp, err = openCheckpoint(partial, hdr); err != nil {
			return nil, err
		}
		if s.PerWalk {
			if st.walks, err = createFrag(fragPath, workKey(s)); err != nil {
				st.cp.Close()
				return nil, err
			}
		}
		return st, nil
	}
	if st.done, st.cp, err = resumeCheckpoint(partial, hdr, p, o.Shard, ts); err != nil {
		return nil, err
	}
	if s.PerWalk {
		if st.walks, err = resumeFrag(fragPath, workKey(s), p, st.done); err != nil {
			st.cp.Close()
			return nil, err
		}
	}
	for id := range st.done {
		u := p.Unit(id)
		st.doneWalks += u.Hi - u.Lo
	}
	return st, nil
}

func (st *runState) closeWalks() error {
	if st.walks == nil || st.walks.f == nil {
		return nil
	}
	err := st.walks.close()
	st.walks.f = nil
	return err
}

// writeRun writes the results of a whole run into dir: the per-walk table
// from the fragments, in plan order, then the tables, report and manifest.
// A sequential run writes the units it ran (st.done), in plan order, and
// the stop reasons of its squares.
func writeRun(ctx context.Context, dir string, s *config.Experiment, p *Plan, o RunOptions, ts *Tallies, st *runState, sum *Completed, seq *decider) error {
	walks := st.walks
	if walks != nil {
		if err := walks.w.Flush(); err != nil {
			return err
		}
		ww, err := table.NewWalkWriter(filepath.Join(dir, results.WalksFile), o.Meta, s.RowGroup)
		if err != nil {
			return err
		}
		defer ww.Abort()
		for u := range p.Units(All) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if st.keepDone && !st.done[u.ID] {
				continue
			}
			u, outs, _, err := walks.unitWalks(p, u.ID)
			if err != nil {
				return err
			}
			if err := writeWalks(ww, s, u, outs); err != nil {
				return err
			}
		}
		if err := ww.Close(); err != nil {
			return err
		}
	}
	units := p.Len()
	var stopOf results.StopOf
	if st.keepDone {
		units = len(st.done)
		stopOf = func(board, rule, start int) string { return seq.stops[Cell{board, rule, start}] }
	}
	return writeResults(ctx, dir, s, o, ts, stopOf, seq, sum, units, walks != nil)
}

// writeResults builds the tables of a complete set of tallies and writes
// them, with report and manifest, into dir; then runs o.BeforeCommit.
// perWalk says the per-walk table is in dir too.
func writeResults(ctx context.Context, dir string, s *config.Experiment, o RunOptions, ts *Tallies, stop results.StopOf, seq *decider, sum *Completed, units int, perWalk bool) error {
	t0 := time.Now()
	exact, err := computeExact(ctx, s, max(1, o.Workers), o.Log)
	if err != nil {
		return err
	}
	t1 := time.Now()
	split, err := computeSplitting(ctx, s, max(1, o.Workers), o.Log)
	if err != nil {
		return err
	}
	exactSecs, splitSecs := t1.Sub(t0).Seconds(), time.Since(t1).Seconds()
	if len(exact.cells) == 0 {
		exactSecs = 0 // none asked for
	}
	if len(split) == 0 {
		splitSecs = 0
	}
	splitOf := func(board, rule, start int) (results.Estimated, bool) {
		e, ok := split[Cell{board, rule, start}]
		return e, ok
	}
	if sum.Tables, err = results.BuildRunContext(ctx, s, seq.inputs(results.Inputs{Tally: ts.Of, Exact: exact.Of, Bounds: exact.Bounds, Stop: stop, Split: splitOf})); err != nil {
		return err
	}
	sum.Tables.ExactNotes = exact.Notes
	run := results.RunInfo{Meta: o.Meta, Shard: o.Shard.String(), Workers: o.Workers, Units: units, Walks: sum.Walks, Seconds: sum.Seconds, Started: sum.Started,
		PerWalk: perWalk, Shards: sum.shards, ExactSeconds: exactSecs, SplittingSeconds: splitSecs}
	if err := results.WriteContext(ctx, dir, s, sum.Tables, run); err != nil {
		return err
	}
	if o.BeforeCommit != nil {
		return o.BeforeCommit(dir)
	}
	return nil
}

// ETA is the time left for total walks at the rate of the done ones
// over elapsed, rounded to the second: "unknown" while no walk has
// finished (no rate yet; a division by it printed -2562047h47m16s), or
// when it is beyond what a time.Duration holds.
func ETA(done, total uint64, elapsed time.Duration) string {
	switch {
	case done >= total:
		return "0s"
	case done == 0 || elapsed <= 0:
		return "unknown"
	}
	left := elapsed.Seconds() * float64(total-done) / float64(done)
	if left > 1e9 { // 30 years: past any run, and near Duration's limit
		return "unknown"
	}
	return time.Duration(left * float64(time.Second)).Round(time.Second).String()
}

// startProgress shows how far n has come of total until the returned
// stop. Nothing is shown of no walks (a sieve's stage that no cell
// entered, a resume with every unit done): a display waiting for a count
// of 0 to complete would never end.
func startProgress(ctx context.Context, o RunOptions, n *atomic.Uint64, total uint64) func() {
	if total == 0 {
		return func() {}
	}
	if o.Progress != nil {
		return o.Progress(total, n)
	}
	if o.Log == nil {
		return func() {}
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	t0 := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				d := n.Load()
				rate := float64(d) / time.Since(t0).Seconds()
				fmt.Fprintf(o.Log, "experiment: %d/%d walks (%.1f%%), %.3g walks/s, ETA %s\n", d, total, 100*float64(d)/float64(total), rate, ETA(d, total, time.Since(t0)))
			}
		}
	}()
	return func() { close(stop); <-finished }
}

// WriteMerged writes the result directory of a merge of parts (complete,
// checked by ReadParts, their tallies added to ts by MergeInto): the tables,
// report and manifest, and the per-walk table from the parts' fragments;
// secs is the time the merge took.
func WriteMerged(ctx context.Context, s *config.Experiment, o RunOptions, ts *Tallies, parts []*Part, secs float64) (*Completed, error) {
	if o.Meta.Experiment == "" { // as Run: every table names its run
		o.Meta = results.Metadata(s, o.Meta.ToolVersion, o.Meta.Build)
	}
	o.Meta.Levels = results.Levels(s)
	p, err := NewPlan(s)
	if err != nil {
		return nil, err
	}
	if err := outNotAPart(o.Out, parts); err != nil {
		return nil, err
	}
	dir, err := prepareOutDir(o.Out, workKey(s), o.Force, false, o.Log)
	if err != nil {
		return nil, err
	}
	defer dir.release()
	sum := &Completed{Dir: dir.Final, Walks: p.Walks(All, -1, -1), Seconds: secs, Started: time.Now().Add(-time.Duration(secs * float64(time.Second)))} // every walk of the tables counts as done now
	sum.shards = make([]results.ShardRun, len(parts))
	for _, part := range parts { // in shard order
		if part.Provenance != nil {
			sum.shards[part.K] = *part.Provenance
		}
		sum.shards[part.K].Shard = part.Shard
	}
	err = nil
	if s.PerWalk {
		err = mergeWalks(ctx, filepath.Join(dir.Partial, results.WalksFile), s, p, o.Meta, parts)
	}
	if err == nil {
		err = writeResults(ctx, dir.Partial, s, o, ts, nil, nil, sum, p.Len(), s.PerWalk)
	}
	if err != nil {
		os.RemoveAll(dir.Partial)
		return nil, err
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

// workKey is what a run's checkpoint and walk fragments are keyed by: the
// config without its description (config.Config.WorkHash), so that a
// description edited between an interruption and --resume keeps the
// completed units; ConfigHash where an experiment was built without one.
func workKey(s *config.Experiment) string {
	if s.WorkHash != "" {
		return s.WorkHash
	}
	return s.ConfigHash
}

// CheckRules checks every rule of your own of s on the boards of s as its
// first use would (sim.CheckRule), before a run writes anything: a rule
// whose New fails, or that answers badly, panics or keeps hidden state in
// the first few walks, is refused with nothing written. The boards of
// more than checkRulesSquares squares after the first are left to the
// first use in the run (a sweep to 2000x2000 would otherwise allocate its
// boards' positions twice before it starts). The literature's rules that
// sim registers pass at once.
func CheckRules(s *config.Experiment) error {
	for i, b := range s.Boards {
		if i > 0 && b.Squares() > checkRulesSquares {
			continue
		}
		for _, r := range s.Rules {
			if err := sim.CheckRule(b, r); err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
		}
	}
	return nil
}

const checkRulesSquares = 1 << 16
