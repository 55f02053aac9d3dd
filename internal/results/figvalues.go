package results

import (
	"math"

	"github.com/knightwalk/knightwalk/stats"
)

// The values a figure shows beside its table: the rates of sets of start
// squares, pooled as the boards and classes tables pool them, so that a
// figure's caption, reference line and marks are the tables' numbers.
// Package plots draws these plain values and computes none.

// StartCount is one start square's count of an event (successes, closed
// tours) and its walks.
type StartCount struct {
	Count, Walks int64
}

// StartsRate is the rate of the event from a uniformly random start among
// squares, with its interval at conf by m, as the boards and classes
// tables give it: where every square ran the same walks, the pooled
// proportion (which is then the mean of the squares' rates); where they
// ran unequal walks (a sequential run stops each square on its own), the
// equal-weight mean of the squares' rates with the interval at its
// effective sample size (uniformStart). A square with no walks makes the
// rate undefined (NaN).
func StartsRate(squares []StartCount, conf float64, m stats.Method) stats.Summary {
	nan := stats.Summary{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: conf, Method: m}
	if len(squares) == 0 {
		return nan
	}
	var k, n int64
	equal := true
	for _, s := range squares {
		if s.Walks <= 0 {
			return nan
		}
		k, n = k+s.Count, n+s.Walks
		equal = equal && s.Walks == squares[0].Walks
	}
	if equal {
		return stats.Proportion{Successes: uint64(k), Trials: uint64(n)}.Interval(conf, m)
	}
	ks, ns := make([]float64, len(squares)), make([]float64, len(squares))
	for i, s := range squares {
		ks[i], ns[i] = float64(s.Count), float64(s.Walks)
	}
	return equalWeightRate(ks, ns, conf, m)
}

// equalWeightRate is the equal-weight mean of the rates ks[i]/ns[i] and
// its interval: the run's method on n_eff = p̄(1 − p̄)/V walks, with V the
// variance of a walk from a uniformly random start (uniformStart says how
// and why), so that the interval is the pooled one where squares ran equal
// walks, whatever the allocation.
func equalWeightRate(ks, ns []float64, conf float64, m stats.Method) stats.Summary {
	k := float64(len(ks))
	var p, adj, v float64
	for i := range ks {
		p += ks[i] / ns[i]
		adj += (ks[i] + 2) / (ns[i] + 4)
	}
	p, adj = p/k, adj/k
	for i := range ks {
		q := (ks[i] + 2) / (ns[i] + 4)
		v += (q*(1-q) + (q-adj)*(q-adj)) / ns[i]
	}
	n := math.Round(adj * (1 - adj) / (v / (k * k)))
	s := stats.Proportion{Successes: uint64(math.Round(p * n)), Trials: uint64(n)}.Interval(conf, m)
	s.Center = p
	s.Lo, s.Hi = min(s.Lo, p), max(s.Hi, p)
	return s
}

// ShareInterval is the interval at conf by m of a share count/total of
// events (a dead-end map's share of the failed walks on one square), for
// counts that may be fractional: a mean over images equal under the
// board's symmetries (images of them averaged; count·images events in
// all), or walks weighed to one start each. Counts are rounded for the
// interval, which always holds the share itself. A share that rests on a
// single event (count·images ≤ 1) is resolved by nothing: its interval is
// [0, 1], so that a figure washes it out rather than draw one walk's end
// as structure.
func ShareInterval(count, total, images float64, conf float64, m stats.Method) (lo, hi float64) {
	share := count / total
	if count > 0 && count*images <= 1 {
		return 0, 1
	}
	iv := stats.Proportion{Successes: uint64(math.Round(count)), Trials: uint64(math.Round(total))}.Interval(conf, m)
	return math.Min(iv.Lo, share), math.Max(iv.Hi, share)
}

// RunningPoint is a running estimate after the first Walks walks: the rate
// and its interval.
type RunningPoint struct {
	Walks        int64
	Rate, Lo, Hi float64
}

// RunningRate is the running estimate of a rate over walks in order
// (success[i]: walk i had the event), with its interval at conf by m,
// at walks 1, then at geometric steps of a quarter, and always at the
// last walk, so that a convergence curve ends where the run ended (its
// last point is the squares table's rate). Nil for no walks.
func RunningRate(success []bool, conf float64, m stats.Method) []RunningPoint {
	var out []RunningPoint
	var k uint64
	next := 1.0
	for i, s := range success {
		if s {
			k++
		}
		n := uint64(i + 1)
		if float64(n) >= next || i == len(success)-1 {
			iv := stats.Proportion{Successes: k, Trials: n}.Interval(conf, m)
			out = append(out, RunningPoint{Walks: int64(n), Rate: iv.Center, Lo: iv.Lo, Hi: iv.Hi})
			for float64(n) >= next {
				next = math.Ceil(next * 1.25)
			}
		}
	}
	return out
}

// ShareBounds is the Wilson interval at conf of a share of count events in
// total (a length distribution's share of a class's walks: count is
// rounded, as a share pooled over lengths may carry rounding).
func ShareBounds(count, total, conf float64) (lo, hi float64) {
	iv := stats.Proportion{Successes: uint64(math.Round(count)), Trials: uint64(math.Round(total))}.Interval(conf, stats.Wilson)
	return iv.Lo, iv.Hi
}
