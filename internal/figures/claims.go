package figures

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"knightwalk/internal/results"
	"knightwalk/internal/table"
	"knightwalk/plots"
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
	claims, _, err := table.ReadClaims(path)
	if err != nil {
		return nil, err
	}
	var rows []plots.ClaimRow
	var kept []table.ClaimRow
	for _, c := range claims {
		if !slices.Contains(rateKinds, c.Kind) || math.IsNaN(c.Measured) || math.IsNaN(c.Lo) || math.IsNaN(c.Hi) {
			continue
		}
		verdict := c.VerdictHolm
		if verdict == "" {
			verdict = c.Verdict
		}
		rows = append(rows, plots.ClaimRow{Label: fmt.Sprintf("%s, %s: %s", c.ID, c.Board, verdict),
			ClaimedLo: c.ClaimedLo, ClaimedHi: c.ClaimedHi, Measured: c.Measured, Lo: c.Lo, Hi: c.Hi, Exact: c.Exact})
		kept = append(kept, c)
	}
	if len(rows) == 0 {
		return []Drawn{{Name: "claims", Note: "no claim about a single success rate: no claims panel"}}, nil
	}
	f, err := plots.ClaimPanel(d.m.Experiment+": published claims against measured rates", rows)
	if err != nil {
		return nil, err
	}
	dr, err := d.save(f, "claims", d.m.Experiment)
	if err != nil {
		return nil, err
	}
	conf, _ := d.stats()
	dr.Caption = fmt.Sprintf("Each claim about a success rate: the published statement as a grey band (a point claim with its tolerance; "+
		"\"below\" and \"above\" to 0 and 100 %%), the measured rate with its %s interval, and the exact value by enumeration where known (cross), "+
		"on a logit axis; the verdict after the Holm adjustment of its family. %d claims; sources: %s.", levelText(conf), len(kept), claimSources(kept))
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
