package plots

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

// A size curve draws nothing its legend does not name: no shading along
// a published bound (the entry's words say which side it bounds), odd n
// in the series' own colour (not a paler one no entry names), and where
// an exact value is known the exact value alone, not the estimate beside
// it. It fails on the figure drawn before these were fixed: a grey strip
// above each "≥" range, odd-n lines at half the colour's strength, the
// sampled marker and bar under each cross.
func TestSizeCurveDrawsOnlyWhatItsLegendNames(t *testing.T) {
	nan := math.NaN()
	l := Line{Name: "corner starts (400 walks a point)", N: []float64{5, 6, 7, 8, 9, 10},
		Rate:  []float64{1, 1, 0.74, 0.97, 0.985, 0.99},
		Lo:    []float64{0.99, 0.99, 0.70, 0.95, 0.97, 0.98},
		Hi:    []float64{1, 1, 0.78, 0.99, 0.995, 0.997},
		Exact: []float64{1, 1, 0.7478, 0.98, nan, nan}}
	refs := []Reference{{Source: "Ganzfried (2004): ≥ 98 %", N: 8, NMax: 25, Rate: 0.98, Bound: AtLeast}}
	f, err := SizeCurveWith([]Line{l}, SizeOptions{Title: "t", References: refs})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	if strings.Contains(svg, "fill-opacity") {
		t.Error("a translucent shading drawn, which no legend entry explains")
	}
	clr, _, _ := seriesStyle(0)
	pale := fmt.Sprintf("#%02X%02X%02X", lighten(clr, 0.5).R, lighten(clr, 0.5).G, lighten(clr, 0.5).B)
	if strings.Contains(strings.ToUpper(svg), pale) {
		t.Errorf("a line in %s, a paler colour than its series', with no legend entry", pale)
	}
	// The series' markers are filled circles in its colour: one a
	// sampled point (n = 9, 10), none at the sizes with exact values.
	own := fmt.Sprintf("#%02X%02X%02X", clr.R, clr.G, clr.B)
	markers := regexp.MustCompile(`<path d="M[^"]*A[^"]*" style="fill:`+own).FindAllString(svg, -1)
	if len(markers) != 2+1 { // n = 9 and 10, and the legend's
		t.Errorf("%d filled markers of the series, want 3 (n = 9, 10 and the legend's): estimates drawn where exact values are known", len(markers))
	}
}
