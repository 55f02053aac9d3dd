// Package tables reads the result tables that knightwalk's `experiment`
// tool writes, from Go programs in any module: every table of a result
// directory (squares, lengths, deadends, classes, boards, comparisons,
// claims, walks, designs, sieve), its manifest.json, and the tables the
// commands write on their own (`experiment exact`'s exact,
// `experiment count`'s counts and, with --method sample, tour_estimates).
//
// Each table reads into a slice of one plain struct per row, one field per
// column in the column's order, each field's comment the column's meaning
// and unit (docs/tables.md in the module documents every column and its
// levels), with the file's key-value metadata: the run's experiment,
// seed and config hash, the tool version, and the provenance of the binary
// that wrote it (Metadata.Build: commit, Go version, and for a binary built
// in another module the knightwalk module it embeds). A null is NaN in a
// float64 field, "" in a string field and an invalid NullInt64.
//
// Open reads a result directory's manifest and then its tables, refusing a
// table whose metadata names another run than the manifest (a file copied
// in from another result). The Read functions read one file by its path,
// wherever it lies; they check the file's schema version and table name.
// Columns are matched by name, so a table rewritten by pandas, polars or
// DuckDB with the same columns reads too.
//
// The row types, readers and table names (rows.go) are generated from the
// tool's one list of tables and docs/tables.md, so every table the tool
// writes has its reader here, field for field the row it wrote.
package tables

import (
	"iter"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// SchemaVersion is the version of the tables' layout this package reads,
// stored under every file's schema_version key. Files of another version
// are refused: run the experiment again with a tool of this version.
const SchemaVersion = table.SchemaVersion

// Metadata is a table file's key-value metadata: the run that wrote it
// (Experiment, Seed, ConfigHash, Config), the tool (ToolVersion), the
// binary and machine (Build) and the file's SchemaVersion; other keys (such
// as confidence, interval or command) are in Extra.
type Metadata = table.Metadata

// Manifest is a result directory's manifest.json: what ran, how, on what
// machine, with what binary, and what came out.
type Manifest = results.Manifest

// ManifestFile is a result directory's manifest.
const ManifestFile = results.ManifestFile

// ReadMetadata reads the metadata of any table file without its rows and
// without checking its schema version or table name (Metadata.SchemaVersion
// says which version wrote it; the table's name is not returned).
func ReadMetadata(path string) (Metadata, error) { return table.ReadMetadata(path) }

// ReadManifest reads a result directory's manifest.json.
func ReadManifest(dir string) (*Manifest, error) { return results.ReadManifest(dir) }

// Result is a result directory opened by Open: its manifest, and methods
// that read its tables, each refused unless its metadata names the run the
// manifest describes (the same experiment and config hash).
type Result struct {
	Dir      string
	Manifest *Manifest
}

// Open opens the result directory dir (results/<experiment> by default, or
// a run's --out) by reading its manifest.json.
func Open(dir string) (*Result, error) {
	m, err := results.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return &Result{Dir: dir, Manifest: m}, nil
}

// Walks reads the rows of the directory's per-walk table for which keep is
// true (every row when keep is nil). A run writes the table only when asked
// to (Manifest.Tables lists it then); otherwise the error says the file is
// missing.
func (r *Result) Walks(keep func(*WalkRow) bool) ([]WalkRow, error) {
	if keep == nil {
		keep = func(*WalkRow) bool { return true }
	}
	rows, err := results.ReadOf(r.Dir, WalksFile, r.Manifest, func(path string) ([]table.WalkRow, Metadata, error) {
		return table.ReadWalksWhere(path, internalKeep(keep))
	})
	return convert(rows, walkRowOf), err
}

// ReadWalksWhere reads the rows of a walks table file for which keep is
// true, decoding a batch of rows at a time, so only those rows are held.
func ReadWalksWhere(path string, keep func(*WalkRow) bool) ([]WalkRow, Metadata, error) {
	return readAs(path, func(path string) ([]table.WalkRow, Metadata, error) {
		return table.ReadWalksWhere(path, internalKeep(keep))
	}, walkRowOf)
}

// WalkRows iterates over the rows of the walks table at path, in the file's
// order, decoding a batch of rows at a time: a run's per-walk table can
// hold millions of rows, and the loop holds one batch, not the table.
// Breaking out of the loop stops the reading. An error (the file, its
// schema version or table name, a damaged batch) is yielded once, with a
// zero row, and ends the loop:
//
//	for w, err := range tables.WalkRows(path) {
//		if err != nil {
//			return err
//		}
//		lengths = append(lengths, float64(w.Length))
//	}
func WalkRows(path string) iter.Seq2[WalkRow, error] {
	return func(yield func(WalkRow, error) bool) {
		more := true
		_, err := table.EachWalk(path, func(w *table.WalkRow) bool {
			more = yield(walkRowOf(w), nil)
			return more
		})
		if err != nil && more {
			yield(WalkRow{}, err)
		}
	}
}

// Column is one field of every row, in the rows' order: a column as a
// slice, as gonum's stat functions and plotters take one, e.g.
//
//	rates := tables.Column(squares, func(r *tables.SquareRow) float64 { return r.SuccessRate })
//	mean, std := stat.MeanStdDev(rates, nil)
func Column[R, T any](rows []R, field func(*R) T) []T {
	out := make([]T, len(rows))
	for i := range rows {
		out[i] = field(&rows[i])
	}
	return out
}

// internalKeep is keep on the internal rows.
func internalKeep(keep func(*WalkRow) bool) func(*table.WalkRow) bool {
	return func(w *table.WalkRow) bool {
		r := walkRowOf(w)
		return keep(&r)
	}
}

// readAs reads a table file with read and converts its rows with of.
func readAs[R, T any](path string, read func(string) ([]R, Metadata, error), of func(*R) T) ([]T, Metadata, error) {
	rows, md, err := read(path)
	if err != nil {
		return nil, Metadata{}, err
	}
	return convert(rows, of), md, nil
}

// readOf reads the table file of r's directory with read, refusing it
// unless its metadata names r's run, and converts its rows with of.
func readOf[R, T any](r *Result, file string, read func(string) ([]R, Metadata, error), of func(*R) T) ([]T, error) {
	rows, err := results.ReadOf(r.Dir, file, r.Manifest, read)
	return convert(rows, of), err
}

// convert converts the internal rows to the public ones; nil stays nil.
func convert[R, T any](rows []R, of func(*R) T) []T {
	if rows == nil {
		return nil
	}
	out := make([]T, len(rows))
	for i := range rows {
		out[i] = of(&rows[i])
	}
	return out
}
