package config

import (
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/stats"
)

// TestRegionPlansTheMargin: a source whose own words place
// its rate in a region (Ganzfried's 99 % at n = 8, which his "at least 98 %
// on every n ≤ 25 but 7" places at 98 % or more) gets the margin its
// design resolves there, not the 14 points of a rate of 1/2, which near
// 100 % leaves the upper test void and the margin nearly empty.
func TestRegionPlansTheMargin(t *testing.T) {
	n8, ok := LookupSource("ganzfried-2004-n8")
	if !ok || len(n8.Region) != 2 || n8.Region[0] != 0.98 {
		t.Fatalf("ganzfried-2004-n8 states no region [0.98, 1]: %+v", n8.Region)
	}
	if got := n8.Planning(); got != 0.98 {
		t.Errorf("planning rate %v, want 0.98 (the region's rate nearest 1/2)", got)
	}
	want := stats.DefaultMargin(100, 0.98, 0.05)
	if got := n8.EquivalenceMargin(0.05); math.Abs(got-want) > 1e-12 || got > 0.05 {
		t.Errorf("margin %v, want %v (100 trials at 98 %%)", got, want)
	}
	n7, _ := LookupSource("ganzfried-2004-n7") // states no region: 1/2
	if got := n7.EquivalenceMargin(0.05); math.Abs(got-stats.DefaultMargin(100, 0.5, 0.05)) > 1e-12 {
		t.Errorf("n7 margin %v, want the 1/2 planning margin", got)
	}
	if !strings.Contains(n8.PlanningText(), "planned at 98 %, the source's region [98 %, 100 %]") {
		t.Errorf("PlanningText %q", n8.PlanningText())
	}
	for _, tc := range []struct{ lo, hi, want float64 }{{0.98, 1, 0.98}, {0, 0.03, 0.03}, {0.2, 0.9, 0.5}, {0.6, 0.9, 0.6}} {
		if got := RegionPlanning(tc.lo, tc.hi); got != tc.want {
			t.Errorf("RegionPlanning(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	for _, tc := range []struct{ extra, want string }{
		{"region: [0.98, 1]", "sources[0].region_why: missing"},
		{"region: [0.98, 1], region_why: w, planning_rate: 0.9", "sources[0].region: a region plans the margin"},
		{"region: [1, 0.98], region_why: w", "sources[0].region: want [lo, hi]"},
		{"region_why: w", "sources[0].region_why: region_why goes with region only"},
	} {
		_, err := ParseSources("s.yaml", []byte("sources:\n  - {id: a-b, authors: A, title: T, where: p. 1, statement: s, board: 8x8, rate: 0.99, assumed_trials: 100, assumption: x, "+tc.extra+"}\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error lacks %q:\n%v", tc.extra, tc.want, err)
		}
	}
}
