package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// report renders report.md: what ran, the class aggregates and
// comparisons with intervals, and the claim verdicts; warnings (the
// manifest's) go under the summary line.
func report(s *config.Experiment, t *Tables, warnings []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.Name)
	if d := strings.TrimSpace(s.Description); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	var boards, rules []string
	for _, bd := range s.Boards {
		boards = append(boards, bd.String())
	}
	for _, n := range ruleNames(s) {
		rules = append(rules, "`"+n+"`")
	}
	walks := fmt.Sprintf("%d walks per start square", s.Walks)
	if q := s.Sequential; q != nil {
		walks = fmt.Sprintf("sequential until %s, %d to %d walks per start square", q.Until, q.Min, q.Max)
	}
	fmt.Fprintf(&b, "Boards %s; rules %s; %s; seed %d; %s intervals at %g %% confidence; config %.12s.\n\n",
		strings.Join(boards, ", "), strings.Join(rules, ", "), walks, s.Seed, s.Method, 100*s.Confidence, s.ConfigHash)
	for _, w := range warnings {
		fmt.Fprintf(&b, "**Warning:** %s.\n\n", w)
	}

	if len(t.Claims) > 0 {
		b.WriteString("## Claims\n\n| claim | reading | source | rule | board | target | claimed | measured [interval] | exact | walks | decided by | verdict | p (Holm, family) | verdict (Holm) |\n|---|---|---|---|---|---|---|---|---|---:|---|---|---|---|\n")
		for _, c := range t.Claims {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | **%s** |\n", c.ID, ReadingName(c), claimSourceTextIn(s, c), c.Rule, c.Board, c.Target,
				ClaimedText(c), MeasuredText(c), ExactText(c), CountText(c.Walks), c.DecidedBy, c.Verdict, HolmText(c), c.VerdictHolm)
		}
		b.WriteString("\nWhat decided each verdict: *exact*, the exact value (by enumeration) lies in the claimed set (*consistent*) or not (*refuted*), with no sampling error; *bounds*, the certified bounds of an enumeration too large to finish (its least probable states dropped, their probability unresolved) lie wholly inside the claimed set or wholly outside it, with no sampling error either; *walk*, a deterministic rule, whose one walk per start is the answer (no interval); *sample*, the measured interval: *consistent* when it lies inside the claimed set, *refuted* when it lies wholly outside, *inconclusive* otherwise (a point claim is consistent when the interval contains it), each at the stated confidence for that claim alone; the last two columns adjust the sampled verdicts by Holm's method within each claim family (key `family`; by default all claims of the run), which bounds the chance of any wrong sampled verdict in a family by 1 − confidence. A claim about a share of boards is consistent when the boards whose interval meets the statement are already more than that share, refuted when the boards whose interval does not contradict it are not. A claim on a published statement (its source an id of experiments/sources.yaml) says *reproduced* or *not reproduced*, under the reading named; one with a published count is *not reproduced* where the difference is significant, *reproduced* only where two one-sided tests show our rate within the source's equivalence margin of theirs, else *inconclusive*, with the difference the run could detect and the walks that would decide it (docs/design.md, Inference); a claim on a source marked *not verified* says so beside its source; a *fitted* reading was chosen because it reproduces the number and is no support.\n\n")
	}

	writeCountShares(&b, t)
	writeSequential(&b, s, t)
	writeExactCoverage(&b, s, t, t.squareSums())
	if len(s.Rules) > maxReportRules {
		writeDesignNote(&b, s)
		writeDesigns(&b, s, t)
		b.WriteString("\nTables: squares, lengths, deadends, classes, boards, comparisons, claims, designs (Parquet, see docs/tables.md); manifest.json records the config and timings.\n")
		return b.String()
	}
	shared := sharedNames(s)
	b.WriteString("## Success by start class\n\n| board | rule | group | squares | walks | success [interval] | closed [interval] | mean length |\n|---|---|---|---:|---:|---|---|---:|\n")
	for _, c := range t.Classes {
		if c.GroupBy != "class" {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %s | %.2f |\n", c.Board, ruleLabel(c.Rule, c.Params.Spec, shared), c.Group, c.Squares, c.Walks,
			RateText(c.SuccessRate, c.SuccessLo, c.SuccessHi), RateText(c.ClosedRate, c.ClosedLo, c.ClosedHi), c.LengthMean)
	}
	b.WriteString("\n## Success by start degree\n\n| board | rule | degree | squares | walks | success [interval] |\n|---|---|---:|---:|---:|---|\n")
	for _, c := range t.Classes {
		if c.GroupBy == "degree" {
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s |\n", c.Board, ruleLabel(c.Rule, c.Params.Spec, shared), c.Group, c.Squares, c.Walks, RateText(c.SuccessRate, c.SuccessLo, c.SuccessHi))
		}
	}
	writeComparisons(&b, t.Comparisons, "groups", "\n## Class comparisons\n\n| board | rule | A | B |", shared, s.ComparisonFamily)
	writeComparisons(&b, t.Comparisons, "rules", "\n## Rule comparisons\n\n| board | class | A | B |", shared, s.ComparisonFamily)
	writeSweeps(&b, Sweeps(s, t.Squares))
	writeShapes(&b, t.Squares)
	writeGrids(&b, s, t.Squares)
	if len(s.Designs) > 0 {
		b.WriteString("\n")
		writeDesigns(&b, s, t)
	}
	b.WriteString("\nTables: squares, lengths, deadends, classes, boards, comparisons, claims (Parquet, see docs/tables.md); manifest.json records the config and timings.\n")
	return b.String()
}

// ShapeCell is one board of a rule's success by board shape: its start
// squares that can start a tour, pooled.
type ShapeCell struct {
	Walks, Successes int64
	Exact            float64 // Σ walks × exact rate; NaN once a pooled square has none
}

// ShapeCells pools squares per rule and board (rows, cols) over the
// squares that can start a tour: on a board with an odd number of squares
// those of the corners' colour, the others being 0 by structure (counting
// them would make odd boards look worse for no reason of the rule's).
// exact gives a square's exact success probability (NaN where unknown).
// Rules are listed in the order they first appear. The report's "Success
// by board shape" and the size-curve figure's shape map both use it.
func ShapeCells(squares []table.SquareRow, exact func(table.SquareRow) float64) ([]string, map[string]map[[2]int]*ShapeCell) {
	byRule := map[string]map[[2]int]*ShapeCell{}
	var rules []string
	for _, s := range squares {
		m := byRule[s.Rule]
		if m == nil {
			m = map[[2]int]*ShapeCell{}
			byRule[s.Rule] = m
			rules = append(rules, s.Rule)
		}
		rows, cols := int(s.Rows), int(s.Cols)
		if rows*cols%2 == 1 && (s.StartRow+s.StartCol)%2 == 1 {
			continue
		}
		c := m[[2]int{rows, cols}]
		if c == nil {
			c = &ShapeCell{}
			m[[2]int{rows, cols}] = c
		}
		c.Walks += s.Walks
		c.Successes += s.Successes
		c.Exact += float64(s.Walks) * exact(s)
	}
	return rules, byRule
}

// ShapeAxes returns the heights and widths of a rule's cells, ascending,
// and whether they make a map: two heights and two widths at least, some
// board not square.
func ShapeAxes(cells map[[2]int]*ShapeCell) (hs, ws []int, ok bool) {
	h, w, rect := map[int]bool{}, map[int]bool{}, false
	for k := range cells {
		h[k[0]], w[k[1]] = true, true
		rect = rect || k[0] != k[1]
	}
	return slices.Sorted(maps.Keys(h)), slices.Sorted(maps.Keys(w)), len(h) >= 2 && len(w) >= 2 && rect
}

// writeShapes writes, per rule of a run over rectangular boards (two row
// counts and two column counts at least, one board not square), its
// success rate as a matrix of rows × columns (ShapeCells): the square
// boards are its diagonal, so a size curve is seen as a slice of it.
func writeShapes(b *strings.Builder, squares []table.SquareRow) {
	rules, byRule := ShapeCells(squares, func(s table.SquareRow) float64 { return s.ExactSuccess })
	for _, rule := range rules {
		cells := byRule[rule]
		mList, nList, ok := ShapeAxes(cells)
		if !ok {
			continue
		}
		fmt.Fprintf(b, "\n## Success by board shape: %s\n\nSuccess rate (%%) of each rows × columns board, pooled over the run's start squares that can start a tour (on a board with an odd number of squares, those of the corners' colour); * exact, where every pooled square's value is known; square boards on the diagonal.\n\n| rows \\ cols |", rule)
		for _, n := range nList {
			fmt.Fprintf(b, " %d |", n)
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(nList)) + "\n")
		for _, m := range mList {
			fmt.Fprintf(b, "| %d |", m)
			for _, n := range nList {
				c, ok := cells[[2]int{m, n}]
				switch {
				case !ok || c.Walks == 0:
					b.WriteString(" |")
				case !math.IsNaN(c.Exact):
					fmt.Fprintf(b, " %.2f* |", 100*c.Exact/float64(c.Walks))
				default:
					fmt.Fprintf(b, " %.2f |", 100*float64(c.Successes)/float64(c.Walks))
				}
			}
			b.WriteString("\n")
		}
	}
}

// writeSequential reports a sequential run's walks: used in all, against
// a fixed run of max walks per square, and why the squares stopped.
func writeSequential(b *strings.Builder, s *config.Experiment, t *Tables) {
	q := s.Sequential
	if q == nil {
		return
	}
	var used, fixed uint64
	why := map[string]int{}
	for _, r := range t.Squares {
		used += uint64(r.Walks)
		if !r.Deterministic {
			fixed += uint64(q.Max)
		} else {
			fixed += uint64(r.Walks)
		}
		why[r.Stop]++
	}
	fmt.Fprintf(b, "## Walks used\n\nThe run stopped each start square on its own, when decided (`walks: {until: %s}`): %d walks in all, %.3g %% of the %d a fixed run of max = %d walks per square would take. Squares by why they stopped:", q.Until, used, 100*float64(used)/float64(fixed), fixed, q.Max)
	for _, r := range table.StopReasons {
		if why[r] > 0 {
			fmt.Fprintf(b, " %s %d;", r, why[r])
		}
	}
	b.WriteString(" (docs/tables.md, `stop`). The claims are decided by the always-valid interval (beta-binomial confidence sequence), which holds its level at whatever walk count the run stopped; the fixed-n intervals in the tables do not, and are shown for reference only.\n\n")
}

// writeComparisons adds the comparisons of one kind ("groups": classes
// under one rule; "rules": rules on one class) under head, which names the
// first four columns. family is the experiment's comparison_family, which
// the note under the table states.
func writeComparisons(b *strings.Builder, rows []table.ComparisonRow, kind, head string, shared map[string]bool, family string) {
	n := 0
	for _, c := range rows {
		if c.Compare != kind {
			continue
		}
		if n == 0 {
			b.WriteString(head + " rate A | rate B | A − B [interval] | p-value | Holm p |\n|---|---|---|---|---:|---:|---|---:|---:|\n")
		}
		n++
		ra, rb := ruleLabel(c.RuleA, c.RuleSpecA, shared), ruleLabel(c.RuleB, c.RuleSpecB, shared)
		by, a, bb := ra, c.GroupA, c.GroupB // classes of one rule
		if kind == "rules" {
			by, a, bb = c.GroupA, ra, rb // rules on one class
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %.4f | %.4f | %+.4f [%+.4f, %+.4f] | %s | %s |\n",
			c.Board, by, a, bb, c.RateA, c.RateB, c.Diff, c.DiffLo, c.DiffHi, PText(c.PValue), PText(c.PHolm))
	}
	if n > 0 {
		b.WriteString("\nHolm p: " + holmFamilyText(kind, family) + "\n")
	}
}

// holmFamilyText says over which comparisons a comparison's Holm p is
// adjusted, as comparisonFamily groups them (the comparisons table's
// family column).
func holmFamilyText(kind, family string) string {
	const adjusted = "the p-value adjusted by Holm's method "
	switch {
	case family == "run":
		return adjusted + "over every comparison of the run, both tables (`comparison_family: run`)."
	case family == "board":
		return adjusted + "over every comparison on its board, both tables (`comparison_family: board`)."
	case kind == "groups":
		return adjusted + "within its family, the class comparisons of one rule on one board (`comparison_family: question`, the default; `family` in comparisons.parquet)."
	}
	return adjusted + "within its family, the rule comparisons of one class on one board (`comparison_family: question`, the default; `family` in comparisons.parquet)."
}

// writeGrids adds a board-shaped success-rate table per (board, rule) for
// boards small enough to read.
func writeGrids(b *strings.Builder, s *config.Experiment, rows []table.SquareRow) {
	shared := sharedNames(s)
	for bi, bd := range s.Boards {
		if bd.Cols > 12 || bd.Rows > 12 {
			continue
		}
		for ri, r := range s.Rules {
			g := map[[2]int32]float64{}
			if first := squareIndex(s, bi, ri); first >= 0 && first+len(s.Starts[bi]) <= len(rows) {
				for _, sq := range rows[first : first+len(s.Starts[bi])] {
					g[[2]int32{sq.StartRow, sq.StartCol}] = sq.SuccessRate
				}
			}
			fmt.Fprintf(b, "\n## Success rate by start square: %s, %s\n\n", bd, ruleLabel(r.Name(), Params(r).Spec, shared))
			writeBoardTable(b, bd, func(row, col int) (string, bool) {
				v, ok := g[[2]int32{int32(row), int32(col)}]
				return fmt.Sprintf("%.3f", v), ok
			})
		}
	}
}

// sharedNames returns the rule names that several rules of s share (the
// cells of a design), which the report writes as their rule_spec.
func sharedNames(s *config.Experiment) map[string]bool {
	count := map[string]int{}
	for _, r := range s.Rules {
		count[r.Name()]++
	}
	shared := map[string]bool{}
	for n, c := range count {
		if c > 1 {
			shared[n] = true
		}
	}
	return shared
}

// ruleLabel is the rule's name, or its rule_spec where its name is shared.
func ruleLabel(name, spec string, shared map[string]bool) string {
	if shared[name] {
		return spec
	}
	return name
}

// writeCountShares shows what decided each share claim read as its
// source's counts (a row saying "100 % of boards plausible" hid
// that one size passed only through the α/Miss threshold): every size's
// probability of the stated count under our rate, that times Miss, the
// threshold, and the size's outcome.
func writeCountShares(b *strings.Builder, t *Tables) {
	if len(t.CountShares) == 0 {
		return
	}
	b.WriteString("## Share claims read as counts: what decided them\n\n")
	for _, d := range t.CountShares {
		r := d.Result
		name := d.ID
		if d.Reading != "" {
			name += " (" + d.Reading + ")"
		}
		fmt.Fprintf(b, "**%s**: the source's count %s on more than the share of sizes stated, %d sizes, i.e. on at least %d of them. The statement is judged as a whole: the probability, under our rates, that the source's counts show that pattern is at most %s (the largest over our rates' confidence sets; the p-value) and at least %s (the smallest); it is *not reproduced* where the largest is ≤ α = %.3g, *reproduced* where the smallest is above α, else inconclusive. Each size alone, for reference: P is the probability of such a count under our rate (the largest over our rate's confidence set where it is sampled); a true statement cannot miss any %d sizes, so a size is *rejected* where %d × P ≤ α, i.e. P ≤ %.3g, and *plausible* where %d times its smallest P is above α.\n\n",
			name, d.Count, r.Boards, r.Needed, PText(r.Joint), PText(r.JointLeast), d.Alpha, r.Miss, r.Miss, d.Alpha/float64(r.Miss), r.Miss)
		fmt.Fprintf(b, "| board | P(count as stated) | × %d | our side | outcome |\n|---|---:|---:|---|---|\n", r.Miss)
		near := 0
		for i, bd := range d.Boards {
			outcome := "open"
			switch {
			case r.Adjusted[i] <= d.Alpha:
				outcome = "**rejected**"
			case r.Decided[i]:
				outcome = "plausible"
			}
			if r.Adjusted[i] > d.Alpha && r.P[i] <= d.Alpha {
				outcome += " (P ≤ α: passes only by the adjustment)"
				near++
			}
			side := "sampled"
			if r.IsExact[i] {
				side = "exact"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", bd, PText(r.P[i]), PText(r.Adjusted[i]), side, outcome)
		}
		if near > 0 {
			fmt.Fprintf(b, "\n%d size(s) have P ≤ α on their own and pass only because a true statement may miss up to %d sizes.\n", near, r.Miss-1)
		}
		b.WriteString("\n")
	}
}

// HolmText is a claim's Holm-adjusted p-value and family, or "" for a
// claim that has none (decided exactly, by a walk, or a set of boards).
func HolmText(c table.ClaimRow) string {
	if math.IsNaN(c.PHolm) {
		return ""
	}
	return fmt.Sprintf("%s (%s)", PText(c.PHolm), c.Family)
}

// exactText prints an exact value, or "" where there is none.
// ExactText is a claim's exact value for the report, or its certified
// bounds where only those are known: "[95.50%, 98.00%] certified".
func ExactText(c table.ClaimRow) string {
	if math.IsNaN(c.Exact) && !math.IsNaN(c.ExactLower) && !math.IsNaN(c.ExactUpper) {
		return fmt.Sprintf("[%s, %s] certified", boundText(c.ExactLower), boundText(c.ExactUpper))
	}
	return exactText(c.Exact)
}

// boundText writes a bound as a percentage with four decimals, or four
// significant digits where that would print a positive bound as 0.
func boundText(x float64) string {
	if x > 0 && x < 1e-6 {
		return fmt.Sprintf("%.4g%%", 100*x)
	}
	return fmt.Sprintf("%.4f%%", 100*x)
}

func exactText(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return fmt.Sprintf("%.4f%%", 100*x)
}

// writeExactCoverage says how many squares have exact values, how many of
// their sampled intervals cover them (about the confidence level of them
// should), and which (board, rule)s did not fit the enumeration.
func writeExactCoverage(b *strings.Builder, s *config.Experiment, t *Tables, sums squareSums) {
	exact, covered := sums.exact, sums.covered
	if exact == 0 && len(t.ExactNotes) == 0 {
		return
	}
	b.WriteString("## Exact values\n\n")
	if exact > 0 {
		fmt.Fprintf(b, "%d squares have exact success probabilities (experiment key `exact: %s`); the sampled interval covers the exact value on %d of them (%.1f%%; about %g%% expected).\n\n",
			exact, s.Exact, covered, 100*float64(covered)/float64(exact), 100*s.Confidence)
	}
	for _, n := range t.ExactNotes {
		fmt.Fprintf(b, "- %s\n", n)
	}
	if len(t.ExactNotes) > 0 {
		b.WriteString("\n")
	}
}

// MeasuredText is a claim row's measurement: a rate with its interval; a
// share of boards with the share decided by the per-board intervals; a
// deterministic sweep's first failing n or failing share.
func MeasuredText(c table.ClaimRow) string {
	switch c.Kind {
	case "share":
		if c.Test != "" { // read as the source's counts: the joint test decides
			return countShareMeasured(c)
		}
		return fmt.Sprintf("%.1f%% of %s [decided %.1f, %.1f]", 100*c.Measured, shareOf(c), 100*c.Lo, 100*c.Hi)
	case "first-failure":
		if c.Measured == 0 {
			return "no board fails"
		}
		return fmt.Sprintf("n = %g", c.Measured)
	case "failing-share":
		return fmt.Sprintf("%.2f%% of boards fail", 100*c.Measured)
	}
	text := RateText(c.Measured, c.Lo, c.Hi)
	if !math.IsNaN(c.CSLo) { // a sequential run: the always-valid interval decides
		text = RateText(c.Measured, c.CSLo, c.CSHi) + " always valid"
	}
	if math.IsNaN(c.Lo) { // decided by a deterministic rule's walks: no interval
		text = fmt.Sprintf("%.3f%%", 100*c.Measured)
	}
	if c.Kind == "published" {
		text += fmt.Sprintf(" vs %s: %s, p = %s (%s)", PublishedText(c), diffText(c), PText(c.PValue), c.Test)
		if !math.IsNaN(c.Margin) {
			text += fmt.Sprintf("; within ±%.1f points (%s): p = %s", 100*c.Margin, marginAllows(c), PText(max(c.PEquivLower, c.PEquivUpper)))
		}
		if c.Verdict == stats.Inconclusive {
			text += fmt.Sprintf("; detectable ±%.1f points", 100*c.Detectable)
			if c.WalksNeeded.Valid {
				text += fmt.Sprintf(", about %d walks would decide it", c.WalksNeeded.Int64)
			} else {
				text += ", no number of walks would decide it (the published trials are too few)"
			}
		}
	}
	return text
}

// PublishedText is the count a claim was compared with: "75/100 (trials
// assumed)".
func PublishedText(c table.ClaimRow) string {
	s := fmt.Sprintf("%d/%d", c.PublishedSuccesses.Int64, c.PublishedTrials.Int64)
	if c.TrialsAssumed {
		s += " (trials assumed)"
	}
	return s
}

// diffText is our rate minus the published one, in points, with its
// interval where there is one.
func diffText(c table.ClaimRow) string {
	if c.DiffLo == c.DiffHi {
		return fmt.Sprintf("difference %+.1f points", 100*c.DiffLo)
	}
	return fmt.Sprintf("difference [%+.1f, %+.1f] points", 100*c.DiffLo, 100*c.DiffHi)
}

// shareOf is what a share claim's row counts: "start squares" for a
// claim quantified over its squares (each: square, whose target says
// "from every start square" or "from more than ... of the start
// squares"), else "boards".
func shareOf(c table.ClaimRow) string {
	if strings.Contains(c.Target, eachSquareMark) {
		return "start squares"
	}
	return "boards"
}

// eachSquareMark is the words every each: square claim's target carries
// (config.SetClaim.String), which tell its rows from a share of boards.
const eachSquareMark = " start square"

// ClaimedText is what a claim states, as the report and the consoles
// print it: "below 20%", "on every board", "first failure at n = 5".
func ClaimedText(c table.ClaimRow) string {
	switch c.Kind {
	case "share":
		if c.ClaimedLo == 1 {
			return "on every " + strings.TrimSuffix(shareOf(c), "s")
		}
		return fmt.Sprintf("on more than %.3g%% of %s", 100*c.ClaimedLo, shareOf(c))
	case "first-failure":
		return fmt.Sprintf("first failure at n = %g", c.ClaimedLo)
	case "failing-share":
		return fmt.Sprintf("fails on under %.3g%% of boards", 100*c.ClaimedHi)
	case "below":
		return fmt.Sprintf("below %.3g%%", 100*c.ClaimedHi)
	case "above":
		return fmt.Sprintf("above %.3g%%", 100*c.ClaimedLo)
	case "published":
		return PublishedText(c)
	case "rate":
		if c.ClaimedLo == c.ClaimedHi {
			return fmt.Sprintf("%.3g%%", 100*c.ClaimedLo)
		}
	}
	return fmt.Sprintf("%.3g–%.3g%%", 100*c.ClaimedLo, 100*c.ClaimedHi)
}

// SourceText spells out a claim's source: for an id of
// experiments/sources.yaml the publication, its page and the statement;
// other sources are words already.
func SourceText(source string) string {
	return sourceText(source)
}

// ClaimSourceText is SourceText of a claim row, marked where its source's
// page is not verified (never a "published" statement without the word).
func ClaimSourceText(c table.ClaimRow) string {
	s := SourceText(c.Source)
	if c.Unverified {
		s += " (source not verified: we have not seen its page)"
	}
	return s
}

// claimSourceTextIn is ClaimSourceText with the statements of the
// experiment's own sources file (key sources) spelled out too.
func claimSourceTextIn(e *config.Experiment, c table.ClaimRow) string {
	p, ok := e.LookupSource(c.Source)
	if _, builtin := config.LookupSource(c.Source); !ok || builtin {
		return ClaimSourceText(c)
	}
	s := fmt.Sprintf("%s: %s (the experiment's own sources file)", p.Citation(), p.Statement)
	if c.Unverified {
		s += " (source not verified: we have not seen its page)"
	}
	return s
}

func sourceText(source string) string {
	p, ok := config.LookupSource(source)
	if !ok {
		return source
	}
	return fmt.Sprintf("%s: %s", p.Citation(), p.Statement)
}

// ReadingName is a claim row's reading as the tables print it: its name,
// "as written" for a claim listed once without one, "(fitted)" where it
// was chosen because it reproduces the number.
func ReadingName(c table.ClaimRow) string {
	name := c.Reading
	if name == "" {
		name = "as written"
	}
	if c.Fitted {
		name += " (fitted)"
	}
	return name
}

// countShareMeasured says what decided a share claim read as its source's
// counts: the joint p-value (the largest probability of their pattern of
// counts over our rates' confidence sets; not reproduced where it is at
// most α) and the sizes that disagree (their count implausible alone,
// named in the target), then the share of sizes each plausible alone,
// which describes the sizes and is not the verdict.
func countShareMeasured(c table.ClaimRow) string {
	text := fmt.Sprintf("joint p = %s (the largest probability of their pattern of counts under our rates)", PText(c.PValue))
	if _, d, ok := strings.Cut(c.Target, "; sizes that disagree: "); ok {
		text += "; sizes that disagree: " + d
	} else {
		text += "; no size disagrees alone"
	}
	return text + fmt.Sprintf("; sizes alone: %.1f%% plausible, %.1f%% not rejected (not the verdict)", 100*c.Lo, 100*c.Hi)
}

// marginAllows says what a published comparison's equivalence margin
// allows: the rates within it of the published one, and which one-sided
// test is void where the margin runs past 0 % or 100 % (no rate lies
// there, so only the other test can fail): "allows 95.1–100 %, the upper
// test void".
func marginAllows(c table.ClaimRow) string {
	r := c.ClaimedLo // the published rate
	lo, hi := r-c.Margin, r+c.Margin
	text := fmt.Sprintf("allows %.1f–%.1f %%", 100*max(0, lo), 100*min(1, hi))
	switch {
	case lo <= 0 && hi >= 1:
		text += ", both tests void: it allows every rate"
	case hi >= 1:
		text += ", the upper test void"
	case lo <= 0:
		text += ", the lower test void"
	}
	return text
}
