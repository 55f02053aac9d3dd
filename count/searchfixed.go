package count

import (
	"github.com/knightwalk/knightwalk/sim"

	"context"
	"fmt"
	"math/bits"
)

// FixedTours counts, for each symmetry g of b (in the order of
// Board.Symmetries, the identity first), the tours g maps to themselves,
// which is what Burnside's lemma needs besides the total to count tours up
// to symmetry:
//
//   - closed: the undirected cycles C with g(C) = C. Then the cycles up to
//     symmetry are (cycles + Σ_{g≠id} fixed[g]) / |G|.
//   - open: the directed tours P with g(P) = P reversed (no symmetry other
//     than the identity maps a directed tour to itself unreversed, and a
//     tour of two or more squares is not its own reverse). Then the tours
//     up to symmetry and reversal are (directed + Σ_{g≠id} fixed[g]) / 2|G|.
//
// fixed[0], the identity's, is the total, which FixedTours does not count
// (CountTours or the frontier sweep does): it is -1.
//
// A tour fixed by g is determined by a part of it, so FixedTours searches
// only that part, on the board folded by g (one square of each orbit of
// g's group): a cycle on which g acts as a rotation by L = N/d squares (g
// of order d, moving every square) is its first L squares, one of each
// orbit, the last a knight's move from the image of the first; a cycle on
// which an involution g acts as a reflection is half of it between two
// squares g fixes or two edges {u, g(u)}; an open tour P with g(P) =
// reversed P (g an involution) is its first half, its middle an edge
// {u, g(u)} or the one square g fixes. The folded searches are small (half
// the board or less), so this takes far less than counting the tours;
// boards of at least two and at most MaxCountSquares squares (the one
// square is its own reverse: every symmetry fixes it, with or without
// reversal).
func FixedTours(ctx context.Context, b *sim.Board, closed bool) ([]int64, error) {
	n := b.Squares()
	if n > MaxCountSquares {
		return nil, fmt.Errorf("fixed tours on %s: boards of more than %d squares are not supported", b, MaxCountSquares)
	}
	g := newTourGraph(b, closed, false)
	out := make([]int64, len(g.syms))
	out[0] = -1
	for i := 1; i < len(g.syms); i++ {
		f := &folded{tourGraph: g, ctx: ctx, sym: g.syms[i]}
		var err error
		if closed {
			out[i], err = f.closedFixed()
		} else {
			out[i], err = f.openFixed()
		}
		if err != nil {
			return nil, fmt.Errorf("fixed tours on %s: %w", b, err)
		}
	}
	return out, nil
}

// folded searches the tours fixed by one symmetry.
type folded struct {
	*tourGraph
	ctx   context.Context
	sym   []int8
	nodes int64
	err   error

	tails  uint64     // where the folded path's images close (a rotation's cycle: the first square's orbit)
	powers [][]int8   // sym^0 .. sym^(d-1)
	orbit  [64]uint64 // the squares of each square's orbit under sym
	fixed  uint64     // squares sym fixes
}

func (f *folded) init() {
	id := make([]int8, f.n)
	for i := range id {
		id[i] = int8(i)
	}
	f.powers = [][]int8{id}
	for {
		last := f.powers[len(f.powers)-1]
		next := make([]int8, f.n)
		isID := true
		for i := range next {
			next[i] = f.sym[last[i]]
			isID = isID && int(next[i]) == i
		}
		if isID {
			break
		}
		f.powers = append(f.powers, next)
	}
	for sq := range f.n {
		for _, p := range f.powers {
			f.orbit[sq] |= 1 << p[sq]
		}
		if int(f.sym[sq]) == sq {
			f.fixed |= 1 << sq
		}
	}
}

// closedFixed counts the cycles sym fixes.
func (f *folded) closedFixed() (int64, error) {
	f.init()
	d := len(f.powers)
	if f.n%2 != 0 || f.n < 4 {
		return 0, nil
	}
	var total int64
	if f.fixed == 0 && f.n%d == 0 {
		// sym acts on the cycle as a rotation by L: the cycle is
		// v_0..v_{L-1}, h(v_0)..h(v_{L-1}), ... for the element h of sym's
		// group that acts as that rotation, one of its generators. Rooted
		// at the orbit O of the square with fewest neighbours, each cycle
		// is found 2d times (d squares of O, two directions).
		L := f.n / d
		root := f.closedStartOrbit()
		var count int64
		for j := 1; j < d; j++ {
			if gcd(j, d) != 1 {
				continue
			}
			h := f.powers[j]
			for o := f.orbit[root]; o != 0; o &= o - 1 {
				v0 := bits.TrailingZeros64(o)
				f.tails = f.orbit[v0] // the cycle closes at an image of v0
				count += f.segment(v0, L, func(last int) bool { return f.nbr[last]&(1<<h[v0]) != 0 })
			}
		}
		if count%(2*int64(d)) != 0 {
			panic(fmt.Sprintf("sim: rotation-fixed cycles %d not a multiple of %d", count, 2*d))
		}
		total += count / (2 * int64(d))
	}
	f.tails = 0 // the ends of the folded paths below are spent
	if d == 2 {
		// sym, an involution, acts on the cycle as a reflection: it fixes
		// two of the cycle's squares (then sym fixes exactly those) or
		// two of its edges {u, sym(u)} (then sym fixes no square).
		switch bits.OnesCount64(f.fixed) {
		case 2:
			a := bits.TrailingZeros64(f.fixed)
			bb := bits.TrailingZeros64(f.fixed &^ (1 << a))
			// a, w_1..w_{N/2-1}, bb, then the images back: each cycle
			// twice, once per direction
			var count int64
			for m := f.nbr[a] &^ f.fixed; m != 0; m &= m - 1 {
				w := bits.TrailingZeros64(m)
				count += f.segmentFrom(w, f.orbit[w]|1<<a, f.n/2-1, func(last int) bool { return f.nbr[last]&(1<<bb) != 0 })
			}
			total += count / 2
		case 0:
			// u = w_0, ..., w_{N/2-1}, sym(w_{N/2-1}), ..., sym(u): each
			// cycle four times (two such edges, two ends of each)
			var count int64
			for u := range f.n {
				if f.nbr[u]&(1<<f.sym[u]) == 0 {
					continue
				}
				count += f.segment(u, f.n/2, func(last int) bool { return f.nbr[last]&(1<<f.sym[last]) != 0 })
			}
			if count%4 != 0 {
				panic(fmt.Sprintf("sim: reflection-fixed cycles %d not a multiple of 4", count))
			}
			total += count / 4
		}
	}
	return total, f.err
}

// openFixed counts the directed open tours P with sym(P) = P reversed.
func (f *folded) openFixed() (int64, error) {
	f.init()
	if len(f.powers) != 2 || f.n < 2 {
		return 0, nil
	}
	m := f.n / 2
	var end func(last int) bool
	switch {
	case f.n%2 == 0 && f.fixed == 0:
		end = func(last int) bool { return f.nbr[last]&(1<<f.sym[last]) != 0 }
	case f.n%2 == 1 && bits.OnesCount64(f.fixed) == 1:
		c := f.fixed
		end = func(last int) bool { return f.nbr[last]&c != 0 }
	default:
		return 0, nil
	}
	var count int64
	f.tails = 0 // the tour's ends, v0 and its image, are spent
	for v0 := range f.n {
		if f.fixed&(1<<v0) == 0 {
			count += f.segment(v0, m, end)
		}
	}
	return count, f.err
}

// closedStartOrbit returns a square of fewest neighbours.
func (f *folded) closedStartOrbit() int { return f.closedStart() }

// segment counts the sequences v0, v_1, ..., v_{L-1} of knight's moves that
// take one square of each of L orbits (none fixed), with end(v_{L-1}).
func (f *folded) segment(v0, L int, end func(int) bool) int64 {
	return f.segmentFrom(v0, f.orbit[v0], L, end)
}

// segmentFrom is segment from v0 with the squares used already marked.
func (f *folded) segmentFrom(v0 int, used uint64, L int, end func(int) bool) int64 {
	if f.err != nil {
		return 0
	}
	if L == 1 {
		if end(v0) {
			return 1
		}
		return 0
	}
	f.nodes++
	if f.nodes%cancelCheck == 0 {
		if err := f.ctx.Err(); err != nil {
			f.err = err
			return 0
		}
	}
	free := f.all &^ used &^ f.fixed
	var count int64
	for m := f.nbr[v0] & free; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		u := used | f.orbit[w]
		if !f.reachable(u, v0, w) {
			continue
		}
		count += f.segmentFrom(w, u, L-1, end)
	}
	return count
}

// reachable prunes a folded path that moved on from v to w, leaving the
// squares used. The whole tour is the path and its images, so every square
// not yet on it (free) will be, between two neighbours: free squares, the
// images of the head w (where the path and its images go on), of the first
// square (tails: a cycle closes there), or squares sym fixes (a middle);
// only the neighbours of v's images lost one (v's orbit left the heads).
func (f *folded) reachable(used uint64, v, w int) bool {
	free := f.all &^ used &^ f.fixed
	usable := free | f.orbit[w] | f.tails | f.fixed
	var lost uint64
	for o := f.orbit[v] &^ f.tails; o != 0; o &= o - 1 {
		lost |= f.nbr[bits.TrailingZeros64(o)]
	}
	for x := lost & free; x != 0; x &= x - 1 {
		if bits.OnesCount64(f.nbr[bits.TrailingZeros64(x)]&usable) < 2 {
			return false
		}
	}
	return true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
