package plots

import (
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"testing"
)

var renderDir = flag.String("render", "", "write every sample figure as PNG, SVG and PDF into this directory (for looking at them)")

func ptr(v float64) *float64 { return &v }

// sampleHeatmap is an 8x8 success-rate map shaped like Warnsdorff's rule:
// low in the corners, high in the centre.
func sampleHeatmap() HeatmapData {
	v := make([]float64, 64)
	for r := range 8 {
		for c := range 8 {
			dr, dc := math.Abs(float64(r)-3.5), math.Abs(float64(c)-3.5)
			v[r*8+c] = 0.97 - 0.035*(dr*dr+dc*dc)/2 - 0.1*math.Max(dr, dc)/3.5
		}
	}
	return HeatmapData{
		Title: "warnsdorff/random, 8x8", Rows: 8, Cols: 8, Values: v,
		Label: "success rate", Min: ptr(0), Max: ptr(1), Format: "%.3f", Highlight: 27,
	}
}

func sampleFigures(t *testing.T) map[string]*Figure {
	t.Helper()
	figs := map[string]*Figure{}
	add := func(name string, f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		figs[name] = f
	}
	f, err := Heatmap(sampleHeatmap())
	add("heatmap_8x8", f, err)
	f, err = Heatmap(goldenHeatmap())
	add("heatmap_5x5_golden", f, err)
	f, err = Heatmap(sampleMasked())
	add("heatmap_5x5_masked", f, err)
	f, err = Heatmap(sampleLarge(30))
	add("heatmap_30x30", f, err)
	f, err = Heatmap(sampleLarge(100))
	add("heatmap_100x100", f, err)
	f, err = LengthDistribution(sampleLengths())
	if f != nil {
		f.Plot.Title.Text = "warnsdorff/random, 8x8"
	}
	add("length_distribution", f, err)
	f, err = SizeCurve(sampleSizeCurve())
	add("size_curve", f, err)
	f, err = Convergence(sampleConvergence())
	add("convergence", f, err)
	for name, mk := range goldenFigures() {
		f, err = mk()
		add("golden_"+name, f, err)
	}
	f, err = Walk(sampleWalk(8, 8, 0))
	add("walk_8x8", f, err)
	f, err = Walk(sampleWalk(5, 5, 12))
	add("walk_5x5_deadend", f, err)
	f, err = Walk(sampleWalk(20, 20, 0))
	add("walk_20x20", f, err)
	return figs
}

func TestRenderSamples(t *testing.T) {
	if *renderDir == "" {
		t.Skip("no -render directory")
	}
	for name, f := range sampleFigures(t) {
		if err := f.Save(filepath.Join(*renderDir, name)); err != nil {
			t.Error(err)
		}
	}
	if err := WalkGIF(sampleWalk(8, 8, 0), filepath.Join(*renderDir, "walk_8x8.gif"), 30); err != nil {
		t.Error(err)
	}
}

// sampleMasked is a 5x5 map of mean path lengths with a missing square.
func sampleMasked() HeatmapData {
	v := make([]float64, 25)
	mask := make([]bool, 25)
	for i := range v {
		v[i] = float64(3 + (i*7)%23)
	}
	v[12], mask[12] = math.NaN(), true
	return HeatmapData{Title: "mean path length, 5x5", Rows: 5, Cols: 5, Values: v, Mask: mask, Label: "squares visited", Highlight: -1}
}

// sampleLarge is an n x n map without values in the cells.
func sampleLarge(n int) HeatmapData {
	v := make([]float64, n*n)
	for r := range n {
		for c := range n {
			x, y := float64(c)/float64(n-1), float64(r)/float64(n-1)
			v[r*n+c] = 0.2 + 0.7*x*y + 0.1*math.Sin(6*x)
		}
	}
	return HeatmapData{Rows: n, Cols: n, Values: v, Label: "dead-end density", Highlight: -1}
}

// sampleLengths are path-length distributions on 8x8 by start class.
func sampleLengths() []Series {
	classes := []struct {
		name    string
		success float64
	}{{"corner", 0.15}, {"edge", 0.75}, {"centre", 0.86}, {"interior", 0.8}}
	var out []Series
	for _, c := range classes {
		var s Series
		s.Name = c.name
		total := 0.0
		for l := 30; l <= 64; l++ {
			y := math.Exp(-math.Pow(float64(l-55)/5, 2))
			s.X = append(s.X, float64(l))
			s.Y = append(s.Y, y)
			total += y
		}
		for i := range s.Y {
			s.Y[i] *= (1 - c.success) / total
		}
		s.Y[len(s.Y)-1] += c.success
		out = append(out, s)
	}
	return out
}

func sampleSizeCurve() []Line {
	mk := func(name string, f func(n float64) float64, walks float64) Line {
		l := Line{Name: name}
		for n := 5.0; n <= 50; n++ {
			p := f(n)
			half := 1.96 * math.Sqrt(p*(1-p)/walks)
			l.N = append(l.N, n)
			l.Rate = append(l.Rate, p)
			l.Lo = append(l.Lo, math.Max(0, p-half))
			l.Hi = append(l.Hi, math.Min(1, p+half))
		}
		return l
	}
	return []Line{
		mk("warnsdorff/random", func(n float64) float64 {
			if n == 7 {
				return 0.75
			}
			return math.Min(0.995, 1.02-0.004*n)
		}, 400),
		mk("warnsdorff/pohl", func(n float64) float64 { return 0.97 - 0.002*n }, 400),
		mk("warnsdorff/roth", func(n float64) float64 { return 0.999 }, 400),
		mk("warnsdorff/first", func(n float64) float64 { return 0.5 + 0.4*math.Sin(n) }, 400),
	}
}

func sampleConvergence() ConvergenceData {
	var d ConvergenceData
	d.Title = "warnsdorff/random from d4, 8x8"
	d.Label = "success rate"
	d.Exact = ptr(0.8532)
	for k := 10.0; k <= 1e5; k *= 1.25 {
		p := 0.8532 + 0.3*math.Sin(math.Log(k))/math.Sqrt(k)
		half := 1.96 * math.Sqrt(p*(1-p)/k)
		d.Walks = append(d.Walks, math.Round(k))
		d.Estimate = append(d.Estimate, p)
		d.Lo = append(d.Lo, math.Max(0, p-half))
		d.Hi = append(d.Hi, math.Min(1, p+half))
	}
	return d
}

// sampleWalk is a Warnsdorff walk (first tie-break in the canonical move
// order) from start, stopped after limit squares when limit > 0.
func sampleWalk(rows, cols, limit int) WalkData {
	moves := [8][2]int{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}
	seen := make([]bool, rows*cols)
	next := func(sq int) []int {
		var out []int
		for _, m := range moves {
			r, c := sq/cols+m[0], sq%cols+m[1]
			if r >= 0 && r < rows && c >= 0 && c < cols && !seen[r*cols+c] {
				out = append(out, r*cols+c)
			}
		}
		return out
	}
	path := []int{0}
	seen[0] = true
	for limit <= 0 || len(path) < limit {
		cands := next(path[len(path)-1])
		if len(cands) == 0 {
			break
		}
		best, bestDeg := -1, 9
		for _, c := range cands {
			seen[c] = true
			if d := len(next(c)); d < bestDeg {
				best, bestDeg = c, d
			}
			seen[c] = false
		}
		seen[best] = true
		path = append(path, best)
	}
	return WalkData{Title: fmt.Sprintf("warnsdorff/first from a1, %dx%d", rows, cols), Rows: rows, Cols: cols, Path: path}
}
