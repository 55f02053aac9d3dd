package config

import "testing"

// Figure options restyle figures only: they must not change the hash (so a
// run can be resumed or merged after restyling) but must reach the
// manifest, from which `experiment plot` draws.
func TestFigureOptionsKeepHash(t *testing.T) {
	base := "name: x\nboards: [8x8]\nrules: [{name: warnsdorff}]\n"
	plain := mustParse(t, base)
	styled := mustParse(t, base+`outputs:
  figure_options:
    heatmap: {metric: mean-length, scale: log, range: [0.01, 1], failure_view: off}
    size_curve:
      classes: [center, all]
      references: [{rule: warnsdorff, source: squirrel-cull-1996-85-under-50, n: 5, n_max: 25, at_least: 0.98}]
`)
	if plain.Hash() != styled.Hash() {
		t.Errorf("figure options changed the hash")
	}
	if plain.canonical().Outputs.FigureOptions != nil {
		t.Errorf("no options written, but the manifest would record some")
	}
	o := styled.canonical().Outputs.FigureOptions
	if o == nil || o.Heatmap.Metric != "mean-length" || o.SizeCurve.Classes[0] != "centre" ||
		len(o.SizeCurve.References) != 1 || o.SizeCurve.References[0].Rule != "warnsdorff/random" ||
		*o.SizeCurve.References[0].AtLeast != 0.98 {
		t.Errorf("canonical figure options = %+v", o)
	}
}
