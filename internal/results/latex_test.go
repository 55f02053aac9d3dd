package results

import (
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestClaimsLaTeX: one row per claim with its reading, the interval that
// decided it (the always-valid one in a sequential run) and the Holm
// verdict, every special character escaped, eight cells a row.
func TestClaimsLaTeX(t *testing.T) {
	rows := []table.ClaimRow{
		{ID: "ganzfried_7", Reading: "a1, random ties", Rule: "warnsdorff/random", Board: "7x7", Target: "square:a1", Kind: "below",
			ClaimedLo: 0, ClaimedHi: 0.2, Measured: 0.5, Lo: 0.4, Hi: 0.6, CSLo: math.NaN(), CSHi: math.NaN(), VerdictHolm: "refuted"},
		{ID: "seq", Reading: "r", Rule: "random", Board: "8x8", Target: "class:corner", Kind: "below",
			ClaimedLo: 0, ClaimedHi: 0.2, Measured: 0.001, Lo: 0.0005, Hi: 0.002, CSLo: 0.0001, CSHi: 0.004, VerdictHolm: "consistent"},
	}
	out := claimsLaTeX(rows, 0.95)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var body []string
	for _, l := range lines {
		if strings.HasSuffix(l, `\\`) && !strings.HasPrefix(l, "Claim &") {
			body = append(body, l)
		}
	}
	if len(body) != 2 {
		t.Fatalf("%d claim rows in\n%s", len(body), out)
	}
	for _, l := range body {
		if n := strings.Count(strings.ReplaceAll(l, `\&`, ""), "&"); n != 7 {
			t.Errorf("%d cell separators in %q", n, l)
		}
	}
	for _, want := range []string{`ganzfried\_7`, "a1, random ties", `50.000\% [40.000, 60.000]`, "refuted",
		`0.100\% [0.010, 0.400] always valid`, "consistent"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
