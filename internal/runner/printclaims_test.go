package runner

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// TestPrintClaimsEveryKind: the console prints each kind of claim with the
// report's own text for what it states, what was measured and the exact
// value, so the two never format one number two ways.
func TestPrintClaimsEveryKind(t *testing.T) {
	nan := math.NaN()
	row := func(kind string, measured, lo, hi float64) table.ClaimRow {
		return table.ClaimRow{ID: kind + "-claim", Kind: kind, Rule: "warnsdorff", Board: "8x8", Target: "all",
			ClaimedLo: 0.5, ClaimedHi: 0.9, Measured: measured, Lo: lo, Hi: hi, CSLo: nan, CSHi: nan,
			Exact: nan, ExactLower: nan, ExactUpper: nan, PHolm: nan, Margin: nan, DecidedBy: "sample", Verdict: "consistent", VerdictHolm: "consistent"}
	}
	pub := row("published", 0.97, 0.96, 0.98)
	pub.PublishedSuccesses, pub.PublishedTrials = table.NullInt64{Int64: 75, Valid: true}, table.NullInt64{Int64: 100, Valid: true}
	pub.DiffLo, pub.DiffHi, pub.PValue, pub.Test = 0.2, 0.24, 0.001, "exact binomial"
	exact := row("rate", 0.9721, 0.9705, 0.9737)
	exact.Exact = 0.971981
	rows := []table.ClaimRow{exact, row("above", 0.6, 0.55, 0.65), row("below", 0.1, 0.05, 0.15),
		row("share", 0.75, 0.7, 0.8), row("first-failure", 7, nan, nan), row("failing-share", 0.02, nan, nan), pub}
	var b bytes.Buffer
	PrintClaims(&b, &results.Tables{Claims: rows})
	out := b.String()
	for _, c := range rows {
		for _, want := range []string{results.ClaimedText(c), results.MeasuredText(c), results.ExactText(c)} {
			if !strings.Contains(out, want) {
				t.Errorf("%s claim: the console lacks %q:\n%s", c.Kind, want, out)
			}
		}
	}
	if !strings.Contains(out, "97.210% [97.050, 97.370]") || !strings.Contains(out, "97.1981%") {
		t.Errorf("the console does not print a rate and its exact value as the report does:\n%s", out)
	}
}
