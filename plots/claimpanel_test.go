package plots

import (
	"errors"
	"math"
	"slices"
	"strings"
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
	// 0 and 100 % are drawn on the axis's edges, which are not labelled
	// "0" and "100" (issue 34: those labels stood at 81.9 %); the axis's
	// label says so, and every label stands at its value.
	labels := labelsOf(f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max))
	if slices.Contains(labels, "0") || slices.Contains(labels, "100") {
		t.Errorf("x labels %v label the clipped ends", labels)
	}
	said := false
	for _, e := range f.legend {
		said = said || strings.Contains(e.text, "0 % and 100 % drawn at the axis's ends")
	}
	if !said {
		t.Errorf("the legend does not say where 0 and 100 %% are drawn")
	}
	// (internal/plotcheck's TestClaimPanelPasses reads this panel as drawn.)
}
