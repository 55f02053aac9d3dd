package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// SetClaim is the part of a claim that speaks about a set of boards
// how many of them meet the per-board statement, or where a
// deterministic rule's walk fails. Kind is "" for an ordinary claim.
type SetClaim struct {
	Kind         string  // "share", "first-failure" or "failing-share"; "" for none
	Sizes        string  // the claim's sizes as written ("5..49"), or "" for every board
	Share        float64 // share: more than this share of the boards meet Claim; 1: every board
	FirstFailure int     // first-failure: the first n (in board order) where the walk fails
	FailingBelow float64 // failing-share: the share of boards where it fails is below this
	// Each is "square" where the set's elements are the target's start
	// squares on each board (key each: square), "" where they are boards.
	Each string
}

// setClaim returns cl's set statement.
func (cl Claim) setClaim() SetClaim {
	s := SetClaim{Sizes: cl.Sizes, Each: cl.Each}
	switch {
	case cl.Each == "square":
		s.Kind, s.Share = "share", 1 // every square, unless a share says otherwise
		if cl.Share != nil {
			s.Share = *cl.Share
		}
	case cl.Share != nil:
		s.Kind, s.Share = "share", *cl.Share
	case cl.FirstFailure != nil:
		s.Kind, s.FirstFailure = "first-failure", *cl.FirstFailure
	case cl.FailingBelow != nil:
		s.Kind, s.FailingBelow = "failing-share", *cl.FailingBelow
	}
	return s
}

// inSizes reports whether a board of size s is among cl's sizes (n×n with
// n in the span); a claim without sizes takes every board.
func (cl Claim) inSizes(s size) bool {
	if cl.Sizes == "" {
		return true
	}
	sp, ok := parseSpan(cl.Sizes)
	return ok && s.rows == s.cols && s.rows >= sp.lo && s.rows <= sp.hi && !slices.Contains(cl.Except, s.rows)
}

// checkSetClaim checks the set-of-boards keys of a claim.
func (c *Config) checkSetClaim(k *checker, key string, cl Claim, boards []size) {
	if cl.Sizes != "" {
		sp, ok := parseSpan(cl.Sizes)
		n := 0
		for _, b := range boards {
			if cl.inSizes(b) {
				n++
			}
		}
		switch {
		case !ok || sp.lo > sp.hi:
			k.errorf(key+".sizes", "%q is not a size range; want LO..HI, e.g. 5..49", cl.Sizes)
		case cl.Board != "":
			k.errorf(key+".sizes", "board and sizes: want one of them")
		case n == 0 && !c.partial("boards"):
			k.errorf(key+".sizes", "%s takes none of this experiment's boards; sizes are n for n×n boards", cl.Sizes)
		}
	}
	c.checkExcept(k, key, cl)
	c.checkEncoding(k, key, cl, boards)
	set := 0
	for _, p := range []bool{cl.Share != nil, cl.FirstFailure != nil, cl.FailingBelow != nil} {
		if p {
			set++
		}
	}
	if set > 1 {
		k.errorf(key, "want at most one of share, first_failure, failing_below")
	}
	if cl.Share != nil && !(*cl.Share >= 0 && *cl.Share <= 1) {
		k.errorf(key+".share", "%v is not a share; want 0 ≤ share < 1 (more than this share of the boards) or 1 (every board)", *cl.Share)
	}
	if cl.FailingBelow != nil && !(*cl.FailingBelow > 0 && *cl.FailingBelow <= 1) {
		k.errorf(key+".failing_below", "%v is not a share; want 0 < x ≤ 1", *cl.FailingBelow)
	}
	if cl.FirstFailure != nil && *cl.FirstFailure < 1 {
		k.errorf(key+".first_failure", "%d is not a board size; want n ≥ 1", *cl.FirstFailure)
	}
	c.checkPerBoard(k, key, cl)
	c.checkEach(k, key, cl)
	if cl.FirstFailure != nil || cl.FailingBelow != nil {
		if r, err := sim.ParseRule(cl.Rule); err == nil && !r.Deterministic() {
			k.errorf(key+".rule", "%s draws at random: first_failure and failing_below need a deterministic rule (a tie_break ending in first)", r.Name())
		}
	}
}

// checkPerBoard checks key per_board: rate (the default) or count, and
// that a count reading has what it needs: a share claim, a source in
// sources.yaml with trials per board (given or assumed), and a statement
// that some count of those trials meets.
func (c *Config) checkPerBoard(k *checker, key string, cl Claim) {
	switch cl.PerBoard {
	case "", "rate":
		return
	case "count":
	default:
		k.errorf(key+".per_board", "%q is not a reading of the per-board statement; valid: rate (the true rate meets it), count (the count the source saw in its trials meets it)", cl.PerBoard)
		return
	}
	p, found := c.publication(cl.Source)
	_, _, given := p.TrialsPer()
	st, stated := cl.statement()
	switch {
	case cl.Share == nil:
		k.errorf(key+".per_board", "count goes with share (a statement about a set of boards) only")
	case !found:
		k.errorf(key+".per_board", "count needs a source of experiments/sources.yaml by id (its trials per board); source %q is none", cl.Source)
	case !given:
		k.errorf(key+".per_board", "count needs the trials per board behind the statement; source %s gives neither trials nor assumed_trials", cl.Source)
	case !stated || st.Validate() != nil:
		// the statement's own checks report it
	default:
		if _, _, ok := c.countSet(cl); !ok {
			n, _, _ := p.TrialsPer()
			k.errorf(key+".per_board", "no count of %d trials (source %s) meets %v; the statement cannot describe what the source saw", n, cl.Source, st)
		}
	}
}

// checkEach checks key each: square, or nothing, and that the claim it
// quantifies has squares to go over and a statement each square can meet.
func (c *Config) checkEach(k *checker, key string, cl Claim) {
	switch cl.Each {
	case "":
		return
	case "square":
	default:
		k.errorf(key+".each", "%q is not a quantifier; valid: square (the statement holds from every start square of the target, one by one; with share: s, from more than a share s of them)", cl.Each)
		return
	}
	switch {
	case cl.Square != "":
		k.errorf(key+".each", "square with one start square (square: %s): want a class, all or a degree, whose squares each: square goes over", cl.Square)
	case cl.FirstFailure != nil || cl.FailingBelow != nil:
		k.errorf(key+".each", "square goes with a rate statement (rate, range, below, above), not first_failure or failing_below")
	case cl.PerBoard == "count":
		k.errorf(key+".each", "square reads the statement as each square's true rate; per_board: count reads a source's counts per board")
	case c.comparesCount(cl):
		k.errorf(key+".each", "square needs a statement of the claim's own; source %s states a published count, compared with the pooled rate", cl.Source)
	}
}

func (s SetClaim) String() string {
	switch s.Kind {
	case "share":
		if s.Each == "square" {
			if s.Share == 1 {
				return "from every start square"
			}
			return fmt.Sprintf("from more than %g of the start squares", s.Share)
		}
		return fmt.Sprintf("more than %g of the boards", s.Share)
	case "first-failure":
		return fmt.Sprintf("first failure at n = %d", s.FirstFailure)
	case "failing-share":
		return fmt.Sprintf("fails on under %g of the boards", s.FailingBelow)
	}
	return ""
}

// checkExcept checks a claim's except (sizes dropped from its sizes) and,
// where its source states the sizes of its statement, that the claim
// reads them as the source does.
func (c *Config) checkExcept(k *checker, key string, cl Claim) {
	sp, ok := parseSpan(cl.Sizes)
	if len(cl.Except) > 0 {
		switch {
		case cl.Sizes == "":
			k.errorf(key+".except", "except goes with sizes (a range of sizes it drops some of)")
		case ok:
			k.checkExceptList(key+".except", cl.Except, sp)
		}
	}
	p, found := c.publication(cl.Source)
	if found && p.Sizes == "" && cl.PartOfRange {
		k.errorf(key+".part_of_range", "source %s states no sizes; part_of_range goes with a claim on part of a stated range", cl.Source)
	}
	if found && p.Sizes == "" && cl.Sizes != "" && (cl.Share != nil || cl.FailingBelow != nil) {
		k.errorf(key+".sizes", "sizes %s, but source %s states no sizes; one statement has one encoding: want the sizes its words cover in the source (sizes, except)", cl.Sizes, cl.Source)
	}
	if !found || p.Sizes == "" {
		return
	}
	if cl.Sizes == "" {
		k.errorf(key, "source %s states sizes %s%s: a claim on it is tested over that range, not on one board; want sizes: %s%s (and share: 1 for every size)",
			cl.Source, p.Sizes, exceptText(p.Except), p.Sizes, exceptYAML(p.Except))
		return
	}
	if cl.PartOfRange {
		checkPartOfRange(k, key, cl, p)
		return
	}
	if cl.Sizes != p.Sizes || !slices.Equal(sortedInts(cl.Except), sortedInts(p.Except)) {
		k.errorf(key+".sizes", "sizes %s%s, but source %s states sizes %s%s; one statement has one encoding: want sizes: %s%s, or part_of_range: true for a claim on part of the stated range",
			cl.Sizes, exceptText(cl.Except), cl.Source, p.Sizes, exceptText(p.Except), p.Sizes, exceptYAML(p.Except))
	}
}

// checkExceptList checks sizes dropped from the range sp.
func (k *checker) checkExceptList(key string, except []int, sp span) {
	seen := map[int]bool{}
	for _, n := range except {
		switch {
		case n < sp.lo || n > sp.hi:
			k.errorf(key, "%d is not in sizes %d..%d; want sizes of the range to drop", n, sp.lo, sp.hi)
		case seen[n]:
			k.errorf(key, "%d again; list each size once", n)
		}
		seen[n] = true
	}
	if len(seen) >= sp.hi-sp.lo+1 {
		k.errorf(key, "drops every size of %d..%d; want some left", sp.lo, sp.hi)
	}
}

func sortedInts(x []int) []int {
	y := slices.Clone(x)
	slices.Sort(y)
	return y
}

func exceptText(x []int) string {
	if len(x) == 0 {
		return ""
	}
	return fmt.Sprintf(" except %v", strings.Trim(fmt.Sprint(sortedInts(x)), "[]"))
}

func exceptYAML(x []int) string {
	if len(x) == 0 {
		return ""
	}
	return fmt.Sprintf(", except: %v", strings.ReplaceAll(fmt.Sprint(sortedInts(x)), " ", ", "))
}
