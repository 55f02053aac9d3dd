package harness

// The work of `experiment exact` around the enumeration (exact.Walks):
// progress on a terminal, the Go runtime's memory limit matched to the
// budget, the spill directory's checks and what the spilled layers took.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/exactstore"
	"github.com/knightwalk/knightwalk/sim"
)

// exactDefaultBudget is the command's default state budget per start: a
// time limit of some twenty minutes, well past 10x10 from a1 (136.5 million
// states, 100 CPU-s, within 4 GiB); what stops larger enumerations is
// --max-memory (or, with --bounds, what the memory and budget let each
// layer keep).
const exactDefaultBudget = 1_000_000_000

// exactStoredNote is what a command says of values it took from the store.
const exactStoredNote = "from the stored values (one enumeration per orbit of the board's symmetries, stored with the program: internal/exactstore, docs/exact.md), not enumerated"

// exactStored returns the stored exact results of r on b from every one of
// starts, and true, where the store holds (b, r) (internal/exactstore:
// 10x10 Warnsdorff with random tie-breaks); false where it does not. The
// store holds every orbit of a board it holds, so it answers for every
// start or for none. A run takes the same values (internal/runner), so a
// square's value is the same from every command.
func exactStored(b *sim.Board, r sim.Rule, starts []int) ([]exact.Result, bool, error) {
	out := make([]exact.Result, len(starts))
	for i, start := range starts {
		e, ok, err := exactstore.Lookup(b, r, start)
		if err != nil || !ok {
			return nil, false, err
		}
		out[i] = e
	}
	return out, true, nil
}

// exactWalks runs the enumeration with progress on a terminal, under a
// soft memory limit for the Go runtime that matches the budget: the budget
// counts the states, the limit keeps the garbage of a growing layer from
// doubling the heap.
func exactWalks(ctx context.Context, stderr io.Writer, b *sim.Board, r sim.Rule, starts []int, opt exact.Options, layers bool) ([]exact.Result, error) {
	if opt.MaxMemory > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(opt.MaxMemory))
	}
	var states atomic.Int64
	stop := cli.ProgressLine(stderr, func(d time.Duration) string {
		n := states.Load()
		if n == 0 {
			return fmt.Sprintf("exact %s %s: sampling walks to estimate the memory needed, %.0fs", b, r.Name(), d.Seconds())
		}
		return fmt.Sprintf("exact %s %s: %d states expanded, %s states/s, %.0fs", b, r.Name(), n, cli.Rate(n, d), d.Seconds())
	})
	stop = sync.OnceFunc(stop)
	defer stop()
	opt.Progress = &states
	var sp exactSpillSummary
	t0 := time.Now()
	opt.Layers = func(l exact.Layer) {
		if opt.Spill != "" {
			sp.add(l)
		}
		if layers {
			sp.mu.Lock()
			defer sp.mu.Unlock()
			fmt.Fprintf(stderr, "exact %s %s from %s: path length %d: %d states, %d passes (%d rerun), disk %d bytes, %.1f s\n",
				b, r.Name(), b.SquareName(l.Start), l.Depth, l.States, l.Runs, l.Retried, l.DiskBytes, time.Since(t0).Seconds())
		}
	}
	res, err := exact.Walks(ctx, b, r, starts, opt)
	stop()
	if errors.Is(err, exact.ErrMemory) && opt.Spill == "" && !opt.Bounds {
		// 10x10 from its centre needs this: its largest layer is some 60 million states
		err = fmt.Errorf("%w; or keep the layers on disk with --spill DIR, where memory then bounds one pass over a layer, not the layer (docs/exact.md)", err)
	}
	if err == nil && opt.Spill != "" {
		fmt.Fprintf(stderr, "exact %s %s: spilled to %s: largest layer %d states, up to %d passes a step (%d passes in all, %d run again as two), peak disk %.1f MiB (%d bytes)\n",
			b, r.Name(), opt.Spill, sp.maxStates, sp.maxRuns, sp.passes, sp.retried, float64(sp.maxDisk)/(1<<20), sp.maxDisk)
	}
	return res, err
}

// exactSpillSummary gathers the steps of spilled enumerations (several starts
// at once: the sum of their disks is an upper bound of the peak).
type exactSpillSummary struct {
	mu                       sync.Mutex
	maxStates, maxDisk       int64
	maxRuns, passes, retried int
	disk                     map[int]int64 // each start's disk now
}

func (s *exactSpillSummary) add(l exact.Layer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.disk == nil {
		s.disk = map[int]int64{}
	}
	s.disk[l.Start] = l.DiskBytes
	var total int64
	for _, d := range s.disk {
		total += d
	}
	s.maxDisk = max(s.maxDisk, total)
	s.maxStates = max(s.maxStates, l.States)
	s.maxRuns = max(s.maxRuns, l.Runs)
	s.passes += l.Runs + l.Retried
	s.retried += l.Retried
}

// checkExactSpill refuses a --spill DIR that is missing, not a directory
// or not writable, before any work, leaving nothing in it.
func checkExactSpill(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return cli.Usagef("--spill %s: %v; give an existing directory the layers can be written to", dir, err)
	case !fi.IsDir():
		return cli.Usagef("--spill %s: not a directory; give an existing directory the layers can be written to", dir)
	}
	f, err := os.CreateTemp(dir, "knightwalk-exact-*.probe")
	if err != nil {
		return cli.Usagef("--spill %s: cannot write there (%v); give a directory the layers can be written to", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
