package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestConfidenceSequencePooledCoverage: the always-valid interval of
// pooled counts (a claim's on a class, the classes table's success_cs_lo
// and success_cs_hi) covers the mean rate of squares of very different
// rates at every round end at once, each square advanced by the same walks
// per round: over 2000 simulated runs, the share that ever exclude the mean
// is at most the nominal 5 % (the supermartingale argument of confseq.go),
// for very different rates and for equal ones; with equal rates the
// fixed-n Wilson interval looked at after every round excludes it far more
// often, so the test can fail. (With different rates the pooled counts
// vary less than a binomial's, and both intervals over-cover.)
func TestConfidenceSequencePooledCoverage(t *testing.T) {
	testenv.SkipUnlessSlow(t, "2 x 2000 sequential runs of 4 squares, 50 rounds of 100 walks each")
	const runs, conf = 2000, 0.95
	var ends []uint64 // 50 looks: the more looks, the more a fixed-n interval misses
	for e := uint64(100); e <= 5000; e += 100 {
		ends = append(ends, e)
	}
	se := math.Sqrt(0.05 * 0.95 / runs)
	for i, rates := range [][]float64{
		{0.02, 0.3, 0.65, 0.97},      // squares of very different rates, as a class's may be
		{0.485, 0.485, 0.485, 0.485}, // equal rates: the case where Wilson's misses inflate
	} {
		var mean float64
		for _, p := range rates {
			mean += p / float64(len(rates))
		}
		rng := rand.New(rand.NewPCG(11, uint64(i)))
		missed := map[Method]int{}
		for range runs {
			var k, n, walked uint64
			out := map[Method]bool{}
			for _, end := range ends {
				for ; walked < end; walked++ {
					for _, p := range rates {
						if rng.Float64() < p {
							k++
						}
						n++
					}
				}
				for _, m := range []Method{ConfidenceSequence, Wilson} {
					s := Proportion{Successes: k, Trials: n}.Interval(conf, m)
					out[m] = out[m] || mean < s.Lo || mean > s.Hi
				}
			}
			for m, o := range out {
				if o {
					missed[m]++
				}
			}
		}
		cs, naive := float64(missed[ConfidenceSequence])/runs, float64(missed[Wilson])/runs
		t.Logf("mean rate %.4f of %v: ever excluded by the always-valid interval in %.4f of runs, by Wilson after every round in %.4f (%d rounds)", mean, rates, cs, naive, len(ends))
		if cs > 1-conf+3*se {
			t.Errorf("%v: the pooled always-valid interval excluded the mean rate in %.4f of runs, nominal at most %.2f", rates, cs, 1-conf)
		}
		if i == 1 && naive < 1-conf+3*se {
			t.Errorf("%v: Wilson after every round excluded it in %.4f of runs, expected above %.2f (the test would not tell the two apart)", rates, naive, 1-conf)
		}
	}
}
