package table

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// Exact is the name of the table `experiment exact --format parquet` writes.
const Exact = "exact"

// StartKey is the key of a row about one start square under one rule on
// one board, with the same columns, types and levels as the result tables
// (squares): a table of exact values keyed by it joins those tables on
// board, rule and start with no cast. Tables written outside an experiment
// (exact values, tour counts) embed it.
type StartKey struct {
	Board      string // "8x8"
	Rows       int32
	Cols       int32
	Rule       string // "warnsdorff/random"
	Start      string // "a1"
	StartRow   int32
	StartCol   int32
	StartClass string // corner, edge, centre or interior
}

// startKeyCols are the columns of a StartKey, in the squares table's order.
func startKeyCols[R any](k func(*R) *StartKey) []column[R] {
	return []column[R]{
		dictCol("board", boardOrder, func(r *R) *string { return &k(r).Board }),
		i32Col("rows", func(r *R) *int32 { return &k(r).Rows }),
		i32Col("cols", func(r *R) *int32 { return &k(r).Cols }),
		dictCol("rule", ruleOrder, func(r *R) *string { return &k(r).Rule }),
		strCol("start", func(r *R) *string { return &k(r).Start }),
		i32Col("start_row", func(r *R) *int32 { return &k(r).StartRow }),
		i32Col("start_col", func(r *R) *int32 { return &k(r).StartCol }),
		dictCol("start_class", classOrder, func(r *R) *string { return &k(r).StartClass }),
	}
}

// ExactRow is one start square's exact values from enumerating every
// branch of the walk (exact.Walks).
type ExactRow struct {
	Key        StartKey
	PSuccess   float64
	PClosed    float64
	PStopped   float64
	MeanLength float64
	MeanTies   float64
	Nodes      int64   // states expanded
	TreeNodes  float64 // nodes of the unmerged branch tree (may exceed int64)
	Params     RuleParams
	// PLower and PUpper certify P(success) (exact.Result.PLower, PUpper):
	// equal to PSuccess where the enumeration is exact; where states were
	// dropped (Dropped of them), the other values are those of the walks
	// followed.
	PLower, PUpper float64
	Dropped        int64
}

// WriteExact writes the exact table to path.
func WriteExact(path string, rows []ExactRow, md Metadata) error {
	return write(path, exactSpec, rows, md)
}

// CheckReplace says whether a command may write table name to path: yes
// when nothing is there; with force, also over a file that holds that
// table as this package wrote it; never over anything else (a user's file
// the tool did not write is not replaced).
func CheckReplace(path, name string, force bool) error {
	if err := CheckWritableDir(path); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !force {
		return fmt.Errorf("%s exists; --force replaces only a %q table that experiment wrote", path, name)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s exists and is not a file; not replaced", path)
	}
	if got, err := tableIn(path); err != nil || got != name {
		return fmt.Errorf("%s exists and is not a %q table that experiment wrote; not replaced", path, name)
	}
	return nil
}

// CheckWritableDir reports, before any work, why a file could not be
// written at path: its directory is missing, not a directory, or refuses
// new files (probed with a temporary file, removed at once). Commands that
// compute for minutes check --out with it first, instead of failing at
// the end on a temporary file's name.
func CheckWritableDir(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--out %s: directory %s does not exist; create it first", path, dir)
	case err != nil:
		return fmt.Errorf("--out %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("--out %s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, ".experiment-probe-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot create files in %s: %w", path, dir, errors.Unwrap(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// tableIn returns the table name stored in a Parquet file's metadata.
func tableIn(path string) (string, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return "", err
	}
	defer rdr.Close()
	if v := rdr.MetaData().KeyValueMetadata().FindValue(keyTable); v != nil {
		return *v, nil
	}
	return "", fmt.Errorf("%s: no %q key", path, keyTable)
}
