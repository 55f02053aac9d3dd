package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"knightwalk/internal/config"
	"knightwalk/internal/results"
	"knightwalk/internal/table"
)

// RunOptions say how to run an experiment and where the results go.
type RunOptions struct {
	Out     string // result directory
	Force   bool   // replace an existing result directory
	Resume  bool   // continue an interrupted run from its checkpoint
	Workers int
	Shard   Shard
	Meta    table.Metadata // written into every table

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
}

// Run runs the plan of s (or its shard) and writes the results: the
// tables, report and manifest of internal/results, or for a shard its part.
func Run(ctx context.Context, s *config.Experiment, o RunOptions) (*Completed, error) {
	started := time.Now()
	p := NewPlan(s)
	units := p.ShardUnits(o.Shard)
	dir, err := prepareOutDir(o.Out, o.Force, o.Resume)
	if err != nil {
		return nil, err
	}
	ts := NewTallies()
	hdr := checkpointHeader{ConfigHash: s.ConfigHash, Shard: o.Shard.String(), Units: len(p.Units)}
	var cp *checkpoint
	done := map[int]bool{}
	if o.Resume {
		if s.PerWalk && o.Shard.N == 1 {
			return nil, fmt.Errorf("--resume: this experiment writes the per-walk table, which cannot be continued; run it again without --resume")
		}
		if done, cp, err = resumeCheckpoint(dir.Partial, hdr, p, ts); err != nil {
			return nil, err
		}
	} else if cp, err = openCheckpoint(dir.Partial, hdr); err != nil {
		return nil, err
	}
	todo := units[:0:0]
	for _, u := range units {
		if !done[u.ID] {
			todo = append(todo, u)
		}
	}
	total := TotalWalks(units)
	var progress atomic.Uint64
	progress.Add(total - TotalWalks(todo))
	stopProgress := startProgress(ctx, o, &progress, total)

	md := o.Meta
	var ww *table.WalkWriter
	if s.PerWalk && o.Shard.N == 1 { // a shard's walks would be a fragment: parts carry tallies only
		if ww, err = table.NewWalkWriter(filepath.Join(dir.Partial, results.WalksFile), md, s.RowGroup); err != nil {
			cp.Close()
			return nil, err
		}
	}
	t0 := time.Now()
	finished := len(done)
	err = Execute(ctx, p, todo, Options{Workers: o.Workers, PerWalk: ww != nil, Progress: &progress}, func(r Result) error {
		if err := ts.Add(r.Unit.Cell(), r.Tally); err != nil {
			return err
		}
		if ww != nil {
			if err := writeWalks(ww, s, r); err != nil {
				return err
			}
		}
		finished++
		return cp.Add(r)
	})
	stopProgress()
	cerr := cp.Close()
	if err == nil {
		err = cerr
	}
	if err == nil && ww != nil {
		err = ww.Close()
	} else if ww != nil {
		ww.Abort()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cancelled: %s left unchanged; %d of %d units done are kept in %s for --resume", dir.Final, finished, len(units), dir.Partial)
		}
		return nil, err
	}
	sum := &Completed{Dir: dir.Final, Walks: TotalWalks(todo), Seconds: time.Since(t0).Seconds(), Started: started}
	if o.Shard.N > 1 {
		if err := writePart(dir.Partial, s, o, ts); err != nil {
			return nil, err
		}
	} else if err := writeResults(dir.Partial, s, o, ts, sum, len(p.Units), false); err != nil {
		return nil, err
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

// writeResults builds the tables of a complete set of tallies and writes
// them, with report and manifest, into dir; then runs o.BeforeCommit.
// merged says the tallies came from shards' parts, not from this process.
func writeResults(dir string, s *config.Experiment, o RunOptions, ts *Tallies, sum *Completed, units int, merged bool) error {
	var err error
	if sum.Tables, err = results.Build(s, ts.Of); err != nil {
		return err
	}
	if merged { // every walk of the tables counts as done now
		for _, r := range sum.Tables.Squares {
			sum.Walks += uint64(r.Walks)
		}
	}
	run := results.RunInfo{Meta: o.Meta, Shard: o.Shard.String(), Workers: o.Workers, Units: units, Walks: sum.Walks, Seconds: sum.Seconds, Started: sum.Started,
		PerWalk: s.PerWalk && o.Shard.N == 1 && !merged} // a merge has no per-walk table: shards write none
	if err := results.Write(dir, s, sum.Tables, run); err != nil {
		return err
	}
	if o.BeforeCommit != nil {
		return o.BeforeCommit(dir)
	}
	return nil
}

func startProgress(ctx context.Context, o RunOptions, n *atomic.Uint64, total uint64) func() {
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
				eta := time.Duration(float64(total-d) / rate * float64(time.Second)).Round(time.Second)
				fmt.Fprintf(o.Log, "experiment: %d/%d walks (%.1f%%), %.3g walks/s, ETA %s\n", d, total, 100*float64(d)/float64(total), rate, eta)
			}
		}
	}()
	return func() { close(stop); <-finished }
}

// WriteMerged writes the result directory of a complete set of tallies
// that did not come from Run (a merge of shards); secs is the time the
// merge took.
func WriteMerged(s *config.Experiment, o RunOptions, ts *Tallies, secs float64) (*Completed, error) {
	dir, err := prepareOutDir(o.Out, o.Force, false)
	if err != nil {
		return nil, err
	}
	sum := &Completed{Dir: dir.Final, Seconds: secs, Started: time.Now().Add(-time.Duration(secs * float64(time.Second)))}
	if err := writeResults(dir.Partial, s, o, ts, sum, len(NewPlan(s).Units), true); err != nil {
		os.RemoveAll(dir.Partial)
		return nil, err
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return sum, nil
}
