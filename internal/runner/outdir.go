package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outDir manages a result directory that is never seen half-written: work
// happens in DIR.partial beside it, which is renamed to DIR only when
// complete. A cancelled or failed run leaves DIR as it was (absent, or the
// previous results) and DIR.partial with its checkpoint for --resume.
type outDir struct {
	Final   string
	Partial string
}

// prepareOutDir checks the target and returns its partial directory.
// An existing result is refused unless force; an existing partial
// directory is continued with resume and cleared without.
func prepareOutDir(dir string, force, resume bool) (*outDir, error) {
	o := &outDir{Final: filepath.Clean(dir), Partial: filepath.Clean(dir) + ".partial"}
	if _, err := os.Stat(o.Final); err == nil && !force {
		return nil, fmt.Errorf("%s already exists: pass --force to replace it (it is replaced only when the new run completes)", o.Final)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if resume {
		if _, err := os.Stat(filepath.Join(o.Partial, checkpointName)); err != nil {
			return nil, fmt.Errorf("--resume: no interrupted run to continue (%s not found)", filepath.Join(o.Partial, checkpointName))
		}
		return o, nil
	}
	if err := os.RemoveAll(o.Partial); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Partial, 0o755); err != nil {
		return nil, err
	}
	return o, nil
}

// Commit replaces Final with the completed Partial.
func (o *outDir) commit() error {
	os.Remove(filepath.Join(o.Partial, checkpointName))
	old := o.Final + ".old"
	os.RemoveAll(old)
	if _, err := os.Stat(o.Final); err == nil {
		if err := os.Rename(o.Final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(o.Partial, o.Final); err != nil {
		os.Rename(old, o.Final)
		return err
	}
	return os.RemoveAll(old)
}
