package count

import (
	"math"

	"knightwalk/sim"
)

// peakStates are the most states a layer held, measured on square boards
// (docs/design.md, Counting tours), indexed by width: open tours from no
// designated start (the per-start sweeps hold fewer), and closed tours.
// Boards of other heights reach their width's plateau from about 7 rows;
// shorter boards hold fewer.
var (
	peakOpen   = map[int]float64{4: 1.2e3, 5: 2.6e4, 6: 1.6e7, 7: 1e8 /* 6.8e7 after square 30 of 49, still rising */}
	peakClosed = map[int]float64{4: 20, 5: 3e3, 6: 1.5e5, 7: 1.5e6}
)

// bytesPerState is what a state costs at the peak: a 16-byte slot in
// tables kept at most 3/4 full and doubling, and the layer being read
// while the next is written.
const bytesPerState = 16 * 2 * 2

// Estimate returns about how many states the largest layer of a sweep of
// b holds, and the memory the state tables then take: measured peaks for
// widths up to 7, and for width 8 the measured width 7 times the growth
// from width 6 to 7. It is an order of magnitude, good for refusing what
// cannot fit, not for planning to the gigabyte.
func Estimate(b *sim.Board, closed bool) (states float64, bytes int64, err error) {
	if _, err := newPlan(b); err != nil {
		return 0, 0, err
	}
	w := min(b.Rows, b.Cols)
	h := max(b.Rows, b.Cols)
	table := peakOpen
	if closed {
		table = peakClosed
	}
	states, ok := table[w]
	if !ok {
		switch {
		case w < 4:
			states = 1e3
		default:
			states = table[7] * math.Pow(table[7]/table[6], float64(w-7))
		}
	}
	if h < 7 {
		states /= math.Pow(4, float64(7-h)) // fewer rows, lower plateau
	}
	return states, int64(math.Min(states*bytesPerState, math.MaxInt64/2)), nil
}
