package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceStep returns a round step (1, 2, 2.5 or 5 times a power of ten) that
// divides [lo, hi] into at most intervals parts, and the decimals its
// multiples need.
func niceStep(lo, hi float64, intervals int) (step float64, decimals int) {
	raw := (hi - lo) / float64(intervals)
	exp := math.Floor(math.Log10(raw))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * math.Pow(10, exp)
		if step >= raw*(1-1e-9) {
			decimals = max(0, int(-math.Floor(math.Log10(step)+1e-9)))
			if m == 2.5 {
				decimals++
			}
			return step, decimals
		}
	}
	return step, decimals
}

// niceTicks returns labelled ticks at the multiples of a round step within
// [lo, hi], at most intervals+1 of them.
func niceTicks(lo, hi float64, intervals int) []plot.Tick {
	step, decimals := niceStep(lo, hi, intervals)
	var ts []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	if !(step > 0) || math.Abs(first) > 1<<50 { // a range below the floats' resolution: k++ would not move
		return nil
	}
	for k := first; k*step <= hi+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // no "-0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ts
}

// niceTicker labels about five round values on a linear axis, with an
// unlabelled minor tick halfway between them.
type niceTicker struct{}

func (niceTicker) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	major := niceTicks(lo, hi, 5)
	step, _ := niceStep(lo, hi, 5)
	ts := append([]plot.Tick(nil), major...)
	for k := math.Ceil(lo/step*2 - 1e-9); k*step/2 <= hi+step*1e-9; k++ {
		if int(k)%2 != 0 {
			ts = append(ts, plot.Tick{Value: k * step / 2})
		}
	}
	return ts
}

// endTicks labels both ends of a range, lo and hi (e.g. 1 and the number of
// squares), and the round values between them that do not crowd the ends.
type endTicks struct{ lo, hi float64 }

func (e endTicks) Ticks(min, max float64) []plot.Tick {
	if !(e.hi > e.lo) { // every walk one length (a deterministic rule's tours)
		return []plot.Tick{{Value: e.lo, Label: strconv.FormatFloat(e.lo, 'f', -1, 64)}}
	}
	ts := []plot.Tick{{Value: e.lo, Label: strconv.FormatFloat(e.lo, 'f', -1, 64)}}
	gap := 0.08 * (e.hi - e.lo)
	for _, t := range (niceTicker{}).Ticks(e.lo, e.hi) {
		if t.Label == "" || (t.Value-e.lo > gap && e.hi-t.Value > gap) {
			ts = append(ts, t)
		}
	}
	return append(ts, plot.Tick{Value: e.hi, Label: strconv.FormatFloat(e.hi, 'f', -1, 64)})
}

// log10Ticks labels an axis that carries log10 of the data: the integers k
// as 10^k, with minor ticks at log10 of 2…9 times each power. Where fewer
// than two powers of ten fall in the range, 2 and 5 times each power are
// labelled too (as plain numbers), so the axis still has a scale; where
// more than seven do, only every second (third…) power is labelled and the
// minor ticks are left out, so the labels do not crowd.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	inRange := func(v float64) bool { return v >= min-1e-9 && v <= max+1e-9 }
	powers := 0
	for k := math.Ceil(min - 1e-9); k <= max+1e-9; k++ {
		powers++
	}
	every := (powers + 6) / 7
	var ts []plot.Tick
	for k := math.Floor(min); k <= math.Ceil(max); k++ {
		if inRange(k) {
			t := plot.Tick{Value: k}
			if int(math.Abs(k))%every == 0 {
				t.Label = powerLabel(int(k))
			}
			ts = append(ts, t)
		}
		for m := 2; m < 10 && every == 1; m++ {
			v := k + math.Log10(float64(m))
			if !inRange(v) {
				continue
			}
			t := plot.Tick{Value: v}
			// a label at the axis's right end (a curve that ends at 200
			// walks) would stick out of the figure, half of it past the
			// frame: the tick stays, unlabelled
			if powers < 2 && (m == 2 || m == 5) && v < max-1e-9 {
				t.Label = strconv.FormatFloat(float64(m)*math.Pow(10, k), 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// intTicks labels round whole numbers (board sizes): steps of 1, 2, 5, 10,
// 20, 25, 50…, never 2.5, with a minor tick at every whole number between
// labels when there are few enough.
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	step, _ := niceStep(lo, hi, 6)
	if step < 1 {
		step = 1
	}
	if step != math.Trunc(step) {
		step *= 2 // 2.5 → 5
	}
	var ts []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		switch {
		case math.Mod(v, step) == 0:
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		case step <= 5:
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}
