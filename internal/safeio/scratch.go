package safeio

import (
	"errors"
	"os"
	"syscall"
)

// ScratchFile makes a new file in dir, for reading and writing, that no
// name in dir points to: a layer of states spilled to disk, which must
// disappear with the process however it ends (a SIGKILL included) and
// never be left behind in a directory the user named. Where the system
// can (Linux on amd64 and arm64, a file system with O_TMPFILE) the file
// never has a name; elsewhere it is made with a name and the name removed
// at once, which leaves a moment in which a kill leaves the file behind.
// path is the name when it could not be removed (not POSIX), for the
// caller to remove on close; it is empty otherwise.
func ScratchFile(dir, pattern string) (f *os.File, path string, err error) {
	if oTmpfile != 0 {
		f, err := os.OpenFile(dir, os.O_RDWR|oTmpfile, 0o600)
		if err == nil {
			return f, "", nil
		}
		if !errors.Is(err, syscall.EOPNOTSUPP) && !errors.Is(err, syscall.EISDIR) && !errors.Is(err, syscall.EINVAL) {
			return nil, "", err
		}
	}
	f, err = os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, "", err
	}
	if os.Remove(f.Name()) != nil {
		path = f.Name()
	}
	return f, path, nil
}
