package figures

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// machineRun runs a small experiment whose heatmaps are of both kinds:
// 6x6 exact (enumeration), 9x9 and 10x10 estimates from 40 walks a square
// (pooled by symmetry); and draws the figures the checks below read.
func machineRun(t *testing.T) (string, []Drawn, map[string]*plots.Figure) {
	t.Helper()
	const text = `name: machine
seed: 22
boards: [6x6, 9x9, 10x10]
starts: all
walks: 40
rules: [{name: warnsdorff, tie_break: random}, {name: random}]
outputs:
  walks: true
claims:
  - {id: c6, rule: warnsdorff/random, board: 6x6, class: corner, rate: 0.99, tolerance: 0.01, source: "a test"}
  - {id: e9, rule: warnsdorff/random, board: 9x9, class: edge, above: 0.5, source: "a test"}
`
	c, err := config.Parse("machine.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "machine.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "machine")
	if _, err := runner.Run(context.Background(), e, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	figs := map[string]*plots.Figure{}
	figureHook = func(base string, f *plots.Figure) {
		mu.Lock()
		defer mu.Unlock()
		figs[filepath.Base(base)] = f
	}
	data := map[string]any{}
	dataHook = func(base string, v any) {
		mu.Lock()
		defer mu.Unlock()
		data[base] = v
	}
	defer func() { figureHook, dataHook = nil, nil }()
	// The checks read the figures and their SVG; PNG and PDF of every kind
	// of figure are written by the harness's plot --figure all tests.
	defer func(f []string) { formats = f }(formats)
	formats = []string{"svg"}
	drawn, err := Draw(dir, []string{"success-heatmap", "closed-heatmap", "length-heatmap", "deadend-heatmap",
		"length-distribution", "size-curve", "convergence", "claims"})
	if err != nil {
		t.Fatal(err)
	}
	// The captions' extremes are those of the values drawn (issue 34:
	// pooled where pooled, none named where every square is washed out).
	for _, p := range checkDrawn(drawn, data) {
		t.Error(p)
	}
	return dir, drawn, figs
}

// The checks a machine can make on the figures a referee reads (issue 22):
// every axis labelled (with its unit where it has one), colour bars with
// at least five labels, heatmap cells that do not overlap, squares equal
// by symmetry drawn in one colour (pooled or exact), and captions whose
// extremes are the squares table's.
func TestFiguresMachineChecks(t *testing.T) {
	_, drawn, figs := machineRun(t)
	if len(figs) < 20 || figs["claims_machine"] == nil {
		t.Fatalf("only %d figures drawn, or no claims panel", len(figs))
	}
	for name, f := range figs {
		checkAxes(t, name, f)
		if labels := f.ColorBarLabels(); labels != nil && len(labels) < 5 {
			t.Errorf("%s: colour bar labels %q, want at least 5", name, labels)
		}
	}
	heatmaps, deadEndMaps := 0, 0
	for _, d := range drawn {
		if d.Base == "" || !strings.Contains(d.Name, "heatmap") {
			continue
		}
		heatmaps++
		n := boardSide(t, d.Base)
		cells := svgCells(t, d.Base+".svg", n)
		checkNoOverlap(t, d.Base, cells)
		if from := fromStart(d.Base); from >= 0 { // one start's dead ends: symmetric under what fixes the start
			checkStabilizerColours(t, d.Base, cells, n, from)
		} else {
			checkSymmetricColours(t, d.Base, cells, n)
		}
		if d.Name == "deadend-heatmap" {
			deadEndMaps += checkCountsAddUp(t, d.Base+".svg")
		}
	}
	if deadEndMaps < 4 {
		t.Errorf("checked the counts of %d dead-end maps, want those of each board", deadEndMaps)
	}
	if heatmaps < 10 {
		t.Errorf("checked %d heatmaps, want the success, closed, length and dead-end maps of each board", heatmaps)
	}
}

// unitless are axis labels that name a coordinate rather than a quantity.
var unitless = []string{"file", "rank"}

func checkAxes(t *testing.T, name string, f *plots.Figure) {
	for _, ax := range []struct{ which, label string }{{"x", f.Plot.X.Label.Text}, {"y", f.Plot.Y.Label.Text}} {
		switch {
		case ax.label == "":
			t.Errorf("%s: %s axis has no label", name, ax.which)
		case slices.Contains(unitless, ax.label):
		case !strings.Contains(ax.label, "(") && !strings.Contains(ax.label, "number of walks"):
			t.Errorf("%s: %s axis label %q states no unit", name, ax.which, ax.label)
		}
	}
}

// boardSide reads n from a figure's base name (…_9x9_…).
func boardSide(t *testing.T, base string) int {
	m := regexp.MustCompile(`_(\d+)x(\d+)_`).FindStringSubmatch(filepath.Base(base))
	if m == nil || m[1] != m[2] {
		t.Fatalf("%s: no square board in the name", base)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// cell is one filled rectangle of a heatmap's SVG.
type cell struct {
	x0, y0, x1, y1 float64
	fill           string
}

var rectPath = regexp.MustCompile(`<path d="M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)L([\d.]+),([\d.]+)L([\d.]+),([\d.]+)Z" style="fill:(#[0-9A-F]{6})" />`)

// svgCells returns the board's cells: of the filled rectangles in the
// SVG, the n·n (or fewer, where squares are blank) of the most common size.
func svgCells(t *testing.T, path string, n int) []cell {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var groups [][]cell // rectangles of one size, to the rounding of SVG coordinates
	for _, m := range rectPath.FindAllStringSubmatch(string(b), -1) {
		v := make([]float64, 8)
		for i := range v {
			v[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		c := cell{math.Min(v[0], v[4]), math.Min(v[1], v[5]), math.Max(v[0], v[4]), math.Max(v[1], v[5]), m[9]}
		found := false
		for i, g := range groups {
			if math.Abs((c.x1-c.x0)-(g[0].x1-g[0].x0)) < 0.05 && math.Abs((c.y1-c.y0)-(g[0].y1-g[0].y0)) < 0.05 {
				groups[i], found = append(g, c), true
				break
			}
		}
		if !found {
			groups = append(groups, []cell{c})
		}
	}
	var best []cell
	for _, cs := range groups {
		if len(cs) > len(best) && len(cs) <= n*n { // the colour bar's 128 strips are not cells
			best = cs
		}
	}
	if len(best) < n*n/2 || len(best) > n*n {
		t.Fatalf("%s: %d cells of one size, want up to %d", path, len(best), n*n)
	}
	return best
}

func checkNoOverlap(t *testing.T, name string, cells []cell) {
	const eps = 1e-3 // SVG coordinates are written to 5 significant digits
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			w := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
			h := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
			if w > eps && h > eps {
				t.Errorf("%s: cells at (%.2f, %.2f) and (%.2f, %.2f) overlap by %.3f × %.3f pt", name, a.x0, a.y0, b.x0, b.y0, w, h)
				return
			}
		}
	}
}

// checkSymmetricColours holds every orbit of the square's symmetry to one
// fill colour: the maps draw exact values or pooled estimates, and both
// are equal on squares the board's symmetry exchanges.
func checkSymmetricColours(t *testing.T, name string, cells []cell, n int) {
	if len(cells) != n*n {
		return // blank squares: not every orbit is whole
	}
	x0, y0 := math.Inf(1), math.Inf(1)
	for _, c := range cells {
		x0, y0 = math.Min(x0, c.x0), math.Min(y0, c.y0)
	}
	w, h := cells[0].x1-cells[0].x0, cells[0].y1-cells[0].y0
	fill := map[int]string{}
	for _, c := range cells {
		col, row := int(math.Round((c.x0-x0)/w)), int(math.Round((c.y0-y0)/h))
		fill[orbit(n, n, row, col)] += "," + c.fill
	}
	for o, fs := range fill {
		parts := strings.Split(fs[1:], ",")
		for _, f := range parts[1:] {
			if f != parts[0] {
				t.Errorf("%s: orbit of %s drawn in colours %v, want one", name, plots.SquareName(n, o), parts)
				break
			}
		}
	}
}

// checkCountsAddUp holds the counts written in brackets under a dead-end
// map's shares, pooled or not, to the failed walks its colour bar says it
// shares out: pooling moves counts between symmetric squares, never adds
// or loses one. It returns 1 when the map writes counts, else 0.
func checkCountsAddUp(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	total := regexp.MustCompile(`>of ([\d.]+) failed walks[^<]*count in brackets</text>`).FindSubmatch(b)
	if total == nil {
		return 0
	}
	want, _ := strconv.ParseFloat(string(total[1]), 64)
	sum, cells := 0.0, 0
	for _, m := range regexp.MustCompile(`>\(([\d.]+)\)</text>`).FindAllSubmatch(b, -1) {
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		sum += v
		cells++
	}
	if math.Abs(sum-want) > 0.005*float64(cells)+1e-9 { // counts are written to two decimals
		t.Errorf("%s: the counts in brackets add up to %v, the map shares out %v failed walks", path, sum, want)
	}
	return 1
}

// fromStart is the start square index of a dead-end map from one start
// (…_from-b1), or -1.
func fromStart(base string) int {
	m := regexp.MustCompile(`_from-([a-z])(\d+)$`).FindStringSubmatch(base)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[2])
	return int(m[1][0]-'a') + 100*(n-1) // decoded against the board side by the caller
}

// checkStabilizerColours holds a map of the walks from one start (pooled
// from its symmetric starts) to the symmetries that fix the start: a1's
// dead ends are symmetric under the diagonal reflection.
func checkStabilizerColours(t *testing.T, name string, cells []cell, n, from int) {
	if len(cells) != n*n {
		return
	}
	at := (from/100)*n + from%100
	x0, y0 := math.Inf(1), math.Inf(1)
	for _, c := range cells {
		x0, y0 = math.Min(x0, c.x0), math.Min(y0, c.y0)
	}
	w, h := cells[0].x1-cells[0].x0, cells[0].y1-cells[0].y0
	fill := make([]string, n*n)
	for _, c := range cells {
		col, row := int(math.Round((c.x0-x0)/w)), int(math.Round((c.y0-y0)/h))
		fill[row*n+col] = c.fill // the SVG draws in a frame with y upwards
	}
	fixing := 0
	for _, p := range sim.MustBoard(n, n).Symmetries() {
		if int(p[at]) != at {
			continue
		}
		fixing++
		for sq := range fill {
			if fill[sq] != fill[p[sq]] {
				t.Errorf("%s: %s and its image %s under a symmetry fixing the start drawn %s and %s", name,
					plots.SquareName(n, sq), plots.SquareName(n, int(p[sq])), fill[sq], fill[p[sq]])
				return
			}
		}
	}
	if fixing == 0 {
		t.Errorf("%s: no symmetry fixes the start (not even the identity)", name)
	}
}
