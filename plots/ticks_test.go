package plots

import "testing"

// TestNiceTicksBelowResolution: a range narrower than the floats can step
// through (exact rates of 1 that differ in the last bit, in percent) gives
// no ticks rather than a loop that never ends.
func TestNiceTicksBelowResolution(t *testing.T) {
	if ts := niceTicks(99.99999999999997, 100.00000000000003, 5); len(ts) > 10 {
		t.Fatalf("%d ticks", len(ts))
	}
}

// TestHeatmapNearlyConstant: a map whose values are all 1 up to the last
// bit (exact success everywhere) draws, with a widened colour range.
func TestHeatmapNearlyConstant(t *testing.T) {
	v := make([]float64, 64)
	for i := range v {
		v[i] = 1
		if i%3 == 0 {
			v[i] = 0.9999999999999997
		}
	}
	h := HeatmapData{Title: "t", Rows: 8, Cols: 8, Values: v, Percent: true}
	sc, err := h.validate()
	if err != nil {
		t.Fatal(err)
	}
	if !(sc.hi-sc.lo >= 0.09 && sc.hi <= 1) {
		t.Fatalf("colour range [%v, %v]", sc.lo, sc.hi)
	}
	if _, err := Heatmap(h); err != nil {
		t.Fatal(err)
	}
}
