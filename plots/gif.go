package plots

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"os"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// gifMaxSide is the largest side of an animation frame, in pixels: enough to
// read the move numbers on 8×8, small enough for a web page or a slide.
const gifMaxSide = 400

// gifHold is how much longer the last frame stays, in hundredths of a
// second, so the finished walk can be seen before the animation loops.
const gifHold = 200

// WalkGIF writes an animated GIF of the walk to path, move by move: one
// frame per move (a walk that never moves gets one frame of its start), each
// shown for delayCentis hundredths of a second and the last one 2 s longer.
// The frames are the Walk figure at most 400 px on a side, quantised to one
// palette of the figure's own colours, and each frame after the first stores
// only the rectangle that changed, which keeps files small; a walk of n
// squares still makes n-1 frames, so animate short walks.
func WalkGIF(w WalkData, path string, delayCentis int) (err error) {
	if err := w.validate(); err != nil {
		return fmt.Errorf("plots: walk GIF %q: %w", w.Title, err)
	}
	if delayCentis < 1 {
		return fmt.Errorf("plots: walk GIF %q: delay %d must be at least 1 (hundredths of a second)", w.Title, delayCentis)
	}
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	defer func() {
		if cerr := file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("plots: %w", cerr)
		}
	}()
	if err := encodeWalkGIF(file, w, delayCentis); err != nil {
		return fmt.Errorf("plots: walk GIF %s: %w", path, err)
	}
	return nil
}

func encodeWalkGIF(out io.Writer, w WalkData, delay int) error {
	n := len(w.Path)
	width, height := w.figure(n).Size()
	dpi := int(float64(gifMaxSide) / (float64(max(width, height)) / float64(vg.Inch)))
	render := func(upto int) *image.RGBA {
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))
		w.figure(upto).Draw(draw.New(c))
		img := c.Image()
		if rgba, ok := img.(*image.RGBA); ok {
			return rgba
		}
		rgba := image.NewRGBA(img.Bounds())
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				rgba.Set(x, y, img.At(x, y))
			}
		}
		return rgba
	}

	first := min(2, n) // the first frame shows the first move
	last := render(n)
	q := newQuantizer(render(first), last)

	anim := &gif.GIF{
		Config: image.Config{ColorModel: q.palette, Width: last.Bounds().Dx(), Height: last.Bounds().Dy()},
	}
	var prev *image.Paletted
	for upto := first; upto <= n; upto++ {
		var frame *image.Paletted
		if upto == n {
			frame = q.quantize(last)
		} else {
			frame = q.quantize(render(upto))
		}
		stored := frame
		if prev != nil {
			stored = frame.SubImage(changed(prev, frame)).(*image.Paletted)
		}
		anim.Image = append(anim.Image, stored)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		prev = frame
	}
	anim.Delay[len(anim.Delay)-1] += gifHold
	return gif.EncodeAll(out, anim)
}

// changed is the smallest rectangle holding every pixel that differs
// between two frames of the same size (one pixel if none does: a GIF frame
// cannot be empty).
func changed(a, b *image.Paletted) image.Rectangle {
	r := image.Rectangle{}
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		ia, ib := a.PixOffset(bounds.Min.X, y), b.PixOffset(bounds.Min.X, y)
		for x := 0; x < bounds.Dx(); x++ {
			if a.Pix[ia+x] != b.Pix[ib+x] {
				r = r.Union(image.Rect(bounds.Min.X+x, y, bounds.Min.X+x+1, y+1))
			}
		}
	}
	if r.Empty() {
		return image.Rect(bounds.Min.X, bounds.Min.Y, bounds.Min.X+1, bounds.Min.Y+1)
	}
	return r
}

// quantizer maps the colours of rendered frames onto one palette of at most
// 256 colours: the most frequent colours of sample frames, which are the
// figure's flat colours and the commonest anti-aliasing shades; the rest go
// to their nearest palette colour.
type quantizer struct {
	palette color.Palette
	cache   map[color.RGBA]uint8
}

func newQuantizer(samples ...*image.RGBA) *quantizer {
	counts := map[color.RGBA]int{}
	for _, img := range samples {
		for i := 0; i+3 < len(img.Pix); i += 4 {
			counts[color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}]++
		}
	}
	type entry struct {
		c color.RGBA
		n int
	}
	var all []entry
	for c, n := range counts {
		all = append(all, entry{c, n})
	}
	slices.SortFunc(all, func(a, b entry) int {
		if a.n != b.n {
			return cmp.Compare(b.n, a.n)
		}
		ka := uint32(a.c.R)<<24 | uint32(a.c.G)<<16 | uint32(a.c.B)<<8 | uint32(a.c.A)
		kb := uint32(b.c.R)<<24 | uint32(b.c.G)<<16 | uint32(b.c.B)<<8 | uint32(b.c.A)
		return cmp.Compare(ka, kb)
	})
	q := &quantizer{cache: map[color.RGBA]uint8{}}
	for _, e := range all[:min(256, len(all))] {
		q.palette = append(q.palette, e.c)
	}
	return q
}

func (q *quantizer) quantize(img *image.RGBA) *image.Paletted {
	out := image.NewPaletted(img.Bounds(), q.palette)
	for i, j := 0, 0; i+3 < len(img.Pix); i, j = i+4, j+1 {
		c := color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}
		k, ok := q.cache[c]
		if !ok {
			k = uint8(q.palette.Index(c))
			q.cache[c] = k
		}
		out.Pix[j] = k
	}
	return out
}
