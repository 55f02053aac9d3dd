package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExactSpillCommand: exact --spill prints what the in-memory run does,
// byte for byte (every start of 6x6, two at a time), says how it spilled
// (and, with --layers, each layer), and leaves nothing in the directory.
func TestExactSpillCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"exact", "--board", "6x6", "--format", "csv", "--workers", "2"}
	want, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	got, stderr, err := runCmd(t, append(args, "--spill", dir, "--max-memory", "64MiB", "--layers")...)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("spilled output differs from in memory:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(stderr, "spilled to "+dir+": largest layer") || !strings.Contains(stderr, "exact 6x6 warnsdorff/random from c3: path length 36: ") {
		t.Errorf("stderr %q: want the spill's summary and the layers", stderr)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d files left in the spill directory", len(left))
	}
}

// TestExactSpillBadDir: a --spill that is missing, not a directory or not
// writable is a usage error naming the flag and the path, and nothing is
// written.
func TestExactSpillBadDir(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(tmp, "locked")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	bad := []string{filepath.Join(tmp, "missing"), file}
	if f, err := os.CreateTemp(locked, "probe"); err == nil { // root writes anyway
		f.Close()
		os.Remove(f.Name())
	} else {
		bad = append(bad, locked)
	}
	if fi, err := os.Stat("/proc/self"); err == nil && fi.IsDir() {
		bad = append(bad, "/proc/self") // a directory no one can make files in
	}
	for _, dir := range bad {
		_, _, err := runCmd(t, "exact", "--board", "5x5", "--spill", dir)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "--spill "+dir+":") {
			t.Errorf("--spill %s: %v; want a usage error naming it", dir, err)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "missing")); !os.IsNotExist(err) {
		t.Errorf("the missing directory was made")
	}
	if b, _ := os.ReadFile(file); string(b) != "mine" {
		t.Errorf("the file given as --spill was changed")
	}
	if left, _ := os.ReadDir(locked); len(left) != 0 {
		t.Errorf("%d files left in the unwritable directory", len(left))
	}
}

// TestExactSpillKilled: a spilling process killed outright (SIGKILL, no
// chance to clean up) leaves nothing in the spill directory: its layer
// files were removed from it as soon as they were made. Where /proc shows
// the process's files, it also checks that the process had them open,
// unnamed, in that directory when it was killed.
func TestExactSpillKilled(t *testing.T) {
	dir := t.TempDir()
	p := proc(t, nil, "exact", "--board", "10x10", "--start", "a1", "--enumerate", "--spill", dir, "--max-memory", "256MiB", "--workers", "1")
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	open := 0 // layer files the process holds in dir, unnamed
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && open == 0; time.Sleep(50 * time.Millisecond) {
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.Process.Pid))
		if err != nil {
			break // no /proc: the check after the kill still holds
		}
		for _, fd := range fds {
			target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", p.Process.Pid, fd.Name()))
			if strings.HasPrefix(target, dir+string(os.PathSeparator)) && strings.HasSuffix(target, "(deleted)") { // an O_TMPFILE file shows as "#inode (deleted)"
				open++
			}
		}
	}
	if err := p.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	if _, err := os.Stat("/proc/self/fd"); err == nil && open == 0 {
		t.Errorf("no unnamed layer file of the process seen in %s", dir)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d files left in the spill directory after a kill", len(left))
	}
}
