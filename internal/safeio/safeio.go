// Package safeio opens the files the tool reads back (manifests, parts,
// checkpoints, tables, reports) so that no path can hang it or exhaust its
// memory: an open never blocks (a FIFO in a result directory, a part path
// that names a device), only regular files are read, and reads are
// bounded where the whole file is read into memory.
package safeio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a FIFO, a device, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading if it is a regular file. The open
// itself is non-blocking, so a FIFO with no writer is refused at once
// instead of blocking in open(2); O_NONBLOCK has no effect on reads of a
// regular file.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%v)", ErrNotRegular, fi.Mode().Type())}
	}
	return f, nil
}

// ReadRegular reads the regular file at path, refusing one larger than
// limit bytes before reading it.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return b, nil
}
