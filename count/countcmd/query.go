package countcmd

import (
	"context"
	"github.com/knightwalk/knightwalk/internal/cli"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/sim"
)

// Query is one `experiment count` request.
type Query struct {
	Board          *sim.Board
	Starts         []int
	All            bool // every square asked for
	Closed, Unique bool
	Layers, Paired bool
	Method         string
	Workers        int
	MaxNodes       float64
	MaxMemory      int64
	Spill          string // directory for spilled layers; "" keeps them in memory
	Force          bool   // start a frontier sweep its estimate refuses
	Shard          count.Shard
}

// View is a count from either method, for printing.
type View struct {
	board      *sim.Board
	closed     bool
	method     string
	perStart   []string // "" where not counted
	directed   string   // "" when not every square was counted
	undirected string
	unique     string // "" unless asked for
	symmetries int
	work       string
}

// searchFast is the largest search estimate auto leaves to the search:
// about a minute at nodeRate on 2 workers. Beyond it the frontier sweep
// wins (6x6 open: search about 1 s, sweeps about 6 s of CPU; 7x7 open: search
// about 10 hours).
const searchFast = 1e9

// Run picks the method (see the command's help) and counts.
func (q *Query) Run(ctx context.Context, e *Env) (View, error) {
	method := q.Method
	if method == "auto" {
		switch {
		case q.Unique:
			// the search where it is quick, else the sweep's total and
			// the tours each symmetry fixes (Burnside's lemma)
			method = "frontier"
			est, err := count.EstimateTourNodes(q.Board, q.searchOptions())
			if err == nil && est <= searchFast {
				method = "search"
			}
		case q.Closed || q.Board.Squares() > count.MaxCountSquares:
			method = "frontier"
		default:
			method = "frontier"
			est, err := count.EstimateTourNodes(q.Board, q.searchOptions())
			if err == nil && est <= searchFast {
				method = "search"
			}
		}
	}
	if method == "search" {
		return q.search(ctx, e)
	}
	if q.Unique && q.Board.Squares() > count.MaxCountSquares {
		return View{}, cli.Usagef("--unique on %s: the tours each symmetry fixes are counted on boards of at most %d squares", q.Board, count.MaxCountSquares)
	}
	return q.frontier(ctx, e)
}

func (q *Query) searchOptions() count.CountOptions {
	opt := count.CountOptions{Closed: q.Closed, Unique: q.Unique, Workers: q.Workers}
	if !q.All {
		opt.Starts = q.Starts
	}
	return opt
}
