package sim_test

import (
	"fmt"

	"github.com/knightwalk/knightwalk/sim"
)

// warnsdorffLanes is Warnsdorff's rule with ties drawn, in both forms: one
// position a call (Allowed, for exact enumeration, tours, larger boards)
// and 16 walks a call (AllowedLanes, for Monte Carlo walks on boards of up
// to 64 squares).
type warnsdorffLanes struct{ moves []int }

func (w *warnsdorffLanes) Allowed(p *sim.Position, dst []int) []int {
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

func (w *warnsdorffLanes) AllowedLanes(l *sim.Lanes) {
	for j := range sim.LaneCount {
		l.Allowed[j] = l.MinDegree(j, l.Free[j]) // the free squares of least degree
	}
}

// A program registers its rules once, at start.
func init() {
	sim.MustRegister(sim.CustomRule{Name: "example/warnsdorff-lanes", New: func(*sim.Board) sim.Policy { return &warnsdorffLanes{} }})
}

// ExampleLanePolicy walks a rule in lanes beside the built-in it copies,
// on the same streams: the same walks.
func ExampleLanePolicy() {
	b := sim.MustBoard(8, 8)
	builtin, _ := sim.ParseRule("warnsdorff/random")
	mine, _ := sim.ParseRule("example/warnsdorff-lanes")
	a1 := b.Square(0, 0)
	key := sim.NewKey(1, b, builtin, a1)
	for _, r := range []sim.Rule{builtin, mine} {
		w, err := sim.NewWalker(b, r)
		if err != nil {
			panic(err)
		}
		out := make([]sim.Outcome, 256)
		tours := 0
		for lo := uint64(0); lo < 100_000; lo += 256 {
			w.WalkRange(a1, key, lo, out[:min(256, 100_000-lo)])
			if err := w.Err(); err != nil {
				panic(err)
			}
			for _, o := range out[:min(256, 100_000-lo)] {
				if o.Success {
					tours++
				}
			}
		}
		fmt.Printf("%s: %d tours in 100000 walks from a1\n", r.Name(), tours)
	}
	// Output:
	// warnsdorff/random: 97972 tours in 100000 walks from a1
	// example/warnsdorff-lanes: 97972 tours in 100000 walks from a1
}
