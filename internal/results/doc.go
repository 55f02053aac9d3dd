// Package results turns the tallies of a complete run into what a result
// directory holds: the summary table rows, report.md, claims.tex and
// manifest.json, under the file names listed here. internal/figures reads
// result directories through this package, so the layout is declared once.
package results
