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

// TestReadmeResults runs the commands of the README's results section and
// checks every number and verdict in its table, so the README cannot drift
// from what the tool measures.
func TestReadmeResults(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the README's numbers (claims-8x8, 2.6 million walks)")
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, cmd := range []string{"go run ./cmd/experiment run claims-8x8", "go run ./cmd/experiment exact --board 8x8"} {
		if !strings.Contains(text, cmd) {
			t.Fatalf("README no longer shows %q", cmd)
		}
	}
	dir := filepath.Join(t.TempDir(), "claims-8x8")
	if _, _, err := runCmd(t, "run", "claims-8x8", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	claims, _, err := table.ReadClaims(filepath.Join(dir, "claims.parquet"))
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
		t.Fatalf("README has %d result rows, the run %d claims", len(rows), len(claims))
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
				t.Errorf("%s %s: README says decided by %s, the run by %s", rule, class, decidedBy, c.DecidedBy)
			}
			if got != measured {
				t.Errorf("%s %s: README says %s, the run measures %s", rule, class, measured, got)
			}
			if c.Verdict != verdict {
				t.Errorf("%s %s: README says %s, the run says %s", rule, class, verdict, c.Verdict)
			}
		}
		if !found {
			t.Errorf("README row %s %s has no claim in claims-8x8", rule, class)
		}
		if rule == "warnsdorff/random" {
			if got := fmt.Sprintf("%.3f%%", 100*sum[class]/n[class]); got != exact {
				t.Errorf("%s: README's exact %s, enumeration gives %s", class, exact, got)
			}
		}
	}
}

// TestReadmePublishedClaims runs the experiments of the README's
// "Published claims" section and checks that its table is exactly what
// `experiment claims` prints for them, so the README cannot drift from
// what the tool measures: every value, exact value, what decided it and
// the verdict.
func TestReadmePublishedClaims(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the README's published claims (six experiments, about 11 CPU-minutes)")
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	var dirs []string
	ids := map[string]string{}
	for _, name := range publishedExperiments {
		if !strings.Contains(text, "go run ./cmd/experiment run "+name+" ") {
			t.Fatalf("README no longer shows the command for %s", name)
		}
		dir := filepath.Join(t.TempDir(), name)
		if _, _, err := runCmd(t, "run", name, "--out", dir, "--quiet"); err != nil {
			t.Fatal(err)
		}
		claims, _, err := table.ReadClaims(filepath.Join(dir, "claims.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range claims {
			// A claim may be read in several experiments (roth-428 in
			// roth-sweep and roth-sweep-ostar), once per reading.
			k := c.ID + " / " + c.Reading + " / " + c.Board
			if other, dup := ids[k]; dup {
				t.Fatalf("claim %s in %s and %s: the README cannot tell them apart", k, other, name)
			}
			ids[k] = name
		}
		dirs = append(dirs, dir)
	}
	want, _, err := runCmd(t, append([]string{"claims"}, dirs...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, want) {
		t.Errorf("README's Published claims table is not what `experiment claims` prints for %v; regenerate it:\n%s", publishedExperiments, want)
	}
}

// publishedExperiments are the README's literature runs, in its order.
var publishedExperiments = []string{"literature", "literature-small", "literature-large", "pohl-original", "roth-sweep", "roth-sweep-ostar"}

// TestReadmeProse (issue 32): the numbers and orderings the README's
// results prose states are those of the tables: the 8×8 exact extremes
// and their squares, the class means and where the corners rank (it once
// said corners were among the best starts; they rank 29–32 of 64), and how
// many squares the closed-tours figure fills by symmetry (it once said 40;
// the figure shows 26).
func TestReadmeProse(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ") // lines wrap anywhere
	need := func(phrase string) {
		t.Helper()
		if !strings.Contains(text, strings.Join(strings.Fields(phrase), " ")) {
			t.Errorf("README does not say %q, which the tables give", phrase)
		}
	}
	// Closed tours: the squares of the orbits of the six starts run, less
	// those six.
	s, err := loadExperiment("closed-tours")
	if err != nil {
		t.Fatal(err)
	}
	b := s.Boards[0]
	filled := map[int32]bool{}
	for _, st := range s.Starts[0] {
		for _, g := range b.Symmetries() {
			filled[g[st]] = true
		}
	}
	need(fmt.Sprintf("from the %s squares run; the board's symmetry fills %d more", spelled(len(s.Starts[0])), len(filled)-len(s.Starts[0])))

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

// spelled writes small counts as words, as the README does.
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
