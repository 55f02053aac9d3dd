package table

import (
	"context"
	"errors"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"os"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// readBatchRows is how many rows are decoded at a time.
const readBatchRows = 1 << 16

// Row is the row type of one of the tables: Read[R] reads the table of
// rows R.
type Row interface {
	SquareRow | LengthRow | DeadEndRow | ClassRow | BoardRow | ComparisonRow |
		ClaimRow | WalkRow | ExactRow | CountRow | DesignRow | SieveRow | TourEstimateRow
}

// Read reads a table file of rows R into memory, refusing a file that
// holds another table or another schema version (ReadWalksWhere reads
// part of a large walks table).
func Read[R Row](path string) ([]R, Metadata, error) { return read(path, specOf[R]()) }

// specOf is the spec of the table of rows R (tableList).
func specOf[R Row]() *spec[R] { return lookupSpec[R]() }

// ReadMetadata returns the metadata of any table file without reading its rows.
func ReadMetadata(path string) (Metadata, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return Metadata{}, fmt.Errorf("table: %s: %w", path, err)
	}
	defer rdr.Close()
	kv := rdr.MetaData().KeyValueMetadata()
	md, err := parseMetadata(kv.Keys(), kv.Values(), "")
	if err != nil {
		return Metadata{}, fmt.Errorf("table: %s: %w", path, err)
	}
	return md, nil
}

// checkVersion refuses a file of another schema version: its columns may
// have other types or meanings, and reading it would crash or misread.
// versioned says whether the file has the schema_version key (files of
// version 1 had none).
func checkVersion(md Metadata, versioned bool) error {
	if md.SchemaVersion == SchemaVersion {
		return nil
	}
	how := ""
	if !versioned {
		how = " (no schema_version key)"
	}
	return fmt.Errorf("schema version %d%s, but this tool reads version %d: "+
		"run the experiment again with this tool to rewrite its tables", md.SchemaVersion, how, SchemaVersion)
}

// read reads a whole table. Columns are matched by name, so files written by
// other tools (pandas, polars, DuckDB) with the same columns read too; extra
// columns are ignored, and a missing column, a wrong type or a null is an
// error.
func read[R any](path string, s *spec[R]) ([]R, Metadata, error) {
	rows, md, err := readFile(path, s)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("table: %s: %w", path, err)
	}
	return rows, md, nil
}

// errDamaged prefixes what the Parquet library says of a file it cannot
// decode, which alone ("illegal base64 data at input byte 386") does not
// tell a user what is wrong.
var errDamaged = errors.New("damaged, cut short or not a Parquet table")

func readFile[R any](path string, s *spec[R]) ([]R, Metadata, error) {
	return readFiltered(path, s, nil)
}

// ReadWalksWhere reads the rows of a walks table for which keep is true,
// decoding a batch of rows at a time: the per-walk table of a large run
// holds millions of rows, and a figure that needs a few squares' walks
// must not hold them all (the convergence figure once took 2.55 GB).
func ReadWalksWhere(path string, keep func(*WalkRow) bool) ([]WalkRow, Metadata, error) {
	rows, md, err := readFiltered(path, walksSpec, keep)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("table: %s: %w", path, err)
	}
	return rows, md, nil
}

// EachWalk calls visit with each row of a walks table in order, decoding
// a batch of rows at a time, until visit returns false; the row is valid
// only during the call. It returns the file's metadata.
func EachWalk(path string, visit func(*WalkRow) bool) (Metadata, error) {
	stopped := false
	_, md, err := readFiltered(path, walksSpec, func(r *WalkRow) bool {
		if !stopped && !visit(r) {
			stopped = true
		}
		return false
	}, func() bool { return stopped })
	if err != nil {
		return Metadata{}, fmt.Errorf("table: %s: %w", path, err)
	}
	return md, nil
}

// readFiltered reads the rows of a table for which keep is true (every
// row where keep is nil). done, when not nil, is asked after each batch:
// true stops the reading there (what was read is returned, no error).
func readFiltered[R any](path string, s *spec[R], keep func(*R) bool, done ...func() bool) ([]R, Metadata, error) {
	f, err := safeio.OpenRegular(path)
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return nil, Metadata{}, pe.Err // read names the path
	} else if err != nil {
		return nil, Metadata{}, err
	}
	defer f.Close()
	rdr, err := file.NewParquetReader(f)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("%w: %w", errDamaged, err)
	}
	defer rdr.Close()

	meta := rdr.MetaData()
	kv := meta.KeyValueMetadata()
	md, err := parseMetadata(kv.Keys(), kv.Values(), s.name)
	if err != nil {
		return nil, Metadata{}, err
	}

	leaves := make([]int, len(s.cols))
	for i, c := range s.cols {
		leaves[i] = meta.Schema.ColumnIndexByName(c.name)
		if leaves[i] < 0 {
			return nil, Metadata{}, fmt.Errorf("%s table has no column %q", s.name, c.name)
		}
	}

	var rows []R
	if keep == nil {
		rows = make([]R, meta.NumRows)
	}
	if meta.NumRows == 0 {
		return rows, md, nil
	}

	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("%w: %w", errDamaged, err)
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		return nil, Metadata{}, fmt.Errorf("%w: %w", errDamaged, err)
	}
	defer rr.Release()

	sc := rr.Schema()
	idx := make([]int, len(s.cols))
	for i, c := range s.cols {
		fi := sc.FieldIndices(c.name)
		if len(fi) != 1 {
			return nil, Metadata{}, fmt.Errorf("%s table: column %q found %d times", s.name, c.name, len(fi))
		}
		if t := sc.Field(fi[0]).Type; !c.kind.accepts(t) {
			return nil, Metadata{}, fmt.Errorf("%s table: column %q has type %s, want %s", s.name, c.name, t, c.kind)
		}
		idx[i] = fi[0]
	}

	off, total := 0, int(meta.NumRows)
	var batch []R
	for rr.Next() {
		rec := rr.RecordBatch()
		n := int(rec.NumRows())
		if off+n > total {
			return nil, Metadata{}, fmt.Errorf("%s table: more rows than the footer's %d", s.name, total)
		}
		dst := rows[min(off, len(rows)):min(off+n, len(rows))]
		if keep != nil { // decode into a batch buffer, keep what is asked for
			if cap(batch) < n {
				batch = make([]R, n)
			}
			dst = batch[:n]
			clear(dst)
		}
		for i := range s.cols {
			a := rec.Column(idx[i])
			if err := s.cols[i].checkNulls(a); err != nil {
				return nil, Metadata{}, fmt.Errorf("%s table: %w", s.name, err)
			}
			s.cols[i].read(a, dst)
		}
		if keep != nil {
			for j := range dst {
				if keep(&dst[j]) {
					rows = append(rows, dst[j])
				}
			}
		}
		off += n
		if len(done) > 0 && done[0]() {
			return rows, md, nil
		}
	}
	if err := rr.Err(); err != nil {
		return nil, Metadata{}, fmt.Errorf("%w: %w", errDamaged, err)
	}
	if off != total {
		return nil, Metadata{}, fmt.Errorf("%s table: read %d rows, footer says %d", s.name, off, total)
	}
	return rows, md, nil
}
