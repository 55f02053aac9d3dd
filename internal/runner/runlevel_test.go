package runner

import (
	"cmp"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

// runLevelDesign is one sequential experiment whose claims are all true,
// most at an end of their sets, for TestRunLevelBound.
type runLevelDesign struct {
	name    string
	yaml    string
	sources string                                 // own.yaml beside the experiment, if any
	rate    func(b *sim.Board, square int) float64 // each square's true rate
	// bound is the run-level bound (F + k + r)·α + c·γ of the design: F
	// families, k share-or-splitting claims outside them, r published
	// comparisons, c share claims read as the source's counts.
	F, k, r, c int
	// csHolds draws the source's counts of the count-share claim "cs" (if
	// any) from the true rates and says whether they make its statement;
	// csImplausible is whether its P(E) under the true rates is at most
	// α, where "consistent" is wrong.
	csHolds       func(rng *rand.Rand) bool
	csImplausible bool
}

// degreeRate gives a square the rate of its degree (2, 3, 4, 6, 8 moves).
func degreeRate(rates map[int]float64) func(b *sim.Board, sq int) float64 {
	return func(b *sim.Board, sq int) float64 { return rates[b.Degree(sq)] }
}

// TestRunLevelBound (slow): the run-level guarantee of docs/design.md on
// designs other than TestSequentialFamilyError's, whole sequential runs
// through the runner's decisions with walks drawn as Bernoulli counts at
// the squares' rates: several families at α = 10 %, a share claim in a
// 99 % run, one family of six at α = 20 %, and a share claim read as the source's counts whose
// statement our true rates make implausible (P(E) ≤ α, so its
// "consistent" is wrong, the γ = BergerBoosGamma term) beside one the
// source's counts may make (its "not reproduced" wrong). In every design
// each family's error is at most α, each claim outside a family's at most
// its level, and some wrong verdict in the run at most (F + k + r)·α + c·γ.
// No published count: those designs are TestSequentialFamilyError's.
func TestRunLevelBound(t *testing.T) {
	testenv.SkipUnlessSlow(t, "1000 simulated sequential runs of each of four designs")
	designs := []runLevelDesign{{
		name: "three families on 6x6 at α = 10 %",
		yaml: `name: rl1
seed: 1
boards: [6x6]
starts: all
confidence: 0.9
walks: {until: decided, min: 100, max: 20000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: all, rule: warnsdorff/random, class: all, range: [0.8, 1], family: a}
  - {id: corner, rule: warnsdorff/random, class: corner, range: [0, 0.6], family: a}
  - {id: c3, rule: warnsdorff/random, square: c3, range: [0.85, 1], family: b}
  - {id: b1, rule: warnsdorff/random, square: b1, range: [0.5, 0.75], family: b}
  - {id: a1, rule: warnsdorff/random, square: a1, rate: 0.6, family: c}
  - {id: a2, rule: warnsdorff/random, square: a2, range: [0.6, 0.9], family: c}
`,
		rate: degreeRate(map[int]float64{2: 0.6, 3: 0.75, 4: 0.85, 6: 0.85, 8: 0.85}),
		F:    3,
	}, {
		name: "one family of heterogeneous classes on 5x5 to 7x7 at 99 %, a share claim",
		yaml: `name: rl2
seed: 2
boards: [5x5, 6x6, 7x7]
starts: all
confidence: 0.99
walks: {until: decided, min: 200, max: 20000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: corner5, rule: warnsdorff/random, board: 5x5, class: corner, range: [0.3, 1]}
  - {id: c3-5, rule: warnsdorff/random, board: 5x5, square: c3, range: [0, 0.9]}
  - {id: all7, rule: warnsdorff/random, board: 7x7, class: all, below: 0.9}
  - {id: d4-7, rule: warnsdorff/random, board: 7x7, square: d4, rate: 0.9}
  - {id: share, rule: warnsdorff/random, sizes: 5..7, square: a1, range: [0.3, 1], share: 0.5, family: share}
`,
		rate: func(b *sim.Board, sq int) float64 {
			if b.Rows < 7 { // a1 at 0.3 on 5x5 and 6x6, 0.1 on 7x7: the share claim holds on 2 of 3
				return map[int]float64{2: 0.3, 3: 0.5, 4: 0.7, 6: 0.8, 8: 0.9}[b.Degree(sq)]
			}
			return map[int]float64{2: 0.1, 3: 0.2, 4: 0.6, 6: 0.9, 8: 0.9}[b.Degree(sq)]
		},
		F: 1, k: 1,
	}, {
		name: "a count share our rates make implausible and one the source may make",
		yaml: `name: rl3
seed: 3
boards: [5x5, 6x6]
starts: all
walks: {until: decided, min: 100, max: 20000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: all6, rule: warnsdorff/random, board: 6x6, class: all, range: [0.7, 1]}
  - {id: cs, rule: warnsdorff/random, sizes: 5..6, square: a1, range: [0.9, 1], share: 0.5, per_board: count, source: own-cs, family: cs}
  - {id: cs2, rule: warnsdorff/random, sizes: 5..6, square: c3, range: [0.6, 1], share: 0.5, per_board: count, source: own-cs2, family: cs2}
sources: own.yaml
`,
		sources: `sources:
  - {id: own-cs, authors: A. Author, title: T, where: p. 1, statement: "at least 90 of 100 on both sizes from a1", sizes: 5..6, range: [0.9, 1], share: 0.5, per_board: count, trials: 100}
  - {id: own-cs2, authors: A. Author, title: T, where: p. 2, statement: "at least 60 of 100 on both sizes from c3", sizes: 5..6, range: [0.6, 1], share: 0.5, per_board: count, trials: 100}
`,
		// a1 at 0.8 on both sizes: P(≥ 90 of 100)² ≈ 3·10⁻⁴ ≤ α. c3 at 0.62
		// and 0.6: P(E) ≈ 0.34, and cs2's "not reproduced" is wrong where
		// the drawn counts make the statement.
		rate: func(b *sim.Board, sq int) float64 {
			switch b.SquareName(sq) {
			case "a1":
				return 0.8
			case "c3":
				if b.Rows == 5 {
					return 0.62
				}
				return 0.6
			}
			return 0.7
		},
		F: 3, c: 2,
		csImplausible: true,
		csHolds: func(rng *rand.Rand) bool {
			d := func(p float64) bool { return distuv.Binomial{N: 100, P: p, Src: rng}.Rand() >= 60 }
			return d(0.62) && d(0.6)
		},
	}, {
		name: "six claims of one family on 8x8 at α = 20 %",
		yaml: `name: rl4
seed: 4
boards: [8x8]
starts: all
confidence: 0.8
walks: {until: decided, min: 100, max: 20000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: a1, rule: warnsdorff/random, square: a1, range: [0.5, 1]}
  - {id: b1, rule: warnsdorff/random, square: b1, range: [0, 0.6]}
  - {id: c1, rule: warnsdorff/random, square: c1, rate: 0.7}
  - {id: c2, rule: warnsdorff/random, square: c2, range: [0, 0.8]}
  - {id: d4, rule: warnsdorff/random, square: d4, range: [0.9, 1]}
  - {id: corner, rule: warnsdorff/random, class: corner, rate: 0.5}
`,
		rate: degreeRate(map[int]float64{2: 0.5, 3: 0.6, 4: 0.7, 6: 0.8, 8: 0.9}),
		F:    1,
	}}
	if pe := math.Pow(distuv.Binomial{N: 100, P: 0.8}.Survival(89.5), 2); !(pe <= 0.05) {
		t.Fatalf("the implausible count share's P(E) %v is above α: its consistent would not be wrong", pe)
	}
	for di, dz := range designs {
		simulateRunLevel(t, dz, 1000, uint64(di))
	}
}

// simulateRunLevel runs a design's sequential runs through the runner's
// decisions and checks the errors against their bounds.
func simulateRunLevel(t *testing.T, dz runLevelDesign, runs int, seed uint64) {
	t.Helper()
	dir := t.TempDir()
	if dz.sources != "" {
		if err := os.WriteFile(filepath.Join(dir, "own.yaml"), []byte(dz.sources), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "s.yaml")
	c, err := config.Parse(file, []byte(dz.yaml))
	if err != nil {
		t.Fatalf("%s: %v", dz.name, err)
	}
	s, err := config.Resolve(c, file, []byte(dz.yaml))
	if err != nil {
		t.Fatalf("%s: %v", dz.name, err)
	}
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	alpha := 1 - s.Confidence
	rng := rand.New(rand.NewPCG(57, seed))
	rate := func(c Cell) float64 { return dz.rate(s.Boards[c.Board], c.Start) }
	families := map[string]int{} // runs with a wrong verdict in the family
	var csWrongNot, csWrongConsistent, runWrong int
	for range runs {
		csHolds := dz.csHolds != nil && dz.csHolds(rng)
		ts := NewTallies()
		d := newDecider(s, p, ts)
		active := map[Cell]bool{}
		for bi := range s.Boards {
			for _, sq := range s.Starts[bi] {
				active[Cell{bi, 0, sq}] = true
			}
		}
		prev := map[Cell]uint64{}
		for r := 0; r < p.Rounds() && len(active) > 0; r++ {
			cells := slices.SortedFunc(maps.Keys(active), func(a, b Cell) int { // a fixed order of draws
				return cmp.Or(cmp.Compare(a.Board, b.Board), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Start, b.Start))
			})
			for _, c := range cells {
				end := p.RoundEnd(c.Board, c.Rule, r)
				n := end - prev[c]
				prev[c] = end
				k := uint64(distuv.Binomial{N: float64(n), P: rate(c), Src: rng}.Rand())
				sq := s.Boards[c.Board].Squares()
				tl := stats.NewTally(sq)
				tl.Walks, tl.Successes = n, k
				tl.Lengths[sq], tl.Lengths[1], tl.DeadEnds[c.Start] = k, n-k, n-k
				if err := ts.Add(c, tl); err != nil {
					t.Fatal(err)
				}
			}
			if active, err = d.next(r, ts, active); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := results.ClaimsOf(s, d.inputs(results.Inputs{Tally: ts.Of}))
		if err != nil {
			t.Fatal(err)
		}
		wrongIn := map[string]bool{}
		any := false
		for _, c := range rows {
			switch {
			case c.ID == "cs" && dz.csImplausible && c.VerdictHolm == stats.Consistent:
				csWrongConsistent++
				any = true
			case c.ID == "cs2" && csHolds && c.VerdictHolm == stats.NotReproduced:
				csWrongNot++
				any = true
			case c.ID == "cs" || c.ID == "cs2":
			case c.VerdictHolm == stats.Refuted:
				wrongIn[c.Family] = true
				any = true
			}
		}
		for f := range wrongIn {
			families[f]++
		}
		if any {
			runWrong++
		}
	}
	se := math.Sqrt(alpha * (1 - alpha) / float64(runs))
	f := func(k int) float64 { return float64(k) / float64(runs) }
	gamma := stats.BergerBoosGamma
	bound := float64(dz.F+dz.k+dz.r)*alpha + float64(dz.c)*gamma
	t.Logf("%s (%d runs, α = %.2f): errors by family %v; count share implausible said consistent %.4f, possible said not reproduced %.4f; some wrong verdict %.4f (bound (F + k + r)·α + c·γ = (%d + %d + %d)·α + %d·γ = %.3f)",
		dz.name, runs, alpha, families, f(csWrongConsistent), f(csWrongNot), f(runWrong), dz.F, dz.k, dz.r, dz.c, bound)
	for fam, k := range families {
		if f(k) > alpha+3*se {
			t.Errorf("%s: family %s wrong in %.4f of runs, above α = %.2f", dz.name, fam, f(k), alpha)
		}
	}
	if f(csWrongConsistent) > gamma+3*math.Sqrt(gamma/float64(runs)) {
		t.Errorf("%s: a count share our rates make implausible said consistent in %.4f of runs, above γ = %v", dz.name, f(csWrongConsistent), gamma)
	}
	if f(csWrongNot) > alpha+3*se {
		t.Errorf("%s: a count share the source's counts make said not reproduced in %.4f of runs, above α", dz.name, f(csWrongNot))
	}
	if f(runWrong) > bound {
		t.Errorf("%s: some verdict wrong in %.4f of runs, above the bound %.3f", dz.name, f(runWrong), bound)
	}
}
