package bench

import (
	"sync"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// ownRules are rules of your own that copy a built-in rule through the
// public sim.Position (as a researcher writes one), timed beside the
// built-in: what writing a rule yourself costs. Index i copies
// kernels[i%2]: the first two answer one walk a call (sim.Policy), the
// last two also in lanes, 16 walks a call (sim.LanePolicy).
var ownRules = []sim.CustomRule{
	{Name: "bench/warnsdorff-random", Doc: "Warnsdorff's rule with ties drawn, written through sim.Position (bench's copy of warnsdorff/random)",
		New: func(*sim.Board) sim.Policy { return &ownWarnsdorff{} }},
	{Name: "bench/random", Doc: "the random walk, written through sim.Position (bench's copy of random)",
		New: func(*sim.Board) sim.Policy {
			return sim.PolicyFunc(func(p *sim.Position, dst []int) []int { return p.Moves(p.Current(), dst) })
		}},
	{Name: "bench/warnsdorff-random-lanes", Doc: "Warnsdorff's rule with ties drawn, written through sim.Position and sim.Lanes (bench's copy of warnsdorff/random in lanes)",
		New: func(*sim.Board) sim.Policy { return &ownWarnsdorffLanes{} }},
	{Name: "bench/random-lanes", Doc: "the random walk, written through sim.Position and sim.Lanes (bench's copy of random in lanes)",
		New: func(*sim.Board) sim.Policy { return ownRandomLanes{} }},
}

// ownWarnsdorffLanes is ownWarnsdorff that also answers in lanes: the
// free squares of least degree.
type ownWarnsdorffLanes struct{ ownWarnsdorff }

func (w *ownWarnsdorffLanes) AllowedLanes(l *sim.Lanes) { l.MinDegrees(&l.Allowed, &l.Free) }

// ownRandomLanes is the random walk in both forms: every free square.
type ownRandomLanes struct{}

func (ownRandomLanes) Allowed(p *sim.Position, dst []int) []int { return p.Moves(p.Current(), dst) }
func (ownRandomLanes) AllowedLanes(l *sim.Lanes)                { l.Allowed = l.Free }

var registerOwn = sync.OnceValue(func() error {
	for _, c := range ownRules {
		if err := sim.Register(c); err != nil {
			return err
		}
	}
	return nil
})

// ownWarnsdorff allows the unvisited neighbours of least degree.
type ownWarnsdorff struct{ moves []int }

func (w *ownWarnsdorff) Allowed(p *sim.Position, dst []int) []int {
	w.moves = p.Moves(p.Current(), w.moves[:0])
	best, n := 9, len(dst)
	for _, sq := range w.moves {
		if d := p.Degree(sq); d < best {
			best, dst = d, append(dst[:n], sq)
		} else if d == best {
			dst = append(dst, sq)
		}
	}
	return dst
}

// ownRuleBench times each own rule on 8x8 from every square, as
// kernelBench times the built-ins, and returns the results and the
// own-rule/built-in CPU time per walk against builtins (kernels' results:
// warnsdorff/random, random).
func ownRuleBench(builtins []Result, d time.Duration) ([]Result, []float64, error) {
	if err := registerOwn(); err != nil {
		return nil, nil, err
	}
	var res []Result
	var ratios []float64
	for i, c := range ownRules {
		b := sim.MustBoard(8, 8)
		r, err := sim.ParseRule(c.Name)
		if err != nil {
			return nil, nil, err
		}
		w, err := sim.NewWalker(b, r)
		if err != nil {
			return nil, nil, err
		}
		o := timeWalker(w, "own rule (policy kernel)", d, false)
		if err := w.Err(); err != nil {
			return nil, nil, err
		}
		res = append(res, o)
		ratios = append(ratios, speed(builtins[i%2])/speed(o))
	}
	return res, ratios, nil
}

// ownOverPaths returns, for each own rule (own, ownRuleBench's results),
// its CPU time per walk over the built-in's on each path forced
// (pathKernels: per path, warnsdorff/random then random).
func ownOverPaths(own, pathKernels []Result) [][]float64 {
	out := make([][]float64, len(own))
	for i, o := range own {
		for p := i % 2; p < len(pathKernels); p += 2 {
			out[i] = append(out[i], speed(pathKernels[p])/speed(o))
		}
	}
	return out
}
