package plots

import (
	"bytes"
	"strings"
	"testing"
)

// TestSweepStrip: each row is labelled, each failing size is one
// vermilion stroke, and bad rows are errors.
func TestSweepStrip(t *testing.T) {
	rows := []SweepRow{
		{Name: "roth+first r0c0", Swept: []float64{5, 6, 7, 8, 9, 10, 11}, Failing: []float64{7, 11}},
		{Name: "roth+first rNcN", Swept: []float64{5, 6, 7, 8, 9, 10, 11}, Failing: []float64{7}},
		{Name: "pohl+first r0c0", Swept: []float64{5, 6, 7, 8, 9, 10, 11}},
	}
	f, err := SweepStrip("sweep", rows)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Encode(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, r := range rows {
		if !strings.Contains(svg, r.Name) {
			t.Errorf("no label %q", r.Name)
		}
	}
	if got := strings.Count(svg, "stroke:#D55E00"); got != 3+1 { // three failures and the legend's thumbnail
		t.Errorf("%d vermilion strokes, want 4 (3 failing sizes + legend)", got)
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
	f, err := SweepStrip("sweep", []SweepRow{{Name: "a1", Swept: swept, Failing: []float64{100, 101, 103, 600}}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Encode(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), ">3</text>") || strings.Contains(b.String(), ">1</text>") {
		t.Error("the cluster 100–103 is not labelled 3, or a lone failure got a count")
	}
}
