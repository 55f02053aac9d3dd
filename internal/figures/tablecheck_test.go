package figures

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// The referee's checks of figures against the run's tables: the numbers a
// figure shows are the tables' (pooled as the boards and classes tables
// pool, whatever walks each square ran), its file is named for what it
// draws, and a convergence curve ends where the run ended.

// tables are the rows a figure's numbers are held to.
type tables struct {
	boards  []table.BoardRow
	squares []table.SquareRow
}

func readTables(t *testing.T, dir string) tables {
	t.Helper()
	b, _, err := table.Read[table.BoardRow](filepath.Join(dir, results.BoardsFile))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := table.Read[table.SquareRow](filepath.Join(dir, results.SquaresFile))
	if err != nil {
		t.Fatal(err)
	}
	return tables{b, s}
}

var (
	captionUniform = regexp.MustCompile(`from a uniform start \(every square\) ([\d.]+ %|0 %)`)
	captionColour  = regexp.MustCompile(`Mean over the (\d+) squares of the corners' colour ([\d.]+ %|0 %)`)
)

// checkPooledNumbers holds the numbers a success map's caption states and
// the size curve's all-starts points to the tables: the uniform start's
// rate is the boards table's, and the rate over the corners' colour is
// results.StartsRate over those squares' rows (exact: the mean of their
// exact values), so that a sequential run's figure does not pool by
// walks where its tables pool by start.
func checkPooledNumbers(tb tables, drawn []Drawn, data map[string]any) []string {
	var out []string
	for _, d := range drawn {
		if d.Name != "success-heatmap" || d.Base == "" || strings.HasSuffix(d.Base, "_failure") {
			continue
		}
		base := filepath.Base(d.Base)
		for _, br := range tb.boards {
			if !strings.HasPrefix(base, "success-heatmap_"+slug(br.Board+"_"+br.Rule)) {
				continue
			}
			var rows []table.SquareRow
			for _, s := range tb.squares {
				if s.Board == br.Board && s.Rule == br.Rule {
					rows = append(rows, s)
				}
			}
			exact := !math.IsNaN(br.ExactSuccess)
			uniform := br.SuccessRate
			if exact {
				uniform = br.ExactSuccess
			}
			if m := captionUniform.FindStringSubmatch(d.Caption); m != nil && m[1] != percent(uniform) {
				out = append(out, fmt.Sprintf("%s: caption's uniform start %s, the boards table's %s", base, m[1], percent(uniform)))
			}
			if m := captionColour.FindStringSubmatch(d.Caption); m != nil {
				var c []results.StartCount
				sum, n := 0.0, 0
				for _, s := range rows {
					if !minority(int(s.StartRow), int(s.StartCol)) {
						c = append(c, results.StartCount{Count: s.Successes, Walks: s.Walks})
						sum += s.ExactSuccess
						n++
					}
				}
				want := results.StartsRate(c, 0.95, stats.Wilson).Center
				if exact {
					want = sum / float64(n)
				}
				if m[1] != fmt.Sprint(n) || m[2] != percent(want) {
					out = append(out, fmt.Sprintf("%s: caption's %s over %s squares of the corners' colour, the tables pool %s over %d", base, m[2], m[1], percent(want), n))
				}
			}
		}
	}
	for base, v := range data {
		sd, ok := v.(sizeData)
		if !ok {
			continue
		}
		for _, l := range sd.lines {
			if !strings.HasPrefix(l.Name, "all starts (") || strings.Contains(l.Name, "colour") {
				continue // a class, or a parity's squares: no boards row
			}
			for k, n := range l.N {
				for _, br := range tb.boards {
					if br.Rows == int32(n) && br.Cols == int32(n) && strings.Contains(base, slug(br.Rule)) && !br.Deterministic {
						rate, lo, hi := br.SuccessRate, br.SuccessLo, br.SuccessHi
						if !math.IsNaN(br.ExactSuccess) { // the exact value is drawn, with no interval
							rate, lo, hi = br.ExactSuccess, br.ExactSuccess, br.ExactSuccess
						}
						if !near(l.Rate[k], rate) || !near(l.Lo[k], lo) || !near(l.Hi[k], hi) {
							out = append(out, fmt.Sprintf("%s: all starts at n = %g drawn %v [%v, %v], the boards table's %v [%v, %v]",
								base, n, l.Rate[k], l.Lo[k], l.Hi[k], rate, lo, hi))
						}
					}
				}
			}
		}
	}
	return out
}

// near is equality up to rounding: a mean of exact values summed in
// another order.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// checkClasses holds the figures' start classes to the classes table's
// (one class definition: every square of the class, of both colours on a
// board of an odd number of squares): a length distribution's series of
// a class pools the table's squares and walks, and a size curve's line of
// a class is, at each n, the table's rate and interval (the exact mean
// where the table has one).
func checkClasses(classes []table.ClassRow, data map[string]any) []string {
	var out []string
	row := func(board, rule, class string) (table.ClassRow, bool) {
		for _, c := range classes {
			if c.GroupBy == "class" && c.Board == board && c.Rule == rule && c.Group == class {
				return c, true
			}
		}
		return table.ClassRow{}, false
	}
	for base, v := range data {
		switch v := v.(type) {
		case lengthData:
			for i, s := range v.series {
				if i >= len(v.starts) || len(v.starts[i]) == 0 {
					continue
				}
				class, _, _ := strings.Cut(s.Name, " (")
				found := false
				for _, c := range classes {
					if c.GroupBy != "class" || c.Group != class || base != "length-distribution_"+slug(c.Board+"_"+c.Rule) {
						continue
					}
					found = true
					var walks int64
					for _, st := range v.starts[i] {
						walks += st.walks
					}
					if int32(len(v.starts[i])) != c.Squares || walks != c.Walks {
						out = append(out, fmt.Sprintf("%s: series %q pools %d squares and %d walks, the classes table's %s %d and %d", base, s.Name, len(v.starts[i]), walks, class, c.Squares, c.Walks))
					}
				}
				if !found {
					out = append(out, fmt.Sprintf("%s: series %q is no class of the classes table", base, s.Name))
				}
			}
		case sizeData:
			for _, l := range v.lines {
				class, _, ok := strings.Cut(l.Name, " starts (")
				if !ok || class == "all" || strings.Contains(l.Name, "colour") {
					continue // all starts (the boards table's: checkPooledNumbers), or a colour asked for
				}
				for k, n := range l.N {
					for _, c := range classes {
						if c.Rows != int32(n) || c.Cols != int32(n) || !strings.HasSuffix(base, "_"+slug(c.Rule)) {
							continue
						}
						cr, ok := row(c.Board, c.Rule, class)
						if !ok || cr != c {
							continue
						}
						rate, lo, hi := c.SuccessRate, c.SuccessLo, c.SuccessHi
						if !math.IsNaN(c.ExactSuccess) {
							rate, lo, hi = c.ExactSuccess, c.ExactSuccess, c.ExactSuccess
						}
						if !near(l.Rate[k], rate) || !near(l.Lo[k], lo) || !near(l.Hi[k], hi) {
							out = append(out, fmt.Sprintf("%s: %s starts at n = %g drawn %v [%v, %v], the classes table's %v [%v, %v]", base, class, n, l.Rate[k], l.Lo[k], l.Hi[k], rate, lo, hi))
						}
					}
				}
			}
		}
	}
	return out
}

// checkFileNames holds a heatmap's file name to the quantity it draws: a
// success or closed map draws a rate, a length map a mean path length.
func checkFileNames(data map[string]any) []string {
	var out []string
	for base, v := range data {
		h, ok := v.(plots.HeatmapData)
		if !ok {
			continue
		}
		length := strings.Contains(h.Label, "mean path length")
		switch {
		case strings.HasPrefix(base, "success-heatmap") && (length || !h.Percent),
			strings.HasPrefix(base, "closed-heatmap") && (length || !h.Percent):
			out = append(out, fmt.Sprintf("%s draws %q, not the rate its name says", base, h.Label))
		case strings.HasPrefix(base, "length-heatmap") && !length:
			out = append(out, fmt.Sprintf("%s draws %q, not the mean path length its name says", base, h.Label))
		}
	}
	return out
}

// checkConvergenceEnds holds a convergence curve to the run: it ends at
// the start's walks, at the squares table's rate.
func checkConvergenceEnds(data map[string]any) []string {
	var out []string
	for base, v := range data {
		c, ok := v.(convergenceData)
		if !ok {
			continue
		}
		last := len(c.curve.Walks) - 1
		if last < 0 || c.curve.Walks[last] != float64(c.start.Walks) || c.curve.Estimate[last] != c.start.SuccessRate {
			end := math.NaN()
			if last >= 0 {
				end = c.curve.Walks[last]
			}
			out = append(out, fmt.Sprintf("%s: ends at %v walks, the run's %d walks from %s", base, end, c.start.Walks, c.start.Start))
		}
	}
	return out
}

// Each check against the tables fails on a figure with its defect
// planted, and passes without it.
func TestTableChecksCatchPlantedDefects(t *testing.T) {
	// A sequential 3x3 stand-in: a1 ran 100 walks (90 toured), c3 300 (150):
	// a uniform start tours 70 %, pooled by walks 60 %.
	sq := []table.SquareRow{
		{Board: "3x3", Rule: "r", Start: "a1", StartRow: 0, StartCol: 0, Walks: 100, Successes: 90, SuccessRate: 0.9, ExactSuccess: math.NaN()},
		{Board: "3x3", Rule: "r", Start: "c3", StartRow: 2, StartCol: 2, Walks: 300, Successes: 150, SuccessRate: 0.5, ExactSuccess: math.NaN()},
	}
	uni := results.StartsRate([]results.StartCount{{Count: 90, Walks: 100}, {Count: 150, Walks: 300}}, 0.95, stats.Wilson)
	tb := tables{[]table.BoardRow{{Board: "3x3", Rows: 3, Cols: 3, Rule: "r", SuccessRate: uni.Center, SuccessLo: uni.Lo, SuccessHi: uni.Hi, ExactSuccess: math.NaN()}}, sq}
	caption := func(colour, uniform string) []Drawn {
		return []Drawn{{Name: "success-heatmap", Base: "/x/success-heatmap_3x3_r",
			Caption: fmt.Sprintf("Mean over the 2 squares of the corners' colour %s; from a uniform start (every square) %s.", colour, uniform)}}
	}
	if p := checkPooledNumbers(tb, caption("70.00 %", "70.00 %"), nil); len(p) > 0 {
		t.Errorf("the tables' numbers fail: %q", p)
	}
	if p := checkPooledNumbers(tb, caption("60.00 %", "60.00 %"), nil); len(p) != 2 {
		t.Errorf("numbers pooled by walks: %q, want two problems", p)
	}
	line := func(rate float64) map[string]any {
		return map[string]any{"size-curve_x_r": sizeData{lines: []plots.Line{{Name: "all starts (400 walks a point)", N: []float64{3}, Rate: []float64{rate}, Lo: []float64{uni.Lo}, Hi: []float64{uni.Hi}}}}}
	}
	if p := checkPooledNumbers(tb, nil, line(uni.Center)); len(p) > 0 {
		t.Errorf("the boards table's point fails: %q", p)
	}
	if p := checkPooledNumbers(tb, nil, line(0.6)); len(p) != 1 {
		t.Errorf("an all-starts point pooled by walks: %q, want one problem", p)
	}

	rate := plots.HeatmapData{Label: "success rate", Percent: true}
	length := plots.HeatmapData{Label: "mean path length (squares, of 45)"}
	if p := checkFileNames(map[string]any{"success-heatmap_5x9_r": rate, "length-heatmap_5x9_r": length}); len(p) > 0 {
		t.Errorf("sound names fail: %q", p)
	}
	if p := checkFileNames(map[string]any{"success-heatmap_5x9_random": length}); len(p) != 1 {
		t.Errorf("mean path length filed as success-heatmap: %q, want one problem", p)
	}

	cd := func(walks ...float64) map[string]any {
		c := plots.ConvergenceData{Walks: walks}
		for range walks {
			c.Estimate = append(c.Estimate, 0.5)
		}
		return map[string]any{"convergence_3x3_r_c3": convergenceData{c, sq[1]}}
	}
	if p := checkConvergenceEnds(cd(1, 100, 300)); len(p) > 0 {
		t.Errorf("a curve to the run's end fails: %q", p)
	}
	if p := checkConvergenceEnds(cd(1, 100, 290)); len(p) != 1 {
		t.Errorf("a curve stopping at 290 of 300 walks: %q, want one problem", p)
	}
}
