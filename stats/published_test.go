package stats

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestBinomialTest checks the exact two-sided binomial test against values
// worked by hand.
func TestBinomialTest(t *testing.T) {
	for _, c := range []struct {
		k, n uint64
		p    float64
		want float64
	}{
		// Symmetric: 2·(1+10+45+120)/1024.
		{3, 10, 0.5, 352.0 / 1024},
		{5, 10, 0.5, 1},
		// 0 of 100 at p = 0.01: every outcome but x = 1 (P = 0.99^99) is
		// no more likely than P(0) = 0.99^100.
		{0, 100, 0.01, 1 - math.Pow(0.99, 99)},
		// 75 of 100 at p = 0.75 is the mode: every outcome counts.
		{75, 100, 0.75, 1},
		{0, 5, 0, 1}, {1, 5, 0, 0}, {5, 5, 1, 1}, {4, 5, 1, 0},
	} {
		if got := BinomialTest(c.k, c.n, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("BinomialTest(%d, %d, %v) = %.15g; want %.15g", c.k, c.n, c.p, got, c.want)
		}
	}
	// 99 of 100 against the exact 8x8 rate from a1, 0.979578: not
	// unlikely (P(X ≥ 99) alone is about 0.39).
	if p := BinomialTest(99, 100, 0.979578); p < 0.3 || p > 0.8 {
		t.Errorf("99/100 against 0.979578: p = %v", p)
	}
	// 67 of 100 against Pohl's exact 23/32 from a1: p about 0.2-0.3.
	if p := BinomialTest(67, 100, 23.0/32); p < 0.1 || p > 0.5 {
		t.Errorf("67/100 against 0.71875: p = %v", p)
	}
}

// TestCompareSamples checks the two-sample p-value and the verdicts.
func TestCompareSamples(t *testing.T) {
	ours, theirs := Proportion{Successes: 14796, Trials: 20000}, Proportion{Successes: 75, Trials: 100}
	r := CompareSamples(ours, theirs, 0.95)
	if r.Method != "berger-boos" || !(r.Diff.Lo < 0 && r.Diff.Hi > 0) || r.PValue != 1 {
		t.Fatalf("75/100 inside our interval: %+v; want p = 1", r)
	}
	// 70 of 100 against our 73.98 %: the largest exact p-value over our
	// 99.9 % interval [0.730, 0.749] is at its lower end, plus γ.
	r = CompareSamples(ours, Proportion{70, 100}, 0.95)
	lo := ours.Interval(1-BergerBoosGamma, ClopperPearson).Lo
	if want := BinomialTest(70, 100, lo) + BergerBoosGamma; math.Abs(r.PValue-want) > 1e-12 {
		t.Errorf("70/100: p = %v; want %v (the exact test at π = %v, plus γ)", r.PValue, want, lo)
	}
	if v := ReplicationVerdict(r, ours, theirs, 0.05); v != Reproduced {
		t.Errorf("verdict %s", v)
	}
	// Too few of our walks: no difference found, but only because our
	// side is the weaker one.
	few := Proportion{Successes: 30, Trials: 40}
	if v := ReplicationVerdict(CompareSamples(few, theirs, 0.95), few, theirs, 0.05); v != Inconclusive {
		t.Errorf("40 walks: verdict %s; want inconclusive", v)
	}
	// 99 of 100 published against our 98.0 % of 20000 is no evidence of a
	// difference; 90 of 100 is.
	near := Proportion{Successes: 19600, Trials: 20000}
	if v := ReplicationVerdict(CompareSamples(near, Proportion{99, 100}, 0.95), near, Proportion{99, 100}, 0.05); v != Reproduced {
		t.Errorf("99/100 vs 98 %%: %s", v)
	}
	if v := ReplicationVerdict(CompareSamples(near, Proportion{90, 100}, 0.95), near, Proportion{90, 100}, 0.05); v != NotReproduced {
		t.Errorf("90/100 vs 98 %%: %s", v)
	}
	e := CompareExact(0.736916, theirs)
	if e.Method != "binomial" || e.Diff.Lo != e.Diff.Hi || ReplicationVerdict(e, ours, theirs, 0.05) != Reproduced {
		t.Errorf("exact: %+v", e)
	}
}

// TestCompareSamplesHoldsItsLevel simulates the two-sample comparison
// with both sides drawn from one success probability (the published claim
// is true) and counts how often it says "not reproduced": at most α, within
// Monte Carlo error, for the shapes the literature claims have (100
// published trials, rates from 50 % to 99 %, our 500 to 20000 walks). The
// naive method — is the published rate inside our own interval, as if it
// had no sampling error — is shown to fail the same simulation, so the
// test can fail.
func TestCompareSamplesHoldsItsLevel(t *testing.T) {
	if os.Getenv("KNIGHTWALK_SLOW") != "1" {
		t.Skip("simulation; set KNIGHTWALK_SLOW=1")
	}
	const (
		reps  = 4000
		alpha = 0.05
	)
	rng := rand.New(rand.NewPCG(20, 2))
	// Three standard errors of a rate α over reps runs.
	bound := alpha + 3*math.Sqrt(alpha*(1-alpha)/reps)
	for _, c := range []struct {
		p      float64
		n1, n2 float64
	}{{0.5, 20000, 100}, {0.75, 20000, 100}, {0.9, 2000, 100}, {0.99, 20000, 100}, {0.67, 500, 100}, {0.75, 100, 100}} {
		b1 := distuv.Binomial{N: c.n1, P: c.p, Src: rng}
		b2 := distuv.Binomial{N: c.n2, P: c.p, Src: rng}
		wrong, naive := 0, 0
		for range reps {
			ours := Proportion{Successes: uint64(b1.Rand()), Trials: uint64(c.n1)}
			theirs := Proportion{Successes: uint64(b2.Rand()), Trials: uint64(c.n2)}
			if ReplicationVerdict(CompareSamples(ours, theirs, 1-alpha), ours, theirs, alpha) == NotReproduced {
				wrong++
			}
			if s := ours.Interval(1-alpha, Wilson); theirs.Estimate() < s.Lo || theirs.Estimate() > s.Hi {
				naive++
			}
		}
		rate, naiveRate := float64(wrong)/reps, float64(naive)/reps
		t.Logf("p = %v, %v vs %v trials: not reproduced in %d of %d (%.4f); naive %d (%.4f)", c.p, c.n1, c.n2, wrong, reps, rate, naive, naiveRate)
		if rate > bound {
			t.Errorf("p = %v, n = %v vs %v: a true claim not reproduced %.4f of the time; want at most %.4f", c.p, c.n1, c.n2, rate, bound)
		}
		if c.n1 >= 10*c.n2 && naiveRate <= bound {
			t.Errorf("p = %v: the naive method holds its level (%.4f), so this test could not tell", c.p, naiveRate)
		}
	}
}
