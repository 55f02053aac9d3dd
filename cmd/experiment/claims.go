package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"knightwalk/internal/results"
	"knightwalk/internal/table"
)

// claimsCommand is `experiment claims`; main.go lists it.
func claimsCommand() *command {
	return &command{
		name:  "claims",
		usage: "DIR...",
		short: "print the claims of result directories as one Markdown table",
		long: `Reads the claims table of each result directory and prints one Markdown
table of them all, in order: the claim, its source, how it was read (rule,
target, boards and walks), what was measured, the exact value where known,
what decided the verdict (exact, walk or sample), the verdict, and the
sampled verdicts adjusted by Holm within each claim family. The
README's "Published claims" table is this command's output on the
literature runs, so it cannot drift from what the tool measures.`,
		flags: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usagef("claims: name at least one result directory")
				}
				var rows []table.ClaimRow
				for _, dir := range args {
					if _, err := results.ReadManifest(dir); err != nil {
						return err
					}
					r, _, err := table.ReadClaims(filepath.Join(dir, results.ClaimsFile))
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

// writeClaimsTable prints rows as a Markdown table.
func writeClaimsTable(w io.Writer, rows []table.ClaimRow) {
	fmt.Fprintln(w, "| claim | source | reading | measured | exact | decided by | verdict | p (Holm, family) | verdict (Holm) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, c := range rows {
		exact := ""
		if !math.IsNaN(c.Exact) {
			exact = fmt.Sprintf("%.4f%%", 100*c.Exact)
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | **%s** | %s | **%s** |\n", c.ID, cell(results.SourceText(c.Source)), reading(c), results.MeasuredText(c), exact, c.DecidedBy, c.Verdict, results.HolmText(c), c.VerdictHolm)
	}
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
