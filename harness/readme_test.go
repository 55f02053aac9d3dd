package harness

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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

// publishedExperiments are the literature runs of docs/claims.md, in its order.
// literature-large is left out: read jointly, its count statement takes
// over 25 CPU-minutes to decide (docs/claims.md says so).
var publishedExperiments = []string{"literature", "literature-small", "pohl-original", "roth-sweep", "roth-sweep-ostar"}

// exact8x8Stats are the 8×8 exact success probabilities of
// warnsdorff/random the results prose states: the worst and best starts,
// the centre and corner means, and the corners' ranks from the worst.
type exact8x8Stats struct {
	lo, hi, centre, corner float64
	below, upTo, squares   int
}

// pct is how the prose writes a probability: "96.93 %".
func pct(p float64) string { return strconv.FormatFloat(100*p, 'f', 2, 64) + " %" }

// exact8x8Facts computes exact8x8Stats from `experiment exact --board
// 8x8` and checks the orderings the prose states: the worst starts are
// c4, d3 and their images, the best c1, a3 and theirs, the centre mean
// below the mean of all squares.
func exact8x8Facts(t *testing.T) exact8x8Stats {
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
	f := exact8x8Stats{lo: sqs[0].p, hi: sqs[0].p, squares: len(sqs)}
	for _, x := range sqs {
		f.lo, f.hi = min(f.lo, x.p), max(f.hi, x.p)
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
	if w := at(f.lo); !w["c4"] || !w["d3"] {
		t.Errorf("the worst starts are %v, not c4, d3 and their images", w)
	}
	if w := at(f.hi); !w["c1"] || !w["a3"] {
		t.Errorf("the best starts are %v, not c1, a3 and their images", w)
	}
	f.centre, f.corner = classSum["centre"]/classN["centre"], classSum["corner"]/classN["corner"]
	if !(f.centre < mean) {
		t.Errorf("centre mean %v is not below average %v", f.centre, mean)
	}
	for _, x := range sqs {
		if x.p < f.corner-tie {
			f.below++
		}
		if x.p <= f.corner+tie {
			f.upTo++
		}
	}
	return f
}

// TestReadmeProse: the heatmap's description, wherever a page shows it
// (an image's text, where no generated region can stand), gives the 8×8
// exact extremes; the other numbers of the results prose are generated
// regions (TestDocs).
func TestReadmeProse(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the 8×8 exact table (2 s)")
	f := exact8x8Facts(t)
	want := "by start square on 8×8, from " + pct(f.lo) + " (c4, d3 and their mirror images) to " + pct(f.hi) + " (c1, a3 and their mirror images)"
	for _, p := range []string{claimsPage, "docs/figures.md", "README.md"} {
		page := strings.Join(strings.Fields(docPage(t, p)), " ")
		if strings.Contains(page, "by start square on 8×8, from ") && !strings.Contains(page, want) {
			t.Errorf("%s describes the 8×8 heatmap with other extremes than %s and %s", p, pct(f.lo), pct(f.hi))
		}
	}
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
