package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// dirLock is an exclusive flock(2) on DIR.lock, the file beside a result
// directory that says which process is writing it. The kernel drops the
// lock when its holder dies, so a lock file left by a killed run does not
// block the next one: only a live holder does.
type dirLock struct {
	path string
	f    *os.File
}

// lockDir takes the lock of result directory final, failing at once, with
// the holder's pid, host and start time, if another process holds it.
func lockDir(final string) (*dirLock, error) {
	path := final + ".lock"
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", final, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder, _ := io.ReadAll(io.LimitReader(f, 512))
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s is being written by another run (%s, lock %s): wait for it to finish or stop it", final, describeHolder(holder), path)
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The holder we waited on may have removed the file just before
		// unlocking it: a lock on an unlinked file locks nothing. Keep the
		// lock only if the path still names the file we locked.
		if sameFile(f, path) {
			// A file of that name that is not a lock file of this tool
			// is the user's: it is neither overwritten nor removed.
			if b, _ := io.ReadAll(io.LimitReader(f, 512)); len(b) > 0 && !holderLine.Match(b) {
				f.Close()
				return nil, fmt.Errorf("%s exists and is not a lock file of experiment: it is left untouched; move it away or choose another --out", path)
			}
			l := &dirLock{path: path, f: f}
			host, _ := os.Hostname()
			f.Truncate(0)
			f.WriteAt([]byte(fmt.Sprintf("pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))), 0)
			return l, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("locking %s: the lock file keeps being replaced", path)
}

// holderLine is what a lock file holds: who holds it.
var holderLine = regexp.MustCompile(`^pid \d+ on \S* since \S+\n$`)

func describeHolder(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "holder unknown"
	}
	return s
}

// sameFile reports whether path names the open file f.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// release removes the lock file, if it is still the one this process
// locked, and then drops the lock. It is safe on a nil lock.
func (l *dirLock) release() {
	if l == nil || l.f == nil {
		return
	}
	if sameFile(l.f, l.path) {
		os.Remove(l.path)
	}
	l.f.Close() // closing the descriptor drops the flock
	l.f = nil
}

// LockResult takes the lock of result directory dir, as a run into dir
// does, for a command that rewrites part of a finished result (plot): it
// fails at once, naming the holder, while a run or another plot writes
// there. The returned function releases it.
func LockResult(dir string) (release func(), err error) {
	l, err := lockDir(filepath.Clean(dir))
	if err != nil {
		return nil, err
	}
	return l.release, nil
}
