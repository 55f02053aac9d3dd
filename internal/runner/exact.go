package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/exactstore"
	"github.com/knightwalk/knightwalk/sim"
)

// Exact values beside the estimates (experiment key `exact`). With auto,
// a (board, rule) is enumerated where that is cheap, by a stated rule:
// Warnsdorff's rule with a random tie-break on boards of at most 64
// squares, and on boards of at most 81 (9x9) from at most 8 starts; the
// random walk on at most 25 (5x5); each start within autoBudget states:
// at least 2 million (8x8's 64 starts, 8.4 million states in all, about
// two seconds), more when there are fewer starts, 40 million shared by
// them (9x9's four corners, 4.56 million each; its centre, 30.4 million,
// only alone). The first start over its budget ends the (board, rule),
// which is then sampled with a note; so what auto costs is bounded by the
// budgets, and which (board, rule)s it enumerates depends on the config
// alone. With on,
// every (board, rule) the engine takes (at most exact.MaxSquares
// squares, not backtrack). A deterministic rule is decided by its one walk
// and is never enumerated. Each start may expand at most the budget's
// states and all together hold at most exactMemory; a (board, rule) that
// does not fit gets no exact values (null in the tables) and a note in
// the report, never a partial set. With bounds, as with on, but a start
// whose enumeration outgrows the budget or the memory drops its least
// probable states and gets certified bounds instead (exact.Options
// Bounds); two starts are enumerated at a time, each within half of
// boundsMemory's states share (all of it with one start), whatever the
// workers, so that the bounds are the same for any number of workers.
const (
	exactMemory       = 1 << 30
	boundsMemory      = 2 << 30
	boundsWorkers     = 2
	autoExactBudget   = 2_000_000
	autoExactTotal    = 40_000_000
	autoExactSquares  = 64
	autoFewSquares    = 81 // from at most autoFewStarts starts
	autoFewStarts     = 8
	autoRandomSquares = 25
)

// autoBudget is the states each of starts start squares may expand under
// exact: auto: an equal share of autoExactTotal, and at least
// autoExactBudget.
func autoBudget(starts int) int64 {
	return max(autoExactBudget, autoExactTotal/int64(max(1, starts)))
}

// ExactValues are the exact results of (board, rule, start) cells, and
// notes on the (board, rule)s that were tried and did not fit.
type ExactValues struct {
	cells map[Cell]exact.Result
	Notes []string
}

// Of returns the exact result of a cell, if computed (and exact: not
// one with bounds only).
func (x *ExactValues) Of(board, rule, start int) (exact.Result, bool) {
	if x == nil {
		return exact.Result{}, false
	}
	e, ok := x.cells[Cell{board, rule, start}]
	if !e.IsExact() {
		return exact.Result{}, false
	}
	return e, ok
}

// Bounds returns the certified bounds on P(success) of a cell whose
// enumeration dropped states (exact: bounds); Of gives the exact ones.
func (x *ExactValues) Bounds(board, rule, start int) (lo, hi float64, ok bool) {
	if x == nil {
		return 0, 0, false
	}
	e, ok := x.cells[Cell{board, rule, start}]
	if !ok || e.IsExact() {
		return 0, 0, false
	}
	return e.PLower(), e.PUpper(), true
}

// exactWanted says whether mode asks for exact values of rule r on b from
// starts start squares.
func exactWanted(mode string, b *sim.Board, r sim.Rule, starts int) bool {
	if mode == "off" || r.Deterministic() || r.Kind == sim.Backtrack || b.Squares() > exact.MaxSquares {
		return false
	}
	if mode == "on" || mode == "bounds" {
		return true
	}
	if r.Kind == sim.RandomWalk {
		return b.Squares() <= autoRandomSquares && r.MaxSteps == 0
	}
	return b.Squares() <= autoExactSquares || b.Squares() <= autoFewSquares && starts <= autoFewStarts
}

// computeExact enumerates the cells of s that its exact mode asks for.
// The values depend on the config alone, never on workers or shards.
func computeExact(ctx context.Context, s *config.Experiment, workers int, log io.Writer) (*ExactValues, error) {
	x := &ExactValues{cells: map[Cell]exact.Result{}}
	bounds := s.Exact == "bounds"
	for bi, b := range s.Boards {
		budget := autoBudget(len(s.Starts[bi]))
		if s.Exact == "on" || s.Exact == "bounds" {
			budget = cmp.Or(s.ExactBudget, exact.DefaultBudget)
		}
		for ri, r := range s.Rules {
			if stored, err := storedExact(s.Exact, b, r, s.Starts[bi]); err != nil {
				return nil, err
			} else if stored != nil {
				for i, start := range s.Starts[bi] {
					x.cells[Cell{bi, ri, start}] = stored[i]
				}
				x.Notes = append(x.Notes, fmt.Sprintf("%s %s: exact values stored with the program (one enumeration per orbit of the board's symmetries; docs/exact.md), not enumerated in this run; `experiment exact --board %s` gives the same values, and with `--enumerate --start SQ --spill DIR` enumerates any square again", b, r.Name(), b))
				continue
			}
			if !exactWanted(s.Exact, b, r, len(s.Starts[bi])) {
				if (s.Exact == "on" || bounds) && !r.Deterministic() && r.Kind != sim.Backtrack && b.Squares() > exact.MaxSquares {
					// asked for and not computed: say so
					x.Notes = append(x.Notes, fmt.Sprintf("%s %s: no exact values: exact: %s enumerates boards of at most %d squares, and %s has %d", b, r.Name(), s.Exact, exact.MaxSquares, b, b.Squares()))
				}
				continue
			}
			if _, done := exactCache.Load(exactKeyOf(b, r, s.Starts[bi], budget, bounds)); log != nil && !done { // a sequential run computed them before its rounds
				fmt.Fprintf(log, "experiment: exact values of %s %s (%d starts, exact: %s)\n", b, r.Name(), len(s.Starts[bi]), s.Exact)
			}
			res, err := exactCached(ctx, b, r, s.Starts[bi], budget, workers, bounds)
			switch {
			case ctx.Err() != nil:
				return nil, ctx.Err()
			case errors.Is(err, exact.ErrBudget) || errors.Is(err, exact.ErrMemory):
				x.Notes = append(x.Notes, fmt.Sprintf("%s %s: no exact values: %v", b, r.Name(), err))
				continue
			case err != nil:
				return nil, fmt.Errorf("exact values of %s %s: %w", b, r.Name(), err)
			}
			for i, start := range s.Starts[bi] {
				x.cells[Cell{bi, ri, start}] = res[i]
			}
		}
	}
	return x, nil
}

// storedExact returns the stored exact results of rule r on b from starts
// where exact values are asked for (any mode but off) and the store holds
// (b, r) (internal/exactstore: 10x10 Warnsdorff with random tie-breaks);
// nil where it does not. The store is used whenever it holds a (board,
// rule), so a square's value never depends on the experiment around it.
func storedExact(mode string, b *sim.Board, r sim.Rule, starts []int) ([]exact.Result, error) {
	if mode == "off" {
		return nil, nil
	}
	out := make([]exact.Result, len(starts))
	for i, start := range starts {
		e, ok, err := exactstore.Lookup(b, r, start)
		if err != nil || !ok {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// exactCache keeps the exact results computed in this process: they depend
// only on the board, rule, starts and budget, and a process that runs or
// merges the same experiment again (a test suite, a notebook kernel)
// should not enumerate again.
var exactCache sync.Map // exactKey -> []exact.Result

type exactKey struct {
	board, rule, starts string
	budget              int64
	bounds              bool
}

func exactKeyOf(b *sim.Board, r sim.Rule, starts []int, budget int64, bounds bool) exactKey {
	return exactKey{b.String(), r.Name() + "/" + fmt.Sprint(r.MaxSteps, r.Order), fmt.Sprint(starts), budget, bounds}
}

func exactCached(ctx context.Context, b *sim.Board, r sim.Rule, starts []int, budget int64, workers int, bounds bool) ([]exact.Result, error) {
	k := exactKeyOf(b, r, starts, budget, bounds)
	if v, ok := exactCache.Load(k); ok {
		return v.([]exact.Result), nil
	}
	opt := exact.Options{Budget: budget, MaxMemory: exactMemory, Workers: workers}
	if bounds {
		// each start's share of the memory must not depend on the workers
		opt = exact.Options{Budget: budget, MaxMemory: boundsMemory, Workers: boundsWorkers, Bounds: true}
	}
	res, err := exact.Walks(ctx, b, r, starts, opt)
	if err == nil {
		exactCache.Store(k, res)
	}
	return res, err
}
