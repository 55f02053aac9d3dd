package results

import (
	"math"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// TestReadingsCorrected: a statement tried under several
// readings is decided at α over the readings (Bonferroni): the one
// reading of six that passes at p = 0.039 is no success; a reading decided
// by a walk has no sampling error and still counts; "consistent" (a
// count share not rejected) is never counted as reproduced.
func TestReadingsCorrected(t *testing.T) {
	nan := math.NaN()
	pub := func(reading, verdict string, pe float64) table.ClaimRow {
		return table.ClaimRow{ID: "pohl-random-8", Source: "ganzfried-2004-pohl-n8", Reading: reading, Kind: "published", DecidedBy: "exact",
			VerdictHolm: verdict, PEquivLower: pe, PEquivUpper: pe / 2, PHolm: 0.27}
	}
	rows := []table.ClaimRow{pub("a1, sum", stats.Reproduced, 0.039)}
	for _, r := range []string{"uniform start, sum", "a1, minimum", "uniform, minimum", "a1, before", "uniform, before"} {
		rows = append(rows, pub(r, stats.NotReproduced, 1))
	}
	rows = append(rows,
		table.ClaimRow{ID: "pohl-original", Source: "pohl-1967-8x8", Reading: "a1", Kind: "rate", DecidedBy: "walk", VerdictHolm: stats.Reproduced, PHolm: nan},
		table.ClaimRow{ID: "pohl-original", Source: "pohl-1967-8x8", Reading: "every start", Kind: "rate", DecidedBy: "walk", VerdictHolm: stats.NotReproduced, PHolm: nan},
		table.ClaimRow{ID: "ganzfried-8", Source: "ganzfried-2004-n8", Reading: "a1", Kind: "published", DecidedBy: "exact", VerdictHolm: stats.Reproduced, PEquivLower: 0.039, PEquivUpper: 0, PHolm: 1},
		table.ClaimRow{ID: "squirrel", Source: "squirrel-cull-1996-85-under-50", Reading: "counts", Kind: "share", Test: "berger-boos", DecidedBy: "sample", VerdictHolm: stats.Consistent, PHolm: 1},
		table.ClaimRow{ID: "squirrel", Source: "squirrel-cull-1996-85-under-50", Reading: "true rate", Kind: "share", DecidedBy: "exact", VerdictHolm: stats.Reproduced, PHolm: nan},
	)
	var b strings.Builder
	writeReadingMatrix(&b, rows)
	out := b.String()
	for _, want := range []string{
		"a1, sum: **reproduced** (at 5 % alone; not at α/6 = 0.0083: equivalence p = 0.039)",
		"| reproduced under 0 of 6 readings, each at α/6 (Bonferroni over the readings) |",
		"| `pohl-original` | a1: **reproduced**; every start: **not reproduced** | reproduced under 1 of 2 readings, each at α/2",
		"| `ganzfried-8` | a1: **reproduced** | reproduced under 1 of 1 readings |", // one reading: no correction
		"| reproduced under 1 of 2 readings, each at α/2 (Bonferroni over the readings); consistent (not rejected, no equivalence shown) under 1 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("matrix lacks %q:\n%s", want, out)
		}
	}
}

// TestReadingsUnrelatedClaim: the correction for readings is within a
// claim, so adding, removing or reordering an unrelated claim leaves
// every other claim's line of the matrix as it was.
func TestReadingsUnrelatedClaim(t *testing.T) {
	row := func(id, reading, verdict string, pe float64) table.ClaimRow {
		return table.ClaimRow{ID: id, Source: "src-" + id, Reading: reading, Kind: "published", DecidedBy: "exact",
			VerdictHolm: verdict, PEquivLower: pe, PEquivUpper: pe / 2, PHolm: 0.27}
	}
	a := []table.ClaimRow{row("a", "r1", stats.Reproduced, 0.02), row("a", "r2", stats.NotReproduced, 1)}
	b := []table.ClaimRow{row("b", "r1", stats.Reproduced, 0.001)}
	c := []table.ClaimRow{row("c", "r1", stats.Reproduced, 0.04), row("c", "r2", stats.Reproduced, 0.3), row("c", "r3", stats.NotReproduced, 1)}
	lines := func(rows []table.ClaimRow) map[string]string {
		var s strings.Builder
		writeReadingMatrix(&s, rows)
		out := map[string]string{}
		for _, l := range strings.Split(s.String(), "\n") {
			if strings.HasPrefix(l, "| `") {
				out[l[:strings.Index(l[3:], "`")+3]] = l
			}
		}
		return out
	}
	base := lines(append(append([]table.ClaimRow{}, a...), b...))
	for name, rows := range map[string][]table.ClaimRow{
		"added":     append(append(append([]table.ClaimRow{}, a...), c...), b...),
		"reordered": append(append(append([]table.ClaimRow{}, b...), c...), a...),
		"removed b": a,
	} {
		got := lines(rows)
		for id, l := range base {
			if g, ok := got[id]; ok && g != l {
				t.Errorf("%s: %s changed:\n%s\nwas\n%s", name, id, g, l)
			} else if !ok && !(name == "removed b" && id == "| `b") {
				t.Errorf("%s: %s missing", name, id)
			}
		}
	}
}
