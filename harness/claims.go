package harness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// claimsCommand is `experiment claims`; main.go lists it.
func claimsCommand() *command {
	return &command{
		name:  "claims",
		usage: "DIR...",
		short: "print the claims of result directories as one Markdown table",
		long: `Reads the claims table of each result directory and prints one Markdown
table of them all, in order: the claim, its reading (the name the
experiment gives it; "fitted" where it was chosen because it reproduces
the number), its source, how it was read (rule, target, boards and
walks), what was measured, the exact value where known, what decided the
verdict (exact, walk or sample), the verdict, and the verdicts adjusted by
Holm within each claim family. Then the claim × reading matrix: each
claim's verdict under each reading, and under how many of its readings
that are not fitted it holds (a claim read in several experiments is
gathered from all the directories). The
README's "Published claims" table is this command's output on the
literature runs, so it cannot drift from what the tool measures.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usagef("claims: name at least one result directory")
				}
				var rows []table.ClaimRow
				for _, dir := range args {
					m, err := results.ReadManifest(dir)
					if err != nil {
						return err
					}
					r, err := results.ReadOf(dir, results.ClaimsFile, m, table.ReadClaims)
					if err != nil {
						return err
					}
					rows = append(rows, r...)
				}
				writeClaimsTable(e.stdout, rows)
				return nil
			}
		},
	}
}

// writeClaimsTable prints rows as a Markdown table, then the claim ×
// reading matrix (writeReadingMatrix).
func writeClaimsTable(w io.Writer, rows []table.ClaimRow) {
	fmt.Fprintln(w, "| claim | reading | source | read as | measured | exact | decided by | verdict | p (Holm, family) | verdict (Holm) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range rows {
		exact := results.ExactText(c)
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s | **%s** | %s | **%s** |\n", c.ID, cell(results.ReadingName(c)), cell(results.ClaimSourceText(c)), reading(c), results.MeasuredText(c), exact, c.DecidedBy, c.Verdict, results.HolmText(c), c.VerdictHolm)
	}
	fmt.Fprintln(w)
	writeReadingMatrix(w, rows)
}

// writeReadingMatrix prints, per claim (in order of first appearance), the
// verdict (after Holm) under each of its readings and a summary: under
// how many of the readings that are not fitted the claim holds. A fitted
// reading is listed but not counted: it was chosen because it reproduces
// the number.
func writeReadingMatrix(w io.Writer, rows []table.ClaimRow) {
	type cellKey struct{ id, reading string }
	var ids []string
	var readings = map[string][]string{}
	verdicts := map[cellKey][]string{}
	fitted := map[cellKey]bool{}
	published := map[string]bool{} // claims on a published statement: "reproduced under"
	for _, c := range rows {
		if _, ok := readings[c.ID]; !ok {
			ids = append(ids, c.ID)
		}
		k := cellKey{c.ID, results.ReadingName(c)}
		if _, ok := verdicts[k]; !ok {
			readings[c.ID] = append(readings[c.ID], k.reading)
		}
		verdicts[k] = append(verdicts[k], c.VerdictHolm)
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
		var cells []string
		held, counted, word := 0, 0, stats.Consistent
		for _, r := range readings[id] {
			k := cellKey{id, r}
			v := summarizeVerdicts(verdicts[k])
			cells = append(cells, fmt.Sprintf("%s: **%s**", r, v))
			if published[id] {
				word = stats.Reproduced
			}
			if fitted[k] {
				continue
			}
			counted++
			if v == stats.Reproduced || v == stats.Consistent {
				held++
			}
		}
		summary := fmt.Sprintf("%s under %d of %d readings", word, held, counted)
		if n := len(readings[id]) - counted; n > 0 {
			summary += fmt.Sprintf(" (%d fitted, not counted)", n)
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", id, cell(strings.Join(cells, "; ")), summary)
	}
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
	target := strings.Replace(strings.Replace(c.Target, "class:", "", 1), "square:", "", 1)
	boards := c.Board
	if c.Kind == "share" || c.Kind == "first-failure" || c.Kind == "failing-share" {
		boards = "n = " + c.Board
	}
	return fmt.Sprintf("`%s`, %s, %s, %d walks", c.Rule, cell(target), boards, c.Walks)
}

// cell keeps a value from breaking a Markdown table row.
func cell(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "|", "\\|") }
