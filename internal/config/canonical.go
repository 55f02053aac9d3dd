package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// FromCanonical turns a resolved configuration, as manifests and the
// tables' config key record it, back into a configuration that resolves to
// exactly it: same canonical form, same hash, so a run of it writes the
// same tables. file names the source in errors. It refuses a Canonical
// that no experiment file resolves to (edited by hand, or of another
// format) rather than run something else.
func FromCanonical(file string, cn Canonical) (*Config, error) {
	fail := func(format string, args ...any) error {
		return Errors{{File: file, Msg: fmt.Sprintf(format, args...)}}
	}
	if cn.Format != hashFormat {
		return nil, fail("format %d: this tool writes and reads format %d", cn.Format, hashFormat)
	}
	c := Default()
	c.Name, c.Description, c.Seed, c.Walks = cn.Name, cn.Description, uint64(cn.Seed), cn.Walks
	c.Confidence, c.Interval = cn.Confidence, cn.Interval
	if cn.Exact != "" {
		c.Exact = cn.Exact
	}
	c.ExactBudget = cn.ExactBudget
	c.ComparisonFamily = cn.ComparisonFamily
	if q := cn.Sequential; q != nil {
		c.Sequential = &Sequential{Until: q.Until, Min: q.Min, Max: cn.Walks, HalfWidth: q.HalfWidth}
	}
	c.Boards = nil
	for _, b := range cn.Boards {
		c.Boards = append(c.Boards, BoardSpec{Size: b})
	}
	if len(cn.Sieve) > 0 { // each board its own entry, in its stage
		i := 0
		for st, stage := range cn.Sieve {
			for range stage.Boards {
				if i >= len(c.Boards) || stage.Boards < 1 {
					return nil, fail("sieve: its stages take %d boards or a stage none; boards lists %d", i+1, len(cn.Boards))
				}
				c.Boards[i].Keep, c.Boards[i].stage = stage.Keep, st+1
				i++
			}
		}
		if i != len(c.Boards) {
			return nil, fail("sieve: its stages take %d boards; boards lists %d", i, len(cn.Boards))
		}
	}
	c.Starts = Starts{"all"}
	if !cn.Starts.All {
		c.Starts = append(append(Starts{}, cn.Starts.Classes...), cn.Starts.Squares...)
	}
	for _, r := range cn.Rules {
		if r.Design != nil {
			c.Rules = append(c.Rules, designFromCanonical(r))
			continue
		}
		rs := RuleSpec{Name: r.Name, TieBreak: r.TieBreak, MaxSteps: r.MaxSteps, Closed: r.Closed, NodeBudget: r.NodeBudget,
			Estimator: r.Estimator, Particles: r.Particles, Replicates: r.Replicates}
		if r.Order != canonicalOrder { // the canonical order is written out for every rule, but only some take one
			rs.Order = r.Order
		}
		for k, o := range r.OrderByN {
			res, err := strconv.Atoi(k)
			if err != nil {
				return nil, fail("rules: order_by_n_mod_8 key %q is not a residue 0..7", k)
			}
			if rs.OrderByN == nil {
				rs.OrderByN = map[int]string{}
			}
			rs.OrderByN[res] = o
		}
		c.Rules = append(c.Rules, rs)
	}
	c.Outputs = Outputs{Walks: cn.Outputs.Walks, Figures: cn.Outputs.Figures, RowGroup: cn.Outputs.RowGroup}
	if cn.Outputs.FigureOptions != nil {
		c.Outputs.FigureOptions = *cn.Outputs.FigureOptions
	}
	if s := cn.Sources; s != nil {
		c.SourcesFile, c.ownSHA256, c.ownRead = s.File, s.SHA256, true
		// The recorded statements are checked as the file's were.
		k := &checker{c: &Config{src: &source{file: file + ": sources", lines: map[string]int{}}}}
		checkPublications(k, s.Statements, builtIn)
		if errs := k.errs.sorted(); errs != nil {
			return nil, errs.capped()
		}
		c.ownSources = slices.Clone(s.Statements)
	}
	for i, cc := range cn.Claims {
		cl, err := claimFromCanonical(cc, cn.Boards)
		if err != nil {
			return nil, fail("claims[%d]: %v", i, err)
		}
		c.Claims = append(c.Claims, cl)
	}
	if err := c.Validate(); err != nil {
		return nil, withFile(err, file)
	}
	want, _ := json.Marshal(cn)
	if got, _ := json.Marshal(c.canonical()); !bytes.Equal(got, want) {
		return nil, fail("this resolved configuration is not one an experiment file resolves to (edited?); it would run as\n%s", got)
	}
	return &c, nil
}

// claimFromCanonical reverses the claim part of canonical: the boards list
// becomes nothing (every board), board (one) or sizes (a range of n×n).
func claimFromCanonical(cc CanonicalClaim, boards []string) (Claim, error) {
	cl := Claim{ID: cc.ID, Rule: cc.Rule, Source: cc.Source, Family: cc.Family, Reading: cc.Reading, Fitted: cc.Fitted, Why: cc.Why, Unverified: cc.Unverified, PartOfRange: cc.PartOfRange}
	switch t := cc.Target; {
	case strings.HasPrefix(t, "degree "):
		d, err := strconv.Atoi(strings.TrimPrefix(t, "degree "))
		if err != nil {
			return cl, fmt.Errorf("target %q: want a class, a square rNcM or \"degree N\"", t)
		}
		cl.Degree = &d
	case strings.HasPrefix(t, "r") && strings.Contains(t, "c"):
		cl.Square = t
	default:
		cl.Class = t
	}
	v := cc.Values
	if n, ok := map[string]int{"rate": 2, "range": 2, "below": 1, "above": 1}[cc.Statement]; ok && len(v) != n ||
		!ok && (cc.Statement != "" || len(v) != 0) { // "": a first-failure or failing-share claim states nothing per board
		return cl, fmt.Errorf("statement %q with %d values: want rate [r, tol], range [lo, hi], below [x] or above [x]", cc.Statement, len(v))
	}
	switch cc.Statement {
	case "rate":
		cl.Rate, cl.Tolerance = &v[0], &v[1]
	case "range":
		cl.Range = v
	case "below":
		cl.Below = &v[0]
	case "above":
		cl.Above = &v[0]
	}
	if cc.Set != "" {
		set, each, _ := strings.Cut(cc.Set, " each ") // "share 1 each square"
		cl.Each = each
		kind, val, _ := strings.Cut(set, " ")
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return cl, fmt.Errorf("set %q: want share X, first-failure N or failing-share X", cc.Set)
		}
		switch kind {
		case "share":
			if each == "" || x != 1 { // each: square means every square unless a share says otherwise
				cl.Share = &x
			}
		case "first-failure":
			n := int(x)
			cl.FirstFailure = &n
		case "failing-share":
			cl.FailingBelow = &x
		default:
			return cl, fmt.Errorf("set %q: want share X, first-failure N or failing-share X", cc.Set)
		}
	}
	if strings.HasPrefix(cc.PerBoard, "count ") {
		cl.PerBoard = "count"
	}
	if _, m, ok := strings.Cut(cc.Published, " claim-margin "); ok {
		x, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return cl, fmt.Errorf("published %q: claim-margin %q is not a number", cc.Published, m)
		}
		cl.Margin = &x
	}
	switch {
	case len(cc.Boards) == len(boards) && (cc.Set == "" || !allSquare(boards)):
	case len(cc.Boards) == 1 && cc.Set == "":
		cl.Board = cc.Boards[0]
	case len(cc.Boards) > 0:
		lo, hi := -1, -1
		for _, b := range cc.Boards {
			s, ok := parseSize(b)
			if !ok || s.rows != s.cols {
				return cl, fmt.Errorf("boards %v: a claim about several boards is about n×n sizes", cc.Boards)
			}
			if lo < 0 || s.rows < lo {
				lo = s.rows
			}
			hi = max(hi, s.rows)
		}
		cl.Sizes = fmt.Sprintf("%d..%d", lo, hi)
		// Square boards of the experiment inside lo..hi that the claim is
		// not about: its except (sizes the experiment lacks need none).
		for _, b := range boards {
			if s, ok := parseSize(b); ok && s.rows == s.cols && s.rows >= lo && s.rows <= hi && !slices.Contains(cc.Boards, b) {
				cl.Except = append(cl.Except, s.rows)
			}
		}
	}
	return cl, nil
}

// withFile names file in validation errors that have no file.
func withFile(err error, file string) error {
	es, ok := err.(Errors)
	if !ok {
		return err
	}
	for i := range es {
		if es[i].File == "" {
			es[i].File = file
		}
	}
	return es
}

// allSquare reports whether every board is n×n: a set claim on all of
// them is then read back with its sizes (the range its source states).
func allSquare(boards []string) bool {
	for _, b := range boards {
		if s, ok := parseSize(b); !ok || s.rows != s.cols {
			return false
		}
	}
	return true
}
