package figures

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// A unit is what one colour of a heatmap of estimates rests on: one start
// square, or the squares of one orbit of the board's symmetry pooled.
type unit []table.SquareRow

// symmetricRule reports whether a rule treats squares equal under the
// board's symmetries alike, so that their rates are equal and their
// walks may be pooled: the random walk, and Warnsdorff's rule with a
// tie-break chain that ends in random (degrees, Pohl's sums and Roth's
// distances are all symmetric; only the move order of `first` is not).
// Backtracking follows the move order and is not.
func symmetricRule(name string) bool {
	r, err := sim.ParseRule(name)
	if err != nil {
		return false
	}
	return r.Kind == sim.RandomWalk || r.Kind == sim.Warnsdorff && r.TieBreak.Draws()
}

// orbit is the index of the smallest square that (row, col) maps to under
// the symmetries of a rows × cols board: the 8 of the square on square
// boards, the 4 of the rectangle on others (as sim.Board.Symmetries).
func orbit(rows, cols, row, col int) int {
	best := math.MaxInt
	for _, rc := range [][2]int{{row, col}, {rows - 1 - row, col}, {row, cols - 1 - col}, {rows - 1 - row, cols - 1 - col}} {
		best = min(best, rc[0]*cols+rc[1])
		if rows == cols {
			best = min(best, rc[1]*cols+rc[0])
		}
	}
	return best
}

// units splits g's squares into units: pooled by orbit when pool is set,
// else one square each, in table order of their first square.
func (g group) units(pool bool) []unit {
	var out []unit
	idx := map[int]int{}
	for i, s := range g.squares {
		key := -1 - i
		if pool {
			key = orbit(g.rows, g.cols, int(s.StartRow), int(s.StartCol))
		}
		j, ok := idx[key]
		if !ok {
			j = len(out)
			idx[key] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], s)
	}
	return out
}

// pooledSquares reports whether some unit holds more than one square.
func pooledSquares(us []unit) bool {
	for _, u := range us {
		if len(u) > 1 {
			return true
		}
	}
	return false
}

// startsRate is r's rate from a uniform start among squares with its
// interval at conf, pooled as the boards and classes tables pool
// (results.StartsRate): the pooled count where the squares ran equal
// walks, the equal-weight mean of their rates where a sequential run
// stopped them apart.
func startsRate(squares []table.SquareRow, r rate, conf float64, m stats.Method) stats.Summary {
	c := make([]results.StartCount, len(squares))
	for i, s := range squares {
		c[i] = results.StartCount{Count: r.count(s), Walks: s.Walks}
	}
	return results.StartsRate(c, conf, m)
}

// rate is u's pooled estimate of r with its interval at conf (startsRate):
// a single square's as its table row has it.
func (u unit) rate(r rate, conf float64, m stats.Method) (p, lo, hi float64) {
	if len(u) == 1 {
		return r.value(u[0])
	}
	sum := startsRate(u, r, conf, m)
	return sum.Center, sum.Lo, sum.Hi
}

// lengthMean is u's mean path length over all its walks and the normal
// interval of that mean at conf, from the squares' means and standard
// deviations (combined exactly: the pooled sum of squares is the sum of
// the squares' own).
func (u unit) lengthMean(conf float64) (mean, lo, hi float64) {
	var n, sum, ss float64
	for _, s := range u {
		w := float64(s.Walks)
		n += w
		sum += w * s.LengthMean
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean = sum / n
	for _, s := range u {
		w := float64(s.Walks)
		d := s.LengthMean - mean
		if s.Walks >= 2 { // one walk has no spread (its SD is null)
			ss += (w - 1) * s.LengthSD * s.LengthSD
		}
		ss += w * d * d
	}
	if n < 2 || math.IsNaN(ss) {
		return mean, mean, mean
	}
	half := distuv.UnitNormal.Quantile(1-(1-conf)/2) * math.Sqrt(ss/(n-1)/n)
	return mean, mean - half, mean + half
}

// mirrorFill draws, on a board with squares not run, each such square
// from a run square of its orbit (equal by the board's symmetry for a
// symmetric rule: d.pool), with its interval and mark, and returns how
// many it filled. Orbits with no square run stay blank.
func mirrorFill(g group, h *plots.HeatmapData, iv *plots.IntervalCue, un *plots.Uncertainty) int {
	rep := map[int]int{}
	for i, masked := range h.Mask {
		if !masked {
			rep[orbit(g.rows, g.cols, i/g.cols, i%g.cols)] = i
		}
	}
	filled := 0
	for i, masked := range h.Mask {
		r, ok := rep[orbit(g.rows, g.cols, i/g.cols, i%g.cols)]
		if !masked || !ok {
			continue
		}
		h.Values[i], h.Mask[i] = h.Values[r], false
		if h.NoStart != nil {
			h.NoStart[i] = h.NoStart[r]
		}
		if iv != nil {
			iv.Lo[i], iv.Hi[i] = iv.Lo[r], iv.Hi[r]
			if iv.Others != nil {
				iv.Others[i] = iv.Others[r]
			}
		}
		if un != nil {
			un.Lo[i], un.Hi[i] = un.Lo[r], un.Hi[r]
		}
		filled++
	}
	return filled
}
