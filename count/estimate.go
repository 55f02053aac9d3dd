package count

import (
	"math"

	"github.com/knightwalk/knightwalk/sim"
)

// Peak states per layer by width, on boards tall enough to reach their
// width's plateau (about 7 rows; shorter boards hold fewer), from the
// measurements in docs/performance.md (Counting tours): open tours per
// start (the default single-end sweeps: 6x8 7.1 million; 7x7 past 166
// million at square 40 of 49 and rising), open tours by paired ends (6x6
// 0.33 million, 7x7 48.6 million), and closed tours (6x8 0.94 million,
// 7x8 22.5 million; 8x8 740.7 million after square 45 of 64, counted
// with the layers spilled to disk). Widths 4 and 5 are small boards'
// peaks scaled up.
var (
	peakOpen   = map[int]float64{4: 2e3, 5: 9e4, 6: 7.1e6, 7: 3e8}
	peakPaired = map[int]float64{4: 1e3, 5: 3.2e4, 6: 1.3e6, 7: 4.9e7}
	peakClosed = map[int]float64{4: 400, 5: 2e4, 6: 9.4e5, 7: 2.3e7, 8: 7.4e8}
)

// bytesPerState is what a state costs at the peak: the unread part of the
// layer being read, packed at 16 bytes a state, and the lists of the
// layer being written, 16 bytes a successor, about 1.95 successors a
// state at 7x7 (measured with tables of the layer, 3/4 full at most, it
// was 42 bytes a state at 7x7 by paired ends and 48 at 6x8 open; with
// lists a step packs in rounds when the budget runs short, see step).
const bytesPerState = 48

// Estimate returns about how many states the largest layer of a sweep of
// b holds, and the memory the state tables then take, counting as opt
// says: measured peaks for
// widths up to 7 (8 for closed tours, extrapolated), and beyond them the
// widest known times the growth from the width before it. It is an order of magnitude, good for refusing what
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
			states = table[7] * math.Pow(table[7]/table[6], float64(w-7)) // width 8, open
		}
	}
	if h < 7 {
		states /= math.Pow(4, float64(7-h)) // fewer rows, lower plateau
	}
	return states, int64(math.Min(states*bytesPerState, math.MaxInt64/2)), nil
}
