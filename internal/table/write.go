package table

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// batchRows is how many rows the slice writers turn into one Arrow record
// (and one Parquet row group) at a time, bounding the copy they make. A
// variable only so that the fast tests cross batch boundaries with a few
// rows (TestRoundTrip); nothing else sets it.
var batchRows = 1 << 16

// WriteSquares writes the squares table to path.
func WriteSquares(path string, rows []SquareRow, md Metadata) error {
	return write(path, squaresSpec, rows, md)
}

// WriteLengths writes the lengths table to path.
func WriteLengths(path string, rows []LengthRow, md Metadata) error {
	return write(path, lengthsSpec, rows, md)
}

// WriteDeadEnds writes the deadends table to path.
func WriteDeadEnds(path string, rows []DeadEndRow, md Metadata) error {
	return write(path, deadEndsSpec, rows, md)
}

// WriteClasses writes the classes table to path.
func WriteClasses(path string, rows []ClassRow, md Metadata) error {
	return write(path, classesSpec, rows, md)
}

// WriteBoards writes the boards table to path.
func WriteBoards(path string, rows []BoardRow, md Metadata) error {
	return write(path, boardsSpec, rows, md)
}

// WriteDesigns writes the designs table to path.
func WriteDesigns(path string, rows []DesignRow, md Metadata) error {
	return write(path, designsSpec, rows, md)
}

// WriteSieve writes the sieve table to path.
func WriteSieve(path string, rows []SieveRow, md Metadata) error {
	return write(path, sieveSpec, rows, md)
}

// WriteComparisons writes the comparisons table to path.
func WriteComparisons(path string, rows []ComparisonRow, md Metadata) error {
	return write(path, comparisonsSpec, rows, md)
}

// WriteClaims writes the claims table to path.
func WriteClaims(path string, rows []ClaimRow, md Metadata) error {
	return write(path, claimsSpec, rows, md)
}

// WriteCounts writes the counts table to path.
func WriteCounts(path string, rows []CountRow, md Metadata) error {
	return write(path, countsSpec, rows, md)
}

// WriteTourEstimates writes the tour_estimates table to path.
func WriteTourEstimates(path string, rows []TourEstimateRow, md Metadata) error {
	return write(path, tourEstimatesSpec, rows, md)
}

func write[R any](path string, s *spec[R], rows []R, md Metadata) error {
	// All levels up front, so every row group carries the same dictionaries
	// and the schema's field metadata lists them in full.
	w, err := create(path, s, md, rows)
	if err != nil {
		return err
	}
	for len(rows) > 0 {
		n := min(len(rows), batchRows)
		if err := w.writeBatch(rows[:n]); err != nil {
			w.abort()
			return err
		}
		rows = rows[n:]
	}
	return w.commit()
}

// fileWriter writes one table to a temporary file beside path and renames it
// to path on commit. Each writeBatch becomes one row group, written through
// to the file, so memory is bounded by the batch size.
type fileWriter[R any] struct {
	spec *spec[R]
	path string
	tmp  *os.File
	bw   *bufio.Writer
	pw   *pqarrow.FileWriter
	// schema is spec's schema with each categorical column's levels in its
	// field metadata; levels holds them (nil for the other columns).
	schema *arrow.Schema
	levels []*levelSet
	done   bool
	err    error // first write error; the file is unusable after one
}

// writeOnly hides the file's Close from pqarrow, which would otherwise close
// it before we can flush and sync.
type writeOnly struct{ io.Writer }

// create starts writing table s to path. The levels of its categorical
// columns are fixed here, from md.Levels, the columns' fixed vocabularies
// and the values in rows (nil for a stream), and stored in the schema: a
// later row with another value is refused.
func create[R any](path string, s *spec[R], md Metadata, rows []R) (*fileWriter[R], error) {
	kv, err := md.pairs(s.name)
	if err != nil {
		return nil, fmt.Errorf("table: %s: %w", path, err)
	}
	levels := make([]*levelSet, len(s.cols))
	for i, c := range s.cols {
		if c.kind == kDict {
			levels[i] = newLevelSet(c.order, md.Levels)
			levels[i].add(c.values(rows))
		}
	}
	schema, levelsKV, err := s.schemaWith(levels)
	if err != nil {
		return nil, fmt.Errorf("table: %s: %w", path, err)
	}
	kv = append(kv, levelsKV)
	// The key-value metadata is the Arrow schema's metadata too, which the
	// writer stores as the file's key-value pairs and inside ARROW:schema:
	// Arrow readers (pyarrow's read_table, polars) take a file's schema
	// metadata from ARROW:schema, and would find none there otherwise.
	keys, vals := make([]string, len(kv)), make([]string, len(kv))
	for i, p := range kv {
		keys[i], vals[i] = p[0], p[1]
	}
	schemaMD := arrow.NewMetadata(keys, vals)
	schema = arrow.NewSchema(schema.Fields(), &schemaMD)
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	w := &fileWriter[R]{spec: s, path: path, tmp: tmp, bw: bufio.NewWriterSize(tmp, 1<<20), schema: schema, levels: levels}
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(1 << 30), // row groups are ours to cut
		// A column chunk whose dictionary outgrows the limit falls back to
		// plain encoding, and the writer then lists the chunk's two data
		// encodings in the footer in Go map order: the same rows gave
		// files differing in 4 bytes from run to run (the rule_spec of a
		// design's 40,320 rules in a 65,536-row group). No chunk reaches
		// this limit (a row group is at most batchRows rows, or the walks
		// table's row_group), so none falls back; chunks whose dictionary
		// stayed under the old 1 MiB limit are written as before.
		parquet.WithDictionaryPageSizeLimit(1 << 40),
	}
	for _, c := range s.plain {
		opts = append(opts, parquet.WithDictionaryFor(c, false))
	}
	props := parquet.NewWriterProperties(opts...)
	w.pw, err = pqarrow.NewFileWriter(schema, writeOnly{w.bw}, props,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		w.abort()
		return nil, fmt.Errorf("table: %s: %w", path, err)
	}
	return w, nil
}

// writeBatch writes rows as one row group.
func (w *fileWriter[R]) writeBatch(rows []R) error {
	if w.done {
		return fmt.Errorf("table: %s: write after close", w.path)
	}
	if w.err != nil {
		return w.err
	}
	if len(rows) == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(w.spec.cols))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i := range w.spec.cols {
		c := &w.spec.cols[i]
		a, err := c.build(memory.DefaultAllocator, rows, w.levels[i])
		if err != nil {
			w.err = fmt.Errorf("table: %s: %s: %w", w.path, w.spec.name, err)
			return w.err
		}
		cols[i] = a
	}
	rec := array.NewRecordBatch(w.schema, cols, int64(len(rows)))
	defer rec.Release()
	if err := w.pw.Write(rec); err != nil {
		w.err = fmt.Errorf("table: %s: %w", w.path, err)
		return w.err
	}
	return nil
}

// commit finishes the file and renames it to its final name. On error the
// temporary file is removed and nothing appears under the final name.
func (w *fileWriter[R]) commit() error {
	if w.done {
		return fmt.Errorf("table: %s: already closed", w.path)
	}
	if w.err != nil {
		w.abort()
		return w.err
	}
	err := w.pw.Close()
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil {
		err = w.tmp.Sync()
	}
	if err == nil {
		err = w.tmp.Chmod(0o644)
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.tmp.Name(), w.path)
	}
	w.done = true
	if err != nil {
		os.Remove(w.tmp.Name())
		return fmt.Errorf("table: %s: %w", w.path, err)
	}
	syncDir(filepath.Dir(w.path))
	return nil
}

// abort discards everything written; it is a no-op after commit or abort.
func (w *fileWriter[R]) abort() {
	if w.done {
		return
	}
	w.done = true
	if w.pw != nil {
		// Closing writes a footer into the buffer; we only want it to let go
		// of its resources, and the file is removed below.
		w.pw.Close()
	}
	w.tmp.Close()
	os.Remove(w.tmp.Name())
}

// syncDir makes a rename durable. It is best effort: not every system can
// sync a directory, and the file itself is already synced.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
