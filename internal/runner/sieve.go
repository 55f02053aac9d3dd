package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/sim"
)

// runSieve runs the sieve s (config.SieveStage) and writes its result:
// the sieve table, report and manifest. Its stages depend on each other,
// so it runs whole, in one process: no shards, no --resume.
//
// Stage by stage and, within a stage, board by board in the order given,
// every cell still undecided in the stage walks once on the board: its
// walk (number 0 of its stream, so the walk any run of the same rule,
// board and square with walks: 1 takes); a failure decides the cell's
// stage. The walks of one board run on o.Workers goroutines and land in
// the cells' order, so the table is the same for any number of workers.
func runSieve(ctx context.Context, s *config.Experiment, o RunOptions) (*Completed, error) {
	started := time.Now()
	if o.Shard.N > 1 || o.Round > 0 {
		return nil, errors.New("a sieve runs whole, in one process: its stages depend on each other; run it without --shard")
	}
	if o.Resume {
		return nil, errors.New("a sieve cannot be resumed: run it again (without --resume)")
	}
	if err := CheckRules(s); err != nil {
		return nil, err
	}
	dir, err := prepareOutDir(o.Out, workKey(s), o.Force, false, o.Log)
	if err != nil {
		return nil, err
	}
	defer dir.release()
	t0 := time.Now()
	out, walks, err := sieve(ctx, s, o)
	if err != nil {
		// nothing in DIR.partial can be resumed: it goes
		os.RemoveAll(dir.Partial)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cancelled: %s left unchanged; a sieve is run again from the start", dir.Final)
		}
		return nil, err
	}
	sum := &Completed{Dir: dir.Final, Walks: walks, Seconds: time.Since(t0).Seconds(), Started: started}
	run := results.RunInfo{Meta: o.Meta, Shard: All.String(), Workers: o.Workers, Walks: walks, Seconds: sum.Seconds, Started: started}
	if err := results.WriteSieve(dir.Partial, s, out, run); err != nil {
		return nil, err
	}
	if o.BeforeCommit != nil {
		if err := o.BeforeCommit(dir.Partial); err != nil {
			return nil, err
		}
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

// sieve walks the stages of s and returns each cell's record of each
// stage it entered, stage by stage and, within a stage, in the cells'
// order (rule, then start square), and the walks it made.
func sieve(ctx context.Context, s *config.Experiment, o RunOptions) ([]results.SieveStage, uint64, error) {
	workers := max(1, o.Workers)
	nstarts := len(s.Starts[0])
	alive := make([]int, len(s.Rules)*nstarts) // cell c: rule c / nstarts, start square c % nstarts
	for c := range alive {
		alive[c] = c
	}
	var out []results.SieveStage
	var walks uint64
	for si, stage := range s.Sieve {
		recs := make([]results.SieveCell, len(alive))
		undecided := make([]int, len(alive)) // indices into recs
		for i, c := range alive {
			recs[i] = results.SieveCell{Rule: c / nstarts, Start: c % nstarts}
			undecided[i] = i
		}
		// the progress of a stage counts its walks against the most it
		// may make: every cell on every board
		var done atomic.Uint64
		stop := startProgress(ctx, o, &done, uint64(len(recs))*uint64(len(stage.Boards)))
		for _, bi := range stage.Boards {
			if len(undecided) == 0 {
				break
			}
			outs, err := walkCells(ctx, s, bi, recs, undecided, workers, &done)
			if err != nil {
				stop()
				return nil, 0, err
			}
			walks += uint64(len(undecided))
			next := undecided[:0]
			for j, i := range undecided {
				r, w := &recs[i], outs[j]
				r.Boards++
				r.Steps += int64(w.Length)
				if w.Success {
					next = append(next, i)
					continue
				}
				r.Failed, r.FailedLength = bi, w.Length
				r.HasFailed = true
			}
			undecided = next
		}
		stop()
		alive = alive[:0]
		for i := range recs {
			r := &recs[i]
			r.Passed = r.HasFailed == (stage.Keep == "fails")
			if r.Passed {
				alive = append(alive, r.Rule*nstarts+r.Start)
			}
		}
		out = append(out, results.SieveStage{Stage: stage, Cells: recs})
		if o.Log != nil {
			fmt.Fprintf(o.Log, "sieve: stage %d (%s, keep %s, %d boards): %d cells in, %d passed\n", si+1, stage.Key, stage.Keep, len(stage.Boards), len(recs), len(alive))
		}
	}
	return out, walks, nil
}

// walkCells walks, on board bi, cell recs[i] for every i of todo, on
// workers goroutines, and returns the outcomes in todo's order.
func walkCells(ctx context.Context, s *config.Experiment, bi int, recs []results.SieveCell, todo []int, workers int, done *atomic.Uint64) ([]sim.Outcome, error) {
	b := s.Boards[bi]
	outs := make([]sim.Outcome, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w *sim.Walker
			for {
				j := int(next.Add(1) - 1)
				if j >= len(todo) || ctx.Err() != nil {
					return
				}
				rec := recs[todo[j]]
				r := s.Rules[rec.Rule]
				if w == nil || !w.Retarget(r) {
					var err error
					if w, err = sim.NewWalker(b, r); err != nil {
						errs[wk] = err
						next.Store(int64(len(todo)))
						return
					}
				}
				start := s.Starts[bi][rec.Start]
				release := w.StopOn(ctx)
				outs[j] = w.Walk(start, sim.NewKey(s.Seed, b, r, start), 0)
				release()
				done.Add(1)
				if err := w.Err(); err != nil {
					errs[wk] = err
					next.Store(int64(len(todo)))
					return
				}
				if w.Stopped() {
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return outs, ctx.Err()
}
