package stats

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// rateFor returns the success probability p at which set.Prob(p) = q for
// an upper-tail set (Prob rises with p), by bisection.
func rateFor(set CountSet, q float64) float64 {
	lo, hi := 0.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if set.Prob(mid) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// holmRefutes is Holm's step-down method over all N boards (Holm 1979),
// with the statement refuted where at least Miss boards are rejected: the
// procedure CountShare does not use, kept here to show why.
func holmRefutes(p []float64, miss int, alpha float64) bool {
	s := slices.Clone(p)
	slices.Sort(s)
	for j := range miss {
		if float64(len(s)-j)*s[j] > alpha {
			return false
		}
	}
	return true
}

// TestCountShareHoldsItsLevel simulates count-share statements whose
// nulls all hold: each board's published count is drawn from our true
// rate there (100 trials), and, for sampled boards, our walks too. The
// error is the source being able to make the statement (its counts meet
// it on enough boards) while CountShare says refuted; it must be at most
// α = 5 % within Monte Carlo error, in shapes at the edge of the test
// (exact boards whose probabilities sit just under the adjusted level,
// where the error is nearly α) and sampled ones. The last shape shows why
// not Holm over all boards: there it refutes a statement the source could
// make in about 9.5 % of runs.
func TestCountShareHoldsItsLevel(t *testing.T) {
	if os.Getenv("KNIGHTWALK_SLOW") != "1" {
		t.Skip("simulation; set KNIGHTWALK_SLOW=1")
	}
	const (
		conf, alpha, reps = 0.95, 0.05, 20000
		walks             = 2000
	)
	set := CountSet{98, 100, 100}
	mcErr := 3 * math.Sqrt(alpha*(1-alpha)/reps)
	q := func(qs ...float64) []float64 { return qs } // per-board probabilities of the statement
	rep := func(x float64, n int) []float64 { return slices.Repeat([]float64{x}, n) }
	holmCase := append(rep(0, 9), 1.0)
	for j := range 9 {
		holmCase[j] = alpha / float64(10-j) * 0.999
	}
	shapes := []struct {
		name    string
		share   float64
		q       []float64
		sampled bool
		holm    bool // also run Holm, which must exceed α here
	}{
		{"share 1, one board just under α", 1, append(q(0.049), rep(0.9999, 4)...), false, false},
		{"most of 10, five boards just under α/5", 0.5, append(rep(0.0099, 5), rep(0.9999, 5)...), false, false},
		{"20 of 21, two boards under α/2", 0.95, append(q(0.0249, 0.0249), rep(0.9, 19)...), false, false},
		{"sampled, share 1, one board at α", 1, append(q(0.05), rep(0.6, 4)...), true, false},
		{"sampled, most of 10, five boards at α/5", 0.5, append(rep(0.01, 5), rep(0.99, 5)...), true, false},
		{"sampled, 20 of 21", 0.95, append(q(1e-6, 0.03), rep(0.7, 19)...), true, false},
		{"Holm's counter-example, 2 of 10", 0.1, holmCase, false, true},
	}
	rng := rand.New(rand.NewPCG(20, 98))
	for _, sh := range shapes {
		rates := make([]float64, len(sh.q))
		for i, x := range sh.q {
			rates[i] = rateFor(set, x)
		}
		errs, holmErrs := 0, 0
		boards := make([]CountBoard, len(rates))
		for range reps {
			meet := 0
			for _, p := range rates {
				if x := uint64(distuv.Binomial{N: 100, P: p, Src: rng}.Rand()); x >= set.Lo {
					meet++
				}
			}
			for i, p := range rates {
				boards[i] = CountBoard{Exact: true, Rate: p}
				if sh.sampled {
					k := uint64(distuv.Binomial{N: walks, P: p, Src: rng}.Rand())
					boards[i] = CountBoard{Ours: Proportion{Successes: k, Trials: walks}}
				}
			}
			r := CountShare(set, boards, sh.share, conf, false)
			holds := meet >= r.Needed // the source could make the statement
			if holds && r.Verdict(sh.share) == Refuted {
				errs++
			}
			if holds && holmRefutes(r.P, r.Miss, alpha) {
				holmErrs++
			}
		}
		rate := float64(errs) / reps
		t.Logf("%s: wrongly refuted in %d of %d runs (%.4f); Holm over all boards %d", sh.name, errs, reps, rate, holmErrs)
		if rate > alpha+mcErr {
			t.Errorf("%s: a statement the source could make was refuted in %.4f of runs, above α = %v", sh.name, rate, alpha)
		}
		if h := float64(holmErrs) / reps; sh.holm && h <= alpha+mcErr {
			t.Errorf("%s: Holm over all boards erred in only %.4f of runs; the shape should show its excess", sh.name, h)
		}
	}
}
