package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"knightwalk/internal/results"
	"knightwalk/internal/table"
	"knightwalk/internal/testenv"
)

// TestReadmeResults runs the commands of the README's results section and
// checks every number and verdict in its table, so the README cannot drift
// from what the tool measures.
func TestReadmeResults(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the README's numbers (claims-8x8, 2.6 million walks)")
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
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
	out, _, err := runCmd(t, "exact", "--board", "8x8", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
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
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
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
