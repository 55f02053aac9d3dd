package runner

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
)

// outDir manages a result directory that is never seen half-written: work
// happens in DIR.partial beside it, which is renamed to DIR only when
// complete. A cancelled or failed run leaves DIR as it was (absent, or the
// previous results) and DIR.partial with its checkpoint for --resume.
// DIR.lock, held from prepareOutDir to release, keeps a second run from
// touching DIR.partial or DIR meanwhile.
type outDir struct {
	Final   string
	Partial string
	force   bool // an existing result directory may be replaced
	lock    *dirLock
}

// prepareOutDir checks the target, locks it and returns its partial
// directory. An existing DIR is refused unless force, and even then unless
// it is a result directory this tool wrote (ownedResult); an existing
// partial directory is continued with resume and cleared without, again
// only if it holds nothing but this tool's files. Nothing is created or
// removed before every check has passed.
func prepareOutDir(dir, configHash string, force, resume bool, log io.Writer) (_ *outDir, err error) {
	o := &outDir{Final: filepath.Clean(dir), Partial: filepath.Clean(dir) + ".partial", force: force}
	if err := notAroundCwd(o.Final); err != nil {
		return nil, err
	}
	if msg := config.ReservedDirName(filepath.Base(o.Final)); msg != "" {
		return nil, fmt.Errorf("--out %s: %s", dir, msg)
	}
	// Lock first, then look: another run may commit DIR until we hold it.
	if o.lock, err = lockDir(o.Final); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			o.lock.release()
		}
	}()
	if err := checkReplaceable(o.Final, force); err != nil {
		return nil, err
	}
	if resume {
		if _, err := os.Stat(filepath.Join(o.Partial, checkpointName)); err != nil {
			return nil, fmt.Errorf("--resume: no interrupted run to continue (%s not found)", filepath.Join(o.Partial, checkpointName))
		}
		// A kill while tables were written leaves their temporary files;
		// the tables are written again, so those would end up in the
		// finished result. We hold the lock: no writer is alive.
		if err := removeStaleTemps(o.Partial); err != nil {
			return nil, err
		}
		return o, nil
	}
	if err := clearPartial(o.Partial, configHash, force, log); err != nil {
		return nil, err
	}
	if err := os.Mkdir(o.Partial, 0o755); err != nil {
		return nil, err
	}
	return o, nil
}

// clearPartial removes an existing partial directory before a fresh run,
// but only an unfinished run of this tool, and only with force when it
// holds progress that --resume could continue (a checkpoint of the same
// config); the progress of another config cannot be resumed and is
// discarded with a line on log. A directory without a checkpoint is never
// removed unless empty: a finished result that was never renamed, or a
// user's directory that happens to be called NAME.partial, is not the
// tool's to delete.
func clearPartial(partial, configHash string, force bool, log io.Writer) error {
	if _, err := os.Lstat(partial); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := ownedTree(partial, partialNames); err != nil {
		return fmt.Errorf("%s exists and is not an unfinished run of experiment (%v): move it away; experiment never deletes what it did not write", partial, err)
	}
	if _, err := os.Stat(filepath.Join(partial, checkpointName)); err != nil {
		if err := os.Remove(partial); err == nil { // empty: nothing to lose
			return nil
		}
		return fmt.Errorf("%s exists and holds no checkpoint of an unfinished run (a finished result that was never moved into place, or not this tool's): it is left untouched; move it away or choose another --out", partial)
	}
	done, hash := checkpointProgress(partial)
	switch {
	case force:
	case hash != configHash:
		if log != nil {
			fmt.Fprintf(log, "experiment: discarding %s: an interrupted run of another config (%s), which --resume cannot continue\n", partial, done)
		}
	default:
		return fmt.Errorf("%s holds an interrupted run of this experiment (%s): pass --resume to continue it, or --force to discard it and start again", partial, done)
	}
	return os.RemoveAll(partial)
}

// notAroundCwd refuses a result directory that is the working directory or
// one of its parents (`--out .`): renaming it away would pull the ground
// from under the run, and its contents are not the tool's to replace.
func notAroundCwd(final string) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	// Compare real paths: the working directory may be reached through a
	// symbolic link and named by its real path, or the other way round.
	abs, cwd := realAbs(final), realAbs(cwd)
	if abs == cwd || abs == string(filepath.Separator) || strings.HasPrefix(cwd, strings.TrimSuffix(abs, string(filepath.Separator))+string(filepath.Separator)) {
		return fmt.Errorf("--out %s is the current directory or one of its parents: name a new directory for the results, e.g. --out results/NAME", final)
	}
	return nil
}

// checkReplaceable refuses an existing final directory without force, and
// with force anything but a result directory this tool wrote.
func checkReplaceable(final string, force bool) error {
	fi, err := os.Lstat(final)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if !fi.IsDir() {
		what := "a file"
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "a symbolic link"
		} else if !fi.Mode().IsRegular() {
			what = "not a directory"
		}
		return fmt.Errorf("%s exists and is %s, not a result directory; it is left untouched: experiment never replaces it (not even with --force); choose another --out", final, what)
	}
	if !force {
		return fmt.Errorf("%s already exists: pass --force to replace it (it is replaced only when the new run completes)", final)
	}
	if err := replaceable(final); err != nil {
		return fmt.Errorf("--force: %s is not a result directory written by experiment (%v); it is left untouched: move it away or choose another --out", final, err)
	}
	return nil
}

// The names a result directory, a shard's part directory or a partial
// directory may hold: everything this tool writes there. A directory that
// holds anything else is not replaced or removed.
var (
	resultNames  = append(slices.Clone(results.Files), partName, partWalksName)
	partialNames = append([]string{checkpointName, unitWalksName}, resultNames...)
)

// replaceable reports why --force may not replace dir: it may when dir is
// an empty directory (nothing to lose) or a result directory of this tool.
func replaceable(dir string) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) == 0 {
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
			return nil
		}
	}
	return ownedResult(dir)
}

// ownedResult reports why dir is not a complete result directory (or a
// shard's part directory) of this tool: it must be a real directory with a
// well-formed manifest.json or part.json, holding only the files the tool
// writes.
func ownedResult(dir string) error {
	if err := ownedTree(dir, resultNames); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, results.ManifestFile)); err == nil {
		return checkManifestShape(dir)
	}
	if _, err := os.Stat(filepath.Join(dir, partName)); err == nil {
		_, err := readPart(filepath.Join(dir, partName))
		return err
	}
	return fmt.Errorf("it has no %s", results.ManifestFile)
}

// ownedTree reports the first entry of dir that the tool does not write
// there: a name outside names (or a hidden temporary file of one of them),
// or in figures/ anything but image files. A symbolic link or a plain file
// at dir is not the tool's.
func ownedTree(dir string, names []string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("it is not a directory")
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case name == results.FiguresDir && e.IsDir():
			if err := ownedFigures(filepath.Join(dir, name)); err != nil {
				return err
			}
		case e.Type().IsRegular() && (slices.Contains(names, name) || isTempOf(name, names)):
		default:
			return fmt.Errorf("it holds %s, which experiment does not write", filepath.Join(dir, name))
		}
	}
	return nil
}

func ownedFigures(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := strings.TrimPrefix(e.Name(), ".")
		if i := strings.Index(name, ".tmp"); i > 0 && e.Name()[0] == '.' {
			name = name[:i]
		}
		if !e.Type().IsRegular() || !results.IsFigureFile(name) {
			return fmt.Errorf("it holds %s, which experiment does not write", filepath.Join(dir, e.Name()))
		}
	}
	return nil
}

// removeStaleTemps removes the temporary files a killed writer left in a
// partial directory (".NAME.tmp-RANDOM" of a file the tool writes there,
// in it and in its figures directory), and nothing else.
func removeStaleTemps(partial string) error {
	for _, dir := range []string{partial, filepath.Join(partial, results.FiguresDir)} {
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp") {
				continue
			}
			stale := isTempOf(name, partialNames)
			if dir != partial {
				base, _, _ := strings.Cut(strings.TrimPrefix(name, "."), ".tmp")
				stale = results.IsFigureFile(base)
			}
			if stale {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// isTempOf reports whether name is a temporary file the table writer makes
// while writing one of names (".NAME.tmp-RANDOM").
func isTempOf(name string, names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(name, "."+n+".tmp") {
			return true
		}
	}
	return false
}

// checkManifestShape checks that dir/manifest.json is a manifest of this
// tool: strict JSON of results.Manifest with an experiment name, a SHA-256
// config hash and a list of tables that are all present.
func checkManifestShape(dir string) error {
	path := filepath.Join(dir, results.ManifestFile)
	b, err := readLimited(path, 64<<20)
	if err != nil {
		return err
	}
	var m results.Manifest
	if err := decodeStrict(b, &m); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if h, err := hex.DecodeString(m.ConfigHash); m.Experiment == "" || err != nil || len(h) != 32 || len(m.Tables) == 0 {
		return fmt.Errorf("%s lacks the experiment, config hash or tables of a manifest", path)
	}
	for _, t := range m.Tables {
		if !slices.Contains(resultNames, t) {
			return fmt.Errorf("%s lists %q, which is no table of experiment", path, t)
		}
		if _, err := os.Stat(filepath.Join(dir, t)); err != nil {
			return fmt.Errorf("%s lists %s, which is missing", path, t)
		}
	}
	return nil
}

// decodeStrict decodes exactly one JSON value from b into v: unknown keys
// and trailing data are errors.
func decodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	return safeio.ReadRegular(path, limit)
}

// commit replaces Final with the completed Partial. An existing Final is
// checked again (it may have changed during the run), renamed to a fresh
// name of its own and only then removed.
func (o *outDir) commit() error {
	var old string
	if _, err := os.Lstat(o.Final); err == nil {
		// Only a hand that ignores DIR.lock can have put it there.
		if !o.force {
			return fmt.Errorf("%s appeared during the run: it is left as it is; the finished run is kept in %s (run again with --resume --force to replace it)", o.Final, o.Partial)
		}
		if err := replaceable(o.Final); err != nil {
			return fmt.Errorf("%s changed during the run and is no longer a result directory written by experiment (%v): it is left as it is; the finished run is kept in %s", o.Final, err, o.Partial)
		}
		old = o.Final + ".replaced-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		if _, err := os.Lstat(old); err == nil { // rename would replace an empty directory of that name
			return fmt.Errorf("%s exists: cannot set %s aside", old, o.Final)
		}
	}
	os.Remove(filepath.Join(o.Partial, checkpointName))
	os.Remove(filepath.Join(o.Partial, unitWalksName))
	if old != "" {
		if err := os.Rename(o.Final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(o.Partial, o.Final); err != nil {
		if old != "" {
			os.Rename(old, o.Final)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// release gives up the lock on the directory.
func (o *outDir) release() { o.lock.release() }
