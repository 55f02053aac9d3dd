package config

import (
	"strings"
	"testing"
)

// TestParseFigureOptions: a figure options file holds what an experiment
// file holds under outputs.figure_options, validated as it is against the
// experiment, with its errors at the file's own lines and keys.
func TestParseFigureOptions(t *testing.T) {
	base := mustParse(t, "name: x\nboards: [5x5, 6x6]\nwalks: 20\nrules: [{name: warnsdorff}]\n")
	o, err := ParseFigureOptions("opts.yaml", []byte(`heatmap: {scale: log}
size_curve:
  references:
    - {rule: warnsdorff, n: 8, rate: 0.99, source: ganzfried-2004-n8}
walk: 3
`), base)
	if err != nil {
		t.Fatal(err)
	}
	if o == nil || o.Heatmap.Scale != "log" || o.Walk != 3 || len(o.SizeCurve.References) != 1 || o.SizeCurve.References[0].Rule != "warnsdorff/random" {
		t.Fatalf("options = %+v", o)
	}
	if o, err := ParseFigureOptions("opts.yaml", nil, base); o != nil || err != nil {
		t.Errorf("empty file: %+v, %v; want the defaults", o, err)
	}
	for _, c := range []struct{ text, want string }{
		{"heatmap:\n  scael: log\n", "opts.yaml:2: heatmap.scael: unknown key (did you mean scale?); valid: metric, scale, range, failure_view, pool_symmetric"},
		{"heatmap: {scale: log}\nbogus: 1\n", "opts.yaml:2: bogus: unknown key; valid: heatmap, length_distribution, size_curve, walk"},
		{"size_curve:\n  references:\n    - {rule: warnsdorff, n: 8, rate: 0.99, source: Ganzfried 2004}\n", "opts.yaml:3: size_curve.references[0].source: \"Ganzfried 2004\" is words, not a source id"},
		{"size_curve:\n  references:\n    - {rule: random, n: 8, rate: 0.99, source: ganzfried-2004-n8}\n", "opts.yaml:3: size_curve.references[0].rule: \"random\" is not one of this experiment's rules; valid: warnsdorff/random"},
		{"walk: 20\n", "opts.yaml:1: walk: 20 is not a walk of this run: it makes walks 0 to 19"},
		{"walk: 1.5\n", "opts.yaml:1: walk: "},
		{"walk: -1\n", "opts.yaml:1: walk: "},
		{"outputs:\n  figure_options: {walk: 1}\n", "opts.yaml:1: outputs: a figure options file holds the options themselves"},
		{"[1, 2]\n", "opts.yaml:1: want a mapping with keys heatmap"},
		{"heatmap: {scale: [\n", "opts.yaml:"},
	} {
		_, err := ParseFigureOptions("opts.yaml", []byte(c.text), base)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v\nwant it to hold %q", c.text, err, c.want)
		}
	}
}

// TestFigureOptionWalk: an experiment file's walk figure option is one of
// the walks the run makes, a whole number, and kept in the manifest.
func TestFigureOptionWalk(t *testing.T) {
	base := "name: x\nboards: [5x5]\nwalks: 10\nrules: [{name: random}]\n"
	if o := mustParse(t, base+"outputs: {figure_options: {walk: 9}}\n").canonical().Outputs.FigureOptions; o == nil || o.Walk != 9 {
		t.Errorf("walk: 9 recorded as %+v", o)
	}
	for text, want := range map[string]string{
		"outputs:\n  figure_options:\n    walk: 10\n":  "test.yaml:7: outputs.figure_options.walk: 10 is not a walk of this run: it makes walks 0 to 9",
		"outputs:\n  figure_options:\n    walk: 2.5\n": "test.yaml:7: outputs.figure_options.walk: want a whole number, not 2.5",
	} {
		_, err := Parse("test.yaml", []byte(base+text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
}
