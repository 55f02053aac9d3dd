package plots

import (
	"math"
	"testing"

	"github.com/knightwalk/knightwalk/stats"
)

// sampled gives each series the Wilson intervals of its shares, as
// LengthDistributionWith(series, o) draws them, of walks walks (the
// caller's part: plots computes no interval).
func sampled(t *testing.T, series []Series, walks int64, o LengthOptions) []Series {
	t.Helper()
	if walks <= 0 {
		return series
	}
	bin, err := LengthBins(series, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range series {
		shares := map[float64]float64{}
		var xs []float64
		for k, x := range series[i].X {
			b := bin(x)
			if _, ok := shares[b]; !ok {
				xs = append(xs, b)
			}
			shares[b] += series[i].Y[k]
		}
		for _, b := range xs {
			iv := stats.Proportion{Successes: uint64(math.Round(shares[b] * float64(walks))), Trials: uint64(walks)}.Interval(0.95, stats.Wilson)
			series[i].Bars = append(series[i].Bars, ShareBar{X: b, Lo: iv.Lo, Hi: iv.Hi})
		}
	}
	return series
}
