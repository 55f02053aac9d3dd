package results

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// GatherClaims reads the claims tables of the result directories dirs, in
// order, refusing a claim id and reading that state different things in
// two directories: they cannot be pooled into one verdict.
func GatherClaims(dirs []string) ([]table.ClaimRow, error) {
	var rows []table.ClaimRow
	stated := map[[2]string][]claimStatement{} // (id, reading): its statement and the first directory stating it
	for _, dir := range dirs {
		m, err := ReadManifest(dir)
		if err != nil {
			return nil, err
		}
		if err := NotForSieve(dir, m, "gather"); err != nil {
			return nil, err
		}
		r, err := ReadOf(dir, ClaimsFile, m, table.Read[table.ClaimRow])
		if err != nil {
			return nil, err
		}
		for _, c := range r {
			k, st := [2]string{c.ID, ReadingName(c)}, statementOf(c, dir)
			if first, ok := conflict(stated[k], st); ok {
				return nil, fmt.Errorf("claims: claim %s, reading %q: %s in %s, but %s in %s: two statements under one claim id and reading cannot be pooled into one verdict; give one of them its own id or reading (the claim's reading: key) and run it again",
					c.ID, k[1], first.text, first.dir, st.text, dir)
			}
			stated[k] = append(stated[k], st)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// claimStatement is what a claim row states (kind, bounds, rule and
// target; the source for a comparison with a published count, whose
// bounds are the publication's per board) and the directory it came from.
type claimStatement struct{ text, dir string }

func statementOf(c table.ClaimRow, dir string) claimStatement {
	what := fmt.Sprintf("%s [%.6g, %.6g]", c.Kind, c.ClaimedLo, c.ClaimedHi)
	if c.Kind == "published" {
		what = "compared with the published count of " + c.Source
	}
	return claimStatement{fmt.Sprintf("%s of %s on %s", what, c.Rule, c.Target), dir}
}

// conflict returns a statement of another directory than st's that
// differs from st, unless some directory states st too.
func conflict(seen []claimStatement, st claimStatement) (claimStatement, bool) {
	var other *claimStatement
	for i, s := range seen {
		if s.text == st.text {
			return claimStatement{}, false
		}
		if s.dir != st.dir && other == nil {
			other = &seen[i]
		}
	}
	if other == nil {
		return claimStatement{}, false
	}
	return *other, true
}

// WriteClaimsTable prints rows as a Markdown table, then the claim ×
// reading matrix (writeReadingMatrix).
func WriteClaimsTable(w io.Writer, rows []table.ClaimRow) {
	fmt.Fprintln(w, "| claim | reading | source | read as | measured | exact | decided by | verdict | p (Holm, family) | verdict (Holm) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range rows {
		exact := ExactText(c)
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s | **%s** | %s | **%s** |\n", c.ID, cell(ReadingName(c)), cell(ClaimSourceText(c)), reading(c), MeasuredText(c), exact, c.DecidedBy, c.Verdict, HolmText(c), c.VerdictHolm)
	}
	fmt.Fprintln(w)
	writeReadingMatrix(w, rows)
}

// ReadingsAlpha is the level a claim tried under several readings is
// decided at before the correction for its readings: 1 − 0.95, the
// confidence of the committed experiments.
const ReadingsAlpha = 0.05

// writeReadingMatrix prints, per claim (in order of first appearance), the
// verdict (after Holm) under each of its readings and a summary: under
// how many of the readings that are not fitted the claim holds. A fitted
// reading is listed but not counted: it was chosen because it reproduces
// the number.
//
// A claim tried under R readings has R chances to pass, so a reading
// counts as reproduced in the summary only where it holds at α/R
// (Bonferroni over the readings; atReadingsLevel): "reproduced under 1 of
// 6 readings" whose one passes at p = 0.039 is no success. A reading that
// passes at α alone but not at α/R is said so in its cell. Consistent
// (not rejected, no equivalence shown) is counted apart, never as
// reproduced.
func writeReadingMatrix(w io.Writer, rows []table.ClaimRow) {
	type cellKey struct{ id, reading string }
	var ids []string
	var readings = map[string][]string{}
	verdicts := map[cellKey][]string{}
	rowsOf := map[cellKey][]table.ClaimRow{}
	fitted := map[cellKey]bool{}
	published := map[string]bool{} // claims on a published statement: "reproduced under"
	for _, c := range rows {
		if _, ok := readings[c.ID]; !ok {
			ids = append(ids, c.ID)
		}
		k := cellKey{c.ID, ReadingName(c)}
		if _, ok := verdicts[k]; !ok {
			readings[c.ID] = append(readings[c.ID], k.reading)
		}
		verdicts[k] = append(verdicts[k], c.VerdictHolm)
		rowsOf[k] = append(rowsOf[k], c)
		fitted[k] = c.Fitted
		// An id-shaped source names a published statement: a built-in one,
		// or one of the run's own sources file (validation refused any other).
		if config.IsSourceID(c.Source) {
			published[c.ID] = true
		}
	}
	fmt.Fprintln(w, "| claim | verdict (Holm) under each reading | summary |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, id := range ids {
		counted := 0
		for _, r := range readings[id] {
			if !fitted[cellKey{id, r}] {
				counted++
			}
		}
		level := ReadingsAlpha / float64(max(counted, 1))
		var cells []string
		held, consistent, word := 0, 0, stats.Consistent
		if published[id] {
			word = stats.Reproduced
		}
		for _, r := range readings[id] {
			k := cellKey{id, r}
			v := summarizeVerdicts(verdicts[k])
			cell := fmt.Sprintf("%s: **%s**", r, v)
			holds := v == word
			if holds && counted > 1 && !fitted[k] {
				for _, row := range rowsOf[k] {
					if ok, why := atReadingsLevel(row, level); !ok {
						holds = false
						cell += fmt.Sprintf(" (at 5 %% alone; not at α/%d = %.2g: %s)", counted, level, why)
						break
					}
				}
			}
			cells = append(cells, cell)
			if fitted[k] {
				continue
			}
			switch {
			case holds:
				held++
			case v == stats.Consistent && word == stats.Reproduced:
				consistent++
			}
		}
		summary := fmt.Sprintf("%s under %d of %d readings", word, held, counted)
		if counted > 1 {
			summary += fmt.Sprintf(", each at α/%d (Bonferroni over the readings)", counted)
		}
		if consistent > 0 {
			summary += fmt.Sprintf("; consistent (not rejected, no equivalence shown) under %d", consistent)
		}
		if n := len(readings[id]) - counted; n > 0 {
			summary += fmt.Sprintf(" (%d fitted, not counted)", n)
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", id, cell(strings.Join(cells, "; ")), summary)
	}
}

// atReadingsLevel reports whether a row that holds at α still holds at
// level (α over the claim's readings), and if not why: a comparison with
// a published count needs its equivalence p-value at most level; a
// sampled verdict with a p-value its Holm p-value; one decided exactly
// or by a walk has no sampling error on our side and holds at any level;
// a sampled share of sizes, decided by Bonferroni intervals at α, was not
// decided at the stricter level and is not counted.
func atReadingsLevel(c table.ClaimRow, level float64) (bool, string) {
	switch {
	case c.Kind == "published":
		p := max(c.PEquivLower, c.PEquivUpper)
		return p <= level, "equivalence p = " + PText(p)
	case c.DecidedBy != "sample":
		return true, ""
	case !math.IsNaN(c.PHolm):
		return c.PHolm <= level, "p = " + PText(c.PHolm)
	}
	return false, "its intervals decided it at α, not at the stricter level"
}

// summarizeVerdicts is one verdict for a reading checked on several
// boards: the verdict where they agree, else how many boards gave each.
func summarizeVerdicts(vs []string) string {
	count := map[string]int{}
	var order []string
	for _, v := range vs {
		if count[v] == 0 {
			order = append(order, v)
		}
		count[v]++
	}
	if len(order) == 1 {
		return order[0]
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%s on %d", v, count[v])
	}
	return strings.Join(parts, ", ") + " boards"
}

// reading says how a claim was read: rule, target, boards and walks.
func reading(c table.ClaimRow) string {
	target, _, _ := strings.Cut(c.Target, "; sizes that disagree: ") // in the measured column
	target = strings.Replace(strings.Replace(target, "class:", "", 1), "square:", "", 1)
	boards := c.Board
	if c.Kind == "share" || c.Kind == "first-failure" || c.Kind == "failing-share" {
		boards = "n = " + c.Board
	}
	return fmt.Sprintf("`%s`, %s, %s, %d walks", c.Rule, cell(target), boards, c.Walks)
}

// cell keeps a value from breaking a Markdown table row.
func cell(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "|", "\\|") }
