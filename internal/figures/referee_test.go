package figures

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/plotcheck"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// refereeRuns are small fresh experiments of the kinds a referee tries
// (issue 34): an odd board with exact values, the random walk on 5x5, a
// rectangular board, a sequential run and a deterministic rule. Walks are
// few: the checks read what is drawn, not how well it is measured.
var refereeRuns = map[string]string{
	"odd7": `name: odd7
seed: 11
boards: [7x7]
starts: all
walks: 20
rules: [{name: warnsdorff, tie_break: random}]
outputs: {walks: true}
claims:
  - {id: c7, rule: warnsdorff/random, board: 7x7, class: corner, above: 0.5, source: "a test"}
`,
	"rw5": `name: rw5
seed: 12
boards: [5x5]
starts: [a1, b1, c1, b2, c2, c3]
walks: 40
rules: [{name: random}]
outputs: {walks: true}
`,
	"rw7": `name: rw7
seed: 14
boards: [7x7]
starts: all
walks: 10
rules: [{name: random}]
`,
	"rect59": `name: rect59
seed: 13
boards: [5x9]
starts: all
walks: 20
rules: [{name: warnsdorff, tie_break: random}]
exact: off
outputs: {walks: true}
`,
	"seq": `name: seq
seed: 3
boards: [6x6]
starts: [a1, c3]
walks: {until: decided, min: 200, max: 4000}
rules: [{name: warnsdorff}]
exact: off
outputs: {walks: true}
claims:
  - {id: a1, rule: warnsdorff/random, square: a1, above: 0.9}
  - {id: c3, rule: warnsdorff/random, square: c3, above: 0.73}
`,
	"seq7": `name: seq7
seed: 3
boards: [5x5, 7x7]
starts: all
walks: {until: half_width, half_width: 0.08, min: 20, max: 400}
rules: [{name: warnsdorff, tie_break: random}]
exact: off
outputs: {walks: true}
`,
	"shapes": `name: shapes
seed: 5
boards: [{rows: "5..6", cols: "6..7"}]
starts: corner
walks: 30
rules: [{name: warnsdorff, tie_break: first}]
`,
	"det": `name: det
seed: 4
boards: [5x5, 6x6]
starts: all
walks: 1
rules: [{name: warnsdorff, tie_break: pohlmin+first}]
`,
}

// drawAll runs the experiment text into a fresh directory and draws every
// figure it has tables for, recording what each figure was given.
func drawAll(t *testing.T, name, text string) (string, []Drawn, map[string]any) {
	t.Helper()
	c, err := config.Parse(name+".yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, name+".yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if keep := os.Getenv("KNIGHTWALK_REFEREE_DIR"); keep != "" {
		dir = filepath.Join(keep, name) // kept, with PNGs, to open the figures as a referee would
	} else {
		// The checks read the SVG; PNG and PDF of every kind of figure
		// are written by the harness's plot --figure all tests.
		defer func(f []string) { formats = f }(formats)
		formats = []string{"svg"}
	}
	if _, err := runner.Run(context.Background(), e, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	data := map[string]any{}
	dataHook = func(base string, v any) {
		mu.Lock()
		defer mu.Unlock()
		data[base] = v
	}
	defer func() { dataHook = nil }()
	var names []string
	for _, n := range config.Figures {
		if n != "sweep-strip" {
			names = append(names, n)
		}
	}
	drawn, err := Draw(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	return dir, drawn, data
}

// TestRefereeFreshRuns runs the referee's checks over every figure of
// small fresh runs: the SVG checks (plotcheck.SVG) on each file and
// the checks of what each figure was given to draw.
func TestRefereeFreshRuns(t *testing.T) {
	for name, text := range refereeRuns {
		if !testenv.Slow() && !slices.Contains([]string{"odd7", "rw5", "det", "rect59", "shapes", "seq7"}, name) {
			continue // the default suite keeps an odd board, the random walk, a deterministic rule, a rectangle, board shapes and a sequential run of a random rule
		}
		t.Run(name, func(t *testing.T) {
			dir, drawn, data := drawAll(t, name, text)
			svgs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.svg"))
			if len(svgs) < 5 {
				t.Fatalf("%d figures drawn", len(svgs))
			}
			for _, f := range svgs {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range plotcheck.SVG(b) {
					t.Errorf("%s: %s", filepath.Base(f), p)
				}
			}
			for _, p := range checkDrawn(drawn, data) {
				t.Error(p)
			}
			tb := readTables(t, dir)
			for _, p := range append(append(checkPooledNumbers(tb, drawn, data), checkFileNames(data)...), checkConvergenceEnds(data)...) {
				t.Error(p)
			}
			squares, _, err := table.Read[table.SquareRow](filepath.Join(dir, results.SquaresFile))
			if err != nil {
				t.Fatal(err)
			}
			lengths, _, err := table.Read[table.LengthRow](filepath.Join(dir, results.LengthsFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range checkExactPreferred(squares, lengths, drawn, data) {
				t.Error(p)
			}
			ends, _, err := table.Read[table.DeadEndRow](filepath.Join(dir, results.DeadEndsFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range checkDeadEnds(ends, drawn, data) {
				t.Error(p)
			}
			classes, _, err := table.Read[table.ClassRow](filepath.Join(dir, results.ClassesFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range append(checkClasses(classes, data), checkShapes(data)...) {
				t.Error(p)
			}
		})
	}
}

// checkDrawn runs the checks of what figures were given: see checkHeatmap,
// checkClaims, and that no map of structural zeros is drawn.
func checkDrawn(drawn []Drawn, data map[string]any) []string {
	var out []string
	for _, d := range drawn {
		if d.Name == "closed-heatmap" && d.Base != "" {
			if rows, cols, ok := boardOf(d.Base); ok && rows*cols%2 == 1 {
				out = append(out, fmt.Sprintf("%s: P(closed) on an odd board (0 by structure) drawn on a colour scale", filepath.Base(d.Base)))
			}
		}
	}
	for _, d := range drawn {
		// Every claim of the table is drawn, or the caption names it.
		if c, ok := data[filepath.Base(d.Base)].(claimData); ok {
			for _, cl := range c.all {
				if !slices.ContainsFunc(c.claims, func(k table.ClaimRow) bool { return k.ID == cl.ID }) && !strings.Contains(d.Caption, cl.ID) {
					out = append(out, fmt.Sprintf("%s: claim %s neither drawn nor named", filepath.Base(d.Base), cl.ID))
				}
			}
		}
		if h, ok := data[filepath.Base(d.Base)].(plots.HeatmapData); ok && d.Name != "deadend-heatmap" {
			for _, p := range checkCaption(h, d.Caption) {
				out = append(out, filepath.Base(d.Base)+": "+p)
			}
			// A rate map with hatched squares says over which squares the
			// board's rate is taken, and the uniform start's beside it.
			if h.Percent && h.NoStart != nil && !h.Failure && !strings.Contains(d.Caption, "from a uniform start") {
				out = append(out, filepath.Base(d.Base)+": hatched squares, but the caption does not say over which squares the board's rate is taken")
			}
		}
	}
	for base, v := range data {
		switch v := v.(type) {
		case plots.HeatmapData:
			for _, p := range checkHeatmap(v) {
				out = append(out, base+": "+p)
			}
		case sizeData:
			for _, p := range checkSizeCurve(v) {
				out = append(out, base+": "+p)
			}
		case lengthData:
			for _, p := range checkLengths(v) {
				out = append(out, base+": "+p)
			}
		case claimData:
			for _, p := range checkClaims(v) {
				out = append(out, base+": "+p)
			}
		}
	}
	return out
}

func boardOf(base string) (rows, cols int, ok bool) {
	for _, part := range strings.Split(filepath.Base(base), "_") {
		if _, err := fmt.Sscanf(part, "%dx%d", &rows, &cols); err == nil {
			return rows, cols, true
		}
	}
	return 0, 0, false
}

// checkHeatmap holds a heatmap's data to the referee's rules: values
// that can only be 0 or 1 (no interval: not a sample) drawn as two colours, not on a continuous
// bar; a log scale's zeros not given the smallest value's colour;
// every estimate drawn with its interval, or the figure says why not
// (exact values, one walk a square).
func checkHeatmap(h plots.HeatmapData) []string {
	var out []string
	binary, zeros, n := true, 0, 0
	for i, v := range h.Values {
		if h.Mask != nil && h.Mask[i] || h.NoStart != nil && h.NoStart[i] {
			continue
		}
		n++
		binary = binary && (math.Abs(v) <= exactTolerance || math.Abs(1-v) <= exactTolerance)
		if v == 0 {
			zeros++
		}
	}
	if n > 1 && binary && h.Percent && !h.Binary && h.Uncertainty == nil {
		out = append(out, "every value is 0 or 1, drawn on a continuous colour scale")
	}
	if h.Scale == plots.ScaleLog && zeros > 0 && !h.Failure {
		out = append(out, fmt.Sprintf("%d zeros on a log colour scale, drawn in its lowest colour", zeros))
	}
	why := strings.Contains(h.Note, "exact") || oneWalk.MatchString(h.Note) || h.Binary
	if h.Uncertainty == nil && !why {
		out = append(out, fmt.Sprintf("estimates drawn without intervals, and the figure does not say why (note %q)", h.Note))
	}
	return out
}

// checkClaims holds the claims panel to the intervals that decided the
// verdicts: a sequential run's always-valid cs_lo, cs_hi.
func checkClaims(c claimData) []string {
	var out []string
	for i, cl := range c.claims {
		lo, hi := cl.Lo, cl.Hi
		if !math.IsNaN(cl.CSLo) {
			lo, hi = cl.CSLo, cl.CSHi
		}
		if math.IsNaN(lo) {
			continue
		}
		if r := c.rows[i]; r.Lo != lo || r.Hi != hi {
			out = append(out, fmt.Sprintf("claim %s drawn with [%v, %v], its verdict decided by [%v, %v]", cl.ID, r.Lo, r.Hi, lo, hi))
		}
		// Against a published count, "reproduced" needed our rate within
		// k/n ± the margin: the band drawn is that, not k/n's own interval.
		if cl.PublishedTrials.Valid && cl.PublishedTrials.Int64 > 0 && !math.IsNaN(cl.Margin) {
			p := float64(cl.PublishedSuccesses.Int64) / float64(cl.PublishedTrials.Int64)
			if r := c.rows[i]; math.Abs(r.ClaimedLo-max(0, p-cl.Margin)) > 1e-9 || math.Abs(r.ClaimedHi-min(1, p+cl.Margin)) > 1e-9 {
				out = append(out, fmt.Sprintf("claim %s: band [%v, %v], not the margin %v about %v that decided it", cl.ID, r.ClaimedLo, r.ClaimedHi, cl.Margin, p))
			}
		}
	}
	return out
}

var captionSpan = regexp.MustCompile(`lowest ([\d.]+)( %)? \(([^)]*)\), highest ([\d.]+)( %)? \(([^)]*)\)`)

// checkCaption holds a heatmap's caption to the values it draws (pooled
// where pooled, exact where exact, 1 − v on a failure view), among the
// squares it resolves: the lowest and highest it names are those, and
// where every square is washed out it names none.
func checkCaption(h plots.HeatmapData, caption string) []string {
	un, _ := h.Unresolved()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, v := range h.Values {
		if h.Mask != nil && h.Mask[i] || h.NoStart != nil && h.NoStart[i] || un != nil && un[i] {
			continue
		}
		if h.Failure {
			v = 1 - v
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	m := captionSpan.FindStringSubmatch(caption)
	if math.IsInf(lo, 1) {
		if m != nil || strings.Contains(caption, "lowest") {
			return []string{fmt.Sprintf("every square washed out, yet the caption names extremes: %q", caption)}
		}
		return nil
	}
	if m == nil {
		if strings.Contains(caption, "every square") || strings.Contains(caption, "every board") {
			return nil
		}
		return []string{fmt.Sprintf("caption names no extremes of the values drawn: %q", caption)}
	}
	got := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	scale, tol := 1.0, 0.005
	if h.Percent {
		scale = 100
	}
	var out []string
	if math.Abs(got(m[1])-scale*lo) > tol*math.Max(1, scale*lo) || math.Abs(got(m[4])-scale*hi) > tol*math.Max(1, scale*hi) {
		out = append(out, fmt.Sprintf("caption's lowest %s and highest %s are not the drawn %v and %v: %q", m[1], m[4], scale*lo, scale*hi, caption))
	}
	return out
}

// checkExactPreferred holds the maps to the exact values the run
// computed: where every square of a (board, rule) has exact success
// (closed) values, its success (closed) map draws them, not estimates
// and not the mean-length stand-in; where every square has exact length
// shares, its mean-length map draws E[length].
func checkExactPreferred(squares []table.SquareRow, lengths []table.LengthRow, drawn []Drawn, data map[string]any) []string {
	type key struct{ board, rule string }
	succ, closed, length := map[key]bool{}, map[key]bool{}, map[key]bool{}
	for _, s := range squares {
		k := key{s.Board, s.Rule}
		if _, seen := succ[k]; !seen {
			succ[k], closed[k], length[k] = true, true, true
		}
		succ[k] = succ[k] && !math.IsNaN(s.ExactSuccess)
		closed[k] = closed[k] && !math.IsNaN(s.ExactClosed)
	}
	for _, l := range lengths {
		if math.IsNaN(l.ExactShare) {
			length[key{l.Board, l.Rule}] = false
		}
	}
	var out []string
	for k := range length {
		if l, ok := data["length-distribution_"+slug(k.board+"_"+k.rule)].(lengthData); ok && length[k] {
			drawnExact := 0
			for _, x := range l.exact {
				if len(x.X) > 0 {
					drawnExact++
				}
			}
			if drawnExact < len(l.series) {
				out = append(out, fmt.Sprintf("length-distribution %s %s: %d of %d classes drawn without the exact shares the run computed", k.board, k.rule, len(l.series)-drawnExact, len(l.series)))
			}
		}
	}
	for _, d := range drawn {
		h, ok := data[filepath.Base(d.Base)].(plots.HeatmapData)
		if !ok {
			continue
		}
		for k := range succ {
			if !strings.HasPrefix(filepath.Base(d.Base), d.Name+"_"+slug(k.board)+"_"+slug(k.rule)) {
				continue
			}
			exact := strings.Contains(h.Note, "exact") && h.Uncertainty == nil
			switch {
			case d.Name == "success-heatmap" && succ[k] && strings.Contains(h.Label, "mean path length"):
				out = append(out, filepath.Base(d.Base)+": mean path length drawn in place of the exact success values the run computed")
			case d.Name == "success-heatmap" && succ[k] && !exact, d.Name == "closed-heatmap" && closed[k] && !exact:
				out = append(out, filepath.Base(d.Base)+": estimates drawn where the run computed exact values")
			case d.Name == "length-heatmap" && length[k] && !exact:
				out = append(out, filepath.Base(d.Base)+": mean lengths estimated where the run computed exact E[length]")
			}
		}
	}
	return out
}

// checkLengths holds a length distribution to its intervals: each
// sampled series carries its walks, so its shares are drawn with their
// intervals (a deterministic rule's shares are of its starts).
//
// A share pooled over starts is the mean of the starts' shares, each
// start weighing one (as the classes table pools a class): its interval
// is at least about as wide as that mean's own standard error,
// √(Σ p_i(1 − p_i)/n_i)/k over the k starts, however unequal their walks
// (a Wilson interval of the walks pooled is too narrow where a sequential
// run stopped its starts apart).
func checkLengths(l lengthData) []string {
	var out []string
	for i, s := range l.series {
		if len(s.Bars) == 0 && !l.deterministic {
			out = append(out, fmt.Sprintf("series %q: shares of sampled walks drawn without intervals", s.Name))
		}
		if i >= len(l.starts) || len(l.starts[i]) == 0 || l.bin == nil {
			continue
		}
		z := distuv.UnitNormal.Quantile(1 - (1-level(l.level))/2)
		for _, b := range s.Bars {
			var v float64
			for _, st := range l.starts[i] {
				var c int64
				for length, n := range st.counts {
					if l.bin(float64(length)) == b.X {
						c += n
					}
				}
				p := float64(c) / float64(st.walks)
				v += p * (1 - p) / float64(st.walks)
			}
			k := float64(len(l.starts[i]))
			se := math.Sqrt(v) / k
			if half := (b.Hi - b.Lo) / 2; half < 0.75*z*se {
				out = append(out, fmt.Sprintf("series %q, length %g: interval half-width %.3g, under the pooled share's own %.3g (z·√(Σ p_i(1 − p_i)/n_i)/k over %d starts)", s.Name, b.X, half, z*se, len(l.starts[i])))
				break
			}
		}
	}
	return out
}

// checkSizeCurve holds a size curve's rate axis to what its lines are:
// shares of a few starts of a deterministic rule (no point with an
// interval) take the plain 0-100 % axis, where 100 % is a value, not the
// clipped end of a logit axis.
//
// Where an exact value is known, it is the point drawn, with no interval
// (the walks only estimate it).
func checkSizeCurve(s sizeData) []string {
	var out []string
	for _, l := range s.lines {
		for k, x := range l.Exact {
			if !math.IsNaN(x) && (l.Rate[k] != x || l.Lo[k] != x || l.Hi[k] != x) {
				out = append(out, fmt.Sprintf("line %q at n = %g: the estimate %v [%v, %v] drawn where the exact %v is known", l.Name, l.N[k], l.Rate[k], l.Lo[k], l.Hi[k], x))
				break
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, l := range s.lines {
		for k := range l.N {
			if l.Hi[k] > l.Lo[k] {
				return nil
			}
		}
	}
	if s.axis != "linear" {
		return []string{fmt.Sprintf("deterministic shares of starts drawn on a %s rate axis", s.axis)}
	}
	return nil
}

// checkDeadEnds holds the dead-end maps to what they rest on: the
// counts printed in brackets are walks (whole numbers); a square where no
// walk ended is marked as such, not drawn in the scale's lowest colour; a
// share of the map of all starts that rests on fewer than 10 dead ends
// even over the square's whole orbit under the board's symmetry is washed
// out; and on a board of an odd number of squares the start drawn alone
// is of the corners' colour (the others fail by structure) wherever one
// of those failed.
func checkDeadEnds(ends []table.DeadEndRow, drawn []Drawn, data map[string]any) []string {
	var out []string
	for _, d := range drawn {
		if d.Name != "deadend-heatmap" || d.Base == "" {
			continue
		}
		base := filepath.Base(d.Base)
		h, ok := data[base].(plots.HeatmapData)
		if !ok {
			continue
		}
		for i, c := range h.Counts {
			if c != math.Trunc(c) {
				out = append(out, fmt.Sprintf("%s: %s prints the count %v, not a number of walks", base, h.CellName(i), c))
				break
			}
		}
		if !h.Binary {
			for i, v := range h.Values {
				if v == 0 && !(h.Mask != nil && h.Mask[i]) && !(h.NoStart != nil && h.NoStart[i]) {
					out = append(out, fmt.Sprintf("%s: %s, where no walk ended, drawn in a colour of the scale", base, h.CellName(i)))
					break
				}
			}
		}
		var mine []table.DeadEndRow
		for _, r := range ends {
			if strings.HasPrefix(base, "deadend-heatmap_"+slug(r.Board+"_"+r.Rule)) {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			continue
		}
		rows, cols := int(mine[0].Rows), int(mine[0].Cols)
		if _, from, ok := strings.Cut(base, "_from-"); ok {
			r, c, err := sim.ParseSquareAt(rows, cols, from)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: %v", base, err))
				continue
			}
			if rows*cols%2 == 1 && minority(r, c) && slices.ContainsFunc(mine, func(e table.DeadEndRow) bool { return !minority(int(e.StartRow), int(e.StartCol)) }) {
				out = append(out, fmt.Sprintf("%s: on an odd board, drawn from %s, which cannot start a tour, though squares of the corners' colour failed", base, from))
			}
			continue
		}
		events := map[int]int64{} // per orbit
		for _, r := range mine {
			events[orbit(rows, cols, int(r.EndRow), int(r.EndCol))] += r.Count
		}
		un, err := h.Unresolved()
		if err != nil || un == nil {
			continue
		}
		for i, v := range h.Values {
			if e := events[orbit(rows, cols, i/cols, i%cols)]; v > 0 && e < 10 && !un[i] {
				out = append(out, fmt.Sprintf("%s: %s drawn as resolved, its share resting on %d dead ends over its orbit", base, h.CellName(i), e))
				break
			}
		}
	}
	return out
}

// checkShapes holds a board-shape map to what it pools and how it
// scales: its title says from which start squares, and no one board far
// below the others (by more than a quarter of their span) sets the low
// end of a linear success scale by itself.
func checkShapes(data map[string]any) []string {
	var out []string
	for base, v := range data {
		h, ok := v.(plots.HeatmapData)
		if !ok || !strings.Contains(base, "_shapes_") {
			continue
		}
		if !strings.Contains(h.Title, " from ") {
			out = append(out, fmt.Sprintf("%s: title %q does not say from which start squares", base, h.Title))
		}
		if h.Failure || h.Binary || h.Min != nil || h.Scale == plots.ScaleLog {
			continue
		}
		var vs []float64
		for i, x := range h.Values {
			if !h.Mask[i] {
				vs = append(vs, x)
			}
		}
		slices.Sort(vs)
		if len(vs) >= 4 && vs[1]-vs[0] > 0.25*(vs[len(vs)-1]-vs[1]) {
			out = append(out, fmt.Sprintf("%s: one board (%.4g) alone sets the colour scale's low end, %.2g below the next (the others span %.2g)", base, vs[0], vs[1]-vs[0], vs[len(vs)-1]-vs[1]))
		}
	}
	return out
}

var oneWalk = regexp.MustCompile(`\b(one|1) walk\b`)

// Each data check fails on a figure with its defect planted.
func TestRefereeDataChecksCatchPlantedDefects(t *testing.T) {
	est := plots.HeatmapData{Rows: 2, Cols: 2, Values: []float64{0.5, 0.6, 0.7, 0.8}, Percent: true, Note: "300 walks a square",
		Uncertainty: &plots.Uncertainty{Lo: make([]float64, 4), Hi: make([]float64, 4)}}
	if p := checkHeatmap(est); len(p) > 0 {
		t.Fatalf("a sound map fails: %q", p)
	}
	noInterval := est
	noInterval.Uncertainty = nil
	binary := est
	binary.Values, binary.Note, binary.Uncertainty = []float64{1, 1, 0, 1}, "one walk a square", nil
	logZero := est
	logZero.Scale, logZero.Values = plots.ScaleLog, []float64{0, 0.1, 0.01, 0.5}
	for name, h := range map[string]plots.HeatmapData{"no interval": noInterval, "binary on a bar": binary, "zero on a log scale": logZero} {
		if p := checkHeatmap(h); len(p) == 0 {
			t.Errorf("%s: passes", name)
		}
	}
	nan := math.NaN()
	seq := claimData{claims: []table.ClaimRow{{ID: "s", Lo: 0.9868, Hi: 0.9885, CSLo: 0.9857, CSHi: 0.9894}, {ID: "f", Lo: 0.5, Hi: 0.6, CSLo: nan, CSHi: nan}},
		rows: []plots.ClaimRow{{Lo: 0.9868, Hi: 0.9885}, {Lo: 0.5, Hi: 0.6}}}
	if p := checkClaims(seq); len(p) != 1 || !strings.Contains(p[0], "claim s") {
		t.Errorf("fixed-n interval of a sequential claim: %q, want one problem", p)
	}
	pub := claimData{claims: []table.ClaimRow{{ID: "g7", Lo: 0.7, Hi: 0.8, CSLo: nan, CSHi: nan, Margin: 0.14,
		PublishedSuccesses: table.NullInt64{Int64: 75, Valid: true}, PublishedTrials: table.NullInt64{Int64: 100, Valid: true}}},
		rows: []plots.ClaimRow{{Lo: 0.7, Hi: 0.8, ClaimedLo: 0.656, ClaimedHi: 0.825}}}
	if p := checkClaims(pub); len(p) != 1 || !strings.Contains(p[0], "margin") {
		t.Errorf("Wilson band of k/n in place of the margin: %q, want one problem", p)
	}
	pub.rows[0].ClaimedLo, pub.rows[0].ClaimedHi = 0.61, 0.89
	if p := checkClaims(pub); len(p) > 0 {
		t.Errorf("the margin's band fails: %q", p)
	}
	pub.all = append(pub.claims, table.ClaimRow{ID: "pohl-n50"})
	if p := checkDrawn([]Drawn{{Name: "claims", Base: "/x/claims_e", Caption: "Claims."}}, map[string]any{"claims_e": pub}); len(p) != 1 || !strings.Contains(p[0], "pohl-n50") {
		t.Errorf("a claim silently absent: %q, want one problem", p)
	}
	washed := est
	washed.Uncertainty = &plots.Uncertainty{Lo: []float64{0, 0, 0, 0}, Hi: []float64{1, 1, 1, 1}}
	if p := checkCaption(washed, "Estimates: lowest 50 % (a1), highest 80 % (b2)."); len(p) == 0 {
		t.Error("extremes named though every square is washed out: passes")
	}
	if p := checkCaption(est, "Estimates: lowest 50 % (a1), highest 80 % (b2)."); len(p) > 0 {
		t.Errorf("a sound caption fails: %q", p)
	}
	if p := checkCaption(est, "Estimates: lowest 49.5 % (a1), highest 80 % (b2)."); len(p) == 0 {
		t.Error("a raw per-square extreme where the map draws pooled values: passes")
	}
	exactSq := []table.SquareRow{{Board: "5x5", Rule: "random", ExactSuccess: 0.001, ExactClosed: 0}}
	exactLen := []table.LengthRow{{Board: "5x5", Rule: "random", Length: 3, ExactShare: 1}}
	meanLen := est
	meanLen.Label = "mean path length (squares, of 25)"
	for name, c := range map[string]struct {
		d Drawn
		h plots.HeatmapData
	}{
		"mean length for exact success": {Drawn{Name: "success-heatmap", Base: "success-heatmap_5x5_random"}, meanLen},
		"estimated success":             {Drawn{Name: "success-heatmap", Base: "success-heatmap_5x5_random"}, est},
		"estimated E[length]":           {Drawn{Name: "length-heatmap", Base: "length-heatmap_5x5_random"}, meanLen},
	} {
		if p := checkExactPreferred(exactSq, exactLen, []Drawn{c.d}, map[string]any{c.d.Base: c.h}); len(p) != 1 {
			t.Errorf("%s: %q, want one problem", name, p)
		}
	}
	if p := checkLengths(lengthData{series: []plots.Series{{Name: "corner", X: []float64{1}, Y: []float64{1}}}}); len(p) != 1 {
		t.Errorf("shares without intervals: %q, want one problem", p)
	}
	// Shares of two starts that ran 20 and 400 walks: bars from the walks
	// pooled (the Wilson interval of 420 walks) are too narrow for the
	// mean of the two starts' shares.
	apart := [][]startLengths{{{walks: 20, counts: map[int]int64{10: 10, 25: 10}}, {walks: 400, counts: map[int]int64{10: 40, 25: 360}}}}
	ident := func(x float64) float64 { return x }
	narrow := lengthData{series: []plots.Series{{Name: "edge", X: []float64{10, 25}, Y: []float64{0.3, 0.7}}}, starts: apart, bin: ident, level: 0.95}
	for _, x := range []float64{10, 25} {
		var k float64
		for _, st := range apart[0] {
			k += float64(st.counts[int(x)])
		}
		lo, hi := results.ShareBounds(k, 420, 0.95)
		narrow.series[0].Bars = append(narrow.series[0].Bars, plots.ShareBar{X: x, Lo: lo, Hi: hi})
	}
	if p := checkLengths(narrow); len(p) != 1 {
		t.Errorf("bars of the walks pooled on starts run apart: %q, want one problem", p)
	}
	sound := narrow
	sound.series = []plots.Series{{Name: "edge", X: []float64{10, 25}, Y: []float64{0.3, 0.7}}}
	if _, err := shareBars(sound.series, apart, plots.LengthOptions{Level: 0.95}); err != nil {
		t.Fatal(err)
	}
	if p := checkLengths(sound); len(p) > 0 {
		t.Errorf("the pooled estimator's bars fail: %q", p)
	}
	noExactShares := map[string]any{"length-distribution_5x5_random": lengthData{series: []plots.Series{{Name: "corner", Bars: []plots.ShareBar{{X: 1, Lo: 0, Hi: 1}}}}, exact: []plots.Series{{}}}}
	if p := checkExactPreferred(exactSq, exactLen, nil, noExactShares); len(p) != 1 {
		t.Errorf("length shares without the exact ones: %q, want one problem", p)
	}
	det := plots.Line{Name: "first", N: []float64{5, 6, 7}, Rate: []float64{1, 1, 0.75}, Lo: []float64{1, 1, 0.75}, Hi: []float64{1, 1, 0.75}}
	if p := checkSizeCurve(sizeData{[]plots.Line{det}, "logit"}); len(p) != 1 {
		t.Errorf("deterministic shares on a logit axis: %q, want one problem", p)
	}
	if p := checkSizeCurve(sizeData{[]plots.Line{det}, plots.RateAxisFor(plots.RateAxisAuto, []plots.Line{det})}); len(p) > 0 {
		t.Errorf("the axis drawn for deterministic shares: %q", p)
	}
	hatched := est
	hatched.NoStart = []bool{false, true, true, false}
	silent := []Drawn{{Name: "success-heatmap", Base: "/x/success-heatmap_5x5_random", Caption: "Exact values by enumeration: lowest 50 % (a1), highest 80 % (b2)."}}
	if p := checkDrawn(silent, map[string]any{"success-heatmap_5x5_random": hatched}); len(p) != 1 || !strings.Contains(p[0], "over which squares") {
		t.Errorf("a rate over the corners' colour not said: %q, want one problem", p)
	}
	// Dead-end maps: a fractional count, a zero in a colour, a share of 3
	// walks drawn as resolved, a start of the other colour on 7x7.
	ends := []table.DeadEndRow{{Board: "3x3", Rows: 3, Cols: 3, Rule: "random", StartRow: 0, StartCol: 0, EndRow: 0, EndCol: 0, Count: 3},
		{Board: "3x3", Rows: 3, Cols: 3, Rule: "random", StartRow: 0, StartCol: 0, EndRow: 1, EndCol: 1, Count: 97}}
	dv := make([]float64, 9)
	dv[0], dv[4] = 0.03, 0.97
	dmap := plots.HeatmapData{Rows: 3, Cols: 3, Values: dv, Percent: true, NoStart: []bool{false, true, true, true, false, true, true, true, true},
		Uncertainty: &plots.Uncertainty{Lo: []float64{0.02, 0, 0, 0, 0.96, 0, 0, 0, 0}, Hi: []float64{0.04, 0, 0, 0, 0.98, 0, 0, 0, 0}}}
	deadBase := "deadend-heatmap_3x3_random"
	dd := []Drawn{{Name: "deadend-heatmap", Base: "/x/" + deadBase}}
	if p := checkDeadEnds(ends, dd, map[string]any{deadBase: dmap}); len(p) != 1 || !strings.Contains(p[0], "resting on 3") {
		t.Errorf("a share of 3 dead ends drawn resolved: %q, want one problem", p)
	}
	fixed := dmap
	fixed.Uncertainty = &plots.Uncertainty{Lo: []float64{0, 0, 0, 0, 0.96, 0, 0, 0, 0}, Hi: []float64{1, 0, 0, 0, 0.98, 0, 0, 0, 0}}
	if p := checkDeadEnds(ends, dd, map[string]any{deadBase: fixed}); len(p) > 0 {
		t.Errorf("a sound dead-end map fails: %q", p)
	}
	frac, dark := fixed, fixed
	frac.Counts = []float64{3, 0, 0, 0, 96.5, 0, 0, 0, 0}
	dark.NoStart = nil
	for name, h := range map[string]plots.HeatmapData{"fractional count": frac, "zero in a colour": dark} {
		if p := checkDeadEnds(ends, dd, map[string]any{deadBase: h}); len(p) != 1 {
			t.Errorf("%s: %q, want one problem", name, p)
		}
	}
	odd7 := []table.DeadEndRow{{Board: "7x7", Rows: 7, Cols: 7, Rule: "random", StartRow: 0, StartCol: 0, Count: 1}}
	from := []Drawn{{Name: "deadend-heatmap", Base: "/x/deadend-heatmap_7x7_random_from-b1"}}
	if p := checkDeadEnds(odd7, from, map[string]any{"deadend-heatmap_7x7_random_from-b1": plots.HeatmapData{Rows: 7, Cols: 7, Values: make([]float64, 49), Binary: true}}); len(p) != 1 {
		t.Errorf("7x7 drawn from b1: %q, want one problem", p)
	}
	// A size curve's estimate drawn where the exact value is known.
	withExact := plots.Line{Name: "corner starts (400 walks a point)", N: []float64{7, 9}, Rate: []float64{0.74, 0.9}, Lo: []float64{0.7, 0.85}, Hi: []float64{0.78, 0.95}, Exact: []float64{0.7478, math.NaN()}}
	if p := checkSizeCurve(sizeData{[]plots.Line{withExact}, "logit"}); len(p) != 1 || !strings.Contains(p[0], "exact") {
		t.Errorf("an estimate where the exact value is known: %q, want one problem", p)
	}
	withExact.Rate[0], withExact.Lo[0], withExact.Hi[0] = 0.7478, 0.7478, 0.7478
	if p := checkSizeCurve(sizeData{[]plots.Line{withExact}, "logit"}); len(p) > 0 {
		t.Errorf("the exact value drawn fails: %q", p)
	}
	// The per-square level of a 144-square map is printed to its digits
	// (the referee's CheckLevels refuses "100 % intervals").
	if got := levelText(stats.BonferroniLevel(0.95, 144)); got != "99.965 %" {
		t.Errorf("Bonferroni level over 144 squares written %q, want 99.965 %%", got)
	}
	if got := levelText(0.95); got != "95 %" {
		t.Errorf("95 %% written %q", got)
	}
	// A shape map titled without its starts, and one whose 7x7 alone sets
	// the low end of its scale.
	shape := plots.HeatmapData{Title: "r: success by board shape", Rows: 2, Cols: 3, Values: []float64{0.737, 0.98, 0.99, 0.97, 1, 0.985}, Mask: make([]bool, 6), Percent: true}
	if p := checkShapes(map[string]any{"size-curve_e_shapes_r": shape}); len(p) != 2 {
		t.Errorf("a shape map without its starts, its scale set by one board: %q, want two problems", p)
	}
	shape.Title = "r from the corners: success by board shape"
	if lo, ok := loneLow(shape); !ok || lo.at != 0 || lo.next != 0.97 {
		t.Errorf("loneLow = %+v, %v; want the board at 0, the next lowest 0.97", lo, ok)
	} else {
		shape.Min = &lo.next
	}
	if p := checkShapes(map[string]any{"size-curve_e_shapes_r": shape}); len(p) > 0 {
		t.Errorf("the scale from the next lowest board fails: %q", p)
	}
	odd := []Drawn{{Name: "closed-heatmap", Base: "/x/closed-heatmap_7x7_warnsdorff-random"}}
	if p := checkDrawn(odd, nil); len(p) != 1 {
		t.Errorf("closed map of an odd board: %q, want one problem", p)
	}
}
