package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// hashFormat numbers the canonical form; bump it whenever canonical changes.
const hashFormat = 1

// Canonical is the resolved configuration that Hash encodes and manifests
// record. Field order and spelling are part of the hash: change them only
// with hashFormat.
type Canonical struct {
	Format      int             `json:"format"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Seed        U64             `json:"seed"`   // a string: seeds pass 2^53 (see U64)
	Boards      []string        `json:"boards"` // "RxC", expanded, in order
	Starts      CanonicalStarts `json:"starts"`
	Walks       int64           `json:"walks"` // per start square; a sequential run's max
	// Sequential is walks: {until: ...}; nil (left out) for a fixed
	// number of walks, so that older hashes stay valid.
	Sequential *CanonicalSequential `json:"sequential,omitempty"`
	Rules      []CanonicalRule      `json:"rules"`
	Confidence float64              `json:"confidence"`
	Interval   string               `json:"interval"`
	Exact      string               `json:"exact,omitempty"` // "" for the default, auto, so that older hashes stay valid
	// ExactBudget is 0 for the default, exact.DefaultBudget.
	ExactBudget int64 `json:"exact_budget,omitempty"`
	// ComparisonFamily is "" for the default, question.
	ComparisonFamily string           `json:"comparison_family,omitempty"`
	Outputs          CanonicalOutputs `json:"outputs"`
	Claims           []CanonicalClaim `json:"claims"`
	// Sources is the experiment's own sources file (key sources): its
	// name as written, the SHA-256 of its bytes and the statements it
	// holds, so that the hash changes with it and a rerun from the
	// manifest compares with the same statements. Left out when the
	// experiment names none, so that older hashes stay valid.
	Sources *CanonicalSources `json:"sources,omitempty"`
	// Sieve is a sieve's stages (sieve.go), in order: each keeps what its
	// boards entry's keep says and takes the next Boards boards of
	// Boards. Left out for any other experiment, so that older hashes
	// stay valid.
	Sieve []CanonicalStage `json:"sieve,omitempty"`
}

// CanonicalStage is one stage of a sieve.
type CanonicalStage struct {
	Keep   string `json:"keep"`
	Boards int    `json:"boards"`
}

// CanonicalSources records an experiment's own sources file.
type CanonicalSources struct {
	File       string        `json:"file"`
	SHA256     string        `json:"sha256"`
	Statements []Publication `json:"statements"`
}

// CanonicalSequential is a sequential run's walks mapping, defaults
// filled in.
type CanonicalSequential struct {
	Until     string  `json:"until"`
	Min       int64   `json:"min"`
	HalfWidth float64 `json:"half_width"`
}

type CanonicalStarts struct {
	All     bool     `json:"all"`
	Classes []string `json:"classes"` // in sim.Classes order
	Squares []string `json:"squares"` // "r<row>c<col>", by row then column
}

type CanonicalRule struct {
	Name       string `json:"name"` // sim.Rule.Name
	TieBreak   string `json:"tie_break"`
	Order      string `json:"order"` // always written out
	MaxSteps   int    `json:"max_steps"`
	Closed     bool   `json:"closed"`
	NodeBudget int64  `json:"node_budget"` // backtrack's default written out; 0 for other rules
	// Estimator is "splitting" with its effort, defaults written out; left
	// out for plain walks, so that older hashes stay valid.
	Estimator  string `json:"estimator,omitempty"`
	Particles  int    `json:"particles,omitempty"`
	Replicates int    `json:"replicates,omitempty"`
	// OrderByN: the move orders by n mod 8, keyed "0".."7"; left out when
	// none, so that older hashes stay valid.
	OrderByN map[string]string `json:"order_by_n_mod_8,omitempty"`
	// Design is a design entry's lists (design.go), recorded as the entry
	// rather than cell by cell (order: all is 40,320 rules); left out for
	// a plain rule, so that older hashes stay valid. Name and the other
	// fields are then the entry's fixed values as written.
	Design *CanonicalDesign `json:"design,omitempty"`
}

// CanonicalDesign is a design entry's lists, each value as a plain rule
// writes it (orders as "(2,1) (1,2) ...", family names as they are); a
// key given as one value is left out here and held by CanonicalRule.
type CanonicalDesign struct {
	TieBreak   []string `json:"tie_break,omitempty"`
	Order      []string `json:"order,omitempty"`
	MaxSteps   []int    `json:"max_steps,omitempty"`
	NodeBudget []int64  `json:"node_budget,omitempty"`
}

type CanonicalOutputs struct {
	Walks    bool     `json:"walks"`
	Figures  []string `json:"figures"` // in Figures order
	RowGroup int      `json:"row_group"`
	// FigureOptions restyle figures only: recorded in manifests, left out
	// of the hash (see canonicalJSON).
	FigureOptions *FigureOptions `json:"figure_options,omitempty"`
}

type CanonicalClaim struct {
	ID        string    `json:"id"`
	Rule      string    `json:"rule"`   // sim.Rule.Name
	Boards    []string  `json:"boards"` // the boards it is about
	Target    string    `json:"target"` // "centre", "r3c3" or "degree 8"
	Statement string    `json:"statement"`
	Values    []float64 `json:"values"` // rate and tolerance; lo and hi; or the bound
	// Set is the statement about the set of Boards ("share 0.5",
	// "first-failure 428", "failing-share 0.01"); omitted when there is
	// none, so the hashes of files without set claims did not change.
	Set string `json:"set,omitempty"`
	// PerBoard is a share claim's per-board statement read as its
	// source's counts ("count 98..100 of 100 assumed"; key per_board:
	// count): part of the hash, since a corrected sources.yaml changes the
	// test. Omitted for the default reading (the true rate), so older
	// hashes stay valid.
	PerBoard string `json:"per_board,omitempty"`
	Source   string `json:"source"`
	Family   string `json:"family,omitempty"` // "" for the default family, so older hashes stay valid
	// Published is the count a claim with no statement of its own is
	// compared with ("75/100", "75/100 assumed"): part of the hash, since
	// a corrected sources.yaml changes the verdict.
	Published string `json:"published,omitempty"`
	// Reading, Fitted and Why: how this entry reads its claim; omitted
	// when unset.
	Reading string `json:"reading,omitempty"`
	Fitted  bool   `json:"fitted,omitempty"`
	Why     string `json:"why,omitempty"`
	// Unverified: the claim's source is marked not verified; omitted when
	// false.
	Unverified bool `json:"unverified,omitempty"`
	// PartOfRange: the claim tests part of its source's stated range of
	// sizes; omitted when false.
	PartOfRange bool `json:"part_of_range,omitempty"`
}

// Hash returns the hex SHA-256 of the canonical JSON encoding of the
// resolved configuration (see the package documentation). It is meant for
// validated configurations.
func (c *Config) Hash() string {
	sum := sha256.Sum256(c.canonicalJSON())
	return hex.EncodeToString(sum[:])
}

// WorkHash is Hash of the config with its description left out: what
// decides which walks a run makes and what they count. A checkpoint is
// keyed by it, so that editing an interrupted experiment's description
// does not discard its completed units; outputs still carry
// Hash.
func (c *Config) WorkHash() string {
	d := *c
	d.Description = ""
	return d.Hash()
}

func (c *Config) canonicalJSON() []byte {
	cn := c.canonical()
	cn.Outputs.FigureOptions = nil // figures change no table: restyling keeps the hash
	data, err := json.Marshal(cn)
	if err == nil {
		data = hashSeedAsNumber(data, cn)
	}
	if err != nil { // only NaN or Inf, which Validate refuses
		data, _ = json.Marshal(struct {
			Format int    `json:"format"`
			Error  string `json:"error"`
		}{hashFormat, err.Error()})
	}
	return data
}

// canonical returns the resolved configuration in its canonical form.
func (c *Config) canonical() Canonical {
	sizes := c.sizes(nil)
	cn := Canonical{
		Format:      hashFormat,
		Name:        c.Name,
		Description: c.Description,
		Seed:        U64(c.Seed),
		Boards:      []string{},
		Walks:       c.Walks,
		Rules:       []CanonicalRule{},
		Confidence:  c.Confidence,
		Interval:    c.Interval,
		Claims:      []CanonicalClaim{},
	}
	if c.Exact != "auto" {
		cn.Exact = c.Exact
	}
	cn.ExactBudget = c.ExactBudget
	if c.ComparisonFamily != "question" {
		cn.ComparisonFamily = c.ComparisonFamily
	}
	if s := c.Sequential; s != nil {
		cn.Sequential = &CanonicalSequential{Until: s.Until, Min: s.Min, HalfWidth: s.HalfWidth}
	}
	for _, s := range sizes {
		cn.Boards = append(cn.Boards, s.String())
	}
	if c.IsSieve() {
		keeps, stages := c.sieveStages()
		for i, k := range keeps {
			cn.Sieve = append(cn.Sieve, CanonicalStage{Keep: k, Boards: len(stages[i])})
		}
	}

	st := c.starts(nil, nil)
	cn.Starts = CanonicalStarts{All: st.all, Classes: []string{}, Squares: []string{}}
	if !st.all {
		for cl, on := range st.classes {
			if on {
				cn.Starts.Classes = append(cn.Starts.Classes, sim.Class(cl).String())
			}
		}
		sq := slices.Clone(st.squares)
		slices.SortFunc(sq, func(a, b rc) int {
			if a.r != b.r {
				return a.r - b.r
			}
			return a.c - b.c
		})
		for _, p := range sq {
			cn.Starts.Squares = append(cn.Starts.Squares, p.String())
		}
	}

	for _, rs := range c.Rules {
		if rs.IsDesign() {
			cn.Rules = append(cn.Rules, rs.canonicalDesign())
			continue
		}
		r, ok := rs.resolve(nil, "")
		if !ok {
			continue
		}
		cr := CanonicalRule{Name: r.Name(), Order: canonicalOrder, MaxSteps: r.MaxSteps, Closed: r.Closed}
		if e := rs.estimator(); e.Splitting {
			cr.Estimator, cr.Particles, cr.Replicates = "splitting", e.Particles, e.Replicates
		}
		if r.Kind == sim.Warnsdorff || r.Kind == sim.Backtrack {
			cr.TieBreak = r.TieBreak.String()
		}
		if r.Order != nil {
			cr.Order = OrderString(r.Order)
		}
		for res, o := range r.OrdersMod8 {
			if o != nil {
				if cr.OrderByN == nil {
					cr.OrderByN = map[string]string{}
				}
				cr.OrderByN[strconv.Itoa(res)] = OrderString(o)
			}
		}
		if r.Kind == sim.Backtrack {
			cr.NodeBudget = r.NodeBudget
			if cr.NodeBudget == 0 {
				cr.NodeBudget = sim.DefaultNodeBudget
			}
		}
		cn.Rules = append(cn.Rules, cr)
	}

	cn.Outputs = CanonicalOutputs{Walks: c.Outputs.Walks, Figures: []string{}, RowGroup: c.Outputs.RowGroup,
		FigureOptions: c.canonicalFigureOptions()}
	for _, f := range Figures {
		if slices.Contains(c.Outputs.Figures, f) {
			cn.Outputs.Figures = append(cn.Outputs.Figures, f)
		}
	}

	for _, cl := range c.Claims {
		cc := CanonicalClaim{ID: cl.ID, Rule: cl.ruleName(), Boards: []string{}, Values: []float64{}, Source: cl.Source, Family: cl.Family,
			Reading: cl.Reading, Fitted: cl.Fitted, Why: cl.Why, Unverified: cl.Unverified, PartOfRange: cl.PartOfRange}
		for _, s := range sizes {
			if cl.appliesTo(s) {
				cc.Boards = append(cc.Boards, s.String())
			}
		}
		if t, ok := cl.target(nil, ""); ok {
			cc.Target = t.String()
		}
		switch {
		case cl.Rate != nil:
			tol := 0.0
			if cl.Tolerance != nil {
				tol = *cl.Tolerance
			}
			cc.Statement, cc.Values = "rate", []float64{*cl.Rate, tol}
		case cl.Range != nil:
			cc.Statement, cc.Values = "range", cl.Range
		case cl.Below != nil:
			cc.Statement, cc.Values = "below", []float64{*cl.Below}
		case cl.Above != nil:
			cc.Statement, cc.Values = "above", []float64{*cl.Above}
		}
		if c.comparesCount(cl) {
			p, _ := c.publication(cl.Source)
			k, n, assumed, _ := p.Count()
			cc.Published = fmt.Sprintf("%d/%d", k, n)
			if assumed {
				cc.Published += " assumed"
			}
			if p.Margin != nil { // a declared margin decides "reproduced"
				cc.Published += fmt.Sprintf(" margin %v", *p.Margin)
			}
			if p.PlanningRate != nil { // so does a stated planning rate
				cc.Published += fmt.Sprintf(" planning %v", *p.PlanningRate)
			}
			if cl.Margin != nil { // and the claim's own margin
				cc.Published += fmt.Sprintf(" claim-margin %v", *cl.Margin)
			}
		}
		switch set := cl.setClaim(); set.Kind {
		case "share":
			cc.Set = fmt.Sprintf("share %v", set.Share)
			if set.Each != "" {
				cc.Set += " each " + set.Each
			}
			if cl.PerBoard == "count" {
				set, assumed, _ := c.countSet(cl)
				cc.PerBoard = fmt.Sprintf("count %d..%d of %d", set.Lo, set.Hi, set.Trials)
				if assumed {
					cc.PerBoard += " assumed"
				}
			}
		case "first-failure":
			cc.Set = fmt.Sprintf("first-failure %d", set.FirstFailure)
		case "failing-share":
			cc.Set = fmt.Sprintf("failing-share %v", set.FailingBelow)
		}
		cn.Claims = append(cn.Claims, cc)
	}
	if c.SourcesFile != "" {
		cn.Sources = &CanonicalSources{File: c.SourcesFile, SHA256: c.ownSHA256, Statements: slices.Clone(c.ownSources)}
	}
	return cn
}

// hashSeedAsNumber returns the canonical JSON data of cn with its seed
// written as the bare JSON number the hash has always encoded, so that
// writing the seed as a string in manifests (U64) changed no config hash,
// checkpoint key or re-run. The seed is the fourth key, right after the
// description, so the prefix is known exactly.
func hashSeedAsNumber(data []byte, cn Canonical) []byte {
	head, _ := json.Marshal(struct {
		Format      int    `json:"format"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}{cn.Format, cn.Name, cn.Description})
	prefix := string(head[:len(head)-1]) + `,"seed":`
	seed := strconv.FormatUint(uint64(cn.Seed), 10)
	quoted := prefix + `"` + seed + `"`
	if !strings.HasPrefix(string(data), quoted) {
		panic("config: canonical JSON does not begin with format, name, description and seed")
	}
	return append([]byte(prefix+seed), data[len(quoted):]...)
}
