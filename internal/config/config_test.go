package config

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func mustParse(t *testing.T, text string) *Config {
	t.Helper()
	c, err := Parse("test.yaml", []byte(text))
	if err != nil {
		t.Fatalf("Parse:\n%v", err)
	}
	return c
}

func TestDefaults(t *testing.T) {
	c := mustParse(t, "name: tiny\nboards: [5x5]\nrules: [{name: warnsdorff}, {name: backtrack}]\n")
	if c.Seed != 1 || c.Walks != DefWalks || c.Confidence != 0.95 || c.Interval != "wilson" {
		t.Errorf("defaults not applied: seed %d walks %d confidence %v interval %q", c.Seed, c.Walks, c.Confidence, c.Interval)
	}
	if !slices.Equal(c.Starts, Starts{"all"}) {
		t.Errorf("starts = %v, want [all]", c.Starts)
	}
	if c.Outputs.Walks || c.Outputs.Figures != nil || c.Outputs.RowGroup != 0 || c.Claims != nil {
		t.Errorf("optional outputs and claims not empty: %+v %v", c.Outputs, c.Claims)
	}
	rules := c.ruleList()
	if len(rules) != 2 || rules[0].TieBreak != sim.TieRandom || rules[1].TieBreak != sim.TieFirst {
		t.Errorf("rules = %+v; want warnsdorff/random and backtrack with tie-break first", rules)
	}
	boards := c.boardList()
	if len(boards) != 1 || boards[0].String() != "5x5" {
		t.Fatalf("boards = %v", boards)
	}
	if got := c.startSquares(boards[0]); len(got) != 25 || got[0] != 0 || got[24] != 24 {
		t.Errorf("start squares = %v, want 0..24", got)
	}
	// Keys written out keep their values; outputs keeps defaults it does not mention.
	c = mustParse(t, "name: x\nseed: 0\nwalks: 7\nboards: [8x8]\nrules: [{name: random}]\noutputs: {row_group: 100}\n")
	if c.Seed != 0 || c.Walks != 7 || c.Outputs.RowGroup != 100 || c.Outputs.Walks {
		t.Errorf("seed %d walks %d outputs %+v", c.Seed, c.Walks, c.Outputs)
	}
}

// TestBadFiles compares the errors for each testdata/bad/*.yaml with its
// .golden file; go test -update rewrites them.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) < 7 {
		t.Fatalf("only %d bad files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := Load(f)
			if err == nil {
				t.Fatalf("Load accepted %s: %+v", f, c)
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T is not Errors: %v", err, err)
			}
			for i, e := range es {
				if e.File != f || e.Line < 1 || e.Msg == "" {
					t.Errorf("error without file, line or message: %#v", e)
				}
				if i > 0 && es[i-1].Line > e.Line {
					t.Errorf("errors not sorted by line: %d before %d", es[i-1].Line, e.Line)
				}
			}
			got := err.Error() + "\n"
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("errors differ from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// TestAllErrorsTogether checks that one pass reports problems from every
// part of a file, not just the first.
func TestAllErrorsTogether(t *testing.T) {
	_, err := Load("testdata/bad/many_errors.yaml")
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("want Errors, got %v", err)
	}
	keys := map[string]bool{}
	for _, e := range es {
		keys[e.Key] = true
	}
	for _, k := range []string{
		"name", "seed", "boards[1]", "boards[2]", "boards[3]", "starts[1]", "walks",
		"rules[1]", "rules[2].name", "rules[3].order", "rules[4].closed", "rules[4].node_budget",
		"confidence", "interval", "outputs.figures[1]", "outputs.figures[2]", "outputs.row_group",
		"claims[0].rule", "claims[0].board", "claims[0]", "claims[0].rate", "claims[0].range",
		"claims[1].degree", "claims[1].tolerance", "claims[2].id", "claims[2].square", "claims[3].range",
	} {
		if !keys[k] {
			t.Errorf("no error for %s", k)
		}
	}
	// Type errors and validation errors come together too.
	_, err = Parse("mixed.yaml", []byte("name: ../x\nwalks: lots\nboards: [0x0]\nrules: [{name: warnsdorff, tie_break: x, extra: 1}]\n"))
	want := `mixed.yaml:1: name: "../x" is not a safe directory name ('/'); use letters, digits, -, _ and . (not . or ..)
mixed.yaml:2: walks: want a whole number, not "lots"
mixed.yaml:3: boards[0]: board 0x0: rows and cols must be at least 1
mixed.yaml:4: rules[0].extra: unknown key; valid: name, tie_break, order, max_steps, closed, node_budget, estimator, particles, replicates, order_by_n_mod_8
mixed.yaml:4: rules[0].tie_break: tie-break "x": unknown tie-break "x"; valid tie-breaks are random, first, pohl, roth, pohlmin, pohlmin-before, corner, edge, lookahead2, lookahead3, lookahead4, or a chain of distinct steps joined by '+' whose last is random or first and whose others are pohl, roth, pohlmin, pohlmin-before, corner, edge or lookaheadK (e.g. roth+first, pohl+roth+random, corner+first, lookahead3+random)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestBoardForms(t *testing.T) {
	for _, tc := range []struct{ boards, want string }{
		{"[8x8]", "8x8"},
		{"[8X8, 8×8, 8]", "8x8"},
		{"[6x7]", "6x7"},
		{"[{sizes: 5..7}]", "5x5 6x6 7x7"},
		{"[{sizes: 9}]", "9x9"},
		{"[{sizes: 5..12, step: 3}]", "5x5 8x8 11x11"},
		{"[{from: 5, to: 20, step: 5}]", "5x5 10x10 15x15 20x20"},
		{"[{rows: 5..6, cols: 8}]", "5x8 6x8"},
		{"[{rows: 3, cols: 4..5}]", "3x4 3x5"},
		{"[{rows: 1..3, cols: 1..3, step: 2}]", "1x1 1x3 3x1 3x3"},
		{"[8x8, {sizes: 7..9}, 8x8]", "8x8 7x7 9x9"},
		{"[4096x4096, 1x1048576]", "4096x4096 1x1048576"},
	} {
		c := mustParse(t, "name: b\nrules: [{name: random}]\nstarts: [corner]\nboards: "+tc.boards+"\n")
		var got []string
		for _, s := range c.sizes(nil) {
			got = append(got, s.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("boards %s: got %v, want %s", tc.boards, got, tc.want)
		}
	}
	c := mustParse(t, "name: b\nrules: [{name: random}]\nboards: [{sizes: 5..7}, 8x6]\n")
	var got []string
	for _, b := range c.boardList() {
		got = append(got, b.String())
	}
	if strings.Join(got, " ") != "5x5 6x6 7x7 8x6" {
		t.Errorf("boardList = %v", got)
	}
}

func TestRules(t *testing.T) {
	c := mustParse(t, `name: r
boards: [8x8]
rules:
  - {name: random, max_steps: 10}
  - {name: warnsdorff/pohl}
  - {name: warnsdorff, tie_break: first, order: "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"}
  - {name: warnsdorff, tie_break: roth, max_steps: 5}
  - {name: backtrack, closed: true, node_budget: 1000, tie_break: random}
  - {name: backtrack}
`)
	rules := c.ruleList()
	var names []string
	for _, r := range rules {
		names = append(names, r.Name())
	}
	want := []string{"random", "warnsdorff/pohl", "warnsdorff/first", "warnsdorff/roth", "backtrack/closed", "backtrack"}
	if !slices.Equal(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	if rules[0].MaxSteps != 10 || rules[3].MaxSteps != 5 {
		t.Errorf("max_steps lost: %+v", rules)
	}
	if rules[2].Order == nil || rules[2].Order[0] != (sim.Move{DR: 1, DC: 2}) {
		t.Errorf("order lost: %+v", rules[2].Order)
	}
	if r := rules[4]; !r.Closed || r.NodeBudget != 1000 || r.TieBreak != sim.TieRandom {
		t.Errorf("backtrack options lost: %+v", r)
	}
	for _, r := range rules {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", r.Name(), err)
		}
	}
	// The canonical order written out is the default order.
	c = mustParse(t, "name: r\nboards: [8x8]\nrules: [{name: warnsdorff, tie_break: first, order: \""+canonicalOrder+"\"}]\n")
	if r := c.ruleList()[0]; r.Order != nil {
		t.Errorf("canonical order kept as %v", r.Order)
	}
}

func TestStarts(t *testing.T) {
	b8 := sim.MustBoard(8, 8)
	for _, tc := range []struct {
		starts string
		want   []int
	}{
		{"corner", []int{0, 7, 56, 63}},
		{"[centre]", []int{27, 28, 35, 36}},
		{"[center, d4, a1, r0c0, h8, a1]", []int{0, 27, 28, 35, 36, 63}},
		{"[r7c0, b1]", []int{1, 56}},
		{"[corner, all]", nil}, // all 64
	} {
		c := mustParse(t, "name: s\nboards: [8x8]\nrules: [{name: random}]\nstarts: "+tc.starts+"\n")
		got := c.startSquares(b8)
		want := tc.want
		if want == nil {
			for sq := range 64 {
				want = append(want, sq)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("starts %s: got %v, want %v", tc.starts, got, want)
		}
	}
	// Wide boards take r<row>c<col> names; the class counts match the board.
	c := mustParse(t, "name: s\nboards: [30x30]\nrules: [{name: random}]\nstarts: [r29c29, edge]\n")
	b := c.boardList()[0]
	got := c.startSquares(b)
	if len(got) != 4*28+1 || got[len(got)-1] != 899 {
		t.Errorf("30x30 starts: %d squares, last %d", len(got), got[len(got)-1])
	}
}

func TestClaimSquares(t *testing.T) {
	c := mustParse(t, `name: c
boards: [8x8, 6x6]
starts: [corner, centre, b1]
rules: [{name: warnsdorff}]
claims:
  - {rule: warnsdorff, class: edge, above: 0}
  - {rule: warnsdorff/random, board: 6x6, degree: 8, below: 1}
  - {rule: warnsdorff, board: 8x8, square: a1, range: [0, 1]}
`)
	b8, b6 := c.boardList()[0], c.boardList()[1]
	for _, tc := range []struct {
		claim int
		b     *sim.Board
		want  []int
	}{
		{0, b8, []int{1}}, {0, b6, []int{1}},
		{1, b8, nil}, {1, b6, []int{14, 15, 20, 21}},
		{2, b8, []int{0}}, {2, b6, nil},
	} {
		if got := c.claimSquares(c.Claims[tc.claim], tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("claim %d on %s: got %v, want %v", tc.claim, tc.b, got, tc.want)
		}
	}
	if n := c.Claims[0].ruleName(); n != "warnsdorff/random" {
		t.Errorf("ruleName = %q", n)
	}
}

// TestLightBoards checks the shortcuts that validation takes instead of
// building boards against real boards.
func TestLightBoards(t *testing.T) {
	for rows := 1; rows <= 11; rows++ {
		for cols := 1; cols <= 11; cols++ {
			s := size{rows, cols}
			b := sim.MustBoard(rows, cols)
			count := map[sim.Class]int{}
			pairs := map[[2]int]bool{}
			for sq := range b.Squares() {
				r, c := b.RowCol(sq)
				if got := s.class(rc{r, c}); got != b.Class(sq) {
					t.Fatalf("%s square %d: class from size %v, real %v", b, sq, got, b.Class(sq))
				}
				if s.degree(r, c) != b.Degree(sq) {
					t.Fatalf("%s square %d: degree %d, real %d", b, sq, s.degree(r, c), b.Degree(sq))
				}
				count[b.Class(sq)]++
				pairs[[2]int{int(b.Class(sq)), b.Degree(sq)}] = true
			}
			for _, cl := range sim.Classes {
				if s.classCount(cl) != count[cl] {
					t.Errorf("%s: %d %v squares, counted %d", b, s.classCount(cl), cl, count[cl])
				}
			}
			rep := map[[2]int]bool{}
			for _, sq := range s.representatives() {
				rep[[2]int{int(b.Class(sq)), b.Degree(sq)}] = true
			}
			for p := range pairs {
				if !rep[p] {
					t.Errorf("%s: class %v with degree %d has no representative", b, sim.Class(p[0]), p[1])
				}
			}
		}
	}
}

func TestHash(t *testing.T) {
	a := mustParse(t, `name: h
boards: [8x8, {sizes: 5..6}]
rules:
  - name: warnsdorff
  - name: backtrack
starts: [a1, center]
claims:
  - {rule: warnsdorff, class: centre, rate: 0.85}
`)
	b := mustParse(t, `# the same experiment, spelt differently
rules: [{name: warnsdorff/random, tie_break: random, max_steps: 0},
        {name: backtrack, tie_break: first, node_budget: 10000000, order: "`+canonicalOrder+`"}]
starts:
  - centre
  - r0c0
  - centre
boards: [8X8, 5x5, {from: 5, to: 6}]
name: h
seed: 1
walks: 10000
interval: wilson
confidence: 0.95
outputs: {walks: false, figures: []}
claims:
  - rule: warnsdorff/random
    board:
    class: centre
    rate: 0.85
    tolerance: 0
`)
	if a.Hash() != b.Hash() {
		t.Errorf("equivalent files hash differently:\n%s\n%s", a.canonicalJSON(), b.canonicalJSON())
	}
	if a.Hash() != a.Hash() {
		t.Error("hash not stable")
	}
	for _, change := range []func(*Config){
		func(c *Config) { c.Seed = 2 },
		func(c *Config) { c.Walks++ },
		func(c *Config) { c.Boards = c.Boards[:1] },
		func(c *Config) { c.Starts = Starts{"all"} },
		func(c *Config) { c.Rules[0].TieBreak = "pohl" },
		func(c *Config) { c.Claims[0].Class = "edge" },
		func(c *Config) { c.Description = "x" },
	} {
		c := *mustParse(t, string(mustRead(t, "testdata/hash.yaml")))
		h := c.Hash()
		change(&c)
		if c.Hash() == h {
			t.Errorf("a change left the hash at %s:\n%s", h, c.canonicalJSON())
		}
	}
	// The hash of a fixed file is part of the contract: a change here
	// means every manifest's hash changes (bump hashFormat).
	c := mustParse(t, string(mustRead(t, "testdata/hash.yaml")))
	got := c.Hash() + "\n" + string(c.canonicalJSON()) + "\n"
	if *update {
		if err := os.WriteFile("testdata/hash.golden", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := string(mustRead(t, "testdata/hash.golden")); got != want {
		t.Errorf("hash of testdata/hash.yaml changed (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestValidateBuiltInGo(t *testing.T) {
	c := Default()
	c.Name = "go"
	c.Boards = []BoardSpec{{Size: "8x8"}, {Sizes: "5..6"}}
	c.Rules = []RuleSpec{{Name: "warnsdorff"}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(c.boardList()) != 3 {
		t.Errorf("boards %v", c.boardList())
	}
	c.Walks = 0
	c.Starts = Starts{"z99"}
	err := c.Validate()
	want := "starts: square \"z99\" is off the 8x8 board (valid: a1 to h8) (and off 2 more: 5x5, 6x6)\nwalks: 0 is out of range; want 1 to 1e+12 walks per start square, rule and board"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{"f.yaml", 7, "rules[1].tie_break", "bad"}, "f.yaml:7: rules[1].tie_break: bad"},
		{Error{"f.yaml", 0, "name", "bad"}, "f.yaml: name: bad"},
		{Error{"f.yaml", 3, "", "bad"}, "f.yaml:3: bad"},
		{Error{"", 3, "k", "bad"}, "line 3: k: bad"},
		{Error{"", 0, "k", "bad"}, "k: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts
// validates and hashes stably. Seeds: testdata/fuzz/FuzzParse and the
// bad files.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	files = append(files, "testdata/hash.yaml", "../../experiments/default.yaml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil {
			if c != nil {
				t.Fatal("Parse returned a config with an error")
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is not Errors: %v", err)
			}
			for _, e := range es {
				if e.File != "fuzz.yaml" || e.Msg == "" {
					t.Fatalf("error without file or message: %#v", e)
				}
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse accepted a config that Validate rejects: %v", err)
		}
		h := c.Hash()
		if h2 := c.Hash(); h2 != h {
			t.Fatalf("hash not stable: %s then %s", h, h2)
		}
		c2, err := Parse("again.yaml", data)
		if err != nil || c2.Hash() != h {
			t.Fatalf("second parse differs: %v", err)
		}
		if len(c.sizes(nil)) == 0 || len(c.ruleList()) != len(c.Rules) {
			t.Fatalf("valid config resolves to %d boards and %d of %d rules", len(c.sizes(nil)), len(c.ruleList()), len(c.Rules))
		}
	})
}

// TestSchemaExample parses the example file in the package documentation.
func TestSchemaExample(t *testing.T) {
	doc := string(mustRead(t, "doc.go"))
	start, end := strings.Index(doc, "# Schema"), strings.Index(doc, "# Errors")
	var b strings.Builder
	for _, line := range strings.Split(doc[start:end], "\n") {
		if text, ok := strings.CutPrefix(line, "//\t"); ok {
			b.WriteString(text + "\n")
		}
	}
	c, err := Parse("doc.go", []byte(b.String()))
	if err != nil {
		t.Fatalf("the schema example does not parse:\n%v\n%s", err, b.String())
	}
	if len(c.boardList()) == 0 || len(c.ruleList()) != 2 || len(c.Claims) != 1 {
		t.Errorf("example resolves to %d boards, %d rules, %d claims", len(c.boardList()), len(c.ruleList()), len(c.Claims))
	}
}

// TestTieChains: a chain in tie_break or in the rule name resolves to sim's
// rule, and a move order goes with any chain ending in first.
func TestTieChains(t *testing.T) {
	const order = "(1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2)"
	src := "name: c\nboards: [8x8]\nrules:\n" +
		"  - {name: warnsdorff, tie_break: roth+first, order: \"" + order + "\"}\n" +
		"  - {name: warnsdorff/pohl+first}\n" +
		"  - {name: warnsdorff, tie_break: pohl+roth+random}\n"
	c, err := Parse("chains.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Resolve(c, "chains.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range e.Rules {
		got = append(got, r.Name())
	}
	want := []string{"warnsdorff/roth+first", "warnsdorff/pohl+first", "warnsdorff/pohl+roth+random"}
	if !slices.Equal(got, want) {
		t.Errorf("rules %v, want %v", got, want)
	}
	if o := e.Rules[0].Order; len(o) != 8 || o[0] != (sim.Move{DR: 1, DC: 2}) {
		t.Errorf("roth+first order %v, want the file's, from (1,2)", o)
	}
}
