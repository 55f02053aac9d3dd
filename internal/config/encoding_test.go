package config

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestStatementEncoding: a statement about a range of sizes has one
// encoding, its source's sizes and except; a claim on it must read them
// so (Ganzfried's "every n ≤ 25 except 7" used to be read as any 20 of 21
// sizes), and a size curve's reference lines must draw its runs.
func TestStatementEncoding(t *testing.T) {
	p, _ := LookupSource("ganzfried-2004-pohl-to-50")
	if runs, ok := p.Segments(); !ok || !slices.Equal(runs, [][2]int{{5, 7}, {9, 50}}) {
		t.Errorf("pohl-to-50 segments %v %v, want [[5 7] [9 50]]", runs, ok)
	}
	base := "name: x\nboards: [{sizes: 5..25}]\nstarts: [a1]\nwalks: 10\nrules: [{name: warnsdorff}]\n"
	for _, c := range []struct{ yaml, err string }{
		{"claims: [{id: g, rule: warnsdorff, square: a1, sizes: 5..25, range: [0.98, 1], share: 0.95, source: ganzfried-2004-98-to-25}]\n",
			"claims[0].sizes: sizes 5..25, but source ganzfried-2004-98-to-25 states sizes 5..25 except 7; one statement has one encoding: want sizes: 5..25, except: [7]"},
		{"claims: [{id: g, rule: warnsdorff, square: a1, sizes: 5..25, except: [7], range: [0.98, 1], share: 1, source: ganzfried-2004-98-to-25}]\n", ""},
		{"claims: [{id: g, rule: warnsdorff, square: a1, board: 20x20, above: 0.97, source: ganzfried-2004-pohl-to-50}]\n",
			"claims[0]: source ganzfried-2004-pohl-to-50 states sizes 5..50 except 8: a claim on it is tested over that range, not on one board"},
		{"claims: [{id: g, rule: warnsdorff, square: a1, sizes: 5..25, except: [30], range: [0.98, 1], share: 1}]\n",
			"claims[0].except: 30 is not in sizes 5..25"},
		{"claims: [{id: g, rule: warnsdorff, square: a1, board: 8x8, except: [7], range: [0.98, 1]}]\n",
			"claims[0].except: except goes with sizes"},
		{"outputs: {figure_options: {size_curve: {references: [{rule: warnsdorff, source: ganzfried-2004-98-to-25, n: 5, n_max: 25, at_least: 0.98}]}}}\n",
			"outputs.figure_options.size_curve.references[0]: a line of ganzfried-2004-98-to-25 for warnsdorff covers 5..25, but the source states sizes 5..25 except 7, i.e. the runs [[5 6] [8 25]]"},
		{"outputs: {figure_options: {size_curve: {references: [{rule: warnsdorff, source: ganzfried-2004-98-to-25, n: 8, n_max: 25, at_least: 0.98}]}}}\n", ""},
		{"outputs: {figure_options: {size_curve: {references: [{rule: warnsdorff, source: ganzfried-2004-98-to-25, n: 8, n_max: 25, at_least: 0.98}, {rule: warnsdorff, source: ganzfried-2004-98-to-25, n: 5, n_max: 6, at_least: 0.98}]}}}\n", ""},
	} {
		_, err := Parse("x.yaml", []byte(base+c.yaml))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.yaml, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v\nwant %s", c.yaml, err, c.err)
		}
	}
	// A claim with except survives the manifest: same boards, same hash.
	c, err := Parse("x.yaml", []byte(base+"claims: [{id: g, rule: warnsdorff, square: a1, sizes: 5..25, except: [7], range: [0.98, 1], share: 1, source: ganzfried-2004-98-to-25}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.canonical().Claims[0].Boards; len(got) != 20 || slices.Contains(got, "7x7") {
		t.Errorf("claim boards %v: want the 20 sizes but 7", got)
	}
	js, _ := json.Marshal(c.canonical())
	var cn Canonical
	json.Unmarshal(js, &cn)
	back, err := FromCanonical("m.json", cn)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != c.Hash() {
		t.Error("a claim with except hashes differently from its manifest")
	}
}

// TestClaimMargin: a claim may declare its own equivalence margin against
// its source's count; it decides in place of the source's, is part of the
// hash, and survives the manifest; elsewhere it is refused.
func TestClaimMargin(t *testing.T) {
	base := "name: x\nboards: [7x7]\nstarts: [a1]\nwalks: 10\nrules: [{name: warnsdorff}]\n"
	plain, err := Parse("x.yaml", []byte(base+"claims: [{id: g, rule: warnsdorff, square: a1, source: ganzfried-2004-n7}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("x.yaml", []byte(base+"claims: [{id: g, rule: warnsdorff, square: a1, source: ganzfried-2004-n7, margin: 0.05}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Resolve(c, "x.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := e.Checks[0].Published.EquivalenceMargin(0.05); m != 0.05 {
		t.Errorf("margin %v, want the claim's 0.05", m)
	}
	if src, _ := LookupSource("ganzfried-2004-n7"); src.Margin != nil {
		t.Error("the claim's margin leaked into the built-in source")
	}
	if c.Hash() == plain.Hash() {
		t.Error("the claim's margin is not part of the hash")
	}
	js, _ := json.Marshal(c.canonical())
	var cn Canonical
	json.Unmarshal(js, &cn)
	back, err := FromCanonical("m.json", cn)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != c.Hash() || back.Claims[0].Margin == nil || *back.Claims[0].Margin != 0.05 {
		t.Errorf("from the manifest: hash %s (want %s), margin %v", back.Hash(), c.Hash(), back.Claims[0].Margin)
	}
	for _, bad := range []string{
		"claims: [{id: g, rule: warnsdorff, square: a1, source: ganzfried-2004-n7, margin: 1.5}]\n",
		"claims: [{id: g, rule: warnsdorff, square: a1, above: 0.5, margin: 0.05}]\n",
	} {
		if _, err := Parse("x.yaml", []byte(base+bad)); err == nil || !strings.Contains(err.Error(), "claims[0].margin") {
			t.Errorf("%s: %v; want claims[0].margin refused", bad, err)
		}
	}
}
