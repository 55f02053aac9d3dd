package figures

import (
	"fmt"
	"slices"
	"sort"

	"knightwalk/internal/config"
	"knightwalk/internal/table"
	"knightwalk/plots"
	"knightwalk/stats"
)

// curve is one line of a size curve: which start squares it pools.
type curve struct {
	name string
	keep func(s table.SquareRow) bool
}

// sizeCurve draws, per rule, success against n on the square boards, one
// line per start class (and all starts), with interval error bars and the
// published values the figure options list for the rule.
func (d *drawer) sizeCurve() ([]Drawn, error) {
	o := d.options().SizeCurve
	conf, method := d.stats()
	byRule := map[string][]table.SquareRow{}
	var rules []string
	for _, s := range d.squares {
		if s.Rows != s.Cols {
			continue
		}
		if byRule[s.Rule] == nil {
			rules = append(rules, s.Rule)
		}
		byRule[s.Rule] = append(byRule[s.Rule], s)
	}
	var out []Drawn
	for _, rule := range rules {
		var lines []plots.Line
		for _, c := range curves(byRule[rule], o) {
			if l, ok := sizeLine(byRule[rule], c, conf, method); ok {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			out = append(out, Drawn{Name: "size-curve", Note: rule + ": fewer than two square board sizes: no size curve"})
			continue
		}
		so := plots.SizeOptions{Title: rule + ": success against board size",
			LegendTitle: fmt.Sprintf("%s on n×n boards, %s intervals:", rule, levelText(conf)),
			References:  references(o.References, rule)}
		f, err := plots.SizeCurveWith(lines, so)
		if err != nil {
			return nil, err
		}
		dr, err := d.save(f, "size-curve", d.m.Experiment, rule)
		if err != nil {
			return nil, err
		}
		out = append(out, dr)
	}
	return out, nil
}

// curves lists the lines to draw: the classes asked for (default: every
// class run, and all starts when there is more than one). On boards with
// an odd number of squares, only the corners' colour can start a tour, so
// by default every line pools only squares of that colour there (corners
// and the centre are always of it); parity split draws the lines that mix
// colours once per colour instead.
func curves(rows []table.SquareRow, o config.SizeCurveOptions) []curve {
	classes := o.Classes
	if len(classes) == 0 {
		for _, c := range config.CurveClasses[:4] {
			if slices.ContainsFunc(rows, func(s table.SquareRow) bool { return s.StartClass == c }) {
				classes = append(classes, c)
			}
		}
		if len(classes) > 1 {
			classes = append(classes, "all")
		}
	}
	in := func(c string) func(table.SquareRow) bool {
		return func(s table.SquareRow) bool { return c == "all" || s.StartClass == c }
	}
	var out []curve
	for _, c := range classes {
		mixed := c == "all" || c == "edge" || c == "interior" // of both colours on odd boards
		name := c + " starts"
		if c == "all" {
			name = "all starts"
		}
		if o.Parity == "split" && mixed {
			out = append(out,
				curve{name + ", a1's colour", func(s table.SquareRow) bool { return in(c)(s) && !minority(int(s.StartRow), int(s.StartCol)) }},
				curve{name + ", other colour", func(s table.SquareRow) bool { return in(c)(s) && minority(int(s.StartRow), int(s.StartCol)) }})
			continue
		}
		if mixed {
			name += " (a1's colour on odd n)"
		}
		out = append(out, curve{name, func(s table.SquareRow) bool {
			odd := s.Rows%2 == 1 && s.Cols%2 == 1
			return in(c)(s) && !(odd && minority(int(s.StartRow), int(s.StartCol)))
		}})
	}
	return out
}

// sizeLine pools the squares c keeps per board size; ok is false with
// fewer than two sizes.
func sizeLine(rows []table.SquareRow, c curve, conf float64, method stats.Method) (plots.Line, bool) {
	type acc struct{ walks, succ int64 }
	byN := map[int]*acc{}
	for _, s := range rows {
		if !c.keep(s) {
			continue
		}
		a := byN[int(s.Rows)]
		if a == nil {
			a = &acc{}
			byN[int(s.Rows)] = a
		}
		a.walks += s.Walks
		a.succ += s.Successes
	}
	if len(byN) < 2 {
		return plots.Line{}, false
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	l := plots.Line{Name: c.name}
	for _, n := range ns {
		a := byN[n]
		iv := stats.Proportion{Successes: uint64(a.succ), Trials: uint64(a.walks)}.Interval(conf, method)
		l.N = append(l.N, float64(n))
		l.Rate = append(l.Rate, iv.Center)
		l.Lo = append(l.Lo, iv.Lo)
		l.Hi = append(l.Hi, iv.Hi)
	}
	return l, true
}

// references returns the published values about rule.
func references(refs []config.Reference, rule string) []plots.Reference {
	var out []plots.Reference
	for _, r := range refs {
		if r.Rule != rule {
			continue
		}
		p := plots.Reference{Source: r.Source, N: float64(r.N), NMax: float64(r.NMax)}
		switch {
		case r.Rate != nil:
			p.Rate, p.Bound = *r.Rate, plots.About
		case r.AtLeast != nil:
			p.Rate, p.Bound = *r.AtLeast, plots.AtLeast
		case r.Below != nil:
			p.Rate, p.Bound = *r.Below, plots.Below
		}
		out = append(out, p)
	}
	return out
}

// levelText writes a confidence level for a legend: "95 %".
func levelText(conf float64) string {
	return trim(fmt.Sprintf("%.1f", 100*conf)) + " %"
}
