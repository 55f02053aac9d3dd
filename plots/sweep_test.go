package plots

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// stripSVG draws rows as a sweep strip and returns its SVG.
func stripSVG(t *testing.T, rows []SweepRow) string {
	t.Helper()
	f, err := SweepStrip("sweep", rows)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Encode(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSweepStrip: each row is labelled, each failing size is one
// vermilion stroke, and bad rows are errors.
func TestSweepStrip(t *testing.T) {
	rows := []SweepRow{
		{Name: "roth+first r0c0", Swept: []float64{5, 6, 7, 8, 9, 10, 11}, Failing: []float64{7, 11}},
		{Name: "roth+first rNcN", Swept: []float64{5, 6, 7, 8, 9, 10, 11}, Failing: []float64{7}},
		{Name: "pohl+first r0c0", Swept: []float64{5, 6, 7, 8, 9, 10, 11}},
	}
	svg := stripSVG(t, rows)
	for _, r := range rows {
		if !strings.Contains(svg, r.Name) {
			t.Errorf("no label %q", r.Name)
		}
	}
	// The legend names only what is drawn: failures stand apart, so no
	// bracket is drawn and none is in the legend (the gallery's Roth strip
	// had one in its legend and none on its rows).
	if got := strings.Count(svg, "stroke:#D55E00"); got != 3+1 { // three failures, no bracket, the legend's stroke
		t.Errorf("%d vermilion strokes, want 4 (3 failing sizes + the legend's stroke)", got)
	}
	if strings.Contains(svg, "under the bracket") {
		t.Error("a bracket in the legend, none drawn")
	}
	if _, err := SweepStrip("x", nil); err == nil {
		t.Error("no rows: no error")
	}
	if _, err := SweepStrip("x", []SweepRow{{Name: "empty"}}); err == nil {
		t.Error("a row that swept nothing: no error")
	}
}

// Failing sizes too close to draw apart carry their count.
func TestSweepStripClusterCount(t *testing.T) {
	var swept []float64
	for n := 5; n <= 1000; n++ {
		swept = append(swept, float64(n))
	}
	svg := stripSVG(t, []SweepRow{{Name: "a1", Swept: swept, Failing: []float64{100, 101, 103, 600}}})
	if !strings.Contains(svg, ">3</text>") || strings.Contains(svg, ">1</text>") {
		t.Error("the cluster 100–103 is not labelled 3, or a lone failure got a count")
	}
	if !strings.Contains(svg, "under the bracket") {
		t.Error("a bracket drawn, and the legend does not say what it is")
	}
}

// Counts never run together: groups whose counts would stand closer than
// labelPad merge into one bracket counting both, and a lone stroke under
// a neighbour's count joins its bracket.
func TestCountGroups(t *testing.T) {
	width := func(n int) vg.Length { return vg.Length(4 * len(fmt.Sprint(n))) } // 4 pt a digit
	for _, c := range []struct {
		name string
		xs   []vg.Length
		want []countGroup
	}{
		{"apart", []vg.Length{10, 11, 12, 100, 101}, []countGroup{{10, 12, 3}, {100, 101, 2}}},
		// 3 at 10–12 and 2 at 20–21: "3" spans 9–13, "2" 18.5–22.5: 5.5 pt apart, under labelPad.
		{"3 beside 2", []vg.Length{10, 11, 12, 20, 21}, []countGroup{{10, 21, 5}}},
		{"lone stroke under a count", []vg.Length{50, 51, 55}, []countGroup{{50, 55, 3}}},
		{"lone strokes apart", []vg.Length{10, 20, 30}, []countGroup{{10, 10, 1}, {20, 20, 1}, {30, 30, 1}}},
		{"unsorted", []vg.Length{21, 10, 12, 11, 20}, []countGroup{{10, 21, 5}}},
	} {
		got := countGroups(c.xs, width)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		for i := 1; i < len(got); i++ {
			if got[i-1].n > 1 || got[i].n > 1 {
				r := max(got[i-1].hi, (got[i-1].lo+got[i-1].hi)/2+width(got[i-1].n)/2)
				l := min(got[i].lo, (got[i].lo+got[i].hi)/2-width(got[i].n)/2)
				if l-r < labelPad {
					t.Errorf("%s: groups %v and %v stand %v pt apart, under %v", c.name, got[i-1], got[i], l-r, labelPad)
				}
			}
		}
	}
}

// On the full Roth axis (n = 5…2000) two runs of failing sizes 25 apart,
// which drew as "3" and "2" side by side ("32"), carry one count.
func TestSweepStripNoRunTogetherCounts(t *testing.T) {
	var swept []float64
	for n := 5; n <= 2000; n++ {
		swept = append(swept, float64(n))
	}
	svg := stripSVG(t, []SweepRow{{Name: "a1", Swept: swept, Failing: []float64{1630, 1632, 1635, 1660, 1662, 400}}})
	if !strings.Contains(svg, ">5</text>") || strings.Contains(svg, ">3</text>") || strings.Contains(svg, ">2</text>") || strings.Contains(svg, ">1</text>") {
		t.Error("the runs at 1630–1635 and 1660–1662 are not counted together as 5 (or a lone failure got a count)")
	}
}
