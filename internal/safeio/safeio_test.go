package safeio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNothingBlocks: every kind of path that is not a regular file is
// refused at once, a FIFO with no writer included (issue 21: such an open
// blocked for ever); a regular file reads, within its limit.
func TestNothingBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	reg := filepath.Join(dir, "reg")
	os.WriteFile(reg, []byte("hello"), 0o644)
	for _, p := range []string{fifo, dir, "/dev/zero", "/dev/null"} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegular(p, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: want ErrNotRegular, got %v", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: blocked", p)
		}
	}
	if b, err := ReadRegular(reg, 5); err != nil || string(b) != "hello" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	if _, err := ReadRegular(reg, 4); err == nil || !strings.Contains(err.Error(), "larger than 4 bytes") {
		t.Errorf("over the limit: %v", err)
	}
}

// TestScratchFile: the file works for writing and reading back, and no
// name for it is left in the directory, while it is open or after.
func TestScratchFile(t *testing.T) {
	dir := t.TempDir()
	f, path, err := ScratchFile(dir, "scratch-*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	if path != "" {
		t.Fatalf("the name %s was kept", path)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d names in the directory while the file is open", len(left))
	}
	if _, err := f.Write([]byte("layer")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 5)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "layer" {
		t.Errorf("read back %q, %v", b, err)
	}
	f.Close()
	if _, _, err := ScratchFile(filepath.Join(dir, "missing"), "x-*"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing directory: %v", err)
	}
}
