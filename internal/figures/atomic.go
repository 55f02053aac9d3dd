package figures

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/knightwalk/knightwalk/internal/results"
)

// writeAtomic writes path through write, which gets the path of an empty
// temporary file in the same directory; the file is renamed to path only
// when write succeeds, and removed otherwise. A reader (or a later run)
// sees the old file or the whole new one, never a truncated one.
func writeAtomic(path string, write func(tmp string) error) (err error) {
	dir, name := filepath.Split(path)
	if err := listedOutput(dir, name); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil { // CreateTemp makes it 0600
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := write(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// listedOutput refuses to write a file that results does not list as one
// the tool writes (results.Files at the top of a result directory,
// results.IsFigureFile in its figures directory): such a file would make
// `run --force` refuse to replace the tool's own result. It is a
// programming error, caught by every test that draws a figure.
func listedOutput(dir, name string) error {
	if filepath.Base(filepath.Clean(dir)) == results.FiguresDir {
		if results.IsFigureFile(name) {
			return nil
		}
	} else if results.IsResultFile(name) {
		return nil
	}
	return fmt.Errorf("internal error: the figure writer would write %s, which results does not list among the files the tool writes (add it there, or --force could not replace this result)", filepath.Join(dir, name))
}

// wrapWriter lets tests put a failing writer (a full disk) under every
// figure file written.
var wrapWriter = func(w io.Writer) io.Writer { return w }

// checkManifest refuses a manifest that does not describe a finished run
// (say `{}`, or one cut short), before anything is drawn or rewritten: its
// empty figure list would otherwise read as "no figures" and delete the
// report's figures section.
func checkManifest(dir string, m *results.Manifest) error {
	path := filepath.Join(dir, results.ManifestFile)
	var missing []string
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"experiment", m.Experiment != ""},
		{"config_hash", m.ConfigHash != ""},
		{"tables", len(m.Tables) > 0},
		{"config.format", m.Config.Format > 0},
		{"config.boards", len(m.Config.Boards) > 0},
		{"config.rules", len(m.Config.Rules) > 0},
	} {
		if !f.ok {
			missing = append(missing, f.name)
		}
	}
	if missing != nil {
		return fmt.Errorf("%s: not the manifest of a finished run (no %s); nothing drawn", path, strings.Join(missing, ", "))
	}
	return nil
}
