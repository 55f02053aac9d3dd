// Package tables reads the result tables that knightwalk's `experiment`
// tool writes, from Go programs in any module: the Parquet files of a result
// directory (squares, lengths, deadends, classes, boards, comparisons,
// claims, walks), its manifest.json, and the tables `experiment exact` and
// `experiment count` write on their own.
//
// Each table reads into a slice of one plain struct per row, one field per
// column (docs/tables.md in the module documents every column, its unit and
// its levels), with the file's key-value metadata: the run's experiment,
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
// The types are those the tool writes with (aliases of its internal
// package), so the rows read here are the rows it wrote, field for field.
package tables

import (
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// SchemaVersion is the version of the tables' layout this package reads,
// stored under every file's schema_version key. Files of another version
// are refused: run the experiment again with a tool of this version.
const SchemaVersion = table.SchemaVersion

// Row types, one per table. Their fields are the columns in order; see the
// fields' comments and docs/tables.md.
type (
	// SquareRow is a row of squares.parquet: everything measured for one
	// (board, rule, start square).
	SquareRow = table.SquareRow
	// LengthRow is a row of lengths.parquet: one non-zero bin of the
	// path-length histogram of one (board, rule, start square).
	LengthRow = table.LengthRow
	// DeadEndRow is a row of deadends.parquet: the failed walks of one
	// (board, rule, start square) that ended on one square.
	DeadEndRow = table.DeadEndRow
	// ClassRow is a row of classes.parquet: the start squares of one group
	// (a start class or a degree) on one board under one rule.
	ClassRow = table.ClassRow
	// BoardRow is a row of boards.parquet: every start square of one board
	// under one rule.
	BoardRow = table.BoardRow
	// ComparisonRow is a row of comparisons.parquet: the success rates of
	// two sides (two groups, or two rules) on one board.
	ComparisonRow = table.ComparisonRow
	// ClaimRow is a row of claims.parquet: the verdict on one claim.
	ClaimRow = table.ClaimRow
	// WalkRow is a row of walks.parquet, the per-walk table a run writes
	// when asked to.
	WalkRow = table.WalkRow
	// ExactRow is a row of the table `experiment exact --format parquet`
	// writes: one start square's exact values.
	ExactRow = table.ExactRow
	// StartKey is the key columns of an ExactRow, as in squares.
	StartKey = table.StartKey
	// CountRow is a row of the table `experiment count --format parquet`
	// writes: an exact number of knight's tours.
	CountRow = table.CountRow
	// RuleParams are the rule parameter columns every table with a rule
	// ends with (rule_spec, tie_break, max_steps, node_budget, move_order).
	RuleParams = table.RuleParams
	// NullInt64 is a nullable int64 column's value: null unless Valid.
	NullInt64 = table.NullInt64
)

// Metadata is a table file's key-value metadata: the run that wrote it
// (Experiment, Seed, ConfigHash, Config), the tool (ToolVersion), the
// binary and machine (Build) and the file's SchemaVersion; other keys (such
// as confidence, interval or command) are in Extra.
type Metadata = table.Metadata

// Manifest is a result directory's manifest.json: what ran, how, on what
// machine, with what binary, and what came out.
type Manifest = results.Manifest

// Table names, as stored under each file's table metadata key.
const (
	Squares     = table.Squares
	Lengths     = table.Lengths
	DeadEnds    = table.DeadEnds
	Classes     = table.Classes
	Boards      = table.Boards
	Comparisons = table.Comparisons
	Claims      = table.Claims
	Walks       = table.Walks
	Counts      = table.Counts
	Exact       = table.Exact
)

// The files of a result directory.
const (
	SquaresFile     = results.SquaresFile
	LengthsFile     = results.LengthsFile
	DeadEndsFile    = results.DeadEndsFile
	ClassesFile     = results.ClassesFile
	BoardsFile      = results.BoardsFile
	ComparisonsFile = results.ComparisonsFile
	ClaimsFile      = results.ClaimsFile
	WalksFile       = results.WalksFile // only when the run wrote the per-walk table
	ManifestFile    = results.ManifestFile
)

// ReadSquares reads a squares table file.
func ReadSquares(path string) ([]SquareRow, Metadata, error) { return table.Read[SquareRow](path) }

// ReadLengths reads a lengths table file.
func ReadLengths(path string) ([]LengthRow, Metadata, error) { return table.Read[LengthRow](path) }

// ReadDeadEnds reads a deadends table file.
func ReadDeadEnds(path string) ([]DeadEndRow, Metadata, error) { return table.Read[DeadEndRow](path) }

// ReadClasses reads a classes table file.
func ReadClasses(path string) ([]ClassRow, Metadata, error) { return table.Read[ClassRow](path) }

// ReadBoards reads a boards table file.
func ReadBoards(path string) ([]BoardRow, Metadata, error) { return table.Read[BoardRow](path) }

// ReadComparisons reads a comparisons table file.
func ReadComparisons(path string) ([]ComparisonRow, Metadata, error) {
	return table.Read[ComparisonRow](path)
}

// ReadClaims reads a claims table file.
func ReadClaims(path string) ([]ClaimRow, Metadata, error) { return table.Read[ClaimRow](path) }

// ReadWalks reads a whole walks table file into memory; a large run's
// holds millions of rows, so prefer ReadWalksWhere.
func ReadWalks(path string) ([]WalkRow, Metadata, error) { return table.Read[WalkRow](path) }

// ReadWalksWhere reads the rows of a walks table file for which keep is
// true, decoding a batch of rows at a time, so only those rows are held.
func ReadWalksWhere(path string, keep func(*WalkRow) bool) ([]WalkRow, Metadata, error) {
	return table.ReadWalksWhere(path, keep)
}

// ReadExact reads a table `experiment exact --format parquet` wrote.
func ReadExact(path string) ([]ExactRow, Metadata, error) { return table.Read[ExactRow](path) }

// ReadCounts reads a table `experiment count --format parquet` wrote.
func ReadCounts(path string) ([]CountRow, Metadata, error) { return table.Read[CountRow](path) }

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

// Squares reads the directory's squares table.
func (r *Result) Squares() ([]SquareRow, error) {
	return results.ReadOf(r.Dir, SquaresFile, r.Manifest, table.Read[SquareRow])
}

// Lengths reads the directory's lengths table.
func (r *Result) Lengths() ([]LengthRow, error) {
	return results.ReadOf(r.Dir, LengthsFile, r.Manifest, table.Read[LengthRow])
}

// DeadEnds reads the directory's deadends table.
func (r *Result) DeadEnds() ([]DeadEndRow, error) {
	return results.ReadOf(r.Dir, DeadEndsFile, r.Manifest, table.Read[DeadEndRow])
}

// Classes reads the directory's classes table.
func (r *Result) Classes() ([]ClassRow, error) {
	return results.ReadOf(r.Dir, ClassesFile, r.Manifest, table.Read[ClassRow])
}

// Boards reads the directory's boards table.
func (r *Result) Boards() ([]BoardRow, error) {
	return results.ReadOf(r.Dir, BoardsFile, r.Manifest, table.Read[BoardRow])
}

// Comparisons reads the directory's comparisons table.
func (r *Result) Comparisons() ([]ComparisonRow, error) {
	return results.ReadOf(r.Dir, ComparisonsFile, r.Manifest, table.Read[ComparisonRow])
}

// Claims reads the directory's claims table.
func (r *Result) Claims() ([]ClaimRow, error) {
	return results.ReadOf(r.Dir, ClaimsFile, r.Manifest, table.Read[ClaimRow])
}

// Walks reads the rows of the directory's per-walk table for which keep is
// true (every row when keep is nil). A run writes the table only when asked
// to (Manifest.Tables lists it then); otherwise the error says the file is
// missing.
func (r *Result) Walks(keep func(*WalkRow) bool) ([]WalkRow, error) {
	if keep == nil {
		keep = func(*WalkRow) bool { return true }
	}
	return results.ReadOf(r.Dir, WalksFile, r.Manifest, func(path string) ([]WalkRow, Metadata, error) {
		return table.ReadWalksWhere(path, keep)
	})
}
