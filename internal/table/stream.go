package table

import "fmt"

// RowWriter streams the rows of one summary table to a file, a row group
// of the same batchRows rows at a time as the slice writers (WriteSquares,
// …) cut, so a table streamed row by row is the same file, byte for byte,
// as the one written from all its rows at once, provided every value of
// its categorical columns is among the levels md.Levels and the columns'
// fixed vocabularies give (the run's boards, rules and tie-breaks: all a
// run's rows use); a row with another value is refused. Its memory does
// not grow with the rows. It is not safe for concurrent use.
type RowWriter[R any] struct {
	w   *fileWriter[R]
	buf []R
}

// NewSquaresWriter starts streaming the squares table to path.
func NewSquaresWriter(path string, md Metadata) (*RowWriter[SquareRow], error) {
	return newRowWriter(path, squaresSpec, md)
}

// NewLengthsWriter starts streaming the lengths table to path.
func NewLengthsWriter(path string, md Metadata) (*RowWriter[LengthRow], error) {
	return newRowWriter(path, lengthsSpec, md)
}

// NewDeadEndsWriter starts streaming the deadends table to path.
func NewDeadEndsWriter(path string, md Metadata) (*RowWriter[DeadEndRow], error) {
	return newRowWriter(path, deadEndsSpec, md)
}

func newRowWriter[R any](path string, s *spec[R], md Metadata) (*RowWriter[R], error) {
	w, err := create(path, s, md, nil)
	if err != nil {
		return nil, err
	}
	return &RowWriter[R]{w: w, buf: make([]R, 0, batchRows)}, nil
}

// Write adds rows, writing a row group whenever batchRows are buffered.
func (rw *RowWriter[R]) Write(rows ...R) error {
	for len(rows) > 0 {
		if rw.w.done {
			return fmt.Errorf("table: %s: write after close", rw.w.path)
		}
		n := min(len(rows), cap(rw.buf)-len(rw.buf))
		rw.buf = append(rw.buf, rows[:n]...)
		rows = rows[n:]
		if len(rw.buf) == cap(rw.buf) {
			if err := rw.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (rw *RowWriter[R]) flush() error {
	err := rw.w.writeBatch(rw.buf)
	clear(rw.buf) // drop string references
	rw.buf = rw.buf[:0]
	return err
}

// Close writes the last row group and the footer and renames the file
// into place. After an error nothing is left under either name.
func (rw *RowWriter[R]) Close() error {
	if rw.w.done {
		return fmt.Errorf("table: %s: already closed", rw.w.path)
	}
	if err := rw.flush(); err != nil {
		rw.w.abort()
		return err
	}
	rw.buf = nil
	return rw.w.commit()
}

// Abort discards the file; after Close it does nothing.
func (rw *RowWriter[R]) Abort() {
	rw.w.abort()
	rw.buf = nil
}
