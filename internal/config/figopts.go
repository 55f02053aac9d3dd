package config

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// FigureOptions is outputs.figure_options: how the figures are drawn. It
// changes no table, so it is left out of the config hash (a run may be
// resumed or merged after restyling its figures) but written into the
// manifest, from which `experiment plot` draws.
type FigureOptions struct {
	Heatmap   HeatmapOptions   `yaml:"heatmap" json:"heatmap"`
	Lengths   LengthOptions    `yaml:"length_distribution" json:"length_distribution"`
	SizeCurve SizeCurveOptions `yaml:"size_curve" json:"size_curve"`
	// Walk is the walk the walk figure replays from the seed: walk index
	// W of (board, rule, its first start square), the walk `experiment
	// tour --walk W` prints and row W of the walks table (default 0).
	Walk uint64 `yaml:"walk" json:"walk,omitempty"`
}

// HeatmapOptions style the success and closed-tour heatmaps.
type HeatmapOptions struct {
	// Metric of success-heatmap: auto (the success rate, or the mean path
	// length for a rule whose pooled success rate is under 1 % and has no
	// exact values, where every square would read 0), success or
	// mean-length.
	Metric string `yaml:"metric" json:"metric,omitempty"`
	// Scale of the colours: auto (linear; log in the failure view),
	// linear or log.
	Scale string `yaml:"scale" json:"scale,omitempty"`
	// Range fixes the colour scale to [lo, hi], in the units drawn (a
	// fraction for rates, the failure rate in the failure view); empty
	// takes the data's range.
	Range []float64 `yaml:"range" json:"range,omitempty"`
	// FailureView also draws the failure rate (1 − success) on a log
	// scale: auto (for rules with a pooled success rate of 90 % or more
	// and some failures), on or off.
	FailureView string `yaml:"failure_view" json:"failure_view,omitempty"`
	// PoolSymmetric, for maps of estimates: auto (pool the walks of the
	// squares equal under the board's symmetry when the rule is
	// symmetric, i.e. draws every choice at random) or off (each square
	// its own walks). Exact values are never pooled: they are equal.
	PoolSymmetric string `yaml:"pool_symmetric" json:"pool_symmetric,omitempty"`
}

// LengthOptions style the path-length distributions.
type LengthOptions struct {
	LogY    string   `yaml:"log_y" json:"log_y,omitempty"`     // auto, on or off
	Classes []string `yaml:"classes" json:"classes,omitempty"` // start classes drawn; empty: every class run
}

// SizeCurveOptions style the size curve and carry the published values it
// is held against.
type SizeCurveOptions struct {
	// Classes are the lines per rule: start classes and "all" (every start
	// run). Empty: the classes run, and "all" when there is more than one.
	Classes []string `yaml:"classes" json:"classes,omitempty"`
	// Parity on odd boards, where only squares of the corners' colour can
	// start an open tour: class (default) pools every square of a class,
	// both colours, as the classes and boards tables do; tour-colour pools
	// only the corners' colour into the classes of both colours; split
	// draws those classes once per colour.
	Parity     string      `yaml:"parity" json:"parity,omitempty"`
	References []Reference `yaml:"references" json:"references,omitempty"`
}

// Reference is one published success rate of a rule against board size:
// at n (or every n from N to NMax), Rate, AtLeast or Below.
type Reference struct {
	Rule    string   `yaml:"rule" json:"rule"` // a rule of the experiment
	Source  string   `yaml:"source" json:"source"`
	N       int      `yaml:"n" json:"n"`
	NMax    int      `yaml:"n_max" json:"n_max,omitempty"`
	Rate    *float64 `yaml:"rate" json:"rate,omitempty"`
	AtLeast *float64 `yaml:"at_least" json:"at_least,omitempty"`
	Below   *float64 `yaml:"below" json:"below,omitempty"`
	// Most: the bound holds on most sizes of the range, not on each
	// ("over 85 % on most boards with n < 50"); the legend says so.
	Most bool `yaml:"most" json:"most,omitempty"`
}

// Valid values of the figure options.
var (
	HeatmapMetrics = []string{"auto", "success", "mean-length"}
	HeatmapScales  = []string{"auto", "linear", "log"}
	Switches       = []string{"auto", "on", "off"}
	PoolModes      = []string{"auto", "off"}
	ParityModes    = []string{"class", "tour-colour", "split"}
	// CurveClasses are the lines a size curve may draw: the start
	// classes and every start together.
	CurveClasses = []string{"corner", "edge", "centre", "interior", "all"}
)

// checkFigureOptions validates outputs.figure_options against the rules of
// the experiment.
func (c *Config) checkFigureOptions(k *checker, ruleNames []string) {
	const key = "outputs.figure_options"
	o := c.Outputs.FigureOptions
	oneOf(k, key+".heatmap.metric", o.Heatmap.Metric, HeatmapMetrics)
	oneOf(k, key+".heatmap.scale", o.Heatmap.Scale, HeatmapScales)
	oneOf(k, key+".heatmap.failure_view", o.Heatmap.FailureView, Switches)
	oneOf(k, key+".heatmap.pool_symmetric", o.Heatmap.PoolSymmetric, PoolModes)
	if r := o.Heatmap.Range; r != nil {
		switch {
		case len(r) != 2:
			k.errorf(key+".heatmap.range", "want two values [lo, hi], e.g. [0, 1], not %d", len(r))
		case !finite(r[0]) || !finite(r[1]) || r[0] >= r[1]:
			k.errorf(key+".heatmap.range", "[%v, %v] is empty; want finite lo < hi", r[0], r[1])
		case r[0] <= 0 && o.Heatmap.Scale == "log":
			k.errorf(key+".heatmap.range", "a log scale needs lo > 0, not %v", r[0])
		}
	}
	oneOf(k, key+".length_distribution.log_y", o.Lengths.LogY, Switches)
	classList(k, key+".length_distribution.classes", o.Lengths.Classes, CurveClasses[:4])
	classList(k, key+".size_curve.classes", o.SizeCurve.Classes, CurveClasses)
	oneOf(k, key+".size_curve.parity", o.SizeCurve.Parity, ParityModes)
	for i, r := range o.SizeCurve.References {
		c.checkReference(k, fmt.Sprintf("%s.size_curve.references[%d]", key, i), r, ruleNames)
	}
	c.checkReferenceSegments(k, key+".size_curve.references", o.SizeCurve.References)
	if c.Walks >= 1 && o.Walk >= uint64(c.Walks) {
		k.errorf(key+".walk", "%d is not a walk of this run: it makes walks 0 to %d per start square (walks: %d); the walk figure replays one of them", o.Walk, c.Walks-1, c.Walks)
	}
}

// checkReferenceSegments holds the reference lines of a statement whose
// source states its sizes (sources.yaml sizes, except) to that encoding:
// each line lies within one run of the sizes Publication.Segments gives
// (a figure may draw part of a statement, never across a size it
// excepts or beyond its range), as the claims on it read them.
func (c *Config) checkReferenceSegments(k *checker, key string, refs []Reference) {
	type group struct{ rule, source string }
	lines := map[group][][2]int{} // per rule and source, its lines' sizes
	first := map[group]int{}
	var order []group
	for i, r := range refs {
		p, ok := c.publication(r.Source)
		if !ok || p.Sizes == "" || r.Rate != nil {
			continue
		}
		g := group{r.Rule, r.Source}
		if _, seen := first[g]; !seen {
			first[g] = i
			order = append(order, g)
		}
		lines[g] = append(lines[g], [2]int{r.N, max(r.N, r.NMax)})
	}
	for _, g := range order {
		p, _ := c.publication(g.source)
		runs, _ := p.Segments()
		for _, l := range lines[g] {
			if !slices.ContainsFunc(runs, func(r [2]int) bool { return r[0] <= l[0] && l[1] <= r[1] }) {
				k.errorf(fmt.Sprintf("%s[%d]", key, first[g]), "a line of %s for %s covers %d..%d, but the source states sizes %s%s, i.e. the runs %v; one statement has one encoding: draw lines within those runs",
					g.source, g.rule, l[0], l[1], p.Sizes, exceptText(p.Except), runs)
				break
			}
		}
	}
}

func (c *Config) checkReference(k *checker, key string, r Reference, ruleNames []string) {
	switch p, err := sim.ParseRule(r.Rule); {
	case c.partial("rules"):
	case r.Rule == "":
		k.errorf(key+".rule", "missing; valid: %s", strings.Join(ruleNames, ", "))
	case err != nil || !slices.Contains(ruleNames, p.Name()):
		k.errorf(key+".rule", "%q is not one of this experiment's rules; valid: %s", r.Rule, strings.Join(ruleNames, ", "))
	}
	c.checkReferenceSource(k, key+".source", r.Source)
	if r.N < 1 || r.N > math.MaxInt32 {
		k.errorf(key+".n", "%d is out of range; want the board size n ≥ 1 of an n×n board", r.N)
	}
	if r.NMax != 0 && r.NMax < r.N {
		k.errorf(key+".n_max", "%d is below n = %d; want n_max ≥ n (or no n_max for one size)", r.NMax, r.N)
	}
	var set []string
	for _, v := range []struct {
		name string
		p    *float64
	}{{"rate", r.Rate}, {"at_least", r.AtLeast}, {"below", r.Below}} {
		if v.p == nil {
			continue
		}
		set = append(set, v.name)
		if !(*v.p >= 0 && *v.p <= 1) {
			k.errorf(key+"."+v.name, "%v is not a rate; want a value from 0 to 1", *v.p)
		}
	}
	if len(set) != 1 {
		k.errorf(key, "%s; want exactly one of rate, at_least, below", orNone(set))
	}
	if r.Most && (r.NMax <= r.N || r.Rate != nil) {
		k.errorf(key+".most", "most needs a range of sizes (n_max above n) and at_least or below: it says the bound holds on most of them")
	}
}

// checkReferenceSource holds a reference's source to an id of
// experiments/sources.yaml: a published value is written there once (who,
// where, the words), and the legend is made from it. Free text, which
// repeated the file and credited values to the wrong paper, is refused.
func (c *Config) checkReferenceSource(k *checker, key, src string) {
	if _, ok := c.publication(src); ok {
		return
	}
	var ids []string
	for _, p := range c.allSources() {
		ids = append(ids, p.ID)
	}
	what := "missing"
	switch {
	case strings.TrimSpace(src) == "":
	case !IsSourceID(src):
		what = fmt.Sprintf("%q is words, not a source id (free text is no longer accepted: the legend is made from the statement's entry)", src)
	default:
		what = fmt.Sprintf("%q is not a source id", src)
		if g := guess(src, ids); g != "" {
			what += fmt.Sprintf(" (did you mean %s?)", g)
		}
	}
	k.errorf(key, "%s; want the id of the published statement in experiments/sources.yaml; valid: %s", what, strings.Join(ids, ", "))
}

// Cite names a statement's authors and year for a legend, and where we
// read it when not in the original: "Squirrel & Cull (1996) via Ganzfried
// (2004)", "Roth via Ganzfried (2004)".
func (p Publication) Cite() string {
	who := p.Authors
	if a, b, ok := strings.Cut(who, " and "); ok {
		who = lastName(a) + " & " + lastName(b)
	} else {
		who = lastName(who)
	}
	if p.Year != 0 {
		who += fmt.Sprintf(" (%d)", p.Year)
	}
	if p.Via != "" {
		via, _, _ := strings.Cut(p.Via, ", p.")
		who += " via " + via
	}
	return who
}

func orNone(set []string) string {
	if len(set) == 0 {
		return "no value"
	}
	return strings.Join(set, " and ")
}

// oneOf reports v unless it is empty (the default) or in valid.
func oneOf(k *checker, key, v string, valid []string) {
	if v != "" && !slices.Contains(valid, v) {
		k.errorf(key, "%q is not valid; valid: %s", v, strings.Join(valid, ", "))
	}
}

// classList reports items that are not in valid, and repeats.
func classList(k *checker, key string, items, valid []string) {
	norm := centre(items)
	for i, s := range norm {
		ik := fmt.Sprintf("%s[%d]", key, i)
		switch {
		case !slices.Contains(valid, s):
			k.errorf(ik, "%q is not valid; valid: %s", items[i], strings.Join(valid, ", "))
		case slices.Contains(norm[:i], s):
			k.errorf(ik, "%s again", s)
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// canonicalFigureOptions returns the options as the manifest records them
// (class spellings and rule names resolved), or nil when none are set.
func (c *Config) canonicalFigureOptions() *FigureOptions {
	o := c.Outputs.FigureOptions
	if o.Heatmap.Metric == "" && o.Heatmap.Scale == "" && o.Heatmap.Range == nil && o.Heatmap.FailureView == "" && o.Heatmap.PoolSymmetric == "" &&
		o.Lengths.LogY == "" && o.Lengths.Classes == nil && o.SizeCurve.Classes == nil && o.SizeCurve.Parity == "" &&
		o.SizeCurve.References == nil && o.Walk == 0 {
		return nil
	}
	o.Lengths.Classes = centre(o.Lengths.Classes)
	o.SizeCurve.Classes = centre(o.SizeCurve.Classes)
	refs := make([]Reference, len(o.SizeCurve.References))
	for i, r := range o.SizeCurve.References {
		if p, err := sim.ParseRule(r.Rule); err == nil {
			r.Rule = p.Name()
		}
		refs[i] = r
	}
	if len(refs) > 0 {
		o.SizeCurve.References = refs
	}
	return &o
}

// centre spells "center" as the class names do.
func centre(list []string) []string {
	if list == nil {
		return nil
	}
	out := slices.Clone(list)
	for i, s := range out {
		if s == "center" {
			out[i] = "centre"
		}
	}
	return out
}
