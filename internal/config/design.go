package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/knightwalk/knightwalk/sim"
)

// A rule entry is a design when it gives a list of values for one of its
// parameters (tie_break, order, max_steps, node_budget) or a family of move
// orders (order: all, order: rotations): it stands for every combination of
// the values, crossed like boards and starts, each combination (a cell) a
// rule of its own with its own rule_spec. The cells run in the order
// tie_break, order, max_steps, node_budget, the last varying fastest.
//
// A cell is the rule its parameters name, exactly as if written plainly:
// its random streams are keyed by the rule's name as every rule's are
// (docs/design.md, "Random streams"), so cells that differ only in
// max_steps or node_budget share their streams (common random numbers), as
// a rule with and without a step limit always have.

// OrderFamilies are the named families of move orders that order accepts,
// as its value or as an item of its list: all is every permutation of the
// 8 moves, rotations the 8 rotations of the move circle, natural the 24
// orders a person writes down (familyOrders).
var OrderFamilies = []string{"all", "rotations", "natural"}

// orderFamilySize is the number of orders of each family.
var orderFamilySize = map[string]int{"all": 40320, "rotations": 8, "natural": 24}

// familyOrders returns the orders of a family: all is the 8! permutations
// of sim.CanonicalMoves in lexicographic order of their positions in it
// (the first is the canonical order, the last its reverse); rotations are
// the canonical order started at each of its moves in turn (the moves are
// listed around the circle, so each rotation starts at one move and turns
// the same way). natural are the 24 orders a person writes down: the
// rotations; the circle the other way round from each move (the reversed
// canonical order's rotations); and the 8 lexicographic orders, the moves
// sorted by row step then column step, or column step then row step, each
// ascending or descending (rows first, then columns; ascending before
// descending).
func familyOrders(name string) [][]sim.Move {
	var out [][]sim.Move
	switch name {
	case "all":
		idx := []int{0, 1, 2, 3, 4, 5, 6, 7}
		for {
			o := make([]sim.Move, 8)
			for i, j := range idx {
				o[i] = sim.CanonicalMoves[j]
			}
			out = append(out, o)
			if !nextPermutation(idx) {
				return out
			}
		}
	case "rotations":
		for s := range 8 {
			o := make([]sim.Move, 8)
			for i := range 8 {
				o[i] = sim.CanonicalMoves[(s+i)%8]
			}
			out = append(out, o)
		}
	case "natural":
		out = familyOrders("rotations")
		for s := range 8 {
			o := make([]sim.Move, 8)
			for i := range 8 {
				o[i] = sim.CanonicalMoves[(s+8-i)%8]
			}
			out = append(out, o)
		}
		for _, rowsFirst := range []bool{true, false} {
			for _, a := range []int{1, -1} {
				for _, b := range []int{1, -1} {
					o := slices.Clone(sim.CanonicalMoves[:])
					slices.SortFunc(o, func(x, y sim.Move) int {
						kx, ky := [2]int{a * x.DR, b * x.DC}, [2]int{a * y.DR, b * y.DC}
						if !rowsFirst {
							kx, ky = [2]int{a * x.DC, b * x.DR}, [2]int{a * y.DC, b * y.DR}
						}
						if kx[0] != ky[0] {
							return kx[0] - ky[0]
						}
						return kx[1] - ky[1]
					})
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// nextPermutation advances p to its lexicographic successor, reporting
// false (and leaving p the last permutation) when there is none.
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// IsDesign reports whether the entry crosses lists of parameter values.
func (rs RuleSpec) IsDesign() bool {
	return rs.TieBreaks != nil || rs.Orders != nil || rs.MaxStepsList != nil || rs.NodeBudgets != nil ||
		slices.Contains(OrderFamilies, strings.TrimSpace(rs.Order))
}

// orderItems returns the entry's orders as written: its list, or its one
// order (which may be a family name), or nil for none.
func (rs RuleSpec) orderItems() []string {
	if rs.Orders != nil {
		return rs.Orders
	}
	if rs.Order != "" {
		return []string{rs.Order}
	}
	return nil
}

// Cells returns the number of rules the entry stands for (1 for a plain
// entry), counted without listing them.
func (rs RuleSpec) Cells() float64 {
	n := float64(max(1, len(rs.TieBreaks))) * float64(max(1, len(rs.MaxStepsList))) * float64(max(1, len(rs.NodeBudgets)))
	orders := 0
	for _, o := range rs.orderItems() {
		if k, ok := orderFamilySize[strings.TrimSpace(o)]; ok {
			orders += k
		} else {
			orders++
		}
	}
	return n * float64(max(1, orders))
}

// cellSpecs lists the entry's cells as plain entries, in design order; a
// plain entry is its own one cell. Orders from a family are written out.
func (rs RuleSpec) cellSpecs() []RuleSpec {
	if !rs.IsDesign() {
		return []RuleSpec{rs}
	}
	tbs := orOne(rs.TieBreaks, rs.TieBreak)
	mss := orOne(rs.MaxStepsList, rs.MaxSteps)
	nbs := orOne(rs.NodeBudgets, rs.NodeBudget)
	type order struct {
		text  string
		moves []sim.Move // a family's order, already read
	}
	var orders []order
	for _, o := range rs.orderItems() {
		if _, ok := orderFamilySize[strings.TrimSpace(o)]; ok {
			for _, f := range familyOrders(strings.TrimSpace(o)) {
				orders = append(orders, order{moves: f})
			}
			continue
		}
		orders = append(orders, order{text: o})
	}
	if orders == nil {
		orders = []order{{}}
	}
	plain := rs
	plain.TieBreaks, plain.Orders, plain.MaxStepsList, plain.NodeBudgets = nil, nil, nil, nil
	out := make([]RuleSpec, 0, len(tbs)*len(orders)*len(mss)*len(nbs))
	for _, tb := range tbs {
		for _, o := range orders {
			for _, ms := range mss {
				for _, nb := range nbs {
					c := plain
					c.TieBreak, c.Order, c.order, c.MaxSteps, c.NodeBudget = tb, o.text, o.moves, ms, nb
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// orOne returns a design's list, or the one value of a plain entry. An
// empty list, which checkDesign refuses, counts as the one value, so that
// whatever reads a cell before that error is reported (the cell budget's
// count, the first cell) never indexes an empty list.
func orOne[T any](list []T, one T) []T {
	if len(list) > 0 {
		return list
	}
	return []T{one}
}

// ruleCells returns every rule of the experiment as plain entries with the
// key path of the entry each comes from, in the file's order, designs
// expanded. Call it only for a file whose cells are within MaxCells.
func (c *Config) ruleCells() (specs []RuleSpec, keys []string) {
	for i, rs := range c.Rules {
		key := fmt.Sprintf("rules[%d]", i)
		for _, cs := range rs.cellSpecs() {
			specs = append(specs, cs)
			keys = append(keys, key)
		}
	}
	return specs, keys
}

// ruleCount returns the number of rules of the experiment, designs counted
// cell by cell, without listing them.
func (c *Config) ruleCount() float64 {
	var n float64
	for _, rs := range c.Rules {
		n += rs.Cells()
	}
	return n
}

// checkDesign validates a design entry's lists without listing its cells:
// every value of a factor is resolved beside the first value of every
// other factor (a parameter's problems do not depend on the others', except
// where a move order needs a tie-break ending in first, which the first
// order checks against every tie-break), values may not repeat, and the
// orders are read one by one. It returns the entry's first cell resolved.
func (rs RuleSpec) checkDesign(k *checker, key string) (sim.Rule, bool) {
	ok := true
	for _, l := range []struct {
		sub   string
		given bool
		n     int
	}{{"tie_break", rs.TieBreaks != nil, len(rs.TieBreaks)}, {"order", rs.Orders != nil, len(rs.Orders)},
		{"max_steps", rs.MaxStepsList != nil, len(rs.MaxStepsList)}, {"node_budget", rs.NodeBudgets != nil, len(rs.NodeBudgets)}} {
		if l.given && l.n == 0 {
			k.errorf(key+"."+l.sub, "an empty list; want at least one value (a list crosses its values with the other parameters')")
			ok = false
		}
	}
	if !ok {
		return sim.Rule{}, false
	}
	first := rs
	first.TieBreaks, first.Orders, first.MaxStepsList, first.NodeBudgets = nil, nil, nil, nil
	first.TieBreak = orOne(rs.TieBreaks, rs.TieBreak)[0]
	first.MaxSteps = orOne(rs.MaxStepsList, rs.MaxSteps)[0]
	first.NodeBudget = orOne(rs.NodeBudgets, rs.NodeBudget)[0]
	first.Order = ""
	orders := rs.orderItems()
	if len(orders) > 0 {
		first.Order = strings.TrimSpace(orders[0])
		if _, fam := orderFamilySize[first.Order]; fam {
			first.Order = OrderString(familyOrders(first.Order)[0])
		}
	}
	sub := func(name string, list bool, i int) map[string]string {
		if !list {
			return nil
		}
		return map[string]string{"." + name: fmt.Sprintf(".%s[%d]", name, i)}
	}
	orderAt := sub("order", rs.Orders != nil, 0)
	r, ok := first.withAt(orderAt).resolve(k, key)
	for i, tb := range rs.TieBreaks {
		if i > 0 {
			c := first
			c.TieBreak = tb
			_, good := c.withAt(merge(sub("tie_break", true, i), orderAt)).resolve(k, key)
			ok = ok && good
		}
	}
	for i, ms := range rs.MaxStepsList {
		if i > 0 {
			c := first
			c.MaxSteps = ms
			_, good := c.withAt(sub("max_steps", true, i)).resolve(k, key)
			ok = ok && good
		}
	}
	for i, nb := range rs.NodeBudgets {
		if i > 0 {
			c := first
			c.NodeBudget = nb
			_, good := c.withAt(sub("node_budget", true, i)).resolve(k, key)
			ok = ok && good
		}
	}
	seen := map[string]int{}
	for i, o := range orders {
		o = strings.TrimSpace(o)
		at := ".order"
		if rs.Orders != nil {
			at = fmt.Sprintf(".order[%d]", i)
		}
		norm := o
		if _, fam := orderFamilySize[o]; !fam {
			m, err := sim.ParseOrder(o)
			if err != nil {
				msg := strings.TrimSuffix(err.Error(), "; want a permutation of the 8 knight moves")
				k.errorf(key+at, "%s; want a permutation of the 8 knight moves, e.g. %q, or a family of orders: %s", msg, canonicalOrder, strings.Join(OrderFamilies, ", "))
				ok = false
				continue
			}
			norm = OrderString(m)
		}
		if j, dup := seen[norm]; dup {
			k.errorf(key+at, "%s again (order[%d]); every cell of a design must be a different rule", o, j)
			ok = false
		}
		seen[norm] = i
	}
	if _, all := seen["all"]; all && len(orders) > 1 {
		k.errorf(key+".order", "all already holds every order; give all alone")
		ok = false
	}
	ok = dupValues(k, key+".tie_break", rs.TieBreaks, func(s string) string {
		if t, err := sim.ParseTieBreak(s); err == nil {
			return t.String()
		}
		return s
	}) && ok
	ok = dupValues(k, key+".max_steps", rs.MaxStepsList, strconv.Itoa) && ok
	ok = dupValues(k, key+".node_budget", rs.NodeBudgets, func(n int64) string {
		if n == 0 {
			n = sim.DefaultNodeBudget
		}
		return strconv.FormatInt(n, 10)
	}) && ok
	return r, ok
}

// dupValues refuses a value listed twice (as norm reads it): its cells
// would be the same rule twice.
func dupValues[T any](k *checker, key string, list []T, norm func(T) string) bool {
	seen := map[string]int{}
	ok := true
	for i, v := range list {
		n := norm(v)
		if j, dup := seen[n]; dup {
			k.errorf(fmt.Sprintf("%s[%d]", key, i), "%v again (%s[%d]); every cell of a design must be a different rule", v, lastKey(key), j)
			ok = false
			continue
		}
		seen[n] = i
	}
	return ok
}

func merge(a, b map[string]string) map[string]string {
	if a == nil {
		return b
	}
	for k, v := range b {
		a[k] = v
	}
	return a
}

// withAt returns rs with its errors placed at the list items at maps.
func (rs RuleSpec) withAt(at map[string]string) RuleSpec {
	rs.at = at
	return rs
}

// cellKey identifies a resolved rule with every parameter that changes a
// walk, so that two rules of an experiment are never the same rule.
func cellKey(r sim.Rule, rs RuleSpec) string {
	var b strings.Builder
	b.WriteString(r.Name())
	if r.Order != nil || r.Kind == sim.Backtrack || r.Kind == sim.Warnsdorff && r.TieBreak.UsesOrder() {
		o := r.Order
		if o == nil {
			o = sim.CanonicalMoves[:]
		}
		b.WriteString(";order=" + OrderString(o))
	}
	for res, o := range r.OrdersMod8 {
		if o != nil {
			fmt.Fprintf(&b, ";order_%d=%s", res, OrderString(o))
		}
	}
	if r.Kind == sim.Backtrack {
		fmt.Fprintf(&b, ";tie_break=%s;node_budget=%d", r.TieBreak, cmpOr(r.NodeBudget, sim.DefaultNodeBudget))
	}
	if r.MaxSteps > 0 {
		fmt.Fprintf(&b, ";max_steps=%d", r.MaxSteps)
	}
	if rs.Estimator == "splitting" {
		b.WriteString(";estimator=splitting")
	}
	return b.String()
}

func cmpOr(n, dflt int64) int64 {
	if n == 0 {
		return dflt
	}
	return n
}

// designKeys are the parameters a rule entry may give as a list.
var designKeys = []string{"tie_break", "order", "max_steps", "node_budget"}

// UnmarshalYAML reads a rule entry: a mapping with the keys of RuleSpec,
// where tie_break, order, max_steps and node_budget may each be a list
// (a design, crossing their values).
func (rs *RuleSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode { // as the YAML library says it
		value := ""
		if n.Kind == yaml.ScalarNode {
			value = " `" + shorten(n.Value) + "`"
		}
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s%s into %s", n.Line, n.ShortTag(), value, ruleSpecType)}}
	}
	msgs := unknownKeys(n, ruleSpecType)
	rest := *n
	rest.Content = nil
	var d RuleSpec
	var err error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		val := v
		if val.Kind == yaml.AliasNode && val.Alias != nil {
			val = val.Alias
		}
		if val.Kind != yaml.SequenceNode || !slices.Contains(designKeys, k.Value) {
			rest.Content = append(rest.Content, k, v)
			continue
		}
		switch k.Value {
		case "tie_break":
			d.TieBreaks = []string{}
			msgs, err = decodeKeeping(v, &d.TieBreaks, msgs)
		case "order":
			d.Orders = []string{}
			msgs, err = decodeKeeping(v, &d.Orders, msgs)
		case "max_steps":
			d.MaxStepsList = []int{}
			msgs, err = decodeKeeping(v, &d.MaxStepsList, msgs)
		case "node_budget":
			d.NodeBudgets = []int64{}
			msgs, err = decodeKeeping(v, &d.NodeBudgets, msgs)
		}
		if err != nil {
			return err
		}
	}
	type plain RuleSpec // without this method
	var p plain
	if msgs, err = decodeKeeping(&rest, &p, msgs); err != nil {
		return err
	}
	*rs = RuleSpec(p)
	rs.TieBreaks, rs.Orders, rs.MaxStepsList, rs.NodeBudgets = d.TieBreaks, d.Orders, d.MaxStepsList, d.NodeBudgets
	// The errors go with the item, not to the decoder: the YAML library
	// drops an item whose UnmarshalYAML fails, and the item's other keys
	// are still to be checked (source.decode reports msgs).
	rs.msgs = msgs
	return nil
}

var ruleSpecType = reflect.TypeFor[RuleSpec]()

// canonicalDesign is the canonical form of a design entry: the entry as
// written, each value normalised as a plain rule's is.
func (rs RuleSpec) canonicalDesign() CanonicalRule {
	cr := CanonicalRule{Name: strings.TrimSpace(rs.Name), MaxSteps: rs.MaxSteps, Closed: rs.Closed, NodeBudget: rs.NodeBudget, Design: &CanonicalDesign{}}
	if e := rs.estimator(); e.Splitting {
		cr.Estimator, cr.Particles, cr.Replicates = "splitting", e.Particles, e.Replicates
	}
	tb := func(s string) string {
		if t, err := sim.ParseTieBreak(s); err == nil {
			return t.String()
		}
		return s
	}
	if rs.TieBreak != "" {
		cr.TieBreak = tb(rs.TieBreak)
	}
	for _, t := range rs.TieBreaks {
		cr.Design.TieBreak = append(cr.Design.TieBreak, tb(t))
	}
	ord := func(s string) string {
		s = strings.TrimSpace(s)
		if _, fam := orderFamilySize[s]; fam {
			return s
		}
		if m, err := sim.ParseOrder(s); err == nil {
			return OrderString(m)
		}
		return s
	}
	switch {
	case rs.Orders != nil:
		for _, o := range rs.Orders {
			cr.Design.Order = append(cr.Design.Order, ord(o))
		}
	case rs.Order != "":
		cr.Order = ord(rs.Order)
	}
	cr.Design.MaxSteps = slices.Clone(rs.MaxStepsList)
	cr.Design.NodeBudget = slices.Clone(rs.NodeBudgets)
	for res, o := range rs.OrderByN {
		if cr.OrderByN == nil {
			cr.OrderByN = map[string]string{}
		}
		cr.OrderByN[strconv.Itoa(res)] = ord(o)
	}
	return cr
}

// designSpec writes a design entry as the tables' rule_spec writes a rule
// (results.RuleSpec: the name, then each parameter as ;key=value), each
// design factor as its values in braces, a family of orders by its name:
// "warnsdorff;tie_break=first;order=all",
// "warnsdorff;tie_break={first,random};max_steps=40".
func (rs RuleSpec) designSpec() string {
	cr := rs.canonicalDesign()
	var b strings.Builder
	b.WriteString(cr.Name)
	list := func(key string, vs []string) {
		switch len(vs) {
		case 0:
		case 1:
			b.WriteString(";" + key + "=" + vs[0])
		default:
			b.WriteString(";" + key + "={" + strings.Join(vs, ",") + "}")
		}
	}
	one := func(key, v string) {
		if v != "" {
			b.WriteString(";" + key + "=" + v)
		}
	}
	order := func(o string) string { return strings.ReplaceAll(o, " ", "") }
	one("tie_break", cr.TieBreak)
	list("tie_break", cr.Design.TieBreak)
	one("order", order(cr.Order))
	var orders []string
	for _, o := range cr.Design.Order {
		orders = append(orders, order(o))
	}
	list("order", orders)
	if cr.MaxSteps > 0 {
		one("max_steps", strconv.Itoa(cr.MaxSteps))
	}
	var steps []string
	for _, m := range cr.Design.MaxSteps {
		steps = append(steps, strconv.Itoa(m))
	}
	list("max_steps", steps)
	if cr.NodeBudget > 0 {
		one("node_budget", strconv.FormatInt(cr.NodeBudget, 10))
	}
	var budgets []string
	for _, m := range cr.Design.NodeBudget {
		budgets = append(budgets, strconv.FormatInt(m, 10))
	}
	list("node_budget", budgets)
	return b.String()
}

// designFromCanonical reverses canonicalDesign.
func designFromCanonical(r CanonicalRule) RuleSpec {
	rs := RuleSpec{Name: r.Name, TieBreak: r.TieBreak, Order: r.Order, MaxSteps: r.MaxSteps, Closed: r.Closed, NodeBudget: r.NodeBudget,
		Estimator: r.Estimator, Particles: r.Particles, Replicates: r.Replicates}
	d := r.Design
	rs.TieBreaks, rs.Orders = slices.Clone(d.TieBreak), slices.Clone(d.Order)
	rs.MaxStepsList, rs.NodeBudgets = slices.Clone(d.MaxSteps), slices.Clone(d.NodeBudget)
	for k, o := range r.OrderByN {
		if res, err := strconv.Atoi(k); err == nil {
			if rs.OrderByN == nil {
				rs.OrderByN = map[int]string{}
			}
			rs.OrderByN[res] = o
		}
	}
	return rs
}
