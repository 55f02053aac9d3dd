package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// Experiment is an experiment file resolved once: every value typed, every
// claim tied to a rule and boards of the run and to the squares it pools.
// Everything after config (runner, results) reads only this, so what
// Validate accepts is exactly what a run does.
type Experiment struct {
	Name        string
	Description string
	Seed        uint64
	Boards      []*sim.Board
	Rules       []sim.Rule
	Estimators  []Estimator  // per rule: plain walks, or splitting (estimator.go)
	Designs     []Design     // the rule entries that are designs (design.go), in file order
	Sieve       []SieveStage // a sieve's stages (sieve.go); nil for any other experiment
	Starts      [][]int      // start squares per board, ascending
	Walks       uint64       // walks per (board, rule, start); a sequential run's most
	Sequential  *Sequential  // walks: {until: ...}; nil for a fixed number of walks
	Confidence  float64
	Method      stats.Method
	Exact       string // auto, on, bounds or off (ExactModes)
	ExactBudget int64  // states per start for exact: on or bounds (0: exact.DefaultBudget)
	// ComparisonFamily is the comparisons' Holm family: question, board
	// or run (ComparisonFamilies).
	ComparisonFamily string
	Checks           []Check // the claims, resolved, in file order
	PerWalk          bool    // write the per-walk table
	RowGroup         int     // rows per row group of the per-walk table; 0: the writer's default
	Figures          []string

	ConfigHash string    // identifies the resolved config in outputs and parts
	WorkHash   string    // ConfigHash without the description: keys checkpoints (Config.WorkHash)
	Config     Canonical // the resolved config, for manifests
	SourceFile string    // the experiment file's name
	// OwnSources are the statements of the experiment's own sources file
	// (key sources), beside the built-in ones (LookupSource).
	OwnSources []Publication
	Source     []byte // the experiment file as written, carried into shard parts
}

// Design is a rule entry that crosses lists of parameter values: its
// cells are the rules Rules[First : First+N].
type Design struct {
	Key  string // the entry's key in the file, "rules[0]"
	Rule string // its rule name as written, "warnsdorff"
	// Spec is the entry as the tables' rule_spec writes a rule, its design
	// factors' values in braces: "warnsdorff;tie_break=first;order=all".
	Spec     string
	First, N int
}

// DefaultFamily is the Holm family of a claim that names none: every
// claim of the run.
const DefaultFamily = "all"

// LookupSource returns the published statement id names: one of the
// experiment's own sources file, or of the built-in one.
func (e *Experiment) LookupSource(id string) (Publication, bool) {
	if i := slices.IndexFunc(e.OwnSources, func(p Publication) bool { return p.ID == id }); i >= 0 {
		return e.OwnSources[i], true
	}
	return LookupSource(id)
}

// Check is one claim resolved against the experiment: the rule it is about
// (an index into Experiment.Rules), the boards (indices into
// Experiment.Boards, in order) and, per board, the start squares it pools.
type Check struct {
	ID, Source string
	Reading    string // the reading's name ("" for a claim listed once without one)
	Fitted     bool   // the reading was chosen because it reproduces the number
	Unverified bool   // its source's page is not verified (sources.yaml)
	Family     string // the Holm family of its sampled verdicts (DefaultFamily unless the file names one)
	Rule       int
	Boards     []int
	Squares    [][]int     // per entry of Boards, ascending, never empty
	Claim      stats.Claim // the per-board statement; unset for first-failure, failing-share and published
	Set        SetClaim    // a statement about the set of Boards, if any
	// Published is the statement the claim's source names in
	// experiments/sources.yaml, if any (nil for a source in words). Compare
	// says the claim states nothing itself: each board's rate is compared
	// with Published's count (Publication.Count) as two samples.
	Published *Publication
	Compare   bool
	// Count is set where a share claim reads its per-board statement as
	// the source's count (key per_board: count): the counts of the
	// source's trials per board that meet it. CountAssumed says the trials
	// are assumed (sources.yaml gives its reason).
	Count        *stats.CountSet
	CountAssumed bool
	// PartOfRange says the claim tests part of its source's stated range
	// ("part of the stated range 112.."), "" where it tests the whole.
	PartOfRange string
	target      target
}

// Target returns the claim's target as the claims table writes it on board
// b: "class:centre", "square:d4" or "degree:8".
func (ch Check) Target(b *sim.Board) string {
	switch t := ch.target; t.kind {
	case "all":
		return "all"
	case "class":
		return "class:" + t.class.String()
	case "square":
		return "square:" + b.SquareName(b.Square(t.square.r, t.square.c))
	}
	return fmt.Sprintf("degree:%d", ch.target.degree)
}

// Resolve validates c and resolves it into an Experiment; file and src are
// the experiment file's name and contents, carried into outputs. The error
// is the same Errors that Validate reports.
func Resolve(c *Config, file string, src []byte) (*Experiment, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	method, err := stats.ParseMethod(c.Interval)
	if err != nil { // Validate checked the name
		panic("config: " + err.Error())
	}
	e := &Experiment{Name: c.Name, Description: c.Description, Seed: c.Seed, Boards: c.boardList(), Rules: c.ruleList(), Estimators: c.estimatorList(),
		Walks: uint64(c.Walks), Sequential: c.Sequential, Confidence: c.Confidence, Method: method, Exact: c.Exact, ExactBudget: c.ExactBudget, ComparisonFamily: cmp.Or(c.ComparisonFamily, "question"),
		PerWalk: c.Outputs.Walks, RowGroup: c.Outputs.RowGroup, Figures: slices.Clone(c.Outputs.Figures),
		ConfigHash: c.Hash(), WorkHash: c.WorkHash(), Config: c.canonical(), SourceFile: file, Source: src, OwnSources: c.OwnSources()}
	for _, b := range e.Boards {
		e.Starts = append(e.Starts, c.startSquares(b))
	}
	if c.IsSieve() {
		keeps, stages := c.sieveStages()
		bi := 0
		for i, keep := range keeps {
			st := SieveStage{Key: c.fileKey(fmt.Sprintf("boards[%d]", i)), Keep: keep}
			for range stages[i] {
				st.Boards = append(st.Boards, bi)
				bi++
			}
			e.Sieve = append(e.Sieve, st)
		}
		if bi != len(e.Boards) {
			return nil, fmt.Errorf("config: a sieve of %d boards resolved %d: accepted by Validate but does not resolve", bi, len(e.Boards))
		}
	}
	first := 0
	for i, rs := range c.Rules {
		n := int(rs.Cells())
		if rs.IsDesign() {
			e.Designs = append(e.Designs, Design{Key: c.fileKey(fmt.Sprintf("rules[%d]", i)), Rule: strings.TrimSpace(rs.Name), Spec: rs.designSpec(), First: first, N: n})
		}
		first += n
	}
	if first != len(e.Rules) {
		return nil, fmt.Errorf("config: %d rules resolved of %d cells: accepted by Validate but does not resolve", len(e.Rules), first)
	}
	for i, cl := range c.Claims {
		ch, err := e.check(c, i, cl)
		if err != nil {
			return nil, err
		}
		e.Checks = append(e.Checks, ch)
	}
	return e, nil
}

// check resolves claim i. Validate has accepted it, so every failure here
// is a disagreement between validation and resolution: a bug, reported
// with the claim's position rather than run.
func (e *Experiment) check(c *Config, i int, cl Claim) (Check, error) {
	key := c.fileKey(fmt.Sprintf("claims[%d]", i))
	ch := Check{ID: cl.ID, Source: cl.Source, Reading: cl.Reading, Fitted: cl.Fitted, Unverified: cl.Unverified, Rule: -1, Family: cl.Family, PartOfRange: c.PartOfRangeText(cl)}
	if ch.Family == "" {
		ch.Family = DefaultFamily
	}
	if ch.ID == "" {
		ch.ID = fmt.Sprintf("claim-%d", i+1)
	}
	if r, err := sim.ParseRule(cl.Rule); err == nil {
		ch.Rule = slices.IndexFunc(e.Rules, func(x sim.Rule) bool { return x.Name() == r.Name() })
	}
	t, ok := cl.target(nil, "")
	if ch.Rule < 0 || !ok {
		return ch, fmt.Errorf("config: %s: accepted by Validate but does not resolve (rule %q)", key, cl.Rule)
	}
	ch.target = t
	for bi, b := range e.Boards {
		if !cl.appliesTo(size{b.Rows, b.Cols}) {
			continue
		}
		sq := c.claimSquares(cl, b)
		if len(sq) == 0 {
			return ch, fmt.Errorf("config: %s: accepted by Validate but pools no start square on %s", key, b)
		}
		if cl.Each == "square" { // one element a start square: the statement is judged square by square
			for _, s := range sq {
				ch.Boards = append(ch.Boards, bi)
				ch.Squares = append(ch.Squares, []int{s})
			}
			continue
		}
		ch.Boards = append(ch.Boards, bi)
		ch.Squares = append(ch.Squares, sq)
	}
	if len(ch.Boards) == 0 {
		return ch, fmt.Errorf("config: %s: accepted by Validate but is about no board of the experiment", key)
	}
	ch.Claim, _ = cl.statement()
	ch.Set = cl.setClaim()
	if p, ok := c.publication(cl.Source); ok {
		if cl.Margin != nil { // the claim's declared margin decides, as the source's would
			p.Margin, p.PlanningRate = cl.Margin, nil
		}
		ch.Published = &p
		ch.Compare = c.comparesCount(cl)
	}
	if cl.PerBoard == "count" {
		set, assumed, ok := c.countSet(cl)
		if !ok {
			return ch, fmt.Errorf("config: %s: accepted by Validate but no count of its source's trials meets it", key)
		}
		ch.Count, ch.CountAssumed = &set, assumed
	}
	return ch, nil
}

// statement returns the claim's per-board statement, ok false where it
// states none.
func (cl Claim) statement() (stats.Claim, bool) {
	switch {
	case cl.Rate != nil:
		c := stats.Claim{Kind: stats.Rate, Value: *cl.Rate}
		if cl.Tolerance != nil {
			c.Tolerance = *cl.Tolerance
		}
		return c, true
	case len(cl.Range) == 2:
		return stats.Claim{Kind: stats.Range, Lo: cl.Range[0], Hi: cl.Range[1]}, true
	case cl.Below != nil:
		return stats.Claim{Kind: stats.Below, Value: *cl.Below}, true
	case cl.Above != nil:
		return stats.Claim{Kind: stats.Above, Value: *cl.Above}, true
	}
	return stats.Claim{}, false
}

// countSet returns the counts of the claim's source's trials per board
// that meet its per-board statement (per_board: count), and whether the
// trials are assumed; ok is false where the source gives no trials, the
// claim states nothing or no count meets it.
func (c *Config) countSet(cl Claim) (set stats.CountSet, assumed, ok bool) {
	p, found := c.publication(cl.Source)
	st, stated := cl.statement()
	if !found || !stated || st.Validate() != nil {
		return set, false, false
	}
	n, assumed, given := p.TrialsPer()
	if !given {
		return set, false, false
	}
	set, ok = stats.CountsMeeting(st, uint64(n))
	return set, assumed, ok
}

// VerdictMethod is the interval that decides claims: the configured one,
// or for a sequential run the always-valid confidence sequence, the only
// one that stays valid when the run stopped because its counts decided.
func (e *Experiment) VerdictMethod() stats.Method {
	if e.Sequential != nil {
		return stats.ConfidenceSequence
	}
	return e.Method
}

// WalksFor returns the walks per start square of rule ri: Walks, or one
// for a deterministic rule, whose every walk from a start repeats the
// first (warnsdorff/first, roth+first, ...): one walk decides it, and
// repeating it would only dress one outcome up as a sample.
//
// A rule estimated by splitting runs no plain walks (0): its estimate is
// made apart from the walk plan (runner, splitting.go).
func (e *Experiment) WalksFor(ri int) uint64 {
	if ri < len(e.Estimators) && e.Estimators[ri].Splitting {
		return 0
	}
	if e.Rules[ri].Deterministic() {
		return min(e.Walks, 1)
	}
	return e.Walks
}
