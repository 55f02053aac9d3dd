package harness

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// claimsPage is the documentation page of the claims' results: seed 000's
// claims on 8x8 and the published claims, whose numbers the tests below
// hold to what the tool measures.
const claimsPage = "docs/claims.md"

// docPage reads a documentation page, named by its path from the
// repository root.
func docPage(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeResults runs the commands of the results section of
// docs/claims.md ("Results: seed 000's claims on 8×8") and checks every
// number and verdict in its table, so the page cannot drift from what the
// tool measures.
func TestReadmeResults(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the numbers of "+claimsPage+" (claims-8x8, 2.6 million walks)")
	text := docPage(t, claimsPage)
	for _, cmd := range []string{"go run ./cmd/experiment run claims-8x8", "go run ./cmd/experiment exact --board 8x8"} {
		if !strings.Contains(text, cmd) {
			t.Fatalf("%s no longer shows %q", claimsPage, cmd)
		}
	}
	dir := filepath.Join(t.TempDir(), "claims-8x8")
	if _, _, err := runCmd(t, "run", "claims-8x8", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	claims, _, err := table.Read[table.ClaimRow](filepath.Join(dir, "claims.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	recs := exact8x8(t)
	sum, n := map[string]float64{}, map[string]float64{}
	for _, r := range recs[1:] {
		p, _ := strconv.ParseFloat(r[4], 64)
		sum[r[3]] += p
		n[r[3]]++
	}
	row := regexp.MustCompile(`(?m)^\| (around 85 %|70–80 %|below 20 %) \| (\S+) \| (\w+) \|([^|]+)\|([^|]*)\| (\w+) \| (\w+) \|$`)
	rows := row.FindAllStringSubmatch(text, -1)
	if len(rows) != len(claims) {
		t.Fatalf("%s has %d result rows, the run %d claims", claimsPage, len(rows), len(claims))
	}
	for _, m := range rows {
		rule, class, measured, exact, decidedBy, verdict := m[2], m[3], strings.TrimSpace(m[4]), strings.TrimSpace(m[5]), m[6], m[7]
		found := false
		for _, c := range claims {
			if c.Rule != rule || c.Target != "class:"+class {
				continue
			}
			found = true
			got := results.MeasuredText(c) // the always-valid interval where it decided
			if c.DecidedBy != decidedBy {
				t.Errorf("%s %s: %s says decided by %s, the run by %s", rule, class, claimsPage, decidedBy, c.DecidedBy)
			}
			if got != measured {
				t.Errorf("%s %s: %s says %s, the run measures %s", rule, class, claimsPage, measured, got)
			}
			if c.Verdict != verdict {
				t.Errorf("%s %s: %s says %s, the run says %s", rule, class, claimsPage, verdict, c.Verdict)
			}
		}
		if !found {
			t.Errorf("%s row %s %s has no claim in claims-8x8", claimsPage, rule, class)
		}
		if rule == "warnsdorff/random" {
			if got := fmt.Sprintf("%.3f%%", 100*sum[class]/n[class]); got != exact {
				t.Errorf("%s: %s's exact %s, enumeration gives %s", class, claimsPage, exact, got)
			}
		}
	}
}

// publishedExperiments are the literature runs of docs/claims.md, in its order.
// literature-large is left out: read jointly, its count statement takes
// over 25 CPU-minutes to decide (docs/claims.md says so).
var publishedExperiments = []string{"literature", "literature-small", "pohl-original", "roth-sweep", "roth-sweep-ostar"}

// TestReadmeProse: the numbers and orderings the results prose states
// (docs/claims.md, its figure captions in docs/figures.md, and the figure
// the README shows) are those of the tables: the 8×8 exact extremes and
// their squares, the class means and where the corners rank (it once said
// corners were among the best starts; they rank 29–32 of 64), and how many
// squares the closed-tours figure fills by symmetry (it once said 40; the
// figure shows 26).
func TestReadmeProse(t *testing.T) {
	pages := []string{claimsPage, "docs/figures.md", "README.md"}
	var all strings.Builder
	for _, p := range pages {
		all.WriteString(docPage(t, p) + "\n")
	}
	text := strings.Join(strings.Fields(all.String()), " ") // lines wrap anywhere
	need := func(phrase string) {
		t.Helper()
		if !strings.Contains(text, strings.Join(strings.Fields(phrase), " ")) {
			t.Errorf("none of %v says %q, which the tables give", pages, phrase)
		}
	}
	testenv.SkipUnlessSlow(t, "the 8×8 exact table (2 s)")
	recs := exact8x8(t)
	type sq struct {
		name, class string
		p           float64
	}
	var sqs []sq
	classSum, classN := map[string]float64{}, map[string]float64{}
	mean := 0.0
	for _, r := range recs[1:] {
		p, _ := strconv.ParseFloat(r[4], 64)
		sqs = append(sqs, sq{r[0], r[3], p})
		classSum[r[3]] += p
		classN[r[3]]++
		mean += p / float64(len(recs)-1)
	}
	const tie = 1e-9
	lo, hi := sqs[0].p, sqs[0].p
	for _, x := range sqs {
		lo, hi = min(lo, x.p), max(hi, x.p)
	}
	at := func(p float64) map[string]bool {
		m := map[string]bool{}
		for _, x := range sqs {
			if math.Abs(x.p-p) < tie {
				m[x.name] = true
			}
		}
		return m
	}
	if w := at(lo); !w["c4"] || !w["d3"] {
		t.Errorf("the worst starts are %v, not c4, d3 and their images", w)
	}
	if w := at(hi); !w["c1"] || !w["a3"] {
		t.Errorf("the best starts are %v, not c1, a3 and their images", w)
	}
	pct := func(p float64) string { return strconv.FormatFloat(100*p, 'f', 2, 64) + " %" }
	need("(c4, d3 and their mirror images, " + pct(lo) + ")")
	need("and c1/a3 and their mirrors the best (" + pct(hi) + ")")
	need("from " + pct(lo) + " (c4, d3 and their mirror images) to " + pct(hi) + " (c1, a3 and their mirror images)")
	for _, p := range pages { // the heatmap's description, wherever a page shows it
		page := strings.Join(strings.Fields(docPage(t, p)), " ")
		if strings.Contains(page, "by start square on 8×8, from ") && !strings.Contains(page, "by start square on 8×8, from "+pct(lo)+" (c4, d3 and their mirror images) to "+pct(hi)+" (c1, a3 and their mirror images)") {
			t.Errorf("%s describes the 8×8 heatmap with other extremes than %s and %s", p, pct(lo), pct(hi))
		}
	}
	centre, corner := classSum["centre"]/classN["centre"], classSum["corner"]/classN["corner"]
	if !(centre < mean) {
		t.Errorf("centre mean %v is not below average %v", centre, mean)
	}
	need("the four centre squares are below average (" + pct(centre) + ")")
	need("the corners near the mean (" + pct(corner) + ")")
	below, upTo := 0, 0
	for _, x := range sqs {
		if x.p < corner-tie {
			below++
		}
		if x.p <= corner+tie {
			upTo++
		}
	}
	need(fmt.Sprintf("corners sit in the middle of its starts (%s, ranks %d–%d of %d from the worst", pct(corner), below+1, upTo, len(sqs)))
}

// spelled writes small counts as words, as the documentation does.
func spelled(n int) string {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// exact8x8 is `experiment exact --board 8x8 --format csv`, parsed.
func exact8x8(t *testing.T) [][]string {
	t.Helper()
	out, _, err := runCmd(t, "exact", "--board", "8x8", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
