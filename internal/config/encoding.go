package config

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// One statement, one encoding. A source of sources.yaml carries its
// statement's whole encoding in the keys of a claim: sizes and except,
// the per-board statement (rate, tolerance, range, below, above), the
// share of the sizes, first_failure or failing_below, the board, and
// per_board where the words give a reading. A claim citing it states
// each as the source does, or validation refuses it naming the key; a
// claim on part of a stated range of sizes says so (part_of_range: true)
// and the report says it.

// openHi is the upper end of an open size range ("112..").
const openHi = math.MaxInt32

// parseSourceSpan reads a source's sizes: LO..HI, or LO.. for every n from
// LO on.
func parseSourceSpan(s string) (span, bool) {
	if openSpan(s) {
		sp, ok := parseSpan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "..")))
		return span{sp.lo, openHi}, ok
	}
	return parseSpan(s)
}

// openSpan reports whether sizes is open above ("112..").
func openSpan(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "..") }

// checkPublicationEncoding checks the encoding keys of a source.
func checkPublicationEncoding(k *checker, key string, p Publication) {
	stated := 0
	for _, set := range []bool{p.Range != nil, p.Below != nil, p.Above != nil, p.Rate != nil && (p.Tolerance != nil || !hasCount(p))} {
		if set {
			stated++
		}
	}
	if p.Rate != nil && hasCount(p) && (p.Range != nil || p.Below != nil || p.Above != nil) {
		k.errorf(key, "a source with a published count (rate with trials or assumed_trials) is compared with that count; want no range, below or above beside it")
	}
	if stated > 1 {
		k.errorf(key, "want at most one of rate, range, below, above (the one per-board statement)")
	}
	if p.Tolerance != nil && (p.Rate == nil || !(*p.Tolerance >= 0 && *p.Tolerance < 1)) {
		k.errorf(key+".tolerance", "tolerance goes with rate, a value in [0, 1)")
	}
	if p.Range != nil && (len(p.Range) != 2 || !(p.Range[0] >= 0 && p.Range[0] < p.Range[1] && p.Range[1] <= 1)) {
		k.errorf(key+".range", "want [lo, hi] with 0 ≤ lo < hi ≤ 1")
	}
	if p.Below != nil && !(*p.Below > 0 && *p.Below <= 1) {
		k.errorf(key+".below", "%v: want 0 < below ≤ 1", *p.Below)
	}
	if p.Above != nil && !(*p.Above >= 0 && *p.Above < 1) {
		k.errorf(key+".above", "%v: want 0 ≤ above < 1", *p.Above)
	}
	if p.Share != nil && !(*p.Share >= 0 && *p.Share <= 1) {
		k.errorf(key+".share", "%v is not a share; want 0 ≤ share < 1 (more than this share of the sizes: 0.5 for most) or 1 (every size)", *p.Share)
	}
	if (p.Share != nil || p.FailingBelow != nil) && p.Sizes == "" {
		k.errorf(key+".sizes", "missing; a statement about a share of sizes states the sizes it covers (e.g. sizes: 5..49 for n < 50)")
	}
	if p.FailingBelow != nil && !(*p.FailingBelow > 0 && *p.FailingBelow <= 1) {
		k.errorf(key+".failing_below", "%v is not a share; want 0 < x ≤ 1", *p.FailingBelow)
	}
	if p.FirstFailure != nil && *p.FirstFailure < 1 {
		k.errorf(key+".first_failure", "%d is not a board size; want n ≥ 1", *p.FirstFailure)
	}
	if p.Board != "" {
		if _, ok := parseSize(p.Board); !ok {
			k.errorf(key+".board", "%q is not a board; want RxC, e.g. 8x8", p.Board)
		} else if p.Sizes != "" {
			k.errorf(key+".board", "board and sizes: a statement is about one board or a range of sizes")
		}
	}
	switch p.PerBoard {
	case "", "rate", "count":
	default:
		k.errorf(key+".per_board", "%q: valid: rate, count (leave it out where the words do not say)", p.PerBoard)
	}
	if r := p.Region; r != nil {
		switch {
		case len(r) != 2 || !(r[0] >= 0 && r[0] < r[1] && r[1] <= 1):
			k.errorf(key+".region", "want [lo, hi] with 0 ≤ lo < hi ≤ 1: the rates the source's own words place the statement in")
		case p.Margin != nil || p.PlanningRate != nil:
			k.errorf(key+".region", "a region plans the margin; want margin, planning_rate or region, one of them")
		case strings.TrimSpace(p.RegionWhy) == "":
			k.errorf(key+".region_why", "missing; say which words of the source place the rate in %v (stated before our data, not the count itself)", r)
		}
	} else if p.RegionWhy != "" {
		k.errorf(key+".region_why", "region_why goes with region only")
	}
}

// hasCount reports whether p gives a count to compare with: a rate with
// trials, given or assumed.
func hasCount(p Publication) bool {
	_, _, _, ok := p.Count()
	return ok
}

// checkEncoding checks that a claim states its source's encoding: every
// key of the statement as the source states it. A source that states
// none is refused too: a claim cannot be checked against it.
func (c *Config) checkEncoding(k *checker, key string, cl Claim, boards []size) {
	p, found := c.publication(cl.Source)
	if !found {
		if cl.PartOfRange {
			k.errorf(key+".part_of_range", "part_of_range goes with a source id whose statement states its sizes")
		}
		return
	}
	src := cl.Source
	count := hasCount(p) && p.Sizes == "" && cl.Sizes == "" && cl.Share == nil && cl.FirstFailure == nil && cl.FailingBelow == nil
	if !count && p.Rate == nil && p.Range == nil && p.Below == nil && p.Above == nil && p.FirstFailure == nil && p.FailingBelow == nil {
		k.errorf(key+".source", "source %s carries no encoding of its statement (none of rate, range, below, above, first_failure, failing_below); add the statement's encoding to the source (sizes, except, share where it speaks of a range) so that claims on it can be checked against it", src)
		return
	}
	f := func(x *float64) string {
		if x == nil {
			return ""
		}
		return fmt.Sprint(*x)
	}
	fr := func(x []float64) string {
		if x == nil {
			return ""
		}
		return fmt.Sprint(x)
	}
	fi := func(x *int) string {
		if x == nil {
			return ""
		}
		return fmt.Sprint(*x)
	}
	tol := func(x *float64) string {
		if x == nil || *x == 0 {
			return ""
		}
		return fmt.Sprint(*x)
	}
	type field struct{ name, claim, source string }
	fields := []field{
		{"rate", f(cl.Rate), f(p.Rate)},
		{"tolerance", tol(cl.Tolerance), tol(p.Tolerance)}, // 0 is none
		{"range", fr(cl.Range), fr(p.Range)},
		{"below", f(cl.Below), f(p.Below)},
		{"above", f(cl.Above), f(p.Above)},
		{"share", f(cl.Share), f(p.Share)},
		{"first_failure", fi(cl.FirstFailure), fi(p.FirstFailure)},
		{"failing_below", f(cl.FailingBelow), f(p.FailingBelow)},
	}
	if count {
		// compared with the published count: the claim states nothing of its own
		for _, x := range fields {
			if x.claim != "" {
				k.errorf(key+"."+x.name, "%s: %s, but source %s states a count (%s), which a claim on it is compared with; want %s left out (one statement, one encoding)", x.name, x.claim, src, countText(p), x.name)
			}
		}
	} else {
		for _, x := range fields {
			switch {
			case x.claim == x.source:
			case x.source == "":
				k.errorf(key+"."+x.name, "%s: %s, but source %s states no %s; one statement has one encoding: want %s left out, or the source's statement encoded with it", x.name, x.claim, src, x.name, x.name)
			case x.claim == "":
				k.errorf(key+"."+x.name, "missing; source %s states %s: %s; one statement has one encoding: want %s: %s", src, x.name, x.source, x.name, x.source)
			default:
				k.errorf(key+"."+x.name, "%s: %s, but source %s states %s: %s; one statement has one encoding: want %s: %s", x.name, x.claim, src, x.name, x.source, x.name, x.source)
			}
		}
	}
	if p.PerBoard != "" {
		pb := cl.PerBoard
		if pb == "" {
			pb = "rate"
		}
		if pb != p.PerBoard {
			k.errorf(key+".per_board", "per_board: %s, but source %s's words give the reading per_board: %s; want per_board: %s", pb, src, p.PerBoard, p.PerBoard)
		}
	}
	c.checkEncodingBoard(k, key, cl, p, boards)
}

// checkEncodingBoard checks a claim's board against its source's.
func (c *Config) checkEncodingBoard(k *checker, key string, cl Claim, p Publication, boards []size) {
	switch {
	case p.Board == "" && cl.Board != "" && p.Sizes == "":
		k.errorf(key+".board", "board: %s, but source %s states no board; want the board in the source's encoding (board: %s), or the claim without it", cl.Board, cl.Source, cl.Board)
	case p.Board == "":
	case cl.Board != "":
		want, _ := parseSize(p.Board)
		if got, ok := parseSize(cl.Board); ok && got != want {
			k.errorf(key+".board", "board: %s, but source %s states board: %s; one statement has one encoding: want board: %s", cl.Board, cl.Source, p.Board, p.Board)
		}
	case cl.Sizes == "" && !c.partial("boards"):
		want, _ := parseSize(p.Board)
		if slices.ContainsFunc(boards, func(b size) bool { return b != want }) {
			k.errorf(key+".board", "missing; source %s states board: %s, and this experiment has other boards; want board: %s", cl.Source, p.Board, p.Board)
		}
	}
}

func countText(p Publication) string {
	k, n, assumed, _ := p.Count()
	s := fmt.Sprintf("%d of %d", k, n)
	if assumed {
		s += ", trials assumed"
	}
	return s
}

// checkPartOfRange checks a claim on part of its source's stated range
// (part_of_range: true): its sizes lie in the source's, and every size
// the source excepts that lies among them is excepted too.
func checkPartOfRange(k *checker, key string, cl Claim, p Publication) {
	cs, ok1 := parseSpan(cl.Sizes)
	ps, ok2 := parseSourceSpan(p.Sizes)
	if !ok1 || !ok2 {
		return
	}
	if cs.lo < ps.lo || cs.hi > ps.hi {
		k.errorf(key+".sizes", "sizes %s are not part of source %s's sizes %s%s; want sizes within that range", cl.Sizes, cl.Source, p.Sizes, exceptText(p.Except))
		return
	}
	for _, n := range p.Except {
		if n >= cs.lo && n <= cs.hi && !slices.Contains(cl.Except, n) {
			k.errorf(key+".except", "source %s excepts n = %d, which sizes %s include; want it excepted too (except: [..., %d])", cl.Source, n, cl.Sizes, n)
		}
	}
	if cs == ps && slices.Equal(sortedInts(cl.Except), sortedInts(p.Except)) {
		k.errorf(key+".part_of_range", "sizes %s%s are source %s's whole range; want part_of_range left out", cl.Sizes, exceptText(cl.Except), cl.Source)
	}
}

// PartOfRangeText says, for the report, that a claim tests part of its
// source's stated range: "part of the stated range 112.."; "" where it
// tests the whole.
func (c *Config) PartOfRangeText(cl Claim) string {
	if !cl.PartOfRange {
		return ""
	}
	p, ok := c.publication(cl.Source)
	if !ok {
		return ""
	}
	return "part of the stated range " + p.Sizes + exceptText(p.Except)
}
