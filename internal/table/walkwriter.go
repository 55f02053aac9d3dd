package table

import "fmt"

// DefaultWalkRowGroupRows is the row-group size NewWalkWriter uses when asked
// for zero or fewer: about 2 MiB of Arrow data per group for typical rows.
const DefaultWalkRowGroupRows = 1 << 16

// WalkWriter streams the walks table to a file. It buffers at most
// rowGroupRows rows and writes each full buffer as one row group, so its
// memory does not grow with the number of walks.
//
// The file appears under its final name only when Close succeeds; until then
// it is a hidden temporary file in the same directory, which Abort (or a
// failed Close) removes. A WalkWriter is not safe for concurrent use.
type WalkWriter struct {
	w   *fileWriter[WalkRow]
	buf []WalkRow
	n   uint64 // rows accepted
}

// NewWalkWriter starts writing the walks table to path. rowGroupRows is the
// number of rows per row group (DefaultWalkRowGroupRows if ≤ 0). The levels
// of its categorical columns are fixed now, from md.Levels: a row with a
// board, rule, tie-break or experiment not listed there is refused.
func NewWalkWriter(path string, md Metadata, rowGroupRows int) (*WalkWriter, error) {
	if rowGroupRows <= 0 {
		rowGroupRows = DefaultWalkRowGroupRows
	}
	w, err := create(path, walksSpec, md, nil)
	if err != nil {
		return nil, err
	}
	return &WalkWriter{w: w, buf: make([]WalkRow, 0, rowGroupRows)}, nil
}

// Write adds one row, flushing a row group when the buffer is full.
func (ww *WalkWriter) Write(r WalkRow) error {
	if ww.w.done {
		return fmt.Errorf("table: %s: write after close", ww.w.path)
	}
	ww.buf = append(ww.buf, r)
	ww.n++
	if len(ww.buf) == cap(ww.buf) {
		return ww.flush()
	}
	return nil
}

func (ww *WalkWriter) flush() error {
	err := ww.w.writeBatch(ww.buf)
	clear(ww.buf) // drop string references
	ww.buf = ww.buf[:0]
	return err
}

// Close writes the last row group and the footer and renames the file into
// place. After an error nothing is left under either name.
func (ww *WalkWriter) Close() error {
	if ww.w.done {
		return fmt.Errorf("table: %s: already closed", ww.w.path)
	}
	if err := ww.flush(); err != nil {
		ww.w.abort()
		return err
	}
	ww.buf = nil
	return ww.w.commit()
}

// Abort discards the file. It is safe to call after Close (it then does
// nothing), so `defer ww.Abort()` is the usual pattern.
func (ww *WalkWriter) Abort() {
	ww.w.abort()
	ww.buf = nil
}
