package figures

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
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
		refs, cites := references(o.References, rule, conf)
		legend := fmt.Sprintf("n×n boards, %s%s intervals:", walksAStart(byRule[rule]), levelText(conf))
		if deterministicRule(rule) {
			legend = "n×n boards, one walk a start:"
		}
		so := plots.SizeOptions{Title: rule + ": success against board size",
			LegendTitle: legend,
			References:  refs}
		dr, err := d.saveSizeCurve(lines, so, rule)
		if err != nil {
			return nil, err
		}
		dr.Caption = sizeCaption(rule, "start classes", lines, so, conf, cites)
		out = append(out, dr)
	}
	if len(rules) < 2 {
		return out, nil
	}
	// All rules on one figure, each from the same starts.
	c := curve{"all starts", func(table.SquareRow) bool { return true }}
	if everyRuleHas(byRule, "corner") {
		c = curve{"corner starts", func(s table.SquareRow) bool { return s.StartClass == "corner" }}
	}
	var lines []plots.Line
	var left []string
	for _, rule := range rules {
		if deterministicRule(rule) {
			// A deterministic rule's "rate" is the share of a few starts
			// (0, 25, 50, 75 or 100 % of 4 corners), not an estimate:
			// not drawn on the rates' axis beside sampled rules.
			left = append(left, rule)
			continue
		}
		if l, ok := sizeLine(byRule[rule], c, conf, method); ok {
			l.Name = rule + l.Name[len(c.name):]
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		return out, nil
	}
	so := plots.SizeOptions{Title: "success against board size, by rule",
		LegendTitle: fmt.Sprintf("%s, n×n boards, %s%s intervals:", c.name, walksAStart(d.squares), levelText(conf)),
		LogN:        sizeSpan(lines) >= 10} // several rules crowd the small sizes: give them room
	dr, err := d.saveSizeCurve(lines, so, "rules")
	if err != nil {
		return nil, err
	}
	dr.Caption = sizeCaption("every rule", c.name+" per rule", lines, so, conf, nil)
	if so.LogN {
		dr.Caption += " Board sizes on a log axis, so that the small sizes, where the rules differ most, are not crowded."
	}
	if len(left) > 0 {
		dr.Caption += fmt.Sprintf(" Not drawn: %s, deterministic (one walk a start: its value at each n is a share of the starts, not a rate with an interval); see its own size curve.", strings.Join(left, ", "))
	}
	return append(out, dr), nil
}

// sizeSpan is the largest board size over the smallest.
func sizeSpan(lines []plots.Line) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, l := range lines {
		for _, n := range l.N {
			lo, hi = math.Min(lo, n), math.Max(hi, n)
		}
	}
	return hi / lo
}

// sizeData is what a size curve draws (for dataHook): its lines and the
// rate axis they get.
type sizeData struct {
	lines []plots.Line
	axis  string
}

func (d *drawer) saveSizeCurve(lines []plots.Line, so plots.SizeOptions, part string) (Drawn, error) {
	if dataHook != nil {
		dataHook("size-curve_"+slug(d.m.Experiment+"_"+part), sizeData{lines, plots.RateAxisFor(so.Axis, lines)})
	}
	f, err := plots.SizeCurveWith(lines, so)
	if err != nil {
		return Drawn{}, err
	}
	return d.save(f, "size-curve", d.m.Experiment, part)
}

// walksAStart says, for the legend's title, how many walks each start
// got when every start got as many ("20 walks a start, "): the lines say
// how many a point pools, and a point of the corners pools four starts.
// A deterministic rule's one walk is not said (its lines say so).
func walksAStart(rows []table.SquareRow) string {
	w := int64(-1)
	for _, s := range rows {
		if s.Rows != s.Cols || deterministicRule(s.Rule) {
			continue
		}
		if w >= 0 && s.Walks != w {
			return ""
		}
		w = s.Walks
	}
	if w < 0 {
		return ""
	}
	return count(float64(w)) + " walks a start, "
}

// deterministicRule reports whether a rule draws nothing: its walks
// from a start all repeat one walk.
func deterministicRule(name string) bool {
	r, err := sim.ParseRule(name)
	return err == nil && r.Deterministic()
}

// everyRuleHas reports whether every rule ran some start of class.
func everyRuleHas(byRule map[string][]table.SquareRow, class string) bool {
	for _, rows := range byRule {
		if !slices.ContainsFunc(rows, func(s table.SquareRow) bool { return s.StartClass == class }) {
			return false
		}
	}
	return true
}

// sizeCaption describes a size curve from its lines.
func sizeCaption(who, what string, lines []plots.Line, so plots.SizeOptions, conf float64, cites map[string]string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		lo, hi = math.Min(lo, slices.Min(l.N)), math.Max(hi, slices.Max(l.N))
	}
	s := fmt.Sprintf("Success rate of %s against board size n on n×n boards, n = %g…%g, %s, with %s intervals; the legend gives the walks behind each point. "+
		"Lines join only successive sizes of one parity (odd and even boards differ), never across a gap in the sizes run. "+
		"Rate axis %s (chosen automatically: logit when at least half the points are 90 %% or more and none is 0, with rates of 100 %% on its top edge; log when every interval ends under 20 %%; else linear).",
		who, lo, hi, what, levelText(conf), plots.RateAxisFor(so.Axis, lines))
	var exactN []float64
	for _, l := range lines {
		for k, e := range l.Exact {
			if !math.IsNaN(e) && !slices.Contains(exactN, l.N[k]) {
				exactN = append(exactN, l.N[k])
			}
		}
	}
	if len(exactN) > 0 {
		s += fmt.Sprintf(" Black crosses: the exact rate by enumeration (n = %g…%g), drawn in place of the estimate there (the walks only estimate it).", slices.Min(exactN), slices.Max(exactN))
	}
	var srcs []string
	ranges := false
	for _, r := range so.References {
		if c := cites[r.Source]; !slices.Contains(srcs, c) && math.Max(r.N, r.NMax) >= lo && r.N <= hi {
			srcs = append(srcs, c)
		}
		ranges = ranges || r.NMax > r.N && r.NMax >= lo && r.N <= hi
	}
	if len(srcs) > 0 {
		s += " Published values in black, one legend entry per published statement (experiments/sources.yaml): " + strings.Join(srcs, "; ") + "."
	}
	if ranges {
		s += " A published range of sizes is drawn over the measured sizes it holds, each end halfway to the nearest measured size it does not (its legend entry gives the published sizes)."
	}
	return s
}

// curves lists the lines to draw: the classes asked for (default: every
// class run, and all starts when there is more than one). A class is the
// classes table's: every square of it, of both colours on boards with an
// odd number of squares (where only the corners' colour can start a tour),
// so that a line's point is the table's rate. Parity tour-colour pools only
// the corners' colour into the classes that mix colours (corners and the
// centre are always of it); split draws those once per colour.
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
		switch {
		case o.Parity == "split" && mixed:
			out = append(out,
				curve{name + ", a1's colour", func(s table.SquareRow) bool { return in(c)(s) && !minority(int(s.StartRow), int(s.StartCol)) }},
				curve{name + ", other colour", func(s table.SquareRow) bool { return in(c)(s) && minority(int(s.StartRow), int(s.StartCol)) }})
		case o.Parity == "tour-colour" && mixed:
			out = append(out, curve{name + " (a1's colour on odd n)", func(s table.SquareRow) bool {
				odd := s.Rows%2 == 1 && s.Cols%2 == 1
				return in(c)(s) && !(odd && minority(int(s.StartRow), int(s.StartCol)))
			}})
		default:
			out = append(out, curve{name, in(c)})
		}
	}
	return out
}

// sizeLine pools the squares c keeps per board size as the boards table
// pools a board's squares (startsRate: with every square kept, its point
// is the boards table's rate and interval); ok is false with fewer than
// two sizes.
func sizeLine(rows []table.SquareRow, c curve, conf float64, method stats.Method) (plots.Line, bool) {
	byN := map[int][]table.SquareRow{}
	for _, s := range rows {
		if c.keep(s) {
			byN[int(s.Rows)] = append(byN[int(s.Rows)], s)
		}
	}
	if len(byN) < 2 {
		return plots.Line{}, false
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	walksOf := func(ss []table.SquareRow) int64 {
		var w int64
		for _, s := range ss {
			w += s.Walks
		}
		return w
	}
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, ss := range byN {
		lo, hi = min(lo, walksOf(ss)), max(hi, walksOf(ss))
	}
	walks := count(float64(lo))
	if lo != hi {
		walks += "–" + count(float64(hi))
	}
	l := plots.Line{Name: fmt.Sprintf("%s (%s walks a point)", c.name, walks)}

	det := deterministicRule(rows[0].Rule)
	if det {
		l.Name = fmt.Sprintf("%s (deterministic: share of %s starts, no interval)", c.name, walks)
	}
	for _, n := range ns {
		ss := byN[n]
		iv := startsRate(ss, successRate, conf, method)
		if det { // one walk a start decides it: nothing sampled, nothing to bound
			iv.Lo, iv.Hi = iv.Center, iv.Center
		}
		l.N = append(l.N, float64(n))
		x := exactOfStarts(ss) // what the pooled estimate estimates
		if !math.IsNaN(x) {
			// Where the exact value is known it is the point drawn (the
			// walks only estimate it), with no interval.
			iv.Center, iv.Lo, iv.Hi = x, x, x
		}
		l.Exact = append(l.Exact, x)
		l.Rate = append(l.Rate, iv.Center)
		l.Lo = append(l.Lo, iv.Lo)
		l.Hi = append(l.Hi, iv.Hi)
	}
	return l, true
}

// exactOfStarts is the exact rate that startsRate over ss estimates: the
// walk-weighted mean of the squares' exact rates where they ran equal
// walks (then the plain mean), the plain mean where they did not; NaN
// unless every square has one.
func exactOfStarts(ss []table.SquareRow) float64 {
	var sum, w float64
	for _, s := range ss {
		ws := float64(s.Walks)
		if s.Walks != ss[0].Walks {
			sum, w = 0, 0
			for _, s := range ss {
				sum += exactSuccess(s)
			}
			return sum / float64(len(ss))
		}
		sum += ws * exactSuccess(s) // NaN stays NaN
		w += ws
	}
	return sum / w
}

// references returns the published values about rule, each legend entry
// made from its statement in experiments/sources.yaml (refLabel), and the
// full citation with the published words behind each entry, for the
// caption.
func references(refs []config.Reference, rule string, conf float64) ([]plots.Reference, map[string]string) {
	byID := map[string][]config.Reference{}
	for _, r := range refs {
		if r.Rule == rule {
			byID[r.Source] = append(byID[r.Source], r)
		}
	}
	var out []plots.Reference
	cites := map[string]string{}
	for _, r := range refs {
		if r.Rule != rule {
			continue
		}
		label, cite := refLabel(r.Source, byID[r.Source])
		cites[label] = cite
		p := plots.Reference{Source: label, N: float64(r.N), NMax: float64(r.NMax)}
		p.Rate, p.Bound = refBound(r)
		if pub, ok := config.LookupSource(r.Source); ok && p.Bound == plots.About && !(p.NMax > p.N) {
			// A published point is a sample (75 of 100 trials): drawn
			// with its interval, as the claims' verdicts treat it.
			if k, n, _, ok := pub.Count(); ok && n > 0 {
				iv := stats.Proportion{Successes: uint64(k), Trials: uint64(n)}.Interval(conf, stats.Wilson)
				p.Lo, p.Hi = iv.Lo, iv.Hi
			}
		}
		out = append(out, p)
	}
	return out, cites
}

// refBound is what a reference says of the rate.
func refBound(r config.Reference) (float64, plots.Bound) {
	switch {
	case r.AtLeast != nil:
		return *r.AtLeast, plots.AtLeast
	case r.Below != nil:
		return *r.Below, plots.Below
	case r.Rate != nil:
		return *r.Rate, plots.About
	}
	return 0, plots.About
}

// refLabel is the legend entry of the references naming source id: who
// published it (and where we read it) and what they say, from the values
// drawn: "Squirrel & Cull (1996) via Ganzfried (2004): < 5 % for n =
// 201…2000". cite is the full citation and the published words. A source
// that is not an id of this build's sources.yaml (a result written before
// references named ids) is its own label.
func refLabel(id string, refs []config.Reference) (label, cite string) {
	p, ok := config.LookupSource(id)
	if !ok {
		return id, id
	}
	var parts []string
	for i, r := range refs {
		rate, b := refBound(r)
		what := map[plots.Bound]string{plots.About: "about ", plots.AtLeast: atLeastWord(p.Statement), plots.Below: "< "}[b] + trim(fmt.Sprintf("%.1f", 100*rate)) + " %"
		if b == plots.About && rate == 0 {
			what = "none"
		}
		sizes := fmt.Sprintf("n = %d", r.N)
		if r.NMax > r.N {
			sizes = fmt.Sprintf("n = %d…%d", r.N, r.NMax)
		}
		if r.Most {
			sizes = "most of " + sizes
		}
		if prev := i - 1; prev >= 0 && sameBound(refs[prev], r) {
			parts[len(parts)-1] += ", " + strings.TrimPrefix(sizes, "n = ")
			continue
		}
		parts = append(parts, what+" for "+sizes)
	}
	who := p.Cite()
	if p.NotVerified() { // never drawn as published without the word
		who += " (not verified)"
	}
	return who + ": " + strings.Join(parts, "; "), p.Citation() + ": “" + p.Statement + "”"
}

// atLeastWord writes a lower bound as its source words it: "over 85 %"
// where the publication says over (or more than), else "≥ 98 %".
func atLeastWord(statement string) string {
	if strings.Contains(statement, "over ") || strings.Contains(statement, "more than") {
		return "over "
	}
	return "≥ "
}

func sameBound(a, b config.Reference) bool {
	ra, ba := refBound(a)
	rb, bb := refBound(b)
	return ra == rb && ba == bb && a.Most == b.Most
}

// levelText writes a confidence level for a legend: "95 %", and a level
// near 100 % to two significant digits of what it leaves out (a
// Bonferroni level over 144 squares is 99.965 %, not "100 %").
func levelText(conf float64) string {
	decimals := 1
	if alpha := 100 * (1 - conf); alpha > 0 && alpha < 1 {
		decimals = int(-math.Floor(math.Log10(alpha))) + 1
	}
	return trim(fmt.Sprintf("%.*f", decimals, 100*conf)) + " %"
}
