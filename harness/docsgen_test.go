package harness

import (
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/docgen"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated regions of the documentation pages from their generators")

// docRegion is a generated region of a documentation page: the page, the
// region's name and the generator that writes it from the tool. slow says
// what it runs where that needs KNIGHTWALK_SLOW=1; "" for one that runs at
// once.
type docRegion struct {
	page, name string
	slow       string
	gen        func(t *testing.T) string
}

// docRegions are every generated region of the pages (docgen's markers).
var docRegions = []docRegion{
	{"docs/figures.md", "closed-tours-starts", "", genClosedToursStarts},
	{claimsPage, "claims-8x8", "claims-8x8, 2.6 million walks", genClaims8x8},
	{claimsPage, "8x8-corner-rank", "the 8×8 exact table, 2 s", gen8x8(func(f exact8x8Stats) string {
		return fmt.Sprintf("%s, ranks %d–%d of %d", pct(f.corner), f.below+1, f.upTo, f.squares)
	})},
	{claimsPage, "8x8-worst", "the 8×8 exact table, 2 s", gen8x8(func(f exact8x8Stats) string { return pct(f.lo) })},
	{claimsPage, "8x8-centre-mean", "the 8×8 exact table, 2 s", gen8x8(func(f exact8x8Stats) string { return pct(f.centre) })},
	{claimsPage, "8x8-corner-mean", "the 8×8 exact table, 2 s", gen8x8(func(f exact8x8Stats) string { return pct(f.corner) })},
	{claimsPage, "8x8-best", "the 8×8 exact table, 2 s", gen8x8(func(f exact8x8Stats) string { return pct(f.hi) })},
	{"README.md", "readme-verdicts", "the default experiment, 1.28 million walks", genReadmeVerdicts},
	{"docs/experiments.md", "experiment-file", "", genExperimentFile},
	{claimsPage, "published-claims", "five experiments, about 10 CPU-minutes", genPublishedClaims},
}

// TestDocs: every generated region of the documentation is what its
// generator writes now; with -update-docs it rewrites them. The regions
// whose generators run experiments are checked (and rewritten) only in the
// slow suite:
//
//	go test ./harness -run TestDocs -update-docs                    # the quick regions
//	KNIGHTWALK_SLOW=1 go test ./harness -run TestDocs -update-docs  # all of them
func TestDocs(t *testing.T) {
	pages := map[string]bool{}
	for _, r := range docRegions {
		pages[r.page] = true
		t.Run(r.name, func(t *testing.T) {
			if r.slow != "" {
				testenv.SkipUnlessSlow(t, r.page+" region "+r.name+" ("+r.slow+")")
			}
			path := filepath.Join("..", filepath.FromSlash(r.page))
			page := docPage(t, r.page)
			text := r.gen(t)
			ok, err := docgen.Holds(page, r.name, text)
			if err != nil {
				t.Fatalf("%s: %v", r.page, err)
			}
			if ok {
				return
			}
			if !*updateDocs {
				t.Fatalf("%s: region %s is not what the tool gives; rewrite it with go test ./harness -run 'TestDocs/%s$' -update-docs. It gives:\n%s", r.page, r.name, r.name, text)
			}
			page, err = docgen.Replace(page, r.name, text)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s region %s", r.page, r.name)
		})
	}
	// every region on the pages has its generator
	for p := range pages {
		for _, n := range docgen.Names(docPage(t, p)) {
			found := false
			for _, r := range docRegions {
				found = found || r.page == p && r.name == n
			}
			if !found {
				t.Errorf("%s: region %s has no generator in docRegions", p, n)
			}
		}
	}
}

// gen8x8 is a generator of a number of the 8×8 exact table
// (exact8x8Facts, computed once a test binary).
func gen8x8(text func(exact8x8Stats) string) func(*testing.T) string {
	return func(t *testing.T) string {
		facts8x8.Do(func() { facts8x8.f = exact8x8Facts(t) })
		return text(facts8x8.f)
	}
}

var facts8x8 struct {
	sync.Once
	f exact8x8Stats
}

// genClosedToursStarts: the closed-tours figure's caption, how many of the
// board's squares the experiment runs and how many it enumerates only for
// the figure.
func genClosedToursStarts(t *testing.T) string {
	s, err := expfile.Load("closed-tours")
	if err != nil {
		t.Fatal(err)
	}
	b := s.Boards[0]
	return fmt.Sprintf("the %s squares run, and the other %d enumerated for the figure", spelled(len(s.Starts[0])), b.Squares()-len(s.Starts[0]))
}

// genExperimentFile: the experiment file's reference, docs/experiments.md,
// is the package documentation of internal/config (the schema with every
// key, the claims, the errors and limits), rendered as Markdown: the one
// place it is written is the code that reads the file.
func genExperimentFile(t *testing.T) string {
	fset := token.NewFileSet()
	var files []*ast.File
	paths, err := filepath.Glob(filepath.Join("..", "internal", "config", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/knightwalk/knightwalk/internal/config")
	if err != nil {
		t.Fatal(err)
	}
	pr := pkg.Printer()
	pr.HeadingLevel = 2
	md := string(pr.Markdown(pkg.Parser().Parse(pkg.Doc)))
	// headings as GitHub writes them: its own anchors, not go/doc's {#hdr-X}
	md = regexp.MustCompile(` \{#hdr-[A-Za-z0-9_-]+\}`).ReplaceAllString(md, "")
	return strings.TrimSpace(md)
}

// genClaims8x8: the results table of docs/claims.md ("Results: seed 000's
// claims on 8×8"), each claim of claims-8x8 as the tool measures and
// decides it.
func genClaims8x8(t *testing.T) string {
	text := docPage(t, claimsPage)
	for _, cmd := range []string{"go run ./cmd/experiment run claims-8x8", "go run ./cmd/experiment exact --board 8x8"} {
		if !strings.Contains(text, cmd) {
			t.Fatalf("%s no longer shows %q", claimsPage, cmd)
		}
	}
	s, err := expfile.Load("claims-8x8")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "claims-8x8")
	if _, _, err := runCmd(t, "run", "claims-8x8", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	claims, _, err := table.Read[table.ClaimRow](filepath.Join(dir, "claims.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| claimed | rule | start class | measured [%g %% interval] | exact | decided by | verdict |\n|---|---|---|---|---|---|---|\n", 100*s.Confidence)
	for _, c := range claims {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", results.ClaimedText(c), c.Rule, strings.TrimPrefix(c.Target, "class:"),
			results.MeasuredText(c), results.ExactText(c), c.DecidedBy, c.Verdict)
	}
	return b.String()
}

// genReadmeVerdicts: the README's first command's verdicts, as it prints
// them.
func genReadmeVerdicts(t *testing.T) string {
	out, _, err := runCmd(t, "run", "--out", filepath.Join(t.TempDir(), "default"))
	if err != nil {
		t.Fatal(err)
	}
	return "```\n" + out + "```\n"
}

// genPublishedClaims: the tables of docs/claims.md's "Published claims",
// `experiment claims` on the literature runs (publishedExperiments).
func genPublishedClaims(t *testing.T) string {
	text := docPage(t, claimsPage)
	var dirs []string
	ids := map[string]string{}
	for _, name := range publishedExperiments {
		if !strings.Contains(text, "go run ./cmd/experiment run "+name+" ") {
			t.Fatalf("%s no longer shows the command for %s", claimsPage, name)
		}
		dir := filepath.Join(t.TempDir(), name)
		if _, _, err := runCmd(t, "run", name, "--out", dir, "--quiet"); err != nil {
			t.Fatal(err)
		}
		claims, _, err := table.Read[table.ClaimRow](filepath.Join(dir, "claims.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range claims {
			// A claim may be read in several experiments (roth-428 in
			// roth-sweep and roth-sweep-ostar), once per reading.
			k := c.ID + " / " + c.Reading + " / " + c.Board
			if other, dup := ids[k]; dup {
				t.Fatalf("claim %s in %s and %s: %s cannot tell them apart", k, other, name, claimsPage)
			}
			ids[k] = name
		}
		dirs = append(dirs, dir)
	}
	out, _, err := runCmd(t, append([]string{"claims"}, dirs...)...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
