package harness

// Issue 20's check: every claim of the committed experiments re-derived
// from the tables and from `experiment exact`: claims decidable exactly
// are decided exactly (and agree with an independent enumeration), and no
// claim of a deterministic rule carries an interval.

import (
	"gonum.org/v1/gonum/stat/distuv"

	"context"
	"encoding/csv"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

func TestClaimsDecidedByWhatDecidesThem(t *testing.T) {
	if testing.Short() {
		t.Skip("runs committed experiments")
	}
	for _, c := range []struct {
		name    string
		walks   uint64
		exact   []string        // claims that must be decided exactly
		refuted map[string]bool // of those, the ones refuted
	}{
		{"claims-8x8", 400, []string{"W-centre", "W-edge", "W-corner"}, nil},
		{"pohl-original", 1, nil, nil},
		// Ganzfried's "at least 98 % for every n <= 25 except n = 7", read
		// as the true rate: the exact a1 values of n = 7 (73.7 %) and n = 8
		// (97.96 %) are two exceptions, so fewer than 95 % of the 21 sizes
		// can meet it. (Read as his counts, 98 of 100 is plausible at
		// 97.96 %: that reading is sampled on n = 9..25 and not refuted.)
		{"literature-small", 200, []string{"ganzfried-98-to-25"}, map[string]bool{"ganzfried-98-to-25": true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "claims-8x8" {
				testenv.SkipUnlessSlow(t, "claims-8x8's exact values and 77,000 walks (15 s)")
			}
			s, err := expfile.Load(c.name)
			if err != nil {
				t.Fatal(err)
			}
			s.Walks, s.Figures = c.walks, nil
			sum, err := runner.Run(context.Background(), s, runner.RunOptions{Out: filepath.Join(t.TempDir(), "r"), Workers: 2, Shard: runner.All})
			if err != nil {
				t.Fatal(err)
			}
			decided := map[string]bool{}
			for _, row := range sum.Tables.Claims {
				ch := checkByID(t, s, row.ID, row.Reading)
				r := s.Rules[ch.Rule]
				switch {
				case r.Deterministic():
					if row.DecidedBy != "walk" || !math.IsNaN(row.Lo) || !math.IsNaN(row.Hi) {
						t.Errorf("%s (%s, deterministic): decided by %s with interval [%v, %v]; want the walk and no interval", row.ID, row.Board, row.DecidedBy, row.Lo, row.Hi)
					}
				case !math.IsNaN(row.Exact):
					want := literature(ch, stats.ExactVerdict(ch.Claim.Holds(row.Exact)))
					if ch.Compare {
						// the published count against our exact p: the
						// exact binomial test of the difference, and the
						// two one-sided exact binomial tests of
						// equivalence within the default margin (what the
						// source's design, n trials at the planning rate
						// 1/2, detects with 80 % power: never a function
						// of its count k), re-derived here from their
						// definitions
						k, n, _, _ := ch.Published.Count()
						alpha := 1 - s.Confidence
						p0 := 0.5
						if ch.Published.PlanningRate != nil {
							p0 = *ch.Published.PlanningRate
						} else if r := ch.Published.Region; len(r) == 2 {
							// the region the source's own words state: its rate nearest 1/2
							p0 = min(max(0.5, r[0]), r[1])
						}
						margin := (distuv.UnitNormal.Quantile(1-alpha/2) + distuv.UnitNormal.Quantile(0.8)) * math.Sqrt(p0*(1-p0)/float64(n))
						if ch.Published.Margin != nil {
							margin = *ch.Published.Margin
						}
						pLo, pHi := 0.0, 0.0
						if q := row.Exact + margin; q < 1 {
							pLo = distuv.Binomial{N: float64(n), P: q}.CDF(float64(k))
						}
						if q := row.Exact - margin; q > 0 {
							pHi = 1 - distuv.Binomial{N: float64(n), P: q}.CDF(float64(k)-1)
						}
						switch {
						case stats.BinomialTest(uint64(k), uint64(n), row.Exact) <= alpha:
							want = stats.NotReproduced
						case max(pLo, pHi) <= alpha:
							want = stats.Reproduced
						default:
							want = stats.Inconclusive
						}
						if math.Abs(row.Margin-margin) > 1e-12 || math.Abs(max(row.PEquivLower, row.PEquivUpper)-max(pLo, pHi)) > 1e-9 {
							t.Errorf("%s (%s): margin %v, equivalence p %v / %v; re-derived %v, %v / %v", row.ID, row.Board, row.Margin, row.PEquivLower, row.PEquivUpper, margin, pLo, pHi)
						}
					}
					if row.DecidedBy != "exact" || row.Verdict != want {
						t.Errorf("%s (%s): exact %v, decided by %s, verdict %s", row.ID, row.Board, row.Exact, row.DecidedBy, row.Verdict)
					}
					b, _ := sim.ParseBoard(row.Board)
					if want := independentExact(t, b, r, row.Target); math.Abs(row.Exact-want) > 1e-12 {
						t.Errorf("%s (%s): exact %.15f, `experiment exact` gives %.15f", row.ID, row.Board, row.Exact, want)
					}
					if row.ID != "" {
						decided[row.ID] = true
					}
				case row.Kind == "share" && row.DecidedBy == "exact":
					// the boards with exact values decide it whatever the
					// sampled ones show (results.decidedByExactBoards)
					decided[row.ID] = true
					if want := c.refuted[row.ID]; want && row.Verdict != literature(ch, stats.Refuted) {
						t.Errorf("%s: %s, want refuted by the exact boards", row.ID, row.Verdict)
					}
				default:
					if row.DecidedBy != "sample" {
						t.Errorf("%s (%s): decided by %s without an exact value", row.ID, row.Board, row.DecidedBy)
					}
				}
			}
			for _, id := range c.exact {
				if !decided[id] {
					t.Errorf("%s is decidable exactly but was not decided exactly", id)
				}
			}
		})
	}
}

// literature is verdict v in the words of a replication where the claim's
// source is a published statement.
func literature(ch config.Check, v string) string {
	if ch.Published == nil {
		return v
	}
	if w, ok := map[string]string{stats.Consistent: stats.Reproduced, stats.Refuted: stats.NotReproduced}[v]; ok {
		return w
	}
	return v
}

func checkByID(t *testing.T, s *config.Experiment, id, reading string) config.Check {
	t.Helper()
	for _, ch := range s.Checks {
		if ch.ID == id && ch.Reading == reading {
			return ch
		}
	}
	t.Fatalf("no claim %s", id)
	return config.Check{}
}

// independentExact is the mean P(success) over the target's squares from
// `experiment exact --format csv`, a separate path through the engine.
func independentExact(t *testing.T, b *sim.Board, r sim.Rule, target string) float64 {
	t.Helper()
	args := []string{"exact", "--board", b.String(), "--rule", r.Name(), "--format", "csv"}
	kind, val, _ := strings.Cut(target, ":")
	if kind == "square" {
		args = append(args, "--start", val)
	}
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var sum float64
	var n int
	for _, rec := range recs[1:] {
		if kind == "class" && rec[col["start_class"]] != val {
			continue
		}
		p, _ := strconv.ParseFloat(rec[col["p_success"]], 64)
		sum += p
		n++
	}
	if n == 0 {
		t.Fatalf("exact: no squares for %s", target)
	}
	return sum / float64(n)
}
