// Package notebooks holds the Python and R notebooks that analyse the
// Parquet result tables (python/analysis.ipynb with its paired
// python/analysis.py, and r/knightwalk.Rmd); see README.md here.
//
// It has no Go code of its own: its test checks that every table and column
// the notebooks name is documented in docs/tables.md, and that the .ipynb
// and its paired .py hold the same cells.
package notebooks
