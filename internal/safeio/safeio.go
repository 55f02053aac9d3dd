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
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a FIFO, a device, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// CheckRegular returns path's FileInfo (symbolic links followed) before
// anything opens it, and, for a path that is not a regular file, an error
// wrapping ErrNotRegular that says what it is (Kind): a FIFO, a device, a
// socket or a directory is never opened, so none can block or feed the
// tool for ever. The FileInfo is returned with that error.
func CheckRegular(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return fi, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %s", ErrNotRegular, Kind(fi.Mode()))}
	}
	return fi, nil
}

// Kind names what a file of mode m is, for a message: "a directory", "a
// FIFO (named pipe)", "a character device" and so on.
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "not a regular file (" + t.String() + ")"
	}
}

// OpenRegular opens path for reading if it is a regular file, which
// CheckRegular says before the open. The open itself is non-blocking, so a FIFO with no writer is refused at once
// instead of blocking in open(2); O_NONBLOCK has no effect on reads of a
// regular file.
func OpenRegular(path string) (*os.File, error) {
	if _, err := CheckRegular(path); err != nil {
		return nil, err
	}
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
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %s", ErrNotRegular, Kind(fi.Mode()))}
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
