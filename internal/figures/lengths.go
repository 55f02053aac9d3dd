package figures

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// lengthDistributions draws, per (board, rule), the path-length
// distribution of each start class, over every length a walk can have.
func (d *drawer) lengthDistributions() ([]Drawn, error) {
	rows, err := results.ReadOf(d.dir, results.LengthsFile, d.m, table.Read[table.LengthRow])
	if err != nil {
		return nil, err
	}
	o := d.options().Lengths
	// A class is the classes table's: every start square of it, of both
	// colours on a board of an odd number of squares.
	class := map[[3]string]string{}
	classOf := func(s table.SquareRow) string { return s.StartClass }
	for _, s := range d.squares {
		class[[3]string{s.Board, s.Rule, s.Start}] = classOf(s)
	}
	type key struct{ board, rule, class string }
	counts := map[key]map[int]float64{}
	totals := map[key]float64{}
	exact := map[key]map[int]float64{} // summed over the class's squares
	noExact := map[key]bool{}          // some square of the class has none
	squares := map[key]float64{}
	walks := map[key]float64{}
	for _, s := range d.squares {
		k := key{s.Board, s.Rule, classOf(s)}
		squares[k]++
		walks[k] += float64(s.Walks)
	}
	// Each start weighs as one start, as the classes table pools a class
	// (a sequential run stops its squares apart): a walk counts the
	// class's mean walks a start over its start's walks (1 where every
	// square ran the same walks), so shares are the mean of the starts'.
	weight := map[[3]string]float64{}
	for _, s := range d.squares {
		k := key{s.Board, s.Rule, classOf(s)}
		weight[[3]string{s.Board, s.Rule, s.Start}] = walks[k] / squares[k] / float64(s.Walks)
	}
	// Each start's own counts, for the intervals of the pooled shares
	// (shareBars: the equal-weight mean's own variance).
	perStart := map[key]map[string]*startLengths{}
	for _, r := range rows {
		k := key{r.Board, r.Rule, class[[3]string{r.Board, r.Rule, r.Start}]}
		if counts[k] == nil {
			counts[k], exact[k], perStart[k] = map[int]float64{}, map[int]float64{}, map[string]*startLengths{}
		}
		if r.Count > 0 {
			sl := perStart[k][r.Start]
			if sl == nil {
				sl = &startLengths{counts: map[int]int64{}}
				perStart[k][r.Start] = sl
			}
			sl.counts[int(r.Length)] += r.Count
			sl.walks += r.Count

			w := weight[[3]string{r.Board, r.Rule, r.Start}]
			counts[k][int(r.Length)] += float64(r.Count) * w
			totals[k] += float64(r.Count) * w
		}
		if math.IsNaN(r.ExactShare) {
			noExact[k] = true
		} else {
			exact[k][int(r.Length)] += r.ExactShare
		}
	}
	var out []Drawn
	conf, _ := d.stats()
	for _, g := range d.groups() {
		var series, exactSeries []plots.Series
		var starts [][]startLengths // per series, its starts' counts (nil: not sampled)
		unequal := false
		names := make([]string, 0, len(sim.Classes)+1)
		for _, c := range sim.Classes {
			names = append(names, c.String())
		}
		for _, c := range names {
			k := key{g.board, g.rule, c}
			m := counts[k]
			if len(m) == 0 || len(o.Classes) > 0 && !slices.Contains(o.Classes, c) {
				continue
			}
			name := c
			s := plots.Series{Name: fmt.Sprintf("%s (%s walks)", name, count(totals[k]))}
			sampled := true
			if g.deterministic(successRate) { // one walk a square: the share of starts, not a sample
				s.Name, sampled = fmt.Sprintf("%s (%s starts, one walk each)", name, count(totals[k])), false
			}
			ls := make([]int, 0, len(m))
			for l := range m {
				ls = append(ls, l)
			}
			sort.Ints(ls)
			for _, l := range ls {
				s.X = append(s.X, float64(l))
				s.Y = append(s.Y, m[l]/totals[k])
			}
			var st []startLengths
			if sampled {
				for _, name := range slices.Sorted(maps.Keys(perStart[k])) {
					st = append(st, *perStart[k][name])
					unequal = unequal || st[len(st)-1].walks != st[0].walks
				}
			}
			starts = append(starts, st)
			series = append(series, s)
			var xs plots.Series // the class's mean exact distribution: every square runs the same walks
			if !noExact[k] && len(exact[k]) > 0 {
				for _, l := range slices.Sorted(maps.Keys(exact[k])) {
					xs.X = append(xs.X, float64(l))
					xs.Y = append(xs.Y, exact[k][l]/squares[k])
				}
			}
			exactSeries = append(exactSeries, xs)
		}
		if len(series) == 0 {
			out = append(out, Drawn{Name: "length-distribution", Note: fmt.Sprintf("%s %s: no walks of the classes asked for", g.board, g.rule)})
			continue
		}
		lo := plots.LengthOptions{Title: fmt.Sprintf("%s on %s: path length by start class", g.rule, g.board),
			Squares: g.rows * g.cols, LogY: logAxis(o.LogY), Exact: exactSeries, Level: conf}
		if unequal {
			lo.BarsLabel = fmt.Sprintf("bars: %s interval of the mean of the starts' shares", levelText(conf))
		}
		bin, err := shareBars(series, starts, lo)
		if err != nil {
			return nil, err
		}
		if dataHook != nil {
			dataHook("length-distribution_"+slug(g.board+"_"+g.rule), lengthData{series, exactSeries, g.deterministic(successRate), starts, bin, conf})
		}
		f, err := plots.LengthDistributionWith(series, lo)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "length-distribution", g.board, g.rule)
		if err != nil {
			return nil, err
		}
		dr.Caption = lengthsCaption(g, series)
		if g.deterministic(successRate) {
			dr.Caption += " A deterministic rule: one walk from each start, so each share is a share of the starts, with no interval."
		} else if unequal {
			dr.Caption += fmt.Sprintf(" Bars: the %s interval of each share (each pair pooled) as the classes table pools a class: a sequential run stopped its starts apart, so a share is the mean of the starts' shares, each start weighing one, and its interval is from that mean's own variance (Σ p_i(1 − p_i)/n_i / k² over the class's k starts), not from the walks pooled.", levelText(conf))
		} else {
			dr.Caption += fmt.Sprintf(" Bars: the %s Wilson interval of each share (each pair pooled), from the class's walks.", levelText(conf))
		}
		if g.rows%2 == 1 && g.cols%2 == 1 {
			dr.Caption += " Odd board: each class pools all its squares, of both colours, as the classes table does; those not of the corners' colour cannot complete an open tour."
		}
		if slices.ContainsFunc(exactSeries, func(x plots.Series) bool { return len(x.X) > 0 }) {
			dr.Caption += " Crosses: the exact distribution by enumeration (the mean over the class's squares), in its class's colour."
		}
		out = append(out, dr)
	}
	return out, nil
}

// startLengths is one start's walks and its walks' count per length.
type startLengths struct {
	walks  int64
	counts map[int]int64
}

// shareBars gives each sampled series (starts[i] not nil) the interval of
// each share as the figure draws it (per length, or per pair of lengths:
// plots.LengthBins), pooled over the series' starts as the classes table
// pools a class (results.StartsRate): the pooled count where every start
// ran the same walks, the equal-weight mean of the starts' shares with
// that mean's own variance (Wilson on the effective walks) where a sequential run stopped them apart.
// It returns the binning.
func shareBars(series []plots.Series, starts [][]startLengths, o plots.LengthOptions) (func(float64) float64, error) {
	bin, err := plots.LengthBins(series, o)
	if err != nil {
		return nil, err
	}
	for i := range series {
		s := &series[i]
		if len(starts[i]) == 0 {
			continue
		}
		var xs []float64
		seen := map[float64]bool{}
		for _, x := range s.X {
			if b := bin(x); !seen[b] {
				seen[b] = true
				xs = append(xs, b)
			}
		}
		for _, b := range xs {
			c := make([]results.StartCount, len(starts[i]))
			for j, st := range starts[i] {
				c[j].Walks = st.walks
				for l, n := range st.counts {
					if bin(float64(l)) == b {
						c[j].Count += n
					}
				}
			}
			iv := results.StartsRate(c, level(o.Level), stats.Wilson) // the Wilson interval, on n_eff walks where starts ran apart
			s.Bars = append(s.Bars, plots.ShareBar{X: b, Lo: iv.Lo, Hi: iv.Hi})
		}
	}
	return bin, nil
}

// lengthData is what a length distribution draws (for dataHook).
type lengthData struct {
	series, exact []plots.Series
	deterministic bool
	starts        [][]startLengths // per series, its starts' counts (nil: not sampled)
	bin           func(float64) float64
	level         float64
}

// lengthsCaption states, per class drawn, its walks, its shortest walk
// and its share of full tours.
func lengthsCaption(g group, series []plots.Series) string {
	n := float64(g.rows * g.cols)
	var parts []string
	for _, s := range series {
		full := 0.0
		if l := len(s.X); l > 0 && s.X[l-1] == n {
			full = s.Y[l-1]
		}
		parts = append(parts, fmt.Sprintf("%s: shortest %g, full tours %s", s.Name, s.X[0], percent(full)))
	}
	return fmt.Sprintf("Path length (squares visited, of %g) of %s on %s, as the fraction of each start class's walks. %s.",
		n, g.rule, g.board, strings.Join(parts, "; "))
}

func logAxis(s string) plots.LogAxis {
	switch s {
	case "on":
		return plots.LogOn
	case "off":
		return plots.LogOff
	}
	return plots.LogAuto
}

// count writes a walk count compactly: 800,000 → "800k", 1,250,000 → "1.25M".
func count(n float64) string {
	switch {
	case n >= 1e6:
		return trim(fmt.Sprintf("%.2f", n/1e6)) + "M"
	case n >= 1e4:
		return trim(fmt.Sprintf("%.1f", n/1e3)) + "k"
	}
	return fmt.Sprintf("%.0f", n)
}

func trim(s string) string {
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// level is a confidence, 0 meaning 0.95.
func level(c float64) float64 {
	if c <= 0 {
		return 0.95
	}
	return c
}
