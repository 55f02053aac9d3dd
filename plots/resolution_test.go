package plots

import (
	"math"
	"testing"
)

// Every colour bar gets at least five labels, over ranges narrow and
// wide, linear and log (the failure view of 8x8 spans 1.09–3.07 %).
func TestColorBarFiveLabels(t *testing.T) {
	for _, r := range [][2]float64{{0.9693, 0.9891}, {0.0109, 0.0307}, {0.0001, 0.5}, {0.94, 1}, {0.5, 0.5001}, {0, 1}, {0.2, 0.9}} {
		for _, failure := range []bool{false, true} {
			h := HeatmapData{Rows: 1, Cols: 2, Values: []float64{r[0], r[1]}, Percent: true, Failure: failure, Highlight: -1}
			if failure && r[0] == 0 {
				continue
			}
			f, err := Heatmap(h)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.ColorBarLabels(); len(got) < 5 {
				t.Errorf("range %v failure %v: labels %q, want at least 5", r, failure, got)
			}
		}
	}
}

// With intervals, the colour range is at least the median interval wide,
// and squares whose interval spans over half of it are washed out.
func TestUncertaintyWidensAndWashes(t *testing.T) {
	h := HeatmapData{Rows: 1, Cols: 3, Values: []float64{0.50, 0.51, 0.52}, Highlight: -1,
		Uncertainty: &Uncertainty{Lo: []float64{0.40, 0.41, 0.519}, Hi: []float64{0.60, 0.61, 0.521}}}
	sc, err := h.validate()
	if err != nil {
		t.Fatal(err)
	}
	if w := sc.hi - sc.lo; math.Abs(w-0.2) > 1e-12 || math.Abs((sc.lo+sc.hi)/2-0.51) > 1e-12 {
		t.Errorf("scale %v to %v, want the median interval's width 0.2 about the data's middle 0.51", sc.lo, sc.hi)
	}
	un, err := h.Unresolved()
	if err != nil {
		t.Fatal(err)
	}
	if !un[0] || !un[1] || un[2] {
		t.Errorf("unresolved %v, want the two wide intervals only", un)
	}
	// A fixed range is kept, and judged against.
	lo, hi := 0.0, 1.0
	h.Min, h.Max = &lo, &hi
	if un, _ := h.Unresolved(); un[0] || un[1] {
		t.Errorf("on a 0–1 scale an interval of 0.2 is resolved: %v", un)
	}
}
