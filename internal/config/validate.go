package config

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/sim"
)

// Validate reports every problem of c at once, as Errors sorted by line
// (with file and line when c came from Parse or Load), or nil.
func (c *Config) Validate() error {
	if errs := c.check(); errs != nil {
		return errs.capped()
	}
	return nil
}

// MaxCells bounds the (board, rule, start square) cells of an experiment
// whose tables hold a row per cell in memory (at most MaxReportRules
// rules, or a sequential run): each holds a tally, work units and its
// rows, and resolving the experiment lists every start square, so boards:
// [{sizes: 3000..3100}] with starts: all (909 million cells) took 12 GB in
// validate before any check refused it.
const MaxCells = 1_000_000

// MaxReportRules is the most rules whose per-rule sections the report
// writes. A run of a fixed number of walks with more rules (a design)
// needs none of its per-cell rows at once: it writes the squares, lengths
// and deadends tables as it makes their rows, and its cells are bounded
// by their memory (MaxCellMemory), not by MaxCells.
const MaxReportRules = 24

// MaxCellMemory bounds the memory a design's cells may take, counted at
// cellBytes each plus, for a cell of more than one walk, its dense tally
// (two 8-byte numbers per square): the default memory budget of count and
// exact (4 GiB). A cell of one walk (a deterministic rule, or walks: 1)
// is kept as that walk; the 40,320 move orders from the 64 squares of
// 8x8 (2,580,480 cells of one walk) peaked at 1.77 GB, 690 bytes a cell.
const MaxCellMemory = 4 << 30

// cellBytes is what MaxCellMemory counts for a cell besides its tally:
// the 690 bytes measured, with room to spare.
const cellBytes = 1024

// checkCells refuses, before anything is built, an experiment whose
// boards × start squares × rules exceed its budget, with the count:
// MaxCells, or for a design that streams its rows MaxCellMemory; start
// classes are counted from the board's sides, never square by square.
func (c *Config) checkCells(k *checker, boards []size, st startSet) bool {
	rules := max(1, c.ruleCount())
	streams := rules > MaxReportRules && c.Sequential == nil
	oneWalk := c.oneWalkRules()
	var cells, largest, bytes float64
	for _, b := range boards {
		n := float64(b.rows) * float64(b.cols)
		var per float64
		switch {
		case st.all || st.classes[sim.Interior]:
			per = n
		default:
			if st.classes[sim.Corner] {
				per += 4
			}
			if st.classes[sim.Centre] {
				per += 4
			}
			if st.classes[sim.Edge] {
				per += 2 * float64(b.rows+b.cols)
			}
			per += float64(len(st.squares))
		}
		per = min(per, n)
		cells += per * float64(rules)
		largest = max(largest, per)
		bytes += per * (rules*cellBytes + (rules-oneWalk)*16*(n+1))
	}
	if !streams && cells > MaxCells {
		key, dflt := c.cellsKey()
		k.errorf(key, "%.0f start squares%s to run (%d boards × up to %.0f starts × %.0f rules%s); at most %d, each holding its own tallies: name fewer sizes or rules, or starts by class (corner, centre) or square", cells, dflt, len(boards), largest, rules, c.designWords(), MaxCells)
		return false
	}
	if streams && bytes > MaxCellMemory {
		key, dflt := c.cellsKey()
		k.errorf(key, "%.0f start squares%s to run (%d boards × up to %.0f starts × %.0f rules%s) would hold about %.1f GiB; at most %d GiB (a cell takes %d bytes, and one of more than one walk its tally too, 16 bytes a square): name fewer sizes or rules, or starts by class (corner, centre) or square", cells, dflt, len(boards), largest, rules, c.designWords(), bytes/(1<<30), MaxCellMemory>>30, cellBytes)
		return false
	}
	return true
}

// cellsKey is the key the cell budget's error names, and what it adds
// where starts are the default.
func (c *Config) cellsKey() (key, dflt string) {
	if c.src != nil && c.src.lines["starts"] == 0 {
		return "boards", " (starts: all, the default)"
	}
	return "starts", ""
}

// oneWalkRules counts the rules (designs cell by cell) that run one walk
// per start square: every rule when walks is 1, else the deterministic
// ones (warnsdorff and backtrack with a tie-break ending in first), which
// Experiment.WalksFor gives one walk. A rule that does not resolve counts
// as more than one walk (its errors are reported by checkRules).
func (c *Config) oneWalkRules() float64 {
	if c.Sequential == nil && c.Walks == 1 {
		return c.ruleCount()
	}
	var n float64
	for _, rs := range c.Rules {
		ties := orOne(rs.TieBreaks, rs.TieBreak)
		for _, tb := range ties {
			one := rs
			one.TieBreaks, one.Orders, one.MaxStepsList, one.NodeBudgets = nil, nil, nil, nil
			one.TieBreak, one.Order = tb, ""
			one.MaxSteps = orOne(rs.MaxStepsList, rs.MaxSteps)[0]
			one.NodeBudget = orOne(rs.NodeBudgets, rs.NodeBudget)[0]
			if r, ok := one.resolve(nil, "rules"); ok && r.Deterministic() {
				n += rs.Cells() / float64(len(ties))
			}
		}
	}
	return n
}

// designWords says, for the cell budget's error, how many rules the
// designs among the rules stand for.
func (c *Config) designWords() string {
	var parts []string
	for i, rs := range c.Rules {
		if rs.IsDesign() {
			parts = append(parts, fmt.Sprintf("%s a design of %.0f", c.fileKey(fmt.Sprintf("rules[%d]", i)), rs.Cells()))
		}
	}
	if parts == nil {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// checkRules validates the rules, a design's lists without listing its
// cells, and, where the experiment is within its cell budget (cellsOK),
// that no two of its rules are the same rule. It returns the rules'
// names, each once, in the file's order.
func (c *Config) checkRules(k *checker, cellsOK bool) []string {
	k.names = map[string]int{}
	var ruleNames []string
	firstAt := map[string]string{} // cell key → the entry that has it
	var sizes []size               // the boards, expanded once for the rules that check them
	for i, rs := range c.Rules {
		key := fmt.Sprintf("rules[%d]", i)
		var r sim.Rule
		var ok bool
		if rs.IsDesign() {
			r, ok = rs.checkDesign(k, key)
		} else {
			r, ok = rs.resolve(k, key)
		}
		if !ok {
			continue
		}
		c.checkEstimator(k, key, rs, r)
		if cellsOK {
			var cells []RuleSpec
			if rs.IsDesign() {
				cells = rs.cellSpecs()
			}
			dup := ""
			for ci, cs := range cells {
				x, good := cs.resolve(nil, key)
				if ci == 0 {
					r = x
				}
				if !good {
					continue
				}
				if j, seen := firstAt[cellKey(x, cs)]; seen {
					if dup == "" {
						dup = fmt.Sprintf("its cell %s is also a rule of %s", cellKey(x, cs), j)
					}
					continue
				}
				k.names[x.Name()]++
				firstAt[cellKey(x, cs)] = c.fileKey(key)
			}
			if cells == nil {
				if j, seen := firstAt[cellKey(r, rs)]; seen {
					dup = fmt.Sprintf("rule %s again (%s is %s too)", cellKey(r, rs), j, cellKey(r, rs))
				} else {
					k.names[r.Name()]++
					firstAt[cellKey(r, rs)] = c.fileKey(key)
				}
			}
			if dup != "" {
				k.errorf(key, "%s; the rules of an experiment must differ in name or in a parameter (tie_break, order, max_steps, node_budget, estimator)", dup)
				continue
			}
		}
		if n := r.Name(); !slices.Contains(ruleNames, n) {
			ruleNames = append(ruleNames, n)
		}
		if rs.TieBreaks != nil {
			for _, tb := range rs.TieBreaks {
				if t, err := sim.ParseTieBreak(tb); err == nil && r.Kind == sim.Warnsdorff {
					if n := "warnsdorff/" + t.String(); !slices.Contains(ruleNames, n) {
						ruleNames = append(ruleNames, n)
					}
				}
			}
		}
		if (r.HasOrdersMod8() || r.Custom != "") && sizes == nil {
			sizes = c.sizes(nil)
		}
		if r.HasOrdersMod8() {
			for _, s := range sizes {
				if s.rows != s.cols {
					k.errorf(key+".order_by_n_mod_8", "orders by n mod 8 are for n×n boards, and %s is not square; give such a rule square boards only", s)
					break
				}
			}
		}
		if r.Custom != "" { // a rule (or the order of backtrack/NAME) defined on some boards only (squirrel-cull: n×n)
			for _, s := range sizes {
				if !s.fits() {
					continue
				}
				if err := sim.CheckBoard(&sim.Board{Rows: s.rows, Cols: s.cols}, r); err != nil {
					k.errorf(key+".name", "%v; remove %s from boards or the rule", err, s)
					break
				}
			}
			// what its first use checks (a policy at all, answers from the
			// position alone), on the first board it is defined on: the
			// replay costs a few hundred calls, once per board, so not on
			// every board of a sweep here (run checks them all)
			for _, s := range sizes {
				b := &sim.Board{Rows: s.rows, Cols: s.cols}
				if !s.fits() || sim.CheckBoard(b, r) != nil {
					continue
				}
				if err := sim.CheckRule(b, r); err != nil {
					k.errorf(key+".name", "%v", err)
				}
				break
			}
		}
	}
	return ruleNames
}

// check does the work of Validate.
func (c *Config) check() Errors {
	k := &checker{c: c}

	if msg := nameProblem(c.Name); msg != "" {
		k.errorf("name", "%s", msg)
	}
	c.lengths(k)
	if c.SourcesFile != "" && !c.ownRead {
		k.errorf("sources", "%q was not read; a sources file is read where the experiment file is parsed (Parse, Load), relative to it", c.SourcesFile)
	}

	if len(c.Boards) == 0 && !c.partial("boards") {
		k.errorf("boards", "no boards; want at least one, e.g. [8x8]")
	}
	boards := c.sizes(k)

	st := c.starts(k, boards)
	if c.IsSieve() {
		st.cellsOK = c.checkSieve(k, st)
	} else {
		st.cellsOK = c.checkCells(k, boards, st)
	}

	if c.Sequential != nil {
		c.checkSequential(k)
	} else if c.Walks < 1 || c.Walks > MaxWalks {
		k.errorf("walks", "%d is out of range; want 1 to %.0e walks per start square, rule and board", c.Walks, float64(MaxWalks))
	}

	if len(c.Rules) == 0 && !c.partial("rules") {
		k.errorf("rules", "no rules; want at least one, e.g. [{name: warnsdorff}]")
	}
	ruleNames := c.checkRules(k, st.cellsOK)
	if !(c.Confidence > 0 && c.Confidence < 1) {
		k.errorf("confidence", "%v is out of range; want a level strictly between 0 and 1, e.g. 0.95", c.Confidence)
	}
	if !slices.Contains(ExactModes, c.Exact) {
		k.errorf("exact", "%q; valid: %s (auto: exact values where the enumeration is cheap; bounds: certified bounds where it does not fit)", c.Exact, strings.Join(ExactModes, ", "))
	}
	if c.ExactBudget < 0 {
		k.errorf("exact_budget", "%d; want 0 (the default, %d states per start square) or more", c.ExactBudget, exact.DefaultBudget)
	}
	if c.ComparisonFamily != "" && !slices.Contains(ComparisonFamilies, c.ComparisonFamily) {
		k.errorf("comparison_family", "%q; valid: %s (question: the class comparisons of one rule on one board, or the rule comparisons of one class on one board; board: every comparison on a board; run: every comparison of the run)",
			c.ComparisonFamily, strings.Join(ComparisonFamilies, ", "))
	}
	if !slices.Contains(Intervals, c.Interval) {
		k.errorf("interval", "%q is not an interval; valid: %s", c.Interval, strings.Join(Intervals, ", "))
	}

	seenFig := map[string]int{}
	for i, f := range c.Outputs.Figures {
		key := fmt.Sprintf("outputs.figures[%d]", i)
		if !slices.Contains(Figures, f) {
			k.errorf(key, "%q is not a figure; valid: %s", f, strings.Join(Figures, ", "))
		} else if j, dup := seenFig[f]; dup {
			k.errorf(key, "%s again (%s)", f, c.fileKey(fmt.Sprintf("outputs.figures[%d]", j)))
		}
		seenFig[f] = i
	}
	if slices.ContainsFunc(c.Outputs.Figures, func(f string) bool { return f != "design-map" }) {
		for _, n := range ruleNames {
			if count := k.names[n]; count > 1 {
				k.errorf("outputs.figures", "figures are drawn per board and rule name, and %d rules of this experiment are named %s (they differ in a parameter: a design); leave out figures but design-map, which draws a design's failing cells per start square (the tables hold every cell)", count, n)
				break
			}
		}
	}
	if i, ok := seenFig["design-map"]; ok && !slices.ContainsFunc(c.Rules, RuleSpec.IsDesign) {
		k.errorf(fmt.Sprintf("outputs.figures[%d]", i), "design-map draws a design's failing cells per start square, and no rule entry here is a design (a list of tie_break, order, max_steps or node_budget values, or order: all or rotations)")
	}
	if c.Outputs.RowGroup < 0 || c.Outputs.RowGroup > MaxRowGroup {
		k.errorf("outputs.row_group", "%d is out of range; want 0 (the writer's default) to %d rows", c.Outputs.RowGroup, MaxRowGroup)
	}
	c.checkFigureOptions(k, ruleNames)

	for i, cl := range c.Claims {
		c.checkClaim(k, fmt.Sprintf("claims[%d]", i), cl, boards, ruleNames, st)
		c.checkSplitClaim(k, fmt.Sprintf("claims[%d]", i), cl)
		c.checkSource(k, fmt.Sprintf("claims[%d]", i), cl)
	}
	c.checkReadings(k)
	c.checkFamilies(k)
	return k.errs.sorted()
}

// lengths checks the bounds that Parse enforces before decoding, for a
// Config built in Go: list items and the length of free text.
func (c *Config) lengths(k *checker) {
	if len(c.Description) > MaxDescription {
		k.errorf("description", "%d bytes; at most %d", len(c.Description), MaxDescription)
	}
	for _, l := range []struct {
		key   string
		n, mx int
	}{{"boards", len(c.Boards), MaxBoards}, {"starts", len(c.Starts), MaxStarts}, {"rules", len(c.Rules), MaxRules},
		{"outputs.figures", len(c.Outputs.Figures), MaxFigures}, {"claims", len(c.Claims), MaxClaims}, {"families", len(c.Families), MaxClaims}} {
		if l.n > l.mx {
			k.errorf(l.key, "%d items; at most %d", l.n, l.mx)
		}
	}
	for i, cl := range c.Claims {
		if len(cl.ID) > MaxScalar {
			k.errorf(fmt.Sprintf("claims[%d].id", i), "%d bytes; at most %d", len(cl.ID), MaxScalar)
		}
		if len(cl.Source) > MaxScalar {
			k.errorf(fmt.Sprintf("claims[%d].source", i), "%d bytes; at most %d", len(cl.Source), MaxScalar)
		}
		if msg := familyProblem(cl.Family); msg != "" {
			k.errorf(fmt.Sprintf("claims[%d].family", i), "%s", msg)
		}
	}
}

// familyProblem says why a claim's family name is not one, or "".
func familyProblem(f string) string {
	if f == "" {
		return ""
	}
	if len(f) > 64 {
		return fmt.Sprintf("%d bytes; at most 64", len(f))
	}
	for _, r := range f {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Sprintf("%q: want a family name of letters, digits, -, _ and . (claims with the same family are adjusted together; leave it out for the run's family, all)", f)
		}
	}
	return ""
}

// nameProblem says why name cannot be a results directory, or "".
func nameProblem(name string) string {
	const valid = "use letters, digits, -, _ and . (not . or ..)"
	switch {
	case name == "":
		return "missing; name the experiment (its results go to results/<name>/): " + valid
	case len(name) > MaxName:
		return fmt.Sprintf("%d bytes; at most %d", len(name), MaxName)
	case name == "." || name == "..":
		return fmt.Sprintf("%q is not a safe directory name; %s", name, valid)
	}
	if msg := ReservedDirName(name); msg != "" {
		return msg
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			if !utf8.ValidString(name) {
				return fmt.Sprintf("%q is not valid UTF-8; %s", name, valid)
			}
			return fmt.Sprintf("%q is not a safe directory name (%q); %s", name, r, valid)
		}
	}
	return ""
}

// The suffixes a run gives the directories and files beside a result
// directory DIR while it writes it: DIR.partial (the unfinished run),
// DIR.lock and DIR.replaced-PID-TIME (the previous result, set aside for an
// instant). A result named with one of them would be taken for the
// bookkeeping of another result and could be removed by a run of that one.
var reservedSuffixes = []string{".partial", ".lock", ".replaced-"}

// ReservedDirName says why base (the last element of a result directory's
// path, or an experiment name) is reserved for the tool's own bookkeeping,
// or "".
func ReservedDirName(base string) string {
	for _, suf := range reservedSuffixes {
		if strings.HasSuffix(base, suf) || strings.HasSuffix(suf, "-") && strings.Contains(base, suf) {
			return fmt.Sprintf("%q ends in %s, which experiment reserves for the directory it writes beside a result (%s); choose a name without %s", base, strings.TrimSuffix(suf, "-"), strings.Join(reservedSuffixes, ", "), strings.TrimSuffix(suf, "-"))
		}
	}
	return ""
}

// checkClaim checks one claim against the experiment's boards, rules and starts.
func (c *Config) checkClaim(k *checker, key string, cl Claim, boards []size, ruleNames []string, st startSet) {
	switch r, err := sim.ParseRule(cl.Rule); {
	case c.partial("rules"):
		// Some rules did not decode; membership would be guesswork.
	case cl.Rule == "":
		k.errorf(key+".rule", "missing; valid: %s", strings.Join(ruleNames, ", "))
	case err != nil:
		k.errorf(key+".rule", "%q is not a rule; valid: %s", cl.Rule, strings.Join(ruleNames, ", "))
	case !slices.Contains(ruleNames, r.Name()):
		k.errorf(key+".rule", "%s is not one of this experiment's rules; valid: %s", r.Name(), strings.Join(ruleNames, ", "))
	case k.names[r.Name()] > 1:
		k.errorf(key+".rule", "%s names %d rules of this experiment (they differ in a parameter: the cells of a design, or entries with their own order, max_steps or node_budget); a claim is about one rule: give that rule alone in an experiment of its own", r.Name(), k.names[r.Name()])
	}

	c.checkSetClaim(k, key, cl, boards)
	on := boards
	if cl.Sizes != "" {
		on = slices.DeleteFunc(slices.Clone(boards), func(b size) bool { return !cl.inSizes(b) })
	}
	if cl.Board != "" {
		s, ok := parseSize(cl.Board)
		names := make([]string, len(boards))
		for i, b := range boards {
			names[i] = b.String()
		}
		switch {
		case !ok:
			k.errorf(key+".board", "%q is not a board; want ROWSxCOLS, one of %s", cl.Board, list(names))
			on = nil
		case c.partial("boards") && !slices.Contains(boards, s):
			on = nil // some boards did not decode; membership would be guesswork
		case !slices.Contains(boards, s):
			k.errorf(key+".board", "%s is not one of this experiment's boards; valid: %s", s, list(names))
			on = nil
		default:
			on = []size{s}
		}
	}

	if t, ok := cl.target(k, key); ok {
		sub := key + "." + t.kind
		if t.kind == "all" {
			sub = key + ".class"
		}
		var missing []string
		offBoard := false
		for _, b := range on {
			if t.kind == "square" {
				if _, err := b.parseSquare(cl.Square); err != nil {
					k.errorf(sub, "%v", err)
					offBoard = true
					break
				}
			}
			if !covers(st, t, b) {
				missing = append(missing, b.String())
			}
		}
		if missing != nil && !offBoard {
			k.errorf(sub, "no start square is %s on %s; the starts must include some (starts: %s)", t, list(missing), strings.Join(c.Starts, ", "))
		}
	}

	var tests []string
	for _, t := range []struct {
		name string
		set  bool
	}{{"rate", cl.Rate != nil}, {"range", cl.Range != nil}, {"below", cl.Below != nil}, {"above", cl.Above != nil},
		{"first_failure", cl.FirstFailure != nil}, {"failing_below", cl.FailingBelow != nil}} {
		if t.set {
			tests = append(tests, t.name)
		}
	}
	if m := cl.Margin; m != nil {
		switch {
		case !c.comparesCount(cl):
			k.errorf(key+".margin", "margin goes with a claim compared with its source's published count (a source id with a count, no statement of the claim's own)")
		case !(*m > 0 && *m < 1):
			k.errorf(key+".margin", "%v is not an equivalence margin; want a difference of rates in (0, 1), e.g. 0.05, declared before the data (leave it out for the source's)", *m)
		}
	}
	if c.comparesCount(cl) {
		if len(tests) > 0 {
			k.errorf(key+"."+tests[0], "source %s gives a published count: leave out %s; the claim is compared with that count as two samples", cl.Source, strings.Join(tests, " and "))
		}
	} else if len(tests) != 1 {
		if len(tests) == 0 {
			k.errorf(key, "no statement; want exactly one of rate, range, below, above, first_failure, failing_below (or a source of experiments/sources.yaml with a published count)")
		} else if !(len(tests) == 2 && cl.FirstFailure != nil && cl.FailingBelow != nil) { // checkSetClaim reports that pair
			k.errorf(key, "%s: want exactly one of rate, range, below, above, first_failure, failing_below", strings.Join(tests, " and "))
		}
	}
	prob := func(sub string, p float64) bool {
		if !(p >= 0 && p <= 1) {
			k.errorf(key+"."+sub, "%v is not a rate; want a value from 0 to 1", p)
			return false
		}
		return true
	}
	if cl.Rate != nil {
		prob("rate", *cl.Rate)
	}
	if cl.Tolerance != nil {
		switch tol := *cl.Tolerance; {
		case cl.Rate == nil:
			k.errorf(key+".tolerance", "a tolerance goes with rate only")
		case !(tol >= 0 && tol <= 1):
			k.errorf(key+".tolerance", "%v is out of range; want a value from 0 to 1", tol)
		}
	}
	if cl.Range != nil {
		if len(cl.Range) != 2 {
			k.errorf(key+".range", "want two values [lo, hi], e.g. [0.70, 0.80], not %d", len(cl.Range))
		} else if lo, hi := cl.Range[0], cl.Range[1]; prob("range[0]", lo) && prob("range[1]", hi) && lo > hi {
			k.errorf(key+".range", "[%v, %v] is empty; want lo ≤ hi", lo, hi)
		}
	}
	if cl.Below != nil {
		prob("below", *cl.Below)
	}
	if cl.Above != nil {
		prob("above", *cl.Above)
	}
}

// covers reports whether the starts select a square of target t on a board
// of size s.
func covers(st startSet, t target, s size) bool {
	switch t.kind {
	case "all":
		return st.any(s)
	case "square":
		return s.on(t.square) && st.has(s, t.square)
	case "class":
		if (st.all || st.classes[t.class]) && s.classCount(t.class) > 0 {
			return true
		}
	}
	for _, p := range st.squares {
		if s.on(p) && t.has(s, p) {
			return true
		}
	}
	if t.kind == "degree" {
		for _, sq := range s.representatives() {
			if p := s.rc(sq); st.has(s, p) && t.has(s, p) {
				return true
			}
		}
	}
	return false
}
