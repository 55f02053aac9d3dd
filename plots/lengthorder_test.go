package plots

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A class whose every walk is a full tour has one point, where the other
// classes have theirs too: its marker is drawn over theirs, so every
// class stays in view (a 12x12 distribution showed 3 of its 4 classes,
// the corners' one point under the others').
func TestLengthMarkersOfFewestPointsOnTop(t *testing.T) {
	series := []Series{
		{Name: "corner (120 walks)", X: []float64{36}, Y: []float64{1}},
		{Name: "edge (1200 walks)", X: []float64{30, 32, 36}, Y: []float64{0.001, 0.002, 0.997}},
	}
	f, err := LengthDistributionWith(series, LengthOptions{Squares: 36, LogY: LogOn})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	hex := func(i int) string {
		c, _, _ := seriesStyle(i)
		return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
	}
	if last0, last1 := strings.LastIndex(svg, hex(0)), strings.LastIndex(svg, hex(1)); last0 < last1 {
		t.Errorf("the corner's one marker (%s, at %d) is drawn before the edge's last mark (%s, at %d): hidden under it", hex(0), last0, hex(1), last1)
	}
}
