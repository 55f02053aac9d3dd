package figures

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
	"github.com/knightwalk/knightwalk/stats"
)

// rateKinds are the claims about one success rate, which the panel draws
// on a rate axis (claims over sets of boards have verdicts of their own,
// in the report).
var rateKinds = []string{"rate", "range", "below", "above"}

// claimPanel draws the experiment's claims about a rate, each published
// statement beside the measured rate with its interval and the exact
// value where known.
func (d *drawer) claimPanel() ([]Drawn, error) {
	path := filepath.Join(d.dir, results.ClaimsFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return []Drawn{{Name: "claims", Note: "no claims table: no claims panel"}}, nil
	}
	claims, err := results.ReadOf(d.dir, results.ClaimsFile, d.m, table.Read[table.ClaimRow])
	if err != nil {
		return nil, err
	}
	var rows []plots.ClaimRow
	var kept []table.ClaimRow
	var omitted []string
	conf, _ := d.stats()
	for _, c := range claims {
		published := c.Kind == "published" && c.PublishedTrials.Valid
		switch {
		case !slices.Contains(rateKinds, c.Kind) && !published:
			omitted = append(omitted, fmt.Sprintf("%s (a %s claim, not about one rate)", c.ID, c.Kind))
			continue
		case math.IsNaN(c.Measured):
			omitted = append(omitted, fmt.Sprintf("%s (no measured rate: %s)", c.ID, orNone(c.Verdict)))
			continue
		}
		if !math.IsNaN(c.CSLo) && !math.IsNaN(c.CSHi) {
			// A sequential run's verdict was decided by the always-valid
			// interval, not the fixed-n one: draw the one that decided.
			c.Lo, c.Hi = c.CSLo, c.CSHi
		}
		if math.IsNaN(c.Lo) || math.IsNaN(c.Hi) { // a deterministic rule's walk: a point
			c.Lo, c.Hi = c.Measured, c.Measured
		}
		verdict := c.VerdictHolm
		if verdict == "" {
			verdict = c.Verdict
		}
		id := c.ID
		if c.Unverified {
			id += " (unverified)"
		}
		label := fmt.Sprintf("%s, %s: %s", id, c.Board, verdict)
		if published { // the published count: the band is the margin that decided "reproduced"
			k, n := c.PublishedSuccesses.Int64, c.PublishedTrials.Int64
			pub := stats.Proportion{Successes: uint64(k), Trials: uint64(n)}.Interval(conf, stats.Wilson)
			c.ClaimedLo, c.ClaimedHi = pub.Lo, pub.Hi
			if !math.IsNaN(c.Margin) {
				p := float64(k) / float64(n)
				c.ClaimedLo, c.ClaimedHi = max(0, p-c.Margin), min(1, p+c.Margin)
			}
			label = fmt.Sprintf("%s, %s: %d/%d, %s", id, c.Board, k, n, verdict)
			if !math.IsNaN(c.Margin) { // what "reproduced" had to show
				label = fmt.Sprintf("%s, %s: %d/%d ± %.1f, %s", id, c.Board, k, n, 100*c.Margin, verdict)
			}
		}
		rows = append(rows, plots.ClaimRow{Label: label, AlwaysValid: !math.IsNaN(c.CSLo),
			ClaimedLo: c.ClaimedLo, ClaimedHi: c.ClaimedHi, Measured: c.Measured, Lo: c.Lo, Hi: c.Hi, Exact: c.Exact})
		kept = append(kept, c)
	}
	if len(rows) == 0 {
		return []Drawn{{Name: "claims", Note: "no claim about a single success rate: no claims panel"}}, nil
	}
	if dataHook != nil {
		dataHook("claims_"+d.m.Experiment, claimData{kept, rows, claims})
	}
	f, err := plots.ClaimPanel(d.m.Experiment+": claims against measured rates", rows)
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "claims", d.m.Experiment)
	if err != nil {
		return nil, err
	}
	dr.Caption = fmt.Sprintf("Each claim about a success rate: the claim's statement as a grey band (a point claim with its tolerance; "+
		"a published count k/n as k/n ± the equivalence margin that decided its verdict (its own %s Wilson interval where it has no margin); "+
		"\"below\" and \"above\" to 0 and 100 %%), the measured rate with its %s interval, and the exact value by enumeration where known (cross), "+
		"on a logit axis; the verdict after the Holm adjustment of its family. A published count is not reproduced where the difference is significant, "+
		"reproduced only where two one-sided tests put our rate within the margin its label gives (± points, what the source's trials resolve), "+
		"else inconclusive: lying inside the grey band is not agreement. %d claims; sources: %s.", levelText(conf), levelText(conf), len(kept), claimSources(kept))
	if slices.ContainsFunc(kept, func(c table.ClaimRow) bool { return !math.IsNaN(c.CSLo) }) {
		dr.Caption += " A sequential run's interval is the always-valid one (cs_lo, cs_hi) that decided its verdict."
	}
	if len(omitted) > 0 {
		dr.Caption += " Not drawn: " + strings.Join(omitted, "; ") + "."
	}
	return []Drawn{dr}, nil
}

// claimSources lists the claims' sources once each, in order.
func claimSources(cs []table.ClaimRow) string {
	var out []string
	for _, c := range cs {
		if c.Source != "" && !slices.Contains(out, c.Source) {
			out = append(out, c.Source)
		}
	}
	if len(out) == 0 {
		return "none given"
	}
	s := out[0]
	for _, x := range out[1:] {
		s += "; " + x
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "no verdict"
	}
	return s
}
