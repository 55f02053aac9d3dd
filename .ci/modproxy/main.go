// Command modproxy lays a module's working tree out as a file-based module
// proxy (the GOPROXY protocol, go.dev/ref/mod#goproxy-protocol), so that
// `GOPROXY=file://DIR go install MODULE/cmd/...@VERSION` and `go get
// MODULE@VERSION` fetch it exactly as they would from a published tag:
//
//	go run . -dir CHECKOUT -version v0.1.0 -out DIR
//
// writes DIR/<module>/@v/list, VERSION.info, VERSION.mod and VERSION.zip.
// The zip holds the files git lists in the working tree (tracked and
// untracked, less what .gitignore ignores and what is deleted), built with
// golang.org/x/mod/zip, which leaves out nested modules, vendor trees and
// irregular files as the go command does, and refuses what a module zip
// may not hold. It lives in its own module so that knightwalk does not
// depend on x/mod.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", ".", "the module's root `directory` (a git working tree)")
	version := flag.String("version", "v0.1.0", "the `version` to publish it as (a release or a pseudo-version)")
	out := flag.String("out", "", "the proxy `directory` to write (GOPROXY=file://DIR)")
	flag.Parse()
	if err := run(*dir, *version, *out); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func run(dir, version, out string) error {
	if out == "" || flag.NArg() > 0 {
		return errors.New("usage: modproxy -dir CHECKOUT -version vX.Y.Z -out DIR")
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s: no module directive", filepath.Join(dir, "go.mod"))
	}
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	if module.CanonicalVersion(version) != version {
		return fmt.Errorf("version %q is not canonical (want %q)", version, module.CanonicalVersion(version))
	}
	files, err := workingTree(dir)
	if err != nil {
		return err
	}
	escPath, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	escVer, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	var zbuf bytes.Buffer
	if err := modzip.Create(&zbuf, mv, files); err != nil {
		return fmt.Errorf("module zip of %s: %w", dir, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{escVer + ".zip": zbuf.Bytes(), escVer + ".mod": gomod, escVer + ".info": info} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	// list: every version published here, one a line
	listPath := filepath.Join(at, "list")
	old, err := os.ReadFile(listPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(old))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	if err := os.WriteFile(listPath, []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s@%s: %d files, %d bytes zipped -> %s\n", path, version, len(files), zbuf.Len(), at)
	return nil
}

// workingTree lists the files of git's view of the working tree of dir:
// tracked and untracked, less those .gitignore ignores and those deleted.
func workingTree(dir string) ([]modzip.File, error) {
	cmd := exec.Command("git", "-C", dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", dir, err)
	}
	var files []modzip.File
	seen := map[string]bool{}
	for _, p := range strings.Split(string(b), "\x00") {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		files = append(files, file{root: dir, path: p})
	}
	return files, nil
}

// file is a file of the working tree, as modzip.Create reads it.
type file struct{ root, path string }

func (f file) Path() string                 { return f.path }
func (f file) Lstat() (os.FileInfo, error)  { return os.Lstat(f.abs()) }
func (f file) Open() (io.ReadCloser, error) { return os.Open(f.abs()) }
func (f file) abs() string                  { return filepath.Join(f.root, filepath.FromSlash(f.path)) }
