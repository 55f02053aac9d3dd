package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// expand lists the lengths counted in hist in ascending order.
func expand(hist []uint64) []float64 {
	var xs []float64
	for l, c := range hist {
		for range c {
			xs = append(xs, float64(l))
		}
	}
	return xs
}

func TestQuantileSmall(t *testing.T) {
	// Lengths 1..20 once each: type 1 takes the ⌈q·20⌉-th smallest.
	h := make([]uint64, 21)
	for l := 1; l <= 20; l++ {
		h[l] = 1
	}
	for _, c := range []struct {
		num, den uint64
		want     int
	}{
		{0, 1, 1}, {1, 100, 1}, {5, 100, 1}, {6, 100, 2}, {25, 100, 5}, {26, 100, 6},
		{50, 100, 10}, {75, 100, 15}, {95, 100, 19}, {96, 100, 20}, {1, 1, 20},
	} {
		if got := Quantile(h, c.num, c.den); got != c.want {
			t.Errorf("Quantile(1..20, %d/%d) = %d, want %d", c.num, c.den, got, c.want)
		}
	}

	// q·N a whole number: 5 walks of length 10, 95 of length 11. The 5th
	// smallest is 10. (0.05*100 in floating point is not exactly 5; the
	// integer comparison cannot be fooled.)
	h = make([]uint64, 12)
	h[10], h[11] = 5, 95
	if got := Quantile(h, 5, 100); got != 10 {
		t.Errorf("P05 of 5×10, 95×11 = %d, want 10", got)
	}
	if got := Quantile(h, 51, 1000); got != 11 {
		t.Errorf("P05.1 of 5×10, 95×11 = %d, want 11", got)
	}
}

// TestQuantileBruteForce compares the histogram quantile with the
// ⌈k·N/100⌉-th smallest element of the expanded sample, and, at dyadic q
// where floating point is exact, with gonum's stat.Empirical (also type 1).
func TestQuantileBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 200 {
		h := make([]uint64, 2+rng.IntN(30))
		for range 1 + rng.IntN(60) {
			h[1+rng.IntN(len(h)-1)] += uint64(1 + rng.IntN(3))
		}
		xs := expand(h)
		n := uint64(len(xs))
		for k := uint64(0); k <= 100; k++ {
			rank := max((k*n+99)/100, 1) // ⌈k·n/100⌉, at least the first
			if got, want := Quantile(h, k, 100), int(xs[rank-1]); got != want {
				t.Fatalf("trial %d: Quantile(%v, %d/100) = %d, want %d", trial, h, k, got, want)
			}
		}
		for _, k := range []uint64{1, 2, 3} {
			q := float64(k) / 4
			if got, want := Quantile(h, k, 4), stat.Quantile(q, stat.Empirical, xs, nil); float64(got) != want {
				t.Fatalf("trial %d: Quantile(%v, %d/4) = %d, gonum Empirical %v", trial, h, k, got, want)
			}
		}
	}
}

func TestLengthsAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	for trial := range 50 {
		h := make([]uint64, 65)
		for range 200 {
			h[1+rng.IntN(64)] += uint64(rng.IntN(4))
		}
		xs := expand(h)
		ls := SummarizeLengths(h)
		mean, sd := stat.MeanStdDev(xs, nil) // sample (N−1) standard deviation
		if math.Abs(ls.Mean-mean) > 1e-12*mean || math.Abs(ls.SD-sd) > 1e-10*sd {
			t.Errorf("trial %d: mean %v sd %v, gonum %v %v", trial, ls.Mean, ls.SD, mean, sd)
		}
		if ls.N != uint64(len(xs)) || ls.Min != int(xs[0]) || ls.Max != int(xs[len(xs)-1]) {
			t.Errorf("trial %d: N %d min %d max %d, want %d %v %v", trial, ls.N, ls.Min, ls.Max, len(xs), xs[0], xs[len(xs)-1])
		}
		for _, q := range []struct {
			got int
			k   uint64
		}{{ls.P05, 5}, {ls.P25, 25}, {ls.Median, 50}, {ls.P75, 75}, {ls.P95, 95}} {
			if want := Quantile(h, q.k, 100); q.got != want {
				t.Errorf("trial %d: P%02d = %d, want %d", trial, q.k, q.got, want)
			}
		}
	}
}

func TestLengthsExact(t *testing.T) {
	// 1 and 3 in equal numbers, 2^62 each: the float sums would round, the
	// integer sums do not. Mean 2 exactly; sample variance N/(N−1), which
	// rounds to 1.
	h := []uint64{0, 1 << 62, 0, 1 << 62}
	ls := SummarizeLengths(h)
	if ls.Mean != 2 || ls.SD != 1 || ls.N != 1<<63 {
		t.Errorf("2^62 × {1, 3}: N %d mean %v sd %v, want 2^63, 2, 1", ls.N, ls.Mean, ls.SD)
	}
	// One walk of length 1 among 2^63 of length 2: mean 2 − 2^−63/(1+2^−63)
	// rounds to 2; a float running sum would agree, but the SD must not be 0
	// or NaN: variance ≈ 2^−63.
	h = []uint64{0, 1, 1 << 63}
	ls = SummarizeLengths(h)
	if want := math.Sqrt(math.Ldexp(1, -63)); math.Abs(ls.SD-want) > 1e-6*want {
		t.Errorf("1 × 1, 2^63 × 2: sd %v, want %v", ls.SD, want)
	}
	// Known small case: lengths 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample
	// variance 32/7.
	h = make([]uint64, 10)
	for _, l := range []int{2, 4, 4, 4, 5, 5, 7, 9} {
		h[l]++
	}
	ls = SummarizeLengths(h)
	if ls.Mean != 5 || math.Abs(ls.SD-math.Sqrt(32.0/7)) > 1e-15 {
		t.Errorf("textbook sample: mean %v sd %v, want 5 %v", ls.Mean, ls.SD, math.Sqrt(32.0/7))
	}
	if ls.Median != 4 || ls.P25 != 4 || ls.P75 != 5 || ls.P05 != 2 || ls.P95 != 9 {
		t.Errorf("textbook sample quantiles: %+v", ls)
	}
}

func TestLengthsDegenerate(t *testing.T) {
	ls := SummarizeLengths(make([]uint64, 10))
	if ls.N != 0 || !math.IsNaN(ls.Mean) || !math.IsNaN(ls.SD) || ls.Min != 0 || ls.Max != 0 || ls.Median != 0 {
		t.Errorf("empty histogram: %+v", ls)
	}
	ls = SummarizeLengths([]uint64{0, 0, 0, 1})
	if ls.N != 1 || ls.Mean != 3 || !math.IsNaN(ls.SD) || ls.Min != 3 || ls.Max != 3 || ls.P05 != 3 || ls.P95 != 3 {
		t.Errorf("one walk: %+v", ls)
	}
}

func TestQuantilePanics(t *testing.T) {
	for _, q := range [][2]uint64{{1, 0}, {3, 2}} {
		func() {
			defer func() {
				if s, _ := recover().(string); !strings.HasPrefix(s, "stats: ") {
					t.Errorf("Quantile(%d/%d): want a stats: panic, got %q", q[0], q[1], s)
				}
			}()
			Quantile([]uint64{0, 1}, q[0], q[1])
		}()
	}
}

// TestNextNonZero: NextNonZero lists exactly the non-zero bins, from any
// index, on histograms of every length around its blocks of eight, with
// non-zero bins at block edges, alone, in runs and nowhere; and a Merge of
// tallies past its dense threshold adds every bin.
func TestNextNonZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for trial := range 50 {
			h := make([]uint64, n)
			for i := range h {
				if trial > 0 && rng.IntN(1+trial%5) == 0 {
					h[i] = 1 + rng.Uint64N(3)
				}
			}
			for from := 0; from <= n; from++ {
				want := n
				for i := from; i < n; i++ {
					if h[i] != 0 {
						want = i
						break
					}
				}
				if got := NextNonZero(h, from); got != want {
					t.Fatalf("NextNonZero(%v, %d) = %d, want %d", h, from, got, want)
				}
			}
		}
	}
	for _, squares := range []int{1023, 1024, 1025, 5000} {
		a, b := NewTally(squares), NewTally(squares)
		for i := range 200 {
			a.Lengths[rng.IntN(squares+1)] += uint64(i)
			b.Lengths[rng.IntN(squares+1)]++
			b.DeadEnds[rng.IntN(squares)] += 2
		}
		want := make([]uint64, squares+1)
		wantEnds := make([]uint64, squares)
		for i := range want {
			want[i] = a.Lengths[i] + b.Lengths[i]
		}
		for i := range wantEnds {
			wantEnds[i] = a.DeadEnds[i] + b.DeadEnds[i]
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if a.Lengths[i] != want[i] {
				t.Fatalf("%d squares: merged Lengths[%d] = %d, want %d", squares, i, a.Lengths[i], want[i])
			}
		}
		for i := range wantEnds {
			if a.DeadEnds[i] != wantEnds[i] {
				t.Fatalf("%d squares: merged DeadEnds[%d] = %d, want %d", squares, i, a.DeadEnds[i], wantEnds[i])
			}
		}
	}
}
