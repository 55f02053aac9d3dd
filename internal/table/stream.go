package table

import "fmt"

// RowWriter streams the rows of one summary table to a file, a row group
// of the same batchRows rows at a time as the slice writers (WriteSquares,
// …) cut, so a table streamed row by row is the same file, byte for byte,
// as the one written from all its rows at once, provided every value of
// its categorical columns is among the levels md.Levels and the columns'
// fixed vocabularies give (the run's boards, rules and tie-breaks: all a
// run's rows use); a row with another value is refused. Its memory does
// not grow with the rows: it holds at most two row groups, one being
// filled while the other is encoded. It is not safe for concurrent use.
type RowWriter[R any] struct {
	w   *fileWriter[R]
	buf []R
	// spare is the buffer the row group being encoded was in, free once
	// busy says so: a row group is encoded and written on a goroutine of
	// its own while the next is filled, one at a time, in order.
	spare []R
	busy  chan error // nil when no row group is being written
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

// flush starts writing the buffered rows as a row group, once the one
// before is written, and returns that one's error.
func (rw *RowWriter[R]) flush() error {
	if err := rw.wait(); err != nil {
		return err
	}
	if len(rw.buf) == 0 {
		return nil
	}
	full := rw.buf
	if rw.spare == nil {
		rw.spare = make([]R, 0, cap(full))
	}
	rw.buf, rw.spare = rw.spare, full
	rw.busy = make(chan error, 1)
	go func(done chan<- error) {
		err := rw.w.writeBatch(full)
		clear(full) // drop string references
		done <- err
	}(rw.busy)
	return nil
}

// wait waits for the row group being written, and returns its error.
func (rw *RowWriter[R]) wait() error {
	if rw.busy == nil {
		return nil
	}
	err := <-rw.busy
	rw.busy = nil
	rw.spare = rw.spare[:0]
	return err
}

// Close writes the last row group and the footer and renames the file
// into place. After an error nothing is left under either name.
func (rw *RowWriter[R]) Close() error {
	if rw.w.done {
		return fmt.Errorf("table: %s: already closed", rw.w.path)
	}
	err := rw.flush()
	if werr := rw.wait(); err == nil {
		err = werr
	}
	if err != nil {
		rw.w.abort()
		return err
	}
	rw.buf, rw.spare = nil, nil
	return rw.w.commit()
}

// Abort discards the file; after Close it does nothing.
func (rw *RowWriter[R]) Abort() {
	rw.wait()
	rw.w.abort()
	rw.buf, rw.spare = nil, nil
}
