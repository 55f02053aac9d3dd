package plots

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestClaimPanel(t *testing.T) {
	if _, err := ClaimPanel("none", nil); !errors.Is(err, plotter.ErrNoData) {
		t.Errorf("no rows: %v, want ErrNoData", err)
	}
	bad := []ClaimRow{{Label: "x", ClaimedLo: 0.7, ClaimedHi: 0.8, Measured: 0.5, Lo: 0.6, Hi: 0.7, Exact: math.NaN()}}
	if _, err := ClaimPanel("bad", bad); err == nil {
		t.Error("an estimate outside its interval was drawn")
	}
	rows := []ClaimRow{
		{Label: "n7, 7x7: consistent", ClaimedLo: 0.725, ClaimedHi: 0.775, Measured: 0.74, Lo: 0.72, Hi: 0.76, Exact: 0.7369},
		{Label: "none over 325: consistent", ClaimedLo: 0, ClaimedHi: 0, Measured: 0, Lo: 0, Hi: 0.05, Exact: math.NaN()},
		{Label: "at least 98 %: consistent", ClaimedLo: 0.98, ClaimedHi: 1, Measured: 1, Lo: 0.99, Hi: 1, Exact: math.NaN()},
	}
	f, err := ClaimPanel("ok", rows)
	if err != nil {
		t.Fatal(err)
	}
	// 0 and 100 % are on the axis's edges, labelled there.
	labels := labelsOf(f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max))
	if labels[0] != "0" || labels[len(labels)-1] != "100" {
		t.Errorf("x labels %v, want 0 … 100 at the edges", labels)
	}
}
