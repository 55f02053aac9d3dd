package results

import (
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// TestMarginAllows: the report says what the margin allows,
// and which one-sided test is void; Ganzfried's 99 of 100 on 8x8 against
// our exact 0.979578 is compared within the margin his region plans (3.9
// points at 98 %), not 14 points at 1/2, and is still reproduced there.
func TestMarginAllows(t *testing.T) {
	p, ok := config.LookupSource("ganzfried-2004-n8")
	if !ok {
		t.Fatal("no ganzfried-2004-n8")
	}
	row := table.ClaimRow{Exact: 0.979578, Measured: 0.98, Lo: 0.97, Hi: 0.99, CSLo: math.NaN(), CSHi: math.NaN()}
	comparePublished(&row, &p, stats.Proportion{Successes: 19600, Trials: 20000}, false, 0.95)
	if math.Abs(row.Margin-stats.DefaultMargin(100, 0.98, 0.05)) > 1e-12 {
		t.Fatalf("margin %v", row.Margin)
	}
	if row.Verdict != stats.Reproduced {
		t.Errorf("verdict %s (p equivalence %v, %v)", row.Verdict, row.PEquivLower, row.PEquivUpper)
	}
	m := MeasuredText(row)
	if !strings.Contains(m, "within ±3.9 points (allows 95.1–100.0 %, the upper test void)") {
		t.Errorf("measured %q", m)
	}
	for _, tc := range []struct {
		rate, margin float64
		want         string
	}{
		{0.5, 0.14, "allows 36.0–64.0 %)"},
		{0.02, 0.05, "allows 0.0–7.0 %, the lower test void"},
		{0.5, 0.6, "allows 0.0–100.0 %, both tests void: it allows every rate"},
	} {
		if got := marginAllows(table.ClaimRow{ClaimedLo: tc.rate, Margin: tc.margin}) + ")"; !strings.Contains(got, tc.want) {
			t.Errorf("marginAllows(%v ± %v) = %q, want %q", tc.rate, tc.margin, got, tc.want)
		}
	}
}
