package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"slices"

	"github.com/knightwalk/knightwalk/internal/safeio"

	"go.yaml.in/yaml/v3"

	"github.com/knightwalk/knightwalk/sim"
)

// Config is one experiment file. Build one with Default, Parse or Load;
// after Validate succeeds, boardList, ruleList and startSquares give the
// resolved values.
type Config struct {
	Name        string      `yaml:"name"`
	Description string      `yaml:"description"`
	Seed        uint64      `yaml:"seed"`
	Boards      []BoardSpec `yaml:"boards"`
	Starts      Starts      `yaml:"starts"`
	WalksKey    WalksSpec   `yaml:"walks"` // as written; Parse sets Walks and Sequential from it
	Walks       int64       `yaml:"-"`     // walks per start square; with Sequential, its Max
	Sequential  *Sequential `yaml:"-"`     // walks: {until: ...}; nil for a fixed number of walks
	Rules       []RuleSpec  `yaml:"rules"`
	Confidence  float64     `yaml:"confidence"`
	Interval    string      `yaml:"interval"`
	Exact       string      `yaml:"exact"` // auto, on, bounds or off: exact values beside the estimates
	// ExactBudget is the most states the enumeration of exact: on or
	// bounds expands per start square (0: exact.DefaultBudget).
	ExactBudget int64 `yaml:"exact_budget"`
	// ComparisonFamily is the Holm family of the comparisons table: one
	// of ComparisonFamilies ("" means question).
	ComparisonFamily string  `yaml:"comparison_family"`
	Outputs          Outputs `yaml:"outputs"`
	Claims           []Claim `yaml:"claims"`
	// Families declares the claim families (a name and the question its
	// claims answer); when given, every family a claim names is declared
	// and every declared family has a claim.
	Families []FamilySpec `yaml:"families"`
	// SourcesFile names a file of published statements of the
	// experiment's own (key sources, relative to the experiment file; the
	// schema of experiments/sources.yaml), so that an installed binary
	// tests a paper of the researcher's without a rebuild. Its ids must not
	// be those of the built-in file.
	SourcesFile string `yaml:"sources"`

	src *source // where the config came from, for error positions; nil when built in Go
	// ownSources are the statements SourcesFile holds, ownSHA256 the hex
	// SHA-256 of its bytes; ownRead says they were read (Parse, or
	// FromCanonical from a manifest that records them).
	ownSources []Publication
	ownSHA256  string
	ownRead    bool
}

// BoardSpec is one item of boards: exactly one of Size (the scalar forms
// "8x8" and "8"), Sizes ("5..60" or "12": square boards), From and To
// (square boards From..To) or Rows and Cols (each "N" or "LO..HI"). Step
// (default 1) spaces the sizes of a range.
type BoardSpec struct {
	Size  string `yaml:"-"`
	Sizes string `yaml:"sizes"`
	From  int    `yaml:"from"`
	To    int    `yaml:"to"`
	Step  int    `yaml:"step"`
	Rows  string `yaml:"rows"`
	Cols  string `yaml:"cols"`

	// Keep makes the experiment a sieve (sieve.go): the cells this
	// entry's boards keep, fails or succeeds.
	Keep string `yaml:"keep"`

	stepGiven bool // step was written, so step: 0 is refused rather than taken for the default
	stage     int  // a sieve's stage + 1, as a manifest records it (FromCanonical); 0: the entry's own
}

// Starts lists the start squares: "all", class names (corner, edge, centre,
// interior; "center" too) and square names (a1, r0c0). In YAML it is either
// one scalar (starts: all) or a list.
type Starts []string

// RuleSpec is one item of rules as written; ruleList resolves it.
type RuleSpec struct {
	Name       string `yaml:"name"`
	TieBreak   string `yaml:"tie_break"`
	Order      string `yaml:"order"`
	MaxSteps   int    `yaml:"max_steps"`
	Closed     bool   `yaml:"closed"`
	NodeBudget int64  `yaml:"node_budget"`
	Estimator  string `yaml:"estimator"`  // walks (the default) or splitting (estimator.go)
	Particles  int    `yaml:"particles"`  // splitting: segments per stage
	Replicates int    `yaml:"replicates"` // splitting: independent replicates
	// OrderByN gives move orders for n×n boards by n mod 8 (keys 0..7);
	// the residues it leaves out use Order.
	OrderByN map[int]string `yaml:"order_by_n_mod_8"`

	// Design factors (design.go): set where the file gives a list for the
	// key (tie_break: [first, random]), nil otherwise. An entry with one,
	// or with order: all or another of OrderFamilies, stands for every
	// combination of the values: one rule per combination.
	TieBreaks    []string `yaml:"-"`
	Orders       []string `yaml:"-"` // orders, or names of OrderFamilies
	MaxStepsList []int    `yaml:"-"`
	NodeBudgets  []int64  `yaml:"-"`

	order []sim.Move        // a design cell's order from a family, read already (Order is then "")
	msgs  []string          // the YAML library's errors decoding the entry (UnmarshalYAML), reported by source.decode
	at    map[string]string // where resolve places an error on a key (".order" → ".order[3]"): checkDesign's
}

// Outputs chooses what a run writes besides its summary tables.
type Outputs struct {
	Walks    bool     `yaml:"walks"`     // the per-walk table
	Figures  []string `yaml:"figures"`   // names from Figures
	RowGroup int      `yaml:"row_group"` // Parquet rows per row group; 0: the writer's default

	FigureOptions FigureOptions `yaml:"figure_options"` // how figures are drawn (figopts.go)
}

// Claim is a published statement about a success rate that a run checks.
// Exactly one of Class, Square and Degree names its target, and exactly one
// of Rate (with Tolerance), Range, Below and Above states it.
type Claim struct {
	ID     string `yaml:"id"`
	Rule   string `yaml:"rule"`  // a rule name as sim.ParseRule reads it
	Board  string `yaml:"board"` // "" means every board of the experiment
	Class  string `yaml:"class"`
	Square string `yaml:"square"`
	Degree *int   `yaml:"degree"`

	Rate      *float64  `yaml:"rate"`
	Tolerance *float64  `yaml:"tolerance"`
	Range     []float64 `yaml:"range"` // [lo, hi]
	Below     *float64  `yaml:"below"`
	Above     *float64  `yaml:"above"`

	// Claims over a set of boards (claimset.go): Sizes picks the n×n
	// boards with n in a range; Share says more than that share of them
	// meet the statement above; FirstFailure and FailingBelow are
	// statements of their own, about where a deterministic rule fails.
	Sizes string `yaml:"sizes"`
	// Except drops sizes from Sizes ("every n from 5 to 50 except 8":
	// sizes: 5..50, except: [8]). Where the claim's source states its
	// sizes (sources.yaml sizes, except), the claim must read them
	// exactly so: one statement, one encoding.
	Except []int `yaml:"except"`
	// PartOfRange says the claim tests part of its source's stated range
	// of sizes (sizes within the source's, its exceptions among them
	// excepted too), which the report says; without it a claim reads the
	// whole range.
	PartOfRange  bool     `yaml:"part_of_range"`
	Share        *float64 `yaml:"share"`
	FirstFailure *int     `yaml:"first_failure"`
	FailingBelow *float64 `yaml:"failing_below"`
	// PerBoard says how a share claim reads its per-board statement: "rate"
	// (the default) of the true success rate, "count" of the count the
	// source saw in its trials per board (sources.yaml): each board is
	// then tested on the chance, under our rate, of such a count
	// (stats.CountShare).
	PerBoard string `yaml:"per_board"`
	// Each: square quantifies the statement over the start squares of the
	// target, one by one, instead of over their pool: "from every start
	// square" (share 1, the default with each) or "from more than a share
	// s of them" (share: s), on each of the claim's boards; the verdict
	// names the squares that fail it.
	Each string `yaml:"each"`

	// Source is the id of a published statement (sources.go), or, for a
	// statement published nowhere (a seed's, a user's), words that say
	// where it comes from.
	Source string `yaml:"source"`
	// Reading names how this entry reads its claim (its start, tie-break,
	// score): a claim may be listed several times with one id, once per
	// reading, each with its own rule and target and the same source and
	// statement; each reading gets its own verdict. Fitted marks a
	// reading chosen because it reproduces the published number (Why says
	// how it was chosen): it is reported, never counted as support.
	Reading string `yaml:"reading"`
	Fitted  bool   `yaml:"fitted"`
	Why     string `yaml:"why"`
	// Family names the claims whose sampled verdicts are adjusted together
	// by Holm (the error rate is controlled within each family); "" puts
	// the claim in the run's default family, all.
	Family string `yaml:"family"`
	// Unverified marks a claim about a source whose page we have not seen
	// (sources.yaml: where: not verified); required for such a source, and
	// shown beside the claim everywhere.
	Unverified bool `yaml:"unverified"`
	// Margin is this claim's equivalence margin against its source's
	// published count (a difference of rates in (0, 1), declared before
	// the data), in place of the source's own or the one its design gives
	// (Publication.EquivalenceMargin).
	Margin *float64 `yaml:"margin"`
}

// Figures lists the figure names that outputs.figures accepts.
var Figures = []string{
	"success-heatmap", "closed-heatmap", "length-heatmap", "deadend-heatmap",
	"length-distribution", "size-curve", "convergence", "walk", "sweep-strip", "claims", "design-map",
}

// ExactModes lists what exact accepts: auto computes exact values where the
// enumeration is cheap (the rule in docs/design.md), on wherever the engine reaches
// within its budget, bounds as on but with certified bounds (exact.Result's
// PLower, PUpper) where the enumeration outgrows its budget, off never.
var ExactModes = []string{"auto", "on", "off", "bounds"}

// ComparisonFamilies lists what comparison_family accepts: question (the
// default) adjusts together the comparisons that answer one question —
// the class comparisons of one rule on one board, the rule comparisons of
// one class on one board; board every comparison on one board; run every
// comparison of the run.
var ComparisonFamilies = []string{"question", "board", "run"}

// Intervals lists the interval methods that interval accepts.
var Intervals = []string{"wilson", "clopper-pearson"}

// Limits that keep a mistyped file from asking for an absurd run, or from
// taking unbounded memory before it is even validated.
const (
	MaxFileBytes   = 1 << 20 // bytes in an experiment file
	MaxBoards      = 4000    // boards per experiment, after expansion: room for a sweep of n = 5..2000
	MaxWalks       = 1e12    // walks per (board, rule, start square)
	MaxName        = 100     // bytes in an experiment name
	MaxDescription = 10000   // bytes in a description
	MaxScalar      = 1000    // bytes in any other value (a claim's id or source, a rule name…)
	MaxRules       = 100     // rule items
	MaxStarts      = 1000    // start items
	MaxClaims      = 1000    // claim items
	MaxFigures     = 100     // outputs.figures items
	MaxEntries     = 20000   // keys and list items in all (every list at its limit, claims in full, fits)
	MaxErrors      = 100     // errors reported for one file; more are counted
	MaxSteps       = 1 << 24 // max_steps: no walk is longer than the largest board (sim.MaxSquares)
	MaxNodeBudget  = 1e12    // node_budget per walk
	MaxRowGroup    = 1 << 24 // outputs.row_group: rows buffered per row group
	DefWalks       = 10000   // walks when none are configured
)

// Default returns the configuration that a file is decoded onto: seed 1,
// every start square, DefWalks walks, a Wilson 95 % interval, no optional
// outputs. Name, boards and rules have no default.
func Default() Config {
	return Config{
		Seed:       1,
		Starts:     Starts{"all"},
		Walks:      DefWalks,
		Confidence: 0.95,
		Interval:   "wilson",
		Exact:      "auto",
	}
}

// ReadFile reads an experiment file of at most MaxFileBytes. Anything
// that is not a regular file (a directory, a FIFO, a device such as
// /dev/zero, a socket) is refused before it is opened, so no path can
// block the command (a FIFO with no writer) or feed it for ever; a file
// over the limit is refused before it is read. The error is an Errors
// naming path.
func ReadFile(path string) ([]byte, error) {
	return readFileOf(path, "an experiment file")
}

// readFileOf is ReadFile for a file of the kind what ("an experiment
// file", "a sources file"), which its errors name.
func readFileOf(path, what string) ([]byte, error) {
	tooBig := func(size string) error {
		return Errors{{File: path, Msg: fmt.Sprintf("%s; %s holds at most %d bytes (1 MiB)", size, what, MaxFileBytes)}}
	}
	want := "want " + what + " (YAML)"
	fi, err := safeio.CheckRegular(path)
	switch {
	case fi != nil && fi.IsDir():
		return nil, Errors{{File: path, Msg: "is a directory; " + want}}
	case fi != nil && err != nil:
		return nil, Errors{{File: path, Msg: fmt.Sprintf("is %s, not a regular file, and is not read; %s", safeio.Kind(fi.Mode()), want)}}
	case err != nil:
		return nil, Errors{{File: path, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}}
	case fi.Size() > MaxFileBytes:
		return nil, tooBig(fmt.Sprintf("%d bytes", fi.Size()))
	}
	f, err := safeio.OpenRegular(path)
	if errors.Is(err, safeio.ErrNotRegular) { // replaced since the check
		return nil, Errors{{File: path, Msg: "not a regular file, and is not read; " + want}}
	}
	if err != nil {
		return nil, Errors{{File: path, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, Errors{{File: path, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}}
	}
	if len(data) > MaxFileBytes { // grown since the check
		return nil, tooBig(fmt.Sprintf("more than %d bytes", MaxFileBytes))
	}
	return data, nil
}

// unwrapPath drops the "open PATH:" prefix of a *fs.PathError, as the
// caller names the file itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// unknownKeys returns, in the YAML library's words (so that typeError
// places them), the keys of mapping n that type t has no field for: a
// custom UnmarshalYAML decodes without the decoder's KnownFields check.
func unknownKeys(n *yaml.Node, t reflect.Type) []string {
	var msgs []string
	valid := yamlKeys(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !contains(valid, k.Value) {
			msgs = append(msgs, fmt.Sprintf("line %d: field %s not found in type %s", k.Line, k.Value, t))
		}
	}
	return msgs
}

// decodeKeeping decodes n into v and adds the library's type errors to
// msgs, so that one item reports every bad key; another error is returned.
func decodeKeeping(n *yaml.Node, v any, msgs []string) ([]string, error) {
	err := n.Decode(v)
	if err == nil {
		return msgs, nil
	}
	te, ok := err.(*yaml.TypeError)
	if !ok {
		return msgs, err
	}
	return append(msgs, te.Errors...), nil
}

// UnmarshalYAML reads a board item: a scalar ("8x8", "8") or a mapping with
// the keys of BoardSpec.
func (b *BoardSpec) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*b = BoardSpec{Size: n.Value}
		return nil
	case yaml.MappingNode:
		msgs := unknownKeys(n, boardSpecType)
		defer func() {
			b.stepGiven = slices.ContainsFunc(n.Content, func(k *yaml.Node) bool { return k.Value == "step" })
		}()
		type plain BoardSpec // without this method
		var p plain
		msgs, err := decodeKeeping(n, &p, msgs)
		if err != nil {
			return err
		}
		*b = BoardSpec(p)
		if msgs != nil {
			return &yaml.TypeError{Errors: msgs}
		}
		return nil
	}
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s into %s", n.Line, n.ShortTag(), boardSpecType)}}
}

// UnmarshalYAML reads starts: one scalar or a list of scalars.
func (s *Starts) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*s = Starts{n.Value}
		return nil
	case yaml.SequenceNode:
		var l []string
		err := n.Decode(&l)
		*s = l
		return err
	}
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s into %s", n.Line, n.ShortTag(), startsType)}}
}
