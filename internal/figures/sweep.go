package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/sim"
)

// sweepSource is one result whose deterministic sweeps the strip draws:
// the result plotted and any given with it (--with).
type sweepSource struct {
	m       *results.Manifest
	squares []table.SquareRow
}

// sweepKey is one strip: a deterministic rule of a result from one start
// position.
type sweepKey struct {
	src         int
	rule, start string
}

// sweepStrip draws, for the deterministic rules of an experiment over
// square boards, which sizes n fail from each start position: one strip
// per (result, rule, start), from the squares tables alone. Rows of the
// results given with it (e.g. the fitted order's sweep beside the
// canonical order's) follow, set apart and labelled by their move order.
func (d *drawer) sweepStrip() ([]Drawn, error) {
	srcs := append([]sweepSource{{d.m, d.squares}}, d.with...)
	var rows []plots.SweepRow
	var keys []sweepKey
	idx := map[sweepKey]int{}
	for si, src := range srcs {
		for _, s := range src.squares {
			if r, err := sim.ParseRule(s.Rule); s.Rows != s.Cols || err != nil || !r.Deterministic() {
				continue
			}
			k := sweepKey{si, s.Rule, results.StartLabel(s.Rows, s.Cols, s.StartRow, s.StartCol)}
			i, ok := idx[k]
			if !ok {
				i = len(rows)
				idx[k] = i
				rows = append(rows, plots.SweepRow{})
				keys = append(keys, k)
			}
			rows[i].Swept = append(rows[i].Swept, float64(s.Rows))
			if s.Successes < s.Walks {
				rows[i].Failing = append(rows[i].Failing, float64(s.Rows))
			}
		}
	}
	if len(rows) == 0 || len(rows[0].Swept) < 2 {
		return []Drawn{{Name: "sweep-strip", Note: "no deterministic rule over two or more square boards: no sweep strip"}}, nil
	}
	labels, rules := sweepLabels(srcs, keys)
	for i := range rows {
		rows[i].Name = labels[i].name + "\n" + failureSummary(rows[i])
		rows[i].Group = labels[i].group
	}
	// The title says which sizes were swept: a strip of a shortened run
	// reads as that run, not as the committed experiment's whole range.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo, hi = math.Min(lo, slices.Min(r.Swept)), math.Max(hi, slices.Max(r.Swept))
	}
	who := d.m.Experiment
	if len(rules) == 1 {
		who = rules[0]
	}
	title := fmt.Sprintf("%s: board sizes n = %g…%g where the walk fails", who, lo, hi)
	f, err := plots.SweepStrip(title, rows)
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "sweep-strip", d.m.Experiment)
	if err != nil {
		return nil, err
	}
	dr.Caption = sweepCaption(rows, labels, srcs)
	return []Drawn{dr}, nil
}

// sweepLabel is how a strip is named: its start, and its rule and move
// order where the figure holds more than one.
type sweepLabel struct {
	name  string // without the failure summary
	plain string // name on one line, for the caption
	group int
	order string // the move order, written out
	ord   string // how the order is named: canonical, fitted, of EXPERIMENT
	src   int
}

// sweepLabels names every strip. The move order is named on every row as
// soon as one row's differs from the canonical order or was fitted: a
// fitted order (a claim on it says fitted: chosen because it reproduces a
// published number) is not independent support, so its row says so.
// rules lists the figure's rules.
func sweepLabels(srcs []sweepSource, keys []sweepKey) (_ []sweepLabel, rules []string) {
	showOrder := false
	out := make([]sweepLabel, len(keys))
	for i, k := range keys {
		if !slices.Contains(rules, k.rule) {
			rules = append(rules, k.rule)
		}
		m := srcs[k.src].m
		out[i] = sweepLabel{src: k.src, order: ruleOrder(m.Config, k.rule)}
		switch {
		case fittedOn(m.Config, k.rule, k.start):
			out[i].ord = "fitted order (" + m.Experiment + ")"
		case out[i].order == canonicalMoves():
			out[i].ord = "canonical order"
		default:
			out[i].ord = "order of " + m.Experiment
		}
		showOrder = showOrder || out[i].ord != "canonical order"
	}
	groups := map[string]int{}
	for i, k := range keys {
		l := &out[i]
		parts := []string{cornerName(k.start)}
		if len(rules) > 1 { // else the rule is named once, in the title
			parts[0] = k.rule + " " + parts[0]
		}
		if showOrder {
			parts = append(parts, l.ord)
		}
		l.name = strings.Join(parts, "\n")
		l.plain = strings.Join(parts, ", ")
		g := fmt.Sprint(k.src, k.rule, l.ord)
		if _, ok := groups[g]; !ok {
			groups[g] = len(groups)
		}
		l.group = groups[g]
	}
	return out, rules
}

// ruleOrder is the move order of rule name in c, written out.
func ruleOrder(c config.Canonical, name string) string {
	for _, r := range c.Rules {
		if r.Name == name {
			return r.Order
		}
	}
	return ""
}

// fittedOn reports whether a claim of c marked fitted reads rule from the
// start position start (a square label such as r0c0, or the class corner
// for the four corner positions).
func fittedOn(c config.Canonical, rule, start string) bool {
	for _, cl := range c.Claims {
		if cl.Rule == rule && cl.Fitted && (cl.Target == start || cl.Target == "corner" && isCornerLabel(start)) {
			return true
		}
	}
	return false
}

func isCornerLabel(s string) bool {
	return s == "r0c0" || s == "r0cN" || s == "rNc0" || s == "rNcN"
}

// canonicalMoves is sim.CanonicalMoves as manifests write orders.
func canonicalMoves() string {
	parts := make([]string, len(sim.CanonicalMoves))
	for i, m := range sim.CanonicalMoves {
		parts[i] = fmt.Sprintf("(%d,%d)", m.DR, m.DC)
	}
	return strings.Join(parts, " ")
}

// cornerName writes a start position of every board size (r0c0, rNcN)
// as a reader names it: the corners by where they lie, with their names on
// 8×8; other positions as they are.
func cornerName(label string) string {
	switch label {
	case "r0c0":
		return "a1 (bottom left)"
	case "r0cN":
		return "bottom right (h1 on 8×8)"
	case "rNc0":
		return "top left (a8 on 8×8)"
	case "rNcN":
		return "top right (h8 on 8×8)"
	}
	return label
}

// failureSummary states a strip's two quantities under test: how many
// sizes fail, and the first that does.
func failureSummary(r plots.SweepRow) string {
	if len(r.Failing) == 0 {
		return fmt.Sprintf("no failure in %d sizes", len(r.Swept))
	}
	return fmt.Sprintf("%d of %d fail, first n = %g", len(r.Failing), len(r.Swept), slices.Min(r.Failing))
}

// sweepCaption states, per strip, the sizes swept, how many fail and the
// first that does; then each move order other than the canonical one,
// written out, and why a fitted one was chosen.
func sweepCaption(rows []plots.SweepRow, labels []sweepLabel, srcs []sweepSource) string {
	var parts []string
	for i, r := range rows {
		first := "none fails"
		if len(r.Failing) > 0 {
			first = fmt.Sprintf("first failure at n = %g", slices.Min(r.Failing))
		}
		parts = append(parts, fmt.Sprintf("%s: %d of %d sizes (n = %g…%g) fail, %s", labels[i].plain, len(r.Failing), len(r.Swept),
			slices.Min(r.Swept), slices.Max(r.Swept), first))
	}
	s := "Board sizes n where one deterministic walk from each start fails to tour the n×n board; " +
		"a bracket spans failing sizes too close to draw apart and its number counts them. " + strings.Join(parts, "; ") + "."
	var seen []string
	for _, l := range labels {
		if l.ord == "canonical order" || slices.Contains(seen, l.ord) {
			continue
		}
		seen = append(seen, l.ord)
		s += fmt.Sprintf(" The %s breaks the ties left by the rule in the move order %s", l.ord, l.order)
		if why := fittedWhy(srcs[l.src].m.Config); strings.HasPrefix(l.ord, "fitted") && why != "" {
			s += ", fitted: " + why + "; its rows are not independent support"
		}
		s += "."
	}
	if len(seen) > 0 && slices.ContainsFunc(labels, func(l sweepLabel) bool { return l.ord == "canonical order" }) {
		s += " The canonical order is " + canonicalMoves() + "."
	}
	return s
}

// fittedWhy is the reason the first fitted claim of c gives.
func fittedWhy(c config.Canonical) string {
	for _, cl := range c.Claims {
		if cl.Fitted {
			return cl.Why
		}
	}
	return ""
}
