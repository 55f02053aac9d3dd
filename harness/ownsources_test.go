package harness

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// TestReproducedLevelThroughTheTool: an experiment with a sources file of
// its own, 101 sources "k of 100" (k = 0..100), each compared by the tool
// with Pohl's rule from a1 on 8×8 (exact 23/32). Weighting each source's
// verdict by Binomial(100, q) gives the chance that a source whose true
// rate is q is called "reproduced": at q = 23/32 ± the margin the tool
// reports (a true difference on the margin) it is at most α = 5 %, for the
// verdict alone and after Holm. (With the margin computed from the
// observed count, as it used to be, it was 7.9 % at q = 0.829.)
func TestReproducedLevelThroughTheTool(t *testing.T) {
	dir := t.TempDir()
	var src, claims strings.Builder
	src.WriteString("sources:\n")
	claims.WriteString("claims:\n")
	for k := 0; k <= 100; k++ {
		fmt.Fprintf(&src, "  - {id: own-k-%03d, authors: A. Researcher, title: A paper of one's own, where: p. 1, statement: \"%d of 100\", trials: 100, successes: %d}\n", k, k, k)
		fmt.Fprintf(&claims, "  - {id: own-k-%03d, rule: warnsdorff/pohl, square: a1, source: own-k-%03d}\n", k, k)
	}
	exp := "name: own-sources-level\nboards: [8x8]\nstarts: [a1]\nwalks: 10\nexact: on\nrules: [{name: warnsdorff, tie_break: pohl}]\nsources: own.yaml\n" + claims.String()
	if err := os.WriteFile(filepath.Join(dir, "own.yaml"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "level.yaml")
	if err := os.WriteFile(file, []byte(exp), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, stderr, err := runCmd(t, "run", file, "--out", out, "--quiet"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	rows, _, err := table.Read[table.ClaimRow](filepath.Join(out, "claims.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 101 {
		t.Fatalf("%d claim rows, want 101", len(rows))
	}
	const alpha = 0.05
	margin := rows[0].Margin
	if want := stats.DefaultMargin(100, stats.DefaultPlanningRate, alpha); margin != want {
		t.Fatalf("margin %v, want the design's %v (100 trials at 1/2)", margin, want)
	}
	reproduced, holm := make([]bool, 101), make([]bool, 101)
	for _, r := range rows {
		var k int
		if _, err := fmt.Sscanf(r.ID, "own-k-%03d", &k); err != nil {
			t.Fatal(err)
		}
		if r.Exact != 23.0/32 || r.Margin != margin || r.Kind != "published" || r.PublishedSuccesses.Int64 != int64(k) {
			t.Fatalf("row %s: exact %v, margin %v, kind %s, published %v", r.ID, r.Exact, r.Margin, r.Kind, r.PublishedSuccesses)
		}
		reproduced[k], holm[k] = r.Verdict == stats.Reproduced, r.VerdictHolm == stats.Reproduced
	}
	for _, q := range []float64{23.0/32 + margin, 23.0/32 - margin} {
		b := distuv.Binomial{N: 100, P: q}
		var p, ph float64
		for k := range 101 {
			if reproduced[k] {
				p += b.Prob(float64(k))
			}
			if holm[k] {
				ph += b.Prob(float64(k))
			}
		}
		t.Logf("q = %.4f (margin %.4f): P(reproduced) %.4f, after Holm %.4f", q, margin, p, ph)
		if p > alpha || ph > alpha || math.IsNaN(p) {
			t.Errorf("q = %.4f: P(reproduced) %.4f, after Holm %.4f; want at most %v", q, p, ph, alpha)
		}
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(report), "Researcher (n.d.), p. 1: 72 of 100 (the experiment's own sources file)") {
		t.Errorf("the report does not spell out an own source (%v)", err)
	}
	if !reproduced[72] {
		t.Error("72 of 100 against 23/32 is not reproduced")
	}
}
