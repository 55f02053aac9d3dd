package harness

import (
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/internal/config"
)

// readmeMaxLines is how long the README, the project's front door, may
// grow; everything longer belongs on a page under docs/.
const readmeMaxLines = 300

// pageNeedsContents is the length from which a documentation page must
// open with a table of contents (a "Contents:" line of links).
const pageNeedsContents = 600

// docPages lists the Markdown documentation: the README, every page under
// docs/, and the READMEs of the directories that have one.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "*/README.md"} {
		m, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, err := filepath.Rel("..", p)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
	}
	return pages
}

// TestDocPages: the README stays a front door of at most 300 lines, every
// long page opens with a table of contents, and every relative link of
// every page (README, docs/, the directories' READMEs) reaches a file that
// exists and, where it names a heading (#anchor), a heading of that page.
// Pages moved about, a link that once worked breaks silently otherwise.
func TestDocPages(t *testing.T) {
	if n := strings.Count(docPage(t, "README.md"), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines; it is the front door, at most %d: move the detail to a page under docs/", n, readmeMaxLines)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range docPages(t) {
		text := docPage(t, page)
		lines := strings.Split(text, "\n")
		if len(lines) > pageNeedsContents && !hasContents(lines) {
			t.Errorf("%s has %d lines and no table of contents (a \"Contents:\" line near its top)", page, len(lines))
		}
		for _, m := range link.FindAllStringSubmatch(outsideCode(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			resolved := page
			if file != "" {
				resolved = path.Join(path.Dir(page), file)
				if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(resolved))); err != nil {
					t.Errorf("%s links %s: %v", page, target, err)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			if !headingAnchors(docPage(t, resolved))[anchor] {
				t.Errorf("%s links %s: %s has no heading with the anchor #%s", page, target, resolved, anchor)
			}
		}
	}
}

// hasContents reports whether a page's first lines hold its table of
// contents.
func hasContents(lines []string) bool {
	for i, l := range lines {
		if i > 40 {
			break
		}
		if strings.HasPrefix(l, "Contents:") || strings.EqualFold(strings.TrimSpace(l), "## Contents") {
			return true
		}
	}
	return false
}

// outsideCode is text without its fenced code blocks, where a bracket
// followed by a parenthesis is code, not a link.
func outsideCode(text string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// headingAnchors is the set of anchors GitHub gives a page's headings:
// the heading's text in lower case, with everything but letters, digits,
// spaces, hyphens and underscores dropped and spaces made hyphens (a
// repeated heading gets -1, -2, … after the first).
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(outsideCode(text), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		h = strings.NewReplacer("`", "", "*", "").Replace(h)
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestHeadingAnchors pins the anchor rule on headings the pages use.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# Results: seed 000's claims on 8×8\n## Squirrel & Cull's algorithm\n## `run`\n## A\n## A\n")
	for _, want := range []string{"results-seed-000s-claims-on-88", "squirrel--culls-algorithm", "run", "a", "a-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
}

// readmeBlock returns the body of the README's first fenced block that
// opens with the line open (e.g. "```yaml").
func readmeBlock(t *testing.T, open, first string) string {
	t.Helper()
	readme := docPage(t, "README.md")
	i := strings.Index(readme, open+"\n"+first)
	if i < 0 {
		t.Fatalf("README.md has no %s block starting %q", open, first)
	}
	block := readme[i+len(open)+1:]
	return block[:strings.Index(block, "```")]
}

// TestReadmeTour: the tour's experiment file is the default experiment in
// short: a valid file whose seed, boards, starts, walks and rules are the
// default experiment's and whose claims are some of its claims, word for
// word.
func TestReadmeTour(t *testing.T) {
	short, err := config.Parse("README.md", []byte(readmeBlock(t, "```yaml", "name: default\n")))
	if err != nil {
		t.Fatalf("the README's experiment file is not valid:\n%v", err)
	}
	_, data := experiments.Default()
	full, err := config.Parse("default.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if short.Name != full.Name || short.Seed != full.Seed || !reflect.DeepEqual(short.Boards, full.Boards) ||
		!reflect.DeepEqual(short.Starts, full.Starts) || !reflect.DeepEqual(short.WalksKey, full.WalksKey) ||
		!reflect.DeepEqual(short.Rules, full.Rules) {
		t.Errorf("the README's experiment file is not experiments/default.yaml in short:\n%+v\n%+v", short, full)
	}
	if len(short.Claims) == 0 {
		t.Error("the README's experiment file has no claims")
	}
	for _, c := range short.Claims {
		found := false
		for _, f := range full.Claims {
			if f.ID == c.ID {
				found = true
				f.Board = c.Board // the short file leaves out the one board
				if !reflect.DeepEqual(c, f) {
					t.Errorf("claim %s: the README's is not default.yaml's:\n%+v\n%+v", c.ID, c, f)
				}
			}
		}
		if !found {
			t.Errorf("claim %s of the README is not in experiments/default.yaml", c.ID)
		}
	}
}

// TestLicenseCopies: the Python package ships its own copy of LICENSE
// (a wheel's license files must lie under its project directory), and the
// copy is the repository's, byte for byte.
func TestLicenseCopies(t *testing.T) {
	if docPage(t, "python/LICENSE") != docPage(t, "LICENSE") {
		t.Error("python/LICENSE is not LICENSE: copy it (cp LICENSE python/LICENSE)")
	}
}
