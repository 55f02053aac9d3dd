package plots

import (
	"fmt"
	"testing"
)

func rateLine(rates ...float64) Line {
	l := Line{Name: "x"}
	for i, r := range rates {
		l.N = append(l.N, float64(5+i))
		l.Rate, l.Lo, l.Hi = append(l.Rate, r), append(l.Lo, max(0, r-0.01)), append(l.Hi, min(1, r+0.01))
	}
	return l
}

// The automatic rate axis: logit where rates crowd under 100 %, log where
// they crowd over 0, linear otherwise; a forced axis is kept.
func TestRateAxisFor(t *testing.T) {
	for _, c := range []struct {
		rates []float64
		want  string
	}{
		{[]float64{0.99, 0.995, 0.98, 0.5}, "logit"},
		{[]float64{1, 0.999, 0.98}, "logit"}, // 100 % sits on the top edge
		{[]float64{0.99, 0.98, 0}, "linear"}, // a zero has no logit
		{[]float64{0.002, 0.01, 0}, "log"},   // the random walk's size curve
		{[]float64{0.9, 0.5, 0.3, 0.1}, "linear"},
	} {
		if got := RateAxisFor(RateAxisAuto, []Line{rateLine(c.rates...)}); got != c.want {
			t.Errorf("rates %v: %s axis, want %s", c.rates, got, c.want)
		}
	}
	if got := RateAxisFor(RateAxisLinear, []Line{rateLine(0.99, 0.995)}); got != "linear" {
		t.Errorf("forced linear gave %s", got)
	}
	// Rates of 0 and 1 are drawn on the axis's edges, not at ±Inf.
	sc := chooseRateAxis(RateAxisAuto, []Line{rateLine(1, 0.99, 0.98)})
	if y := sc.y(1); y != sc.y(sc.hi) {
		t.Errorf("100 %% at %v, want the top edge %v", y, sc.y(sc.hi))
	}
}

// Lines join only successive sizes of one parity at the finest step.
func TestSegments(t *testing.T) {
	ns := []float64{5, 6, 7, 8, 9, 10, 15, 20, 25}
	got := fmt.Sprint(segments(ns))
	if want := "[[0 2 4] [1 3 5]]"; got != want { // 15, 20, 25: no line across the gaps
		t.Errorf("segments %s, want %s", got, want)
	}
	// large-boards.yaml: 20..400 step 20, 420..440 step 4, 500, 1000,
	// 2000 (issue 34: a run of 20s was drawn without its line).
	ns = nil
	for n := 20.0; n <= 400; n += 20 {
		ns = append(ns, n)
	}
	for n := 420.0; n <= 440; n += 4 {
		ns = append(ns, n)
	}
	ns = append(ns, 500, 1000, 2000)
	var runs []string
	for _, seg := range segments(ns) {
		runs = append(runs, fmt.Sprintf("%v-%v", ns[seg[0]], ns[seg[len(seg)-1]]))
	}
	if got, want := fmt.Sprint(runs), "[20-400 420-440]"; got != want {
		t.Errorf("large boards: runs %s, want %s", got, want)
	}
}
