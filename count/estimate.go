package count

import (
	"math"

	"knightwalk/sim"
)

// Peak states per layer by width, on boards tall enough to reach their
// width's plateau (about 7 rows; shorter boards hold fewer), from the
// measurements in README (Performance, Counting tours): open tours per
// start (the default single-end sweeps: 6x8 7.1 million; 7x7 past 166
// million at square 40 of 49 and rising), open tours by paired ends (6x6
// 0.33 million, 7x7 48.6 million), and closed tours (6x8 0.94 million). Widths 4 and 5 are
// small boards' peaks scaled up; width 7 closed is width 6 times the growth
// of open tours from width 6 to 7, roughly.
var (
	peakOpen   = map[int]float64{4: 2e3, 5: 9e4, 6: 7.1e6, 7: 3e8}
	peakPaired = map[int]float64{4: 1e3, 5: 3.2e4, 6: 1.3e6, 7: 4.9e7}
	peakClosed = map[int]float64{4: 400, 5: 2e4, 6: 9.4e5, 7: 1.5e7}
)

// bytesPerState is what a state costs at the peak: a 16-byte slot in
// tables kept at most 3/4 full and doubling, and the layer being read
// while the next is written (7x7 by paired ends: 4.1 GiB of tables at
// 48.6 million states, 90 bytes a state).
const bytesPerState = 96

// Estimate returns about how many states the largest layer of a sweep of
// b holds, and the memory the state tables then take, counting as opt
// says: measured peaks for
// widths up to 7, and for width 8 the measured width 7 times the growth
// from width 6 to 7. It is an order of magnitude, good for refusing what
// cannot fit, not for planning to the gigabyte.
func Estimate(b *sim.Board, opt Options) (states float64, bytes int64, err error) {
	if _, err := newPlan(b); err != nil {
		return 0, 0, err
	}
	w := min(b.Rows, b.Cols)
	h := max(b.Rows, b.Cols)
	table := peakOpen
	switch {
	case opt.Closed:
		table = peakClosed
	case opt.PairedEnds:
		table = peakPaired
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
