package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg/draw"
)

// Uncertainty is what a heatmap of estimates needs to show only what its
// data resolve: each square's interval at the run's confidence (not
// widened for multiple comparisons), in the units of Values.
type Uncertainty struct {
	Lo, Hi []float64 // Rows*Cols entries; those of masked and NoStart squares are ignored
	Level  float64   // for the legend; zero means 0.95
}

// unresolvedShare is the largest part of the colour scale a square's
// interval may span and still be drawn in its colour: an interval over
// more than half the bar says no more than "low" or "high".
const unresolvedShare = 0.5

func (u *Uncertainty) validate(h HeatmapData) error {
	n := h.Rows * h.Cols
	if err := checkLengths(n, []string{"Uncertainty.Lo", "Uncertainty.Hi"}, len(u.Lo), len(u.Hi)); err != nil {
		return err
	}
	if u.Level != 0 && !(u.Level > 0 && u.Level < 1) {
		return fmt.Errorf("Uncertainty.Level %v is not in (0, 1)", u.Level)
	}
	for i := range n {
		if h.skip(i) {
			continue
		}
		sq := h.CellName(i)
		if err := checkValue(fmt.Sprintf("Uncertainty.Lo[%d] (%s)", i, sq), u.Lo[i]); err != nil {
			return err
		}
		if err := checkValue(fmt.Sprintf("Uncertainty.Hi[%d] (%s)", i, sq), u.Hi[i]); err != nil {
			return err
		}
		if u.Lo[i] > u.Hi[i] {
			return fmt.Errorf("Uncertainty at %s: Lo %v above Hi %v", sq, u.Lo[i], u.Hi[i])
		}
	}
	return nil
}

// span is square i's interval on the scale: the share of the colour bar it
// covers, unclamped (+Inf where a log scale meets a bound at 0).
func (u *Uncertainty) span(h HeatmapData, sc colorScale, i int) float64 {
	a, b := h.drawn(u.Lo[i]), h.drawn(u.Hi[i])
	a, b = min(a, b), max(a, b)
	if sc.log {
		if a <= 0 {
			return math.Inf(1)
		}
		return math.Log(b/a) / math.Log(sc.hi/sc.lo)
	}
	return (b - a) / (sc.hi - sc.lo)
}

// medianWidth is the median width of the squares' intervals in drawn
// units (as a ratio hi/lo on a log scale; +Inf where most reach 0).
func (u *Uncertainty) medianWidth(h HeatmapData, log bool) float64 {
	var ws []float64
	for i := range h.Values {
		if h.skip(i) {
			continue
		}
		a, b := h.drawn(u.Lo[i]), h.drawn(u.Hi[i])
		a, b = min(a, b), max(a, b)
		switch {
		case !log:
			ws = append(ws, b-a)
		case a <= 0:
			ws = append(ws, math.Inf(1))
		default:
			ws = append(ws, b/a)
		}
	}
	slices.Sort(ws)
	if len(ws) == 0 {
		return 0
	}
	return ws[len(ws)/2]
}

// resolvedEnds widens the data's range [lo, hi] to the squares' median
// interval width where it is narrower, about its middle, so that a board of
// pure noise is not stretched over the whole colour bar. Rates stay in
// [0, 1].
func (u *Uncertainty) resolvedEnds(h HeatmapData, lo, hi float64, log bool) (float64, float64) {
	w := u.medianWidth(h, log)
	if log {
		if math.IsInf(w, 1) || hi/lo >= w {
			return lo, hi
		}
		g := math.Sqrt(w / (hi / lo))
		lo, hi = lo/g, hi*g
		if h.Percent && !h.Failure && hi > 1 { // a share: the bar ends at 100 %
			lo, hi = lo/hi, 1 // the same ratio, w, below 100 %
		}
		return lo, hi
	}
	if hi-lo >= w {
		return lo, hi
	}
	mid := (lo + hi) / 2
	lo, hi = mid-w/2, mid+w/2
	if h.Percent && lo < 0 {
		lo, hi = 0, w
	}
	if h.Percent && hi > 1 {
		lo, hi = 1-w, 1
	}
	return lo, hi
}

// unresolved marks the squares whose interval spans more than
// unresolvedShare of the colour scale.
func (u *Uncertainty) unresolved(h HeatmapData, sc colorScale) []bool {
	out := make([]bool, len(h.Values))
	for i := range out {
		out[i] = !h.skip(i) && u.span(h, sc, i) > unresolvedShare
	}
	return out
}

// washed is an unresolved square's colour: its colour mixed three parts
// to one with light grey, so the eye reads it as "not known", while the
// value in the cell and its hue remain.
func washed(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 3*0xe8) / 4) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// unresolvedThumb is the legend thumbnail of an unresolved square.
type unresolvedThumb struct{}

func (unresolvedThumb) Thumbnail(c *draw.Canvas) {
	s := c.Size().Y
	x := c.Center().X - s/2
	c.SetColor(washed(Viridis(0.5)))
	c.Fill(rectPath(x, c.Min.Y, x+s, c.Max.Y))
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: 0.5})
	c.Stroke(rectPath(x, c.Min.Y, x+s, c.Max.Y))
}

// Unresolved reports which squares Heatmap draws washed out (nil without
// Uncertainty), so that a caption can say how many.
func (h HeatmapData) Unresolved() ([]bool, error) {
	if h.Uncertainty == nil {
		return nil, nil
	}
	sc, err := h.validate()
	if err != nil {
		return nil, err
	}
	return h.Uncertainty.unresolved(h, sc), nil
}
