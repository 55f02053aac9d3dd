package count

import (
	"context"
	"slices"
)

// pairKey is an unordered pair of path ends in sweep order, x < y.
type pairKey struct{ x, y int }

// canonicalPairs maps every pair of distinct squares that can both be ends
// of a Hamiltonian path to its canonical image under the board's
// symmetries: of all images (g(a), g(b)), in sweep order, the one with the
// latest first end, then the latest second: the sweeps for it then share
// the most squares with both ends in reserve, where states are fewest.
// Paths between a and b map to paths between the images, so P(a, b) is
// P of the canonical pair. On a board with an even number of squares a
// path alternates colours through as many squares of each, so its ends
// differ in colour: pairs of one colour have no paths and are left out
// (half the pairs, and so half the sweeps for second ends).
func canonicalPairs(p *plan, ends []int) map[pairKey]pairKey {
	syms := p.board.Symmetries()
	canon := make(map[pairKey]pairKey)
	colour := func(sq int) int {
		r, c := p.board.RowCol(sq)
		return (r + c) % 2
	}
	for i, a := range ends {
		for _, b := range ends[i+1:] {
			if p.n%2 == 0 && colour(a) == colour(b) {
				continue
			}
			best := pairKey{-1, -1}
			for _, g := range syms {
				x, y := p.sweepSquare(int(g[a])), p.sweepSquare(int(g[b]))
				if x > y {
					x, y = y, x
				}
				if k := (pairKey{x, y}); k.x > best.x || k.x == best.x && k.y > best.y {
					best = k
				}
			}
			canon[pairKey{a, b}] = best
		}
	}
	return canon
}

// sweepPairs counts, for each canonical pair (x, y), the Hamiltonian paths
// with ends x and y. Until x is added, every such sweep holds both ends in
// reserve and is the same sweep; from x to y, every sweep with first end x
// is the same. So one sweep holds two ends in reserve, branches at each x
// into a sweep that holds one, which branches at each y into the sweep for
// (x, y). With both ends designated no other square may end the path, and
// the states carry at most the designated ends' marks: far fewer than with
// an end that may form anywhere.
func sweepPairs(ctx context.Context, p *plan, pairs []pairKey, sweepOf func(string, bool, [2]int) *sweep) (map[pairKey]Count, []Layer, error) {
	slices.SortFunc(pairs, func(a, b pairKey) int {
		if a.x != b.x {
			return a.x - b.x
		}
		return a.y - b.y
	})
	pairs = slices.Compact(pairs)
	done := make(map[pairKey]Count)
	if len(pairs) == 0 {
		return done, nil, nil
	}
	main := sweepOf("shared", false, [2]int{p.n, p.n})
	cur, err := main.initial()
	if err != nil {
		return nil, nil, err
	}
	pos := 0
	for i := 0; i < len(pairs); {
		x := pairs[i].x
		if cur, _, err = main.advance(ctx, cur, pos, x, true); err != nil {
			return nil, nil, err
		}
		pos = x
		j := i
		for j < len(pairs) && pairs[j].x == x {
			j++
		}
		if err := sweepSecond(ctx, p, cur, pairs[i:j], done, sweepOf); err != nil {
			cur.release()
			return nil, nil, err
		}
		i = j
	}
	cur.release()
	return done, main.layers, nil
}

// sweepSecond runs the branch for first end x from the shared layer at x
// (left to the caller), and its branches for each second end y.
func sweepSecond(ctx context.Context, p *plan, at *layer, pairs []pairKey, done map[pairKey]Count, sweepOf func(string, bool, [2]int) *sweep) error {
	x := pairs[0].x
	name := p.sweepName(x)
	first := sweepOf("from "+name, false, [2]int{x, p.n})
	cur, pos, own := at, x, false
	for _, k := range pairs {
		next, _, err := first.advance(ctx, cur, pos, k.y, own)
		if err != nil {
			return err
		}
		if pos < k.y {
			cur, own = next, true
		}
		pos = k.y
		w := sweepOf("from "+name+" to "+p.sweepName(k.y), false, [2]int{x, k.y})
		_, c, err := w.advance(ctx, cur, k.y, p.n, false)
		if err != nil {
			if own {
				cur.release()
			}
			return err
		}
		done[k] = c
	}
	if own {
		cur.release()
	}
	return nil
}

// sweepName is the board's name of the square at sweep index i.
func (p *plan) sweepName(i int) string {
	r, c := i/p.cols, i%p.cols
	if p.turned {
		r, c = c, r
	}
	return p.board.SquareName(p.board.Square(r, c))
}
