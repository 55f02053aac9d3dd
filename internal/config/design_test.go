package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

func TestOrderFamilies(t *testing.T) {
	all := familyOrders("all")
	if len(all) != 40320 || len(all) != orderFamilySize["all"] {
		t.Fatalf("all: %d orders", len(all))
	}
	seen := map[string]bool{}
	for _, o := range all {
		if _, err := sim.ParseOrder(OrderString(o)); err != nil {
			t.Fatalf("%v: %v", o, err)
		}
		seen[OrderString(o)] = true
	}
	if len(seen) != 40320 {
		t.Errorf("all: %d distinct orders", len(seen))
	}
	rev := slices.Clone(sim.CanonicalMoves[:])
	slices.Reverse(rev)
	if !slices.Equal(all[0], sim.CanonicalMoves[:]) || !slices.Equal(all[40319], rev) {
		t.Errorf("all: first %v, last %v; want the canonical order and its reverse", all[0], all[40319])
	}
	rot := familyOrders("rotations")
	if len(rot) != 8 || !slices.Equal(rot[0], sim.CanonicalMoves[:]) || rot[3][0] != sim.CanonicalMoves[3] || rot[3][7] != sim.CanonicalMoves[2] {
		t.Errorf("rotations: %v", rot)
	}
	// natural: the rotations, the circle the other way round (each order
	// a rotation of the reversed canonical order), and the moves sorted
	// by their steps, 24 distinct orders
	nat := familyOrders("natural")
	if len(nat) != orderFamilySize["natural"] || len(nat) != 24 {
		t.Fatalf("natural: %d orders", len(nat))
	}
	distinct := map[string]bool{}
	for _, o := range nat {
		distinct[OrderString(o)] = true
	}
	if len(distinct) != 24 {
		t.Errorf("natural: %d distinct orders", len(distinct))
	}
	for i, o := range nat[:8] {
		if !slices.Equal(o, rot[i]) {
			t.Errorf("natural[%d] = %v, want rotation %v", i, o, rot[i])
		}
	}
	isRotation := func(o, of []sim.Move) bool {
		for s := range 8 {
			if slices.Equal(o, append(slices.Clone(of[s:]), of[:s]...)) {
				return true
			}
		}
		return false
	}
	for _, o := range nat[8:16] {
		if !isRotation(o, rev) {
			t.Errorf("%v is not the circle the other way round", o)
		}
	}
	want := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	for j, o := range nat[16:] {
		rowsFirst, sign := j < 4, want[j%4]
		key := func(m sim.Move) [2]int {
			if rowsFirst {
				return [2]int{sign[0] * m.DR, sign[1] * m.DC}
			}
			return [2]int{sign[0] * m.DC, sign[1] * m.DR}
		}
		for i := 1; i < 8; i++ {
			a, b := key(o[i-1]), key(o[i])
			if a[0] > b[0] || a[0] == b[0] && a[1] >= b[1] {
				t.Errorf("lexicographic order %d %v: %v before %v", j, o, o[i-1], o[i])
			}
		}
	}
	if nat[16][0] != (sim.Move{DR: -2, DC: -1}) || nat[20][0] != (sim.Move{DR: -1, DC: -2}) {
		t.Errorf("lexicographic orders start %v, %v", nat[16][0], nat[20][0])
	}
}

// TestDesignCells: a design entry stands for every combination of its
// lists, tie_break outermost, node_budget innermost, each cell the rule a
// plain entry with its values resolves to.
func TestDesignCells(t *testing.T) {
	c := mustParse(t, `name: d
boards: [6x6]
walks: 1
rules:
  - {name: warnsdorff, tie_break: [first, roth+first], order: rotations, max_steps: [0, 20]}
  - {name: random, max_steps: [5, 10]}
  - {name: warnsdorff, tie_break: first, order: "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"}
`)
	rules := c.ruleList()
	if len(rules) != 2*8*2+2+1 || c.ruleCount() != float64(len(rules)) {
		t.Fatalf("%d rules, counted %v", len(rules), c.ruleCount())
	}
	rot := familyOrders("rotations")
	for i, r := range rules[:32] {
		tb, o, ms := i/16, i/2%8, i%2
		want := []string{"warnsdorff/first", "warnsdorff/roth+first"}[tb]
		order := r.Order
		if order == nil {
			order = sim.CanonicalMoves[:]
		}
		if r.Name() != want || !slices.Equal(order, rot[o]) || r.MaxSteps != []int{0, 20}[ms] {
			t.Errorf("cell %d: %s order %v max_steps %d; want %s, rotation %d, max_steps %d", i, r.Name(), order, r.MaxSteps, want, o, []int{0, 20}[ms])
		}
	}
	if rules[32].Name() != "random" || rules[32].MaxSteps != 5 || rules[33].MaxSteps != 10 {
		t.Errorf("random cells: %+v %+v", rules[32], rules[33])
	}
	e, err := Resolve(c, "d.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Spec names each design as rule_spec names a rule, its factors in braces.
	want := []Design{{Key: "rules[0]", Rule: "warnsdorff", Spec: "warnsdorff;tie_break={first,roth+first};order=rotations;max_steps={0,20}", First: 0, N: 32},
		{Key: "rules[1]", Rule: "random", Spec: "random;max_steps={5,10}", First: 32, N: 2}}
	if !slices.Equal(e.Designs, want) {
		t.Errorf("designs %+v, want %+v", e.Designs, want)
	}
	// The canonical form records the design as written, not its cells.
	cn := c.canonical()
	if len(cn.Rules) != 3 || cn.Rules[0].Design == nil || cn.Rules[2].Design != nil {
		t.Errorf("canonical rules: %+v", cn.Rules)
	}
	back, err := FromCanonical("manifest.json", cn)
	if err != nil || back.Hash() != c.Hash() {
		t.Errorf("round trip: %v", err)
	}
}

// TestDesignHashUnchanged: a file without designs hashes as before, and a
// one-value list is a design of one cell (its own canonical form).
func TestDesignHashUnchanged(t *testing.T) {
	plain := mustParse(t, "name: h\nboards: [8x8]\nrules: [{name: random, max_steps: 6}]\n")
	list := mustParse(t, "name: h\nboards: [8x8]\nrules: [{name: random, max_steps: [6]}]\n")
	if plain.Hash() == list.Hash() {
		t.Error("a design of one cell hashes as the plain rule; want its own canonical form")
	}
	a, b := plain.ruleList(), list.ruleList()
	if len(a) != 1 || len(b) != 1 || a[0].Name() != b[0].Name() || a[0].MaxSteps != b[0].MaxSteps {
		t.Errorf("cells %+v, plain %+v", b, a)
	}
}

// TestDesignBudget: a design past the cell budget is refused, naming its
// size, without listing its cells (fast, whatever its size).
func TestDesignBudget(t *testing.T) {
	var tbs []string
	for _, t := range []string{"first", "pohl+first", "roth+first", "corner+first", "edge+first", "lookahead2+first", "lookahead3+first"} {
		tbs = append(tbs, t)
	}
	y := fmt.Sprintf("name: b\nboards: [8x8, 10x10]\nwalks: 1\nrules:\n  - {name: warnsdorff, tie_break: [%s], order: all, max_steps: [0, 10, 20, 30]}\n", strings.Join(tbs, ", "))
	start := time.Now()
	_, err := Parse("b.yaml", []byte(y))
	if err == nil || !strings.Contains(err.Error(), "b.yaml:3: starts: 0 start squares") && !strings.Contains(err.Error(), "rules[0] a design of 1128960") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "at most 4 GiB") {
		t.Errorf("no budget in %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
}

// TestDesignMemoryBudget: a design (more than MaxReportRules rules, a
// fixed number of walks) streams its rows, so its cells are bounded by
// their memory, not by MaxCells: every move order from every square of
// 8x8 (2,580,480 cells of one walk) passes, with walks: 1 or with the
// default walks (a deterministic rule walks once); a design of 307,200
// cells of a random rule on 32x32, each holding a tally of 16 kB, and the
// sequential Marateck design, held to MaxCells, are refused, naming their
// size and budget.
func TestDesignMemoryBudget(t *testing.T) {
	for _, walks := range []string{"walks: 1\n", ""} {
		mustParse(t, "name: m\nboards: [8x8]\nstarts: all\n"+walks+"rules: [{name: warnsdorff, tie_break: first, order: all}]\n")
	}
	for _, c := range []struct{ yaml, want string }{
		{"name: m\nboards: [32x32]\nstarts: all\nwalks: 2\nrules: [{name: random, max_steps: [%s]}]\n", "307200 start squares to run (1 boards × up to 1024 starts × 300 rules: rules[0] a design of 300) would hold about 5.0 GiB; at most 4 GiB"},
		{"name: m\nboards: [8x8]\nstarts: all\nwalks: {until: 0.01, max: 10}\nrules: [{name: warnsdorff, tie_break: first, order: all}]\n", "at most 1000000"},
	} {
		y := c.yaml
		if strings.Contains(y, "%s") {
			var steps []string
			for i := range 300 {
				steps = append(steps, fmt.Sprint(i+1))
			}
			y = fmt.Sprintf(y, strings.Join(steps, ", "))
		}
		if _, err := Parse("m.yaml", []byte(y)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80s: %v; want %q", y, err, c.want)
		}
	}
}

// TestDesignDistinctSpecs: entries that share a name are distinct rules
// where a parameter differs, refused where they are the same rule.
func TestDesignDistinctSpecs(t *testing.T) {
	mustParse(t, `name: s
boards: [8x8]
walks: 1
rules:
  - {name: warnsdorff, tie_break: first}
  - {name: warnsdorff, tie_break: first, order: "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"}
  - {name: random}
  - {name: random, max_steps: 10}
`)
	for _, c := range []struct{ yaml, want string }{
		{"  - {name: warnsdorff, tie_break: first}\n  - {name: warnsdorff, tie_break: first, order: \"(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)\"}\n", "rules[1]: rule warnsdorff/first;order=(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1) again"},
		{"  - {name: warnsdorff, tie_break: first, order: rotations}\n  - {name: warnsdorff, tie_break: first}\n", "rules[1]: rule warnsdorff/first;order=(2,1)"},
		{"  - {name: random, max_steps: [5, 5]}\n", "rules[0].max_steps[1]: 5 again (max_steps[0])"},
		{"  - {name: warnsdorff, tie_break: [first, random], order: rotations}\n", "rules[0].order: a move order applies only"},
		{"  - {name: warnsdorff, tie_break: first, order: [all, rotations]}\n", "rules[0].order: all already holds every order"},
		{"  - {name: warnsdorff, tie_break: first, order: []}\n", "rules[0].order: an empty list"},
		{"  - {name: warnsdorff, tie_break: first, order: [\"(2,1)\"]}\n", "rules[0].order[0]: move order has 1 moves"},
		{"  - {name: random, max_steps: [5, -1]}\n", "rules[0].max_steps[1]: -1 is out of range"},
		{"  - {name: warnsdorff, tie_break: [first, bogus]}\n", "rules[0].tie_break[1]:"},
	} {
		_, err := Parse("s.yaml", []byte("name: s\nboards: [8x8]\nwalks: 1\nrules:\n"+c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.yaml, err, c.want)
		}
	}
	// A claim cannot name a rule that several cells share.
	_, err := Parse("c.yaml", []byte("name: c\nboards: [8x8]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: first, order: rotations}]\nclaims: [{id: x, rule: warnsdorff/first, class: corner, above: 0.5}]\n"))
	if err == nil || !strings.Contains(err.Error(), "claims[0].rule: warnsdorff/first names 8 rules") {
		t.Errorf("claim on a design: %v", err)
	}
}

// TestDesignEmptyListEveryWalks: every parameter a design lists, given as
// an empty list, is refused by name under any number of walks and in a
// sieve; max_steps: [] and node_budget: [] panicked (index out of range,
// counting the cells of one walk) unless walks was 1.
func TestDesignEmptyListEveryWalks(t *testing.T) {
	for _, key := range designKeys {
		for _, head := range []string{
			"boards: [8x8]\nwalks: 1\n",
			"boards: [8x8]\nwalks: 10\n",
			"boards: [8x8]\n",
			"boards: [8x8]\nstarts: [a1]\nwalks: {until: 0.01, max: 10}\n",
			"boards: [{sizes: \"5..6\", keep: succeeds}]\nstarts: [a1]\nwalks: 1\n",
		} {
			for _, rule := range []string{"warnsdorff", "random", "backtrack"} {
				y := fmt.Sprintf("name: s\n%srules: [{name: %s, %s: []}]\n", head, rule, key)
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Errorf("%q: panicked: %v", y, p)
						}
					}()
					_, err := Parse("s.yaml", []byte(y))
					if want := "rules[0]." + key + ": an empty list"; err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%q: got %v, want %q", y, err, want)
					}
				}()
			}
		}
	}
}
