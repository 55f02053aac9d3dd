package count

import (
	"context"
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// expectation enumerates every walk the sampler can draw from the state
// the walker is in and returns Σ probability × weight: the sampler's exact
// expectation, which must equal the number of tours it estimates.
func (k *walker) expectation(cur, left, ones int) float64 {
	if left == 0 {
		return 1
	}
	if left <= k.tail {
		return k.complete(cur, left, ones)
	}
	var cand [8]int
	var cd [8]int8
	na, K, sum, done := k.options(cur, left, ones, &cand, &cd)
	if done {
		return 1
	}
	var e float64
	for i := range na {
		q := 1.0
		if na > 1 {
			q = k.pw[cd[i]] / sum
		}
		deg, vis := append([]int8(nil), k.deg...), append([]bool(nil), k.vis...)
		o := ones + K
		if cd[i] == 1 {
			o--
		}
		k.visit(cand[i])
		// the weight of a path is 1/q times its continuation's: q · (1/q) · E
		e += q * (1 / q) * k.expectation(cand[i], left-1, o)
		copy(k.deg, deg)
		copy(k.vis, vis)
	}
	return e
}

// TestSampleExpectationExact holds each proposal's estimator to its exact
// expectation (every path it can draw, enumerated with its probability)
// against the frontier sweep's counts, per start square and closed.
func TestSampleExpectationExact(t *testing.T) {
	boards := [][2]int{{3, 4}, {4, 4}, {3, 7}, {4, 5}, {5, 5}, {3, 8}}
	for i, p := range []Proposal{{}, {Beta: 0.7}, DefaultProposal, {Beta: 4}} {
		tail := []int{0, 3, 0, 7}[i]
		for _, rc := range boards {
			b := sim.MustBoard(rc[0], rc[1])
			for _, closed := range []bool{false, true} {
				opt := Options{Closed: closed}
				if !closed {
					for s := range b.Squares() {
						opt.Starts = append(opt.Starts, s)
					}
				}
				want, err := Tours(context.Background(), b, opt)
				if err != nil {
					t.Fatal(err)
				}
				k := newWalker(b, p)
				k.tail = tail
				if closed {
					if !k.setClosed() {
						t.Fatalf("%s: no square of degree 2", b)
					}
					cur, left, ones, ok := k.reset(k.closedFrom)
					got := 0.0
					if ok {
						got = k.expectation(cur, left, ones)
					}
					if w := float64(want.Tours.Big().Int64()); math.Abs(got-w) > 1e-9*math.Max(1, w) {
						t.Errorf("%s closed %s: expectation %v, want %v cycles", b, p.Name(), got, w)
					}
					continue
				}
				for s := range b.Squares() {
					cur, left, ones, ok := k.reset(s)
					got := 0.0
					if ok {
						got = k.expectation(cur, left, ones)
					}
					w := float64(want.PerStart[s].Big().Int64())
					if math.Abs(got-w) > 1e-9*math.Max(1, w) {
						t.Errorf("%s open from %s, %s: expectation %v, want %v", b, b.SquareName(s), p.Name(), got, w)
					}
				}
			}
		}
	}
}

func sampleOpts(closed bool) SampleOptions {
	return SampleOptions{Closed: closed, Start: -1, Proposal: DefaultProposal, Tail: DefaultTail, Seed: 7, Workers: 1,
		Confidence: 0.999, Samples: 150_000}
}

// TestSampleWorkersAndShardsAgree: the same seed gives the same estimate,
// bit for bit, for any number of workers, and three shards' sums merged
// give exactly the estimate of one run.
func TestSampleWorkersAndShardsAgree(t *testing.T) {
	ctx := context.Background()
	b := sim.MustBoard(5, 6)
	for _, closed := range []bool{false, true} {
		opt := sampleOpts(closed)
		opt.PerStart = !closed
		opt.Tail, opt.Samples = 8, 40_000
		one, err := Sample(ctx, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Workers = 3
		three, err := Sample(ctx, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !sameEstimate(one, three) {
			t.Errorf("closed=%v: 1 worker %+v, 3 workers %+v", closed, one.All, three.All)
		}
		var sums *SampleSums
		for k := range 3 {
			o := opt
			o.Shard = Shard{K: k, N: 3}
			r, err := Sample(ctx, b, o)
			if err != nil {
				t.Fatal(err)
			}
			if sums == nil {
				sums = r.Sums
			} else if err := sums.Merge(r.Sums); err != nil {
				t.Fatal(err)
			}
		}
		if err := sums.Merge(sums); err == nil {
			t.Error("merging a part twice: no error")
		}
		merged, err := SampleFromSums(b, opt, sums, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !sameEstimate(one, merged) {
			t.Errorf("closed=%v: one run %+v, merged shards %+v", closed, one.All, merged.All)
		}
	}
}

func sameEstimate(a, b SampleResult) bool {
	eq := func(x, y SampleEstimate) bool {
		x.Seconds, y.Seconds = 0, 0
		return x == y
	}
	if !eq(a.All, b.All) || len(a.PerStart) != len(b.PerStart) {
		return false
	}
	for i := range a.PerStart {
		if !eq(a.PerStart[i], b.PerStart[i]) {
			return false
		}
	}
	return true
}

// TestSampleCoversExact: with fixed seeds, the 99.9 % intervals of the
// whole board, its squares and the closed tours cover the frontier's
// exact counts.
func TestSampleCoversExact(t *testing.T) {
	ctx := context.Background()
	for _, rc := range [][2]int{{5, 5}, {5, 6}} {
		b := sim.MustBoard(rc[0], rc[1])
		for _, closed := range []bool{false, true} {
			opt := sampleOpts(closed)
			opt.PerStart = !closed
			opt.Tail = 12
			r, err := Sample(ctx, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Closed: closed}
			if !closed {
				for s := range b.Squares() {
					o.Starts = append(o.Starts, s)
				}
			}
			want, err := Tours(ctx, b, o)
			if err != nil {
				t.Fatal(err)
			}
			w := float64(want.Tours.Big().Int64())
			if a := r.All; !(a.Lo <= w && w <= a.Hi) || (w == 0) != (a.Zero != "") {
				t.Errorf("%s closed=%v: %v [%v, %v] (%s), exact %v", b, closed, a.Estimate, a.Lo, a.Hi, a.Warning, w)
			}
			miss := 0
			for s, e := range r.PerStart {
				if x := float64(want.PerStart[s].Big().Int64()); e.Trusted() && !(e.Lo <= x && x <= e.Hi) {
					miss++
				}
			}
			if miss > 0 {
				t.Errorf("%s: %d of %d squares' 99.9%% intervals miss", b, miss, len(r.PerStart))
			}
		}
	}
}

// TestNoToursTheorems holds the theorems that make a count 0 without a
// walk (noTours) to the frontier's counts on every board they cover here.
func TestNoToursTheorems(t *testing.T) {
	ctx := context.Background()
	for m := 1; m <= 5; m++ {
		for n := m; m*n <= 30 || m == 3 && n <= 12 || m <= 2 && n <= 12; n++ {
			b := sim.MustBoard(m, n)
			for _, closed := range []bool{false, true} {
				r, err := Tours(ctx, b, Options{Closed: closed})
				if err != nil {
					t.Fatal(err)
				}
				zero := r.Tours.Big().Sign() == 0
				if why := noTours(m, n, closed); (why != "") != zero {
					t.Errorf("%s closed=%v: %d tours, noTours says %q", b, closed, r.Tours.Big(), why)
				}
			}
		}
	}
	r, err := Sample(ctx, sim.MustBoard(5, 5), sampleOpts(true))
	if err != nil {
		t.Fatal(err)
	}
	if a := r.All; a.Estimate != 0 || a.Hi != 0 || a.Zero == "" || !a.Trusted() || a.Samples != 0 {
		t.Errorf("5x5 closed: %+v, want 0 exactly by a theorem, no walk drawn", a)
	}
}
