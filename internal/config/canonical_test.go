package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/sim"
)

// TestFromCanonicalRoundTrip: every committed experiment's resolved
// configuration, as manifests store it, turns back into a configuration
// with the same canonical form and hash, so re-running it writes the same
// tables.
func TestFromCanonicalRoundTrip(t *testing.T) {
	for _, name := range experiments.Names() {
		data, _ := experiments.Lookup(name)
		c, err := Parse(name+".yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		// c.canonical() is Resolve's Config, without building every board
		back, err := FromCanonical("manifest.json", c.canonical())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if back.Hash() != c.Hash() {
			t.Errorf("%s: hash %s, want %s", name, back.Hash(), c.Hash())
		}
	}
	// A splitting rule and a half_width run, which no embedded experiment has.
	for _, y := range []string{
		"name: s\nboards: [6x6]\nwalks: 50\nrules: [{name: random, estimator: splitting, particles: 300}, {name: warnsdorff}]\n",
		"name: h\nboards: [6x6]\nwalks: {until: half_width, half_width: 0.01, max: 5000}\nrules: [{name: warnsdorff}]\n",
		// claims quantified over their squares, every one or a share
		"name: e\nboards: [6x6, 7x7]\nwalks: 50\nrules: [{name: warnsdorff}]\nclaims:\n  - {rule: warnsdorff/random, class: all, each: square, above: 0.5, source: x}\n  - {rule: warnsdorff/random, class: corner, each: square, share: 0.5, below: 0.9, source: x}\n",
		// move orders by n mod 8, and the literature's rules
		"name: o\nboards: [{sizes: 8..12}]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: lookahead3+first, order_by_n_mod_8: {3: \"(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)\"}}, {name: squirrel-cull}]\n",
	} {
		c, err := Parse("x.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		back, err := FromCanonical("manifest.json", c.canonical())
		if err != nil {
			t.Errorf("%q: %v", y, err)
		} else if back.Hash() != c.Hash() {
			t.Errorf("%q: hash %s, want %s", y, back.Hash(), c.Hash())
		}
	}
}

// TestFromCanonicalRefuses: an edited or foreign canonical form is refused
// naming the file, not run as something else.
func TestFromCanonicalRefuses(t *testing.T) {
	data, _ := experiments.Lookup("example")
	c, err := Parse("example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	cn := c.canonical()
	for what, edit := range map[string]func(*Canonical){
		"format 2":           func(cn *Canonical) { cn.Format = 2 },
		"walks: 0 is out of": func(cn *Canonical) { cn.Walks = 0 },
		"claims[0]: statement": func(cn *Canonical) {
			cn.Claims[0].Values = nil
		},
		"not one an experiment file resolves to": func(cn *Canonical) { cn.Rules[0].Order = "" },
	} {
		var cp Canonical
		b, _ := json.Marshal(cn)
		json.Unmarshal(b, &cp)
		edit(&cp)
		_, err := FromCanonical("m.json", cp)
		if err == nil || !strings.Contains(err.Error(), "m.json") || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: err = %v", what, err)
		}
	}
}

// A figure option set alone survives into the manifest's canonical form,
// from which `experiment plot` draws.
func TestPoolSymmetricInCanonical(t *testing.T) {
	c, err := Parse("x.yaml", []byte("name: x\nboards: [8x8]\nrules: [{name: warnsdorff}]\noutputs:\n  figure_options:\n    heatmap: {pool_symmetric: \"off\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromCanonical("manifest.json", c.canonical())
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Outputs.FigureOptions.Heatmap.PoolSymmetric; got != "off" {
		t.Errorf("pool_symmetric after the manifest: %q, want off", got)
	}
}

// TestOrderByNResolves: order_by_n_mod_8 reaches the rule, changes the hash
// (a different rule) and leaves configurations without it as they were.
func TestOrderByNResolves(t *testing.T) {
	base := "name: o\nboards: [{sizes: 8..12}]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: first%s}]\n"
	plain, err := Parse("o.yaml", []byte(fmt.Sprintf(base, "")))
	if err != nil {
		t.Fatal(err)
	}
	by, err := Parse("o.yaml", []byte(fmt.Sprintf(base, `, order_by_n_mod_8: {3: "(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)"}`)))
	if err != nil {
		t.Fatal(err)
	}
	r := by.ruleList()[0]
	if r.OrdersMod8[3] == nil || r.OrdersMod8[3][0] != (sim.Move{DR: 2, DC: -1}) || r.OrdersMod8[4] != nil {
		t.Errorf("orders: %v", r.OrdersMod8)
	}
	if plain.Hash() == by.Hash() {
		t.Error("the orders by n mod 8 do not change the hash")
	}
	if j, _ := json.Marshal(plain.canonical()); strings.Contains(string(j), "order_by_n_mod_8") {
		t.Errorf("a rule without orders by n mod 8 writes the key: %s", j)
	}
}
