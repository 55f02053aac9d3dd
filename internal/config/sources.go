package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/stats"
)

// Publication is one published statement: who said it, where,
// and the count behind it where the publication gives one. The embedded
// experiments/sources.yaml holds every statement the committed
// experiments check, once. Trials and Successes are per board.
type Publication struct {
	ID        string   `yaml:"id" json:"id,omitempty"`
	Authors   string   `yaml:"authors" json:"authors,omitempty"`
	Year      int      `yaml:"year" json:"year,omitempty"`
	Title     string   `yaml:"title" json:"title,omitempty"`
	Venue     string   `yaml:"venue" json:"venue,omitempty"`
	Where     string   `yaml:"where" json:"where,omitempty"` // page, table or figure; "not given" where it names none
	Via       string   `yaml:"via" json:"via,omitempty"`     // the source we read it in, when not the original
	Statement string   `yaml:"statement" json:"statement,omitempty"`
	Rate      *float64 `yaml:"rate" json:"rate,omitempty"`
	Trials    *int64   `yaml:"trials" json:"trials,omitempty"`
	Successes *int64   `yaml:"successes" json:"successes,omitempty"`
	// AssumedTrials stands in for a trial count the publication does not
	// give, for the comparison of our rate with the published one;
	// Assumption says why that count.
	AssumedTrials *int64 `yaml:"assumed_trials" json:"assumed_trials,omitempty"`
	Assumption    string `yaml:"assumption" json:"assumption,omitempty"`
	// Margin is the equivalence margin of a comparison with the published
	// count: "reproduced" needs our rate within ±Margin of theirs, shown by
	// two one-sided tests. Unset, it is what the source's design could
	// resolve (stats.DefaultMargin of its trials at PlanningRate), never a
	// function of the count it observed. A source without trials (given
	// or assumed) states MarginAssumption, why that margin.
	Margin           *float64 `yaml:"margin" json:"margin,omitempty"`
	MarginAssumption string   `yaml:"margin_assumption" json:"margin_assumption,omitempty"`
	// PlanningRate is the rate at which the source's design resolves the
	// default margin (stats.DefaultMargin); unset, 1/2
	// (stats.DefaultPlanningRate), where a count varies most. It is a
	// statement about the design, made before the data: not the published
	// rate.
	PlanningRate *float64 `yaml:"planning_rate" json:"planning_rate,omitempty"`
	// Sizes and Except are the n×n sizes a statement about a range of
	// sizes covers, as published ("every n from 5 to 50 except 8": sizes
	// 5..50, except [8]): the one encoding of the statement, which a claim
	// on it (sizes, except) and a size curve's reference lines
	// (Segments) must follow.
	// Sizes may be open above ("112..": every n from 112 on), which a
	// claim tests part of (claims[].part_of_range: true).
	Sizes  string `yaml:"sizes" json:"sizes,omitempty"`
	Except []int  `yaml:"except" json:"except,omitempty"`
	// The rest of the statement's encoding, in the keys of a claim
	// (encoding.go): the per-board statement (rate, which is also the
	// published rate of a count, tolerance, range, below, above), the
	// share of the sizes (share: 0.5 for "most", 1 for "every"), where a
	// deterministic rule fails (first_failure, failing_below), the board
	// of a statement about one board, and the per-board reading where the
	// words give one (per_board). A claim citing the source states each
	// as the source does, or validation refuses it naming the key.
	Tolerance    *float64  `yaml:"tolerance" json:"tolerance,omitempty"`
	Range        []float64 `yaml:"range" json:"range,omitempty"`
	Below        *float64  `yaml:"below" json:"below,omitempty"`
	Above        *float64  `yaml:"above" json:"above,omitempty"`
	Share        *float64  `yaml:"share" json:"share,omitempty"`
	FirstFailure *int      `yaml:"first_failure" json:"first_failure,omitempty"`
	FailingBelow *float64  `yaml:"failing_below" json:"failing_below,omitempty"`
	Board        string    `yaml:"board" json:"board,omitempty"`
	PerBoard     string    `yaml:"per_board" json:"per_board,omitempty"`
	// Region is [lo, hi], the rates the source itself places this
	// statement's rate in by words of its own other than the count (a
	// statement made before our data; RegionWhy says which): the default
	// margin is planned at the rate of the region where a count varies
	// most (Planning), not at 1/2, so that a source near 100 % gets the
	// margin its design resolves there.
	Region    []float64 `yaml:"region" json:"region,omitempty"`
	RegionWhy string    `yaml:"region_why" json:"region_why,omitempty"`
}

// Segments returns the runs of consecutive sizes the statement covers
// (Sizes less Except), [lo, hi] each: a size curve draws one reference
// line per run. ok is false where the statement states no sizes.
func (p Publication) Segments() (runs [][2]int, ok bool) {
	sp, ok := parseSpan(p.Sizes)
	if p.Sizes == "" || !ok || openSpan(p.Sizes) {
		return nil, false
	}
	for n := sp.lo; n <= sp.hi; n++ {
		if slices.Contains(p.Except, n) {
			continue
		}
		if len(runs) > 0 && runs[len(runs)-1][1] == n-1 {
			runs[len(runs)-1][1] = n
		} else {
			runs = append(runs, [2]int{n, n})
		}
	}
	return runs, true
}

// NotVerified reports whether we have not seen the statement's page
// ourselves (where: not verified): a claim about it must say so
// (claims[].unverified: true), and tables, report and figures label it.
func (p Publication) NotVerified() bool { return strings.TrimSpace(p.Where) == "not verified" }

// EquivalenceMargin returns the margin of a comparison with the published
// count at level alpha: the declared one, or stats.DefaultMargin of the
// source's design (its trials, given or assumed, at its planning rate).
// It never depends on the published count, so it is fixed before the data
// and the equivalence tests keep their level.
func (p Publication) EquivalenceMargin(alpha float64) float64 {
	if p.Margin != nil {
		return *p.Margin
	}
	n, _, ok := p.TrialsPer()
	if !ok {
		return math.NaN()
	}
	return stats.DefaultMargin(uint64(n), p.Planning(), alpha)
}

// Planning returns the source's planning rate: the declared one; else,
// where the source states a region, the rate in it nearest 1/2 (where a
// count varies most, so the widest margin the region allows); else
// stats.DefaultPlanningRate.
func (p Publication) Planning() float64 {
	if p.PlanningRate != nil {
		return *p.PlanningRate
	}
	if len(p.Region) == 2 {
		return RegionPlanning(p.Region[0], p.Region[1])
	}
	return stats.DefaultPlanningRate
}

// RegionPlanning is the planning rate of a region [lo, hi]: the rate in
// it nearest 1/2, kept inside (0, 1) (a region ending at 1 plans at
// its other end).
func RegionPlanning(lo, hi float64) float64 {
	r := min(max(stats.DefaultPlanningRate, lo), hi)
	switch {
	case r >= 1:
		r = lo
	case r <= 0:
		r = hi
	}
	return r
}

// PlanningText says where the planning rate comes from, for the report:
// "planned at 98 %, the source's region [98 %, 100 %]", "planned at 95 %
// (declared)", "planned at 50 %"; "" where a margin is declared.
func (p Publication) PlanningText() string {
	switch {
	case p.Margin != nil:
		return "margin declared"
	case p.PlanningRate != nil:
		return fmt.Sprintf("planned at %s (declared)", pctText(*p.PlanningRate))
	case len(p.Region) == 2:
		return fmt.Sprintf("planned at %s, the source's region [%s, %s]", pctText(p.Planning()), pctText(p.Region[0]), pctText(p.Region[1]))
	}
	return fmt.Sprintf("planned at %s", pctText(stats.DefaultPlanningRate))
}

func pctText(x float64) string { return strconv.FormatFloat(100*x, 'g', 6, 64) + " %" }

// Citation names the publication and place: "Ganzfried (2004), p. 4", or
// where we read it: "Squirrel & Cull (1996), via Ganzfried (2004), p. 4".
func (p Publication) Citation() string {
	who := p.Authors
	if a, _, ok := strings.Cut(who, " and "); ok {
		who = lastName(a) + " & " + lastName(strings.TrimPrefix(who, a+" and "))
	} else {
		who = lastName(who)
	}
	year := "n.d."
	if p.Year != 0 {
		year = fmt.Sprint(p.Year)
	}
	if p.Via != "" {
		return fmt.Sprintf("%s (%s), via %s", who, year, p.Via)
	}
	return fmt.Sprintf("%s (%s), %s", who, year, p.Where)
}

// lastName is the last word of a name, or the name before a parenthesis
// ("Roth (first name not given)" is Roth).
func lastName(s string) string {
	s, _, _ = strings.Cut(s, " (")
	f := strings.Fields(s)
	if len(f) == 0 {
		return s
	}
	return f[len(f)-1]
}

// Count returns the published successes and trials per board where they
// are known: given, or the rate times the assumed trials (assumed). ok is
// false where the publication states no rate.
func (p Publication) Count() (k, n int64, assumed, ok bool) {
	switch {
	case p.Trials != nil && p.Successes != nil:
		return *p.Successes, *p.Trials, false, true
	case p.Trials != nil && p.Rate != nil:
		return int64(math.Round(*p.Rate * float64(*p.Trials))), *p.Trials, false, true
	case p.AssumedTrials != nil && p.Rate != nil:
		return int64(math.Round(*p.Rate * float64(*p.AssumedTrials))), *p.AssumedTrials, true, true
	}
	return 0, 0, false, false
}

// TrialsPer returns the trials per board behind the statement, given or
// assumed (assumed); ok is false where neither is known.
func (p Publication) TrialsPer() (n int64, assumed, ok bool) {
	switch {
	case p.Trials != nil:
		return *p.Trials, false, true
	case p.AssumedTrials != nil:
		return *p.AssumedTrials, true, true
	}
	return 0, false, false
}

// MaxPublishedTrials bounds a published trial count: the exact tests sum
// over every outcome of the published trials.
const MaxPublishedTrials = 1e7

// FamilySpec declares a claim family: its name and the question its
// claims answer together.
type FamilySpec struct {
	Name     string `yaml:"name"`
	Question string `yaml:"question"`
}

// IsSourceID reports whether a claim's source names a published statement
// by id rather than in words: an id is one word of lower-case letters,
// digits, . and _ joined by hyphens (ganzfried-2004-n7), which a citation
// in words ("seed 000", "Pohl 1967", "exact") is not.
func IsSourceID(s string) bool {
	if !strings.Contains(s, "-") || strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}

var published = sync.OnceValues(func() ([]Publication, error) {
	return ParseSources("experiments/"+experiments.SourcesFile, experiments.Sources())
})

// CheckPublished reports what is wrong with the sources.yaml built into
// this binary (a researcher's edit of experiments/sources.yaml, then go
// run), with file, line and key, so that commands refuse to start with a
// clear error instead of Published panicking mid-run.
func CheckPublished() error {
	_, err := published()
	if err != nil {
		return fmt.Errorf("the sources file built into this binary is invalid (fix it and rebuild):\n%w", err)
	}
	return nil
}

// Published returns the statements of the embedded sources.yaml. A broken
// embedded file is a bug of this build (a test parses it), so it panics.
func Published() []Publication {
	p, err := published()
	if err != nil {
		panic("config: " + err.Error())
	}
	return p
}

// LookupSource returns the published statement id of the embedded file.
func LookupSource(id string) (Publication, bool) {
	i := slices.IndexFunc(Published(), func(p Publication) bool { return p.ID == id })
	if i < 0 {
		return Publication{}, false
	}
	return Published()[i], true
}

// ParseSources reads a file of published statements: one key, sources, a
// list of them. Errors name the file, line and key, like Parse's.
func ParseSources(file string, data []byte) ([]Publication, error) {
	return parseSources(file, data, nil)
}

// parseSources is ParseSources; reserved (nil for the built-in file) says
// which ids the file may not take: an experiment's own file may not take
// the built-in ones.
func parseSources(file string, data []byte, reserved func(id string) bool) ([]Publication, error) {
	src := &source{file: file, rootLine: 1, lines: map[string]int{}}
	root, errs := parseNode(src, data)
	if errs != nil {
		return nil, errs
	}
	if root == nil {
		return nil, Errors{{File: file, Msg: "empty; want sources, a list of published statements"}}
	}
	src.walk(root)
	var f sourcesFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	k := &checker{c: &Config{src: src}}
	if err := dec.Decode(&f); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, Errors{src.yamlError(err)}
		}
		// The decoder keeps what it could decode: report the rest, and
		// go on checking that.
		for _, msg := range te.Errors {
			k.errs = append(k.errs, sourcesTypeError(src, msg))
		}
	}
	if len(f.Sources) == 0 {
		k.errorf("sources", "no sources; want a list of published statements")
	}
	checkPublications(k, f.Sources, reserved)
	if errs := k.errs.sorted(); errs != nil {
		return nil, errs.capped()
	}
	return f.Sources, nil
}

// sourcesFile is what a sources file holds.
type sourcesFile struct {
	Sources []Publication `yaml:"sources"`
}

// sourcesTypeError says what a decoding message of a sources file means:
// an unknown key, with the valid ones, or a value of the wrong type.
func sourcesTypeError(src *source, msg string) Error {
	if m := reNotFound.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		valid := []string{"sources"}
		if strings.HasSuffix(m[3], "Publication") {
			valid = yamlKeys(reflect.TypeFor[Publication]())
		}
		key := m[2]
		for _, e := range src.entries {
			if e.keyLine == line && lastKey(e.path) == key {
				key = e.path
				break
			}
		}
		return Error{File: src.file, Line: line, Key: key, Msg: "unknown key; valid: " + strings.Join(valid, ", ")}
	}
	return src.yamlError(errors.New(msg))
}

// publication returns the statement a claim's source names, if any: one
// of the experiment's own sources file, or of the built-in one.
func (c *Config) publication(id string) (Publication, bool) {
	if !IsSourceID(id) {
		return Publication{}, false
	}
	if i := slices.IndexFunc(c.ownSources, func(p Publication) bool { return p.ID == id }); i >= 0 {
		return c.ownSources[i], true
	}
	return LookupSource(id)
}

// allSources lists the statements a claim may name: the built-in ones,
// then the experiment's own.
func (c *Config) allSources() []Publication {
	return append(slices.Clone(Published()), c.ownSources...)
}

// builtIn reports whether id is a statement of the built-in sources file.
func builtIn(id string) bool {
	_, ok := LookupSource(id)
	return ok
}

// OwnSources returns the statements of the experiment's own sources file
// (key sources; none where it names none).
func (c *Config) OwnSources() []Publication { return slices.Clone(c.ownSources) }

// readOwnSources reads the sources file the experiment file named file
// names (key sources), relative to that file's directory: the schema and
// checks of experiments/sources.yaml, and no id of the built-in file.
// Errors name the sources file, its line and key.
func (c *Config) readOwnSources(file string) Errors {
	if c.SourcesFile == "" {
		return nil
	}
	c.ownRead = true
	path := c.SourcesFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(file), path)
	}
	key := Error{File: file, Key: "sources"}
	if c.src != nil {
		key.Line = c.src.line("sources")
	}
	if strings.TrimSpace(c.SourcesFile) == "" {
		key.Msg = "empty; want the name of a sources file (the schema of experiments/sources.yaml), relative to this file"
		return Errors{key}
	}
	data, err := readFileOf(path, "a sources file")
	if err != nil {
		key.Msg = fmt.Sprintf("cannot read the sources file %s: %v", path, err)
		var es Errors
		if errors.As(err, &es) && len(es) > 0 {
			key.Msg = fmt.Sprintf("cannot read the sources file %s: %s", path, es[0].Msg)
		}
		return Errors{key}
	}
	if msg := encodingProblem(data); msg != "" { // before it is read as YAML at all
		return Errors{{File: path, Msg: msg}}
	}
	if what := experimentKeys(data); what != "" {
		// each of its keys would be "unknown" to the sources schema
		key.Msg = fmt.Sprintf("%s is an experiment file (it has %s), not a sources file; want a file whose one top-level key is sources (the schema of experiments/sources.yaml)", path, what)
		if same(path, file) {
			key.Msg = fmt.Sprintf("%s names this experiment file itself; want a sources file, whose one top-level key is sources (the schema of experiments/sources.yaml)", c.SourcesFile)
		}
		return Errors{key}
	}
	list, err := parseSources(path, data, builtIn)
	if err != nil {
		var es Errors
		if errors.As(err, &es) {
			return es
		}
		key.Msg = err.Error()
		return Errors{key}
	}
	sum := sha256.Sum256(data)
	c.ownSources, c.ownSHA256 = list, hex.EncodeToString(sum[:])
	return nil
}

// onOwnSources lists the claims and size-curve reference lines (as the
// file numbers them) whose source may be a statement of the experiment's
// own sources file: an id not built in.
func (c *Config) onOwnSources() (keys []string) {
	own := func(id string) bool { return IsSourceID(id) && !builtIn(id) }
	for i, cl := range c.Claims {
		if own(cl.Source) {
			keys = append(keys, c.fileKey(fmt.Sprintf("claims[%d]", i)))
		}
	}
	for i, r := range c.Outputs.FigureOptions.SizeCurve.References {
		if own(r.Source) {
			keys = append(keys, c.fileKey(fmt.Sprintf("%s[%d]", refList, i)))
		}
	}
	return keys
}

// checkPublications checks a list of published statements.
func checkPublications(k *checker, list []Publication, reserved func(id string) bool) {
	seen := map[string]string{}
	for i, p := range list {
		key := fmt.Sprintf("sources[%d]", i)
		switch {
		case reserved != nil && p.ID != "" && reserved(p.ID):
			k.errorf(key+".id", "%q is the id of a statement built into this binary (experiments/sources.yaml); an experiment's own sources take ids of their own (e.g. %s-own)", p.ID, p.ID)
		case p.ID == "":
			k.errorf(key+".id", "missing; want an id of lower-case words joined by -, e.g. ganzfried-2004-n7")
		case !IsSourceID(p.ID):
			k.errorf(key+".id", "%q: want an id of lower-case words of letters, digits, _ and . joined by -, e.g. ganzfried-2004-n7 (a claim's source in that shape is an id)", p.ID)
		case seen[p.ID] != "":
			k.errorf(key+".id", "%q again (%s); source ids must differ", p.ID, seen[p.ID])
		default:
			seen[p.ID] = k.c.fileKey(key)
		}
		for _, f := range []struct{ name, value, hint string }{
			{"authors", p.Authors, "who published it"},
			{"title", p.Title, "the publication's title"},
			{"where", p.Where, `page, table or figure, or "not given"`},
			{"statement", p.Statement, "the published words, shortened"},
		} {
			if strings.TrimSpace(f.value) == "" {
				k.errorf(key+"."+f.name, "missing; want %s", f.hint)
			}
		}
		if p.Year != 0 && (p.Year < 1500 || p.Year > 2200) {
			k.errorf(key+".year", "%d is not a year of publication; want e.g. 2004 (leave it out where it is not known)", p.Year)
		}
		checkCount(k, key, p)
		checkPublicationEncoding(k, key, p)
		if p.Sizes != "" {
			if sp, ok := parseSourceSpan(p.Sizes); !ok || sp.lo > sp.hi || sp.lo < 1 {
				k.errorf(key+".sizes", "%q is not a size range; want LO..HI, e.g. 5..50, or LO.. for every n from LO on", p.Sizes)
			} else {
				k.checkExceptList(key+".except", p.Except, sp)
			}
		} else if len(p.Except) > 0 {
			k.errorf(key+".except", "except goes with sizes (the range it drops sizes of)")
		}
	}
}

// checkCount checks a statement's rate, trials, successes and assumption.
func checkCount(k *checker, key string, p Publication) {
	if p.Rate != nil && !(*p.Rate >= 0 && *p.Rate <= 1) {
		k.errorf(key+".rate", "%v is not a rate; want a value from 0 to 1", *p.Rate)
	}
	for _, t := range []struct {
		name string
		n    *int64
	}{{"trials", p.Trials}, {"assumed_trials", p.AssumedTrials}} {
		if t.n != nil && (*t.n < 1 || *t.n > MaxPublishedTrials) {
			k.errorf(key+"."+t.name, "%d is not a trial count; want 1 to %d trials per board (leave it out where the publication gives none)", *t.n, int64(MaxPublishedTrials))
		}
	}
	if s := p.Successes; s != nil {
		switch {
		case p.Trials == nil:
			k.errorf(key+".successes", "successes without trials; want trials too (successes of how many?)")
		case *s < 0 || *s > *p.Trials:
			k.errorf(key+".successes", "%d is not a count of successes out of %d trials; want 0 to %d", *s, *p.Trials, *p.Trials)
		case p.Rate != nil && *p.Trials > 0 && math.Abs(*p.Rate-float64(*s)/float64(*p.Trials)) > 0.005:
			k.errorf(key+".rate", "%v disagrees with %d successes of %d trials; want the published rate, rounded", *p.Rate, *s, *p.Trials)
		}
	}
	switch {
	case p.AssumedTrials != nil && p.Trials != nil:
		k.errorf(key+".assumed_trials", "the publication gives trials; want trials or assumed_trials, not both")
	case p.AssumedTrials != nil && strings.TrimSpace(p.Assumption) == "":
		k.errorf(key+".assumption", "missing; say why assumed_trials is the publication's trial count")
	case p.AssumedTrials == nil && p.Assumption != "":
		k.errorf(key+".assumption", "an assumption goes with assumed_trials only")
	}
	if m := p.Margin; m != nil {
		_, _, hasTrials := p.TrialsPer()
		switch {
		case !(*m > 0 && *m < 1):
			k.errorf(key+".margin", "%v is not an equivalence margin; want a difference of rates in (0, 1), e.g. 0.05 (leave it out for what the source's own trials could resolve)", *m)
		case !hasTrials && strings.TrimSpace(p.MarginAssumption) == "":
			k.errorf(key+".margin_assumption", "missing; the source gives no trials (nor assumed_trials), so say why a margin of %v is what it could resolve", *m)
		}
	} else if p.MarginAssumption != "" {
		k.errorf(key+".margin_assumption", "a margin assumption goes with margin only")
	}
	if r := p.PlanningRate; r != nil {
		switch {
		case !(*r > 0 && *r < 1):
			k.errorf(key+".planning_rate", "%v is not a planning rate; want a rate in (0, 1) the design was planned at (leave it out for 0.5, where a count varies most)", *r)
		case p.Margin != nil:
			k.errorf(key+".planning_rate", "a declared margin needs no planning rate; want margin or planning_rate, not both")
		}
	}
}

// checkSource checks a claim's source: an id names a known statement.
func (c *Config) checkSource(k *checker, key string, cl Claim) {
	src := cl.Source
	if !IsSourceID(src) {
		if cl.Unverified {
			k.errorf(key+".unverified", "unverified goes with a source id whose page is \"not verified\" in sources.yaml; %q names none", src)
		}
		return
	}
	if p, ok := c.publication(src); ok {
		switch {
		case p.NotVerified() && !cl.Unverified:
			k.errorf(key+".unverified", "missing; source %s is marked \"where: not verified\" in sources.yaml (we have not seen its page), so a claim about it must say unverified: true, and is labelled so in tables, report and figures", src)
		case !p.NotVerified() && cl.Unverified:
			k.errorf(key+".unverified", "source %s gives its page (where: %s): want unverified left out, or the source's where set to \"not verified\"", src, p.Where)
		}
		return
	}
	var ids []string
	for _, p := range c.allSources() {
		ids = append(ids, p.ID)
	}
	hint := ""
	if g := guess(src, ids); g != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", g)
	}
	k.errorf(key+".source", "%q is not a source id%s; valid: %s (experiments/sources.yaml), or words that say where a statement published nowhere comes from", src, hint, strings.Join(ids, ", "))
}

// checkFamilies checks the declared families against the claims: each is
// named once, each declared one has a claim, and each claim's family is
// declared (where any are).
func (c *Config) checkFamilies(k *checker) {
	declared := map[string]bool{}
	for i, f := range c.Families {
		key := fmt.Sprintf("families[%d]", i)
		switch {
		case f.Name == "":
			k.errorf(key+".name", "missing; want a family name of letters, digits, -, _ and .")
		case familyProblem(f.Name) != "":
			k.errorf(key+".name", "%s", familyProblem(f.Name))
		case declared[f.Name]:
			k.errorf(key+".name", "%q again; family names must differ", f.Name)
		}
		declared[f.Name] = true
		if strings.TrimSpace(f.Question) == "" {
			k.errorf(key+".question", "missing; say what question the family's claims answer together")
		}
	}
	if len(c.Families) == 0 {
		return
	}
	named := map[string]bool{}
	var names []string
	for i, cl := range c.Claims {
		f := cl.Family
		if f == "" {
			f = DefaultFamily
		}
		if !named[f] {
			names = append(names, f)
		}
		named[f] = true
		if !declared[f] && familyProblem(cl.Family) == "" {
			var valid []string
			for _, d := range c.Families {
				if d.Name != "" && !slices.Contains(valid, d.Name) {
					valid = append(valid, d.Name)
				}
			}
			if len(valid) == 0 {
				k.errorf(fmt.Sprintf("claims[%d].family", i), "%q is not declared, and families names none; give each family a name", f)
			} else {
				k.errorf(fmt.Sprintf("claims[%d].family", i), "%q is not declared; valid: %s (families)", f, strings.Join(valid, ", "))
			}
		}
	}
	for i, f := range c.Families {
		if f.Name != "" && !named[f.Name] && !c.partial("claims") && len(names) == 0 {
			k.errorf(fmt.Sprintf("families[%d].name", i), "%q names no claim: the experiment has no claims; remove families, or add claims with family: %s", f.Name, f.Name)
		} else if f.Name != "" && !named[f.Name] && !c.partial("claims") {
			k.errorf(fmt.Sprintf("families[%d].name", i), "%q names no claim; the claims name %s (a claim's family key; %s when it has none)", f.Name, strings.Join(names, ", "), DefaultFamily)
		}
	}
}

// comparesCount reports whether a claim is compared with its source's
// published count: a claim about one board at a time whose source gives
// a rate and trials (or assumed trials).
func (c *Config) comparesCount(cl Claim) bool {
	p, ok := c.publication(cl.Source)
	if !ok || cl.Sizes != "" || cl.Share != nil || cl.FirstFailure != nil || cl.FailingBelow != nil {
		return false
	}
	_, _, _, ok = p.Count()
	return ok
}

// checkReadings checks the claims' ids and readings: an id is listed once,
// or once per reading, and the readings of one claim share its source and
// family; a fitted reading says why it was chosen.
func (c *Config) checkReadings(k *checker) {
	first := map[string]int{}
	seen := map[[2]string]int{}
	for i, cl := range c.Claims {
		key := fmt.Sprintf("claims[%d]", i)
		if cl.Fitted && strings.TrimSpace(cl.Why) == "" {
			k.errorf(key+".why", "missing; a fitted reading says how it was chosen (it reproduces the number by construction, so it is not counted as support)")
		}
		if cl.Why != "" && !cl.Fitted {
			k.errorf(key+".why", "why goes with fitted: true only")
		}
		if (cl.Fitted || cl.Why != "") && cl.Reading == "" {
			k.errorf(key+".reading", "missing; a fitted entry is a reading: name it")
		}
		if strings.ContainsAny(cl.Reading, "\n|") {
			k.errorf(key+".reading", "%q: want a name on one line without |", cl.Reading)
		}
		if cl.ID == "" {
			continue
		}
		j, again := first[cl.ID]
		if !again {
			first[cl.ID] = i
		}
		if jj, dup := seen[[2]string{cl.ID, cl.Reading}]; dup {
			msg := "claim ids must differ, or name different readings (key reading) of one claim"
			if cl.Reading != "" {
				msg = fmt.Sprintf("reading %q again; the readings of a claim must differ", cl.Reading)
			}
			k.errorf(key+".id", "%q again (%s); %s", cl.ID, c.fileKey(fmt.Sprintf("claims[%d]", jj)), msg)
			continue
		}
		seen[[2]string{cl.ID, cl.Reading}] = i
		if again && !sameStatement(c.Claims[j], cl) {
			k.errorf(key, "claim %s again (%s) with another source or family; readings of one claim share them", cl.ID, c.fileKey(fmt.Sprintf("claims[%d]", j)))
		}
	}
}

// sameStatement reports whether a and b can be readings of one claim:
// the same source and family. Their rule, target, boards and statement
// may differ: a reading may read "none" as probability zero or as a rate
// that 0 of 100 trials leaves plausible.
func sameStatement(a, b Claim) bool {
	return a.Source == b.Source && a.Family == b.Family
}

// experimentKeys names the keys of an experiment file that data has at
// its top level (name, boards, rules), "" when it has none.
func experimentKeys(data []byte) string {
	var top map[string]any
	if yaml.Unmarshal(data, &top) != nil {
		return ""
	}
	var have []string
	for _, k := range []string{"name", "boards", "rules"} {
		if _, ok := top[k]; ok {
			have = append(have, k)
		}
	}
	return strings.Join(have, ", ")
}

// same reports whether paths a and b name one file.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
