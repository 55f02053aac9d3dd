package plots

import (
	"image/color"
	"math"
)

// viridisStops samples matplotlib's viridis colormap (van der Walt & Smith,
// 2015; CC0) at every 16th of its 256 entries plus the last; linear
// interpolation between them stays within one 8-bit step of the full table.
// Viridis is perceptually uniform, readable by people with the common
// colour-vision deficiencies, and keeps its order in greyscale.
var viridisStops = [...]struct {
	at      float64
	r, g, b uint8
}{
	{0.0 / 255, 0x44, 0x01, 0x54},
	{16.0 / 255, 0x48, 0x18, 0x6a},
	{32.0 / 255, 0x47, 0x2d, 0x7b},
	{48.0 / 255, 0x42, 0x40, 0x86},
	{64.0 / 255, 0x3b, 0x52, 0x8b},
	{80.0 / 255, 0x33, 0x63, 0x8d},
	{96.0 / 255, 0x2c, 0x72, 0x8e},
	{112.0 / 255, 0x26, 0x82, 0x8e},
	{128.0 / 255, 0x21, 0x91, 0x8c},
	{144.0 / 255, 0x1f, 0xa0, 0x88},
	{160.0 / 255, 0x28, 0xae, 0x80},
	{176.0 / 255, 0x3f, 0xbc, 0x73},
	{192.0 / 255, 0x5e, 0xc9, 0x62},
	{208.0 / 255, 0x84, 0xd4, 0x4b},
	{224.0 / 255, 0xad, 0xdc, 0x30},
	{240.0 / 255, 0xd8, 0xe2, 0x19},
	{255.0 / 255, 0xfd, 0xe7, 0x25},
}

// Viridis returns the viridis colour at t in [0, 1]; t outside is clamped
// and NaN gives the lowest colour.
func Viridis(t float64) color.RGBA {
	if !(t > 0) {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	s := viridisStops[:]
	i := 1
	for i < len(s)-1 && s[i].at < t {
		i++
	}
	a, b := s[i-1], s[i]
	f := (t - a.at) / (b.at - a.at)
	mix := func(x, y uint8) uint8 {
		return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f))
	}
	return color.RGBA{mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b), 0xff}
}

// relativeLuminance is the WCAG 2 relative luminance of c.
func relativeLuminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// textColorOn returns black or white, whichever contrasts more with bg
// (by the WCAG contrast ratio).
func textColorOn(bg color.Color) color.Color {
	l := relativeLuminance(bg)
	if (l+0.05)/0.05 >= 1.05/(l+0.05) {
		return color.Black
	}
	return color.White
}
