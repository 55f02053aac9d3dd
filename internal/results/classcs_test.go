package results

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/stats"
)

// TestClassesAlwaysValidInterval: a sequential run's classes rows carry,
// beside the fixed-n interval, the always-valid interval of the pooled
// counts, equal to the one a claim on the same class judges its verdict by
// (claims.cs_lo, cs_hi), holding the pooled successes / walks, and wider
// than the fixed-n one; with squares of unequal walks too. A run of a fixed number of walks and a deterministic
// rule leave it null.
func TestClassesAlwaysValidInterval(t *testing.T) {
	resolve := func(y string) *config.Experiment {
		c, err := config.Parse("c.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		e, err := config.Resolve(c, "c.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	const body = "boards: [6x6]\nstarts: all\nexact: off\nrules: [{name: warnsdorff}, {name: warnsdorff, tie_break: first}]\n" +
		"claims:\n  - {id: c, rule: warnsdorff/random, class: corner, above: 0.5}\n"
	seq := resolve("name: s\nwalks: {until: decided, min: 100, max: 10000}\n" + body)
	fixed := resolve("name: f\nwalks: 1000\n" + body)
	b := seq.Boards[0]
	tallies := map[int]*stats.Tally{}
	for i, sq := range seq.Starts[0] {
		n := uint64(500 + 37*i) // unequal walks, as a sequential run's squares stop
		k := n * uint64(60+i) / 100
		tl := stats.NewTally(b.Squares())
		tl.Walks, tl.Successes = n, k
		tl.Lengths[b.Squares()], tl.Lengths[1], tl.DeadEnds[sq] = k, n-k, n-k
		tallies[sq] = tl
	}
	of := func(_, _, s int) *stats.Tally { return tallies[s] }
	tb, err := Build(seq, of)
	if err != nil {
		t.Fatal(err)
	}
	claims, err := ClaimsOf(seq, Inputs{Tally: of})
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) != 1 || math.IsNaN(claims[0].CSLo) {
		t.Fatalf("want one sampled claim with an always-valid interval, got %+v", claims)
	}
	found := 0
	for _, r := range tb.Classes {
		random := r.Rule == "warnsdorff/random"
		if !random {
			if !math.IsNaN(r.SuccessCSLo) || !math.IsNaN(r.SuccessCSHi) {
				t.Errorf("%s %s %s: deterministic rule with an always-valid interval [%v, %v]", r.Rule, r.GroupBy, r.Group, r.SuccessCSLo, r.SuccessCSHi)
			}
			continue
		}
		// about the pooled successes / walks (the claims' measured rate),
		// which differs from success_rate, the equal-weight mean, where
		// squares ran unequal walks
		pooled := float64(r.Successes) / float64(r.Walks)
		if !(r.SuccessCSLo < pooled && pooled < r.SuccessCSHi) || r.SuccessCSHi-r.SuccessCSLo <= r.SuccessHi-r.SuccessLo {
			t.Errorf("%s %s: always-valid [%.4f, %.4f] does not hold the pooled rate %.4f or is not wider than fixed-n [%.4f, %.4f]",
				r.GroupBy, r.Group, r.SuccessCSLo, r.SuccessCSHi, pooled, r.SuccessLo, r.SuccessHi)
		}
		if r.GroupBy == "class" && r.Group == "corner" {
			found++
			if r.SuccessCSLo != claims[0].CSLo || r.SuccessCSHi != claims[0].CSHi {
				t.Errorf("classes corner always-valid [%v, %v], the claim's [%v, %v]: want the same", r.SuccessCSLo, r.SuccessCSHi, claims[0].CSLo, claims[0].CSHi)
			}
		}
	}
	if found != 1 {
		t.Fatalf("%d corner rows of warnsdorff/random", found)
	}
	for i := range tallies {
		tallies[i].Walks, tallies[i].Successes = 1000, 600
		tallies[i].Lengths[b.Squares()], tallies[i].Lengths[1], tallies[i].DeadEnds[i] = 600, 400, 400
	}
	tf, err := Build(fixed, of)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tf.Classes {
		if !math.IsNaN(r.SuccessCSLo) || !math.IsNaN(r.SuccessCSHi) {
			t.Errorf("fixed run, %s %s %s: always-valid interval [%v, %v], want null", r.Rule, r.GroupBy, r.Group, r.SuccessCSLo, r.SuccessCSHi)
		}
	}
}
