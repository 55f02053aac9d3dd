package table

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A failed write must leave no file under the final name and no temporary
// file beside it, and must not damage a file already there.
func TestFailedWriteLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "squares.parquet")

	// Fails before anything is written.
	if err := WriteSquares(path, genRows(squaresSpec, 3), Metadata{Extra: map[string]string{"seed": "1"}}); err == nil {
		t.Fatal("reserved key accepted")
	}
	// Fails halfway through the rows.
	bad := genRows(squaresSpec, batchRows+10)
	bad[batchRows+5].Rule = "\xfe"
	if err := WriteSquares(path, bad, Metadata{}); err == nil {
		t.Fatal("invalid UTF-8 accepted")
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("dir holds %v", names)
	}

	// Fails at the rename: the final name is a non-empty directory.
	blocked := filepath.Join(dir, "blocked.parquet")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteSquares(blocked, genRows(squaresSpec, 3), Metadata{}); err == nil {
		t.Fatal("rename over a directory succeeded")
	}
	if names := listDir(t, dir); !reflect.DeepEqual(names, []string{"blocked.parquet"}) {
		t.Fatalf("dir holds %v", names)
	}

	// Fails at create: the directory does not exist.
	if err := WriteSquares(filepath.Join(dir, "no", "squares.parquet"), nil, Metadata{}); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

func TestFailedWriteKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "deadends.parquet")
	old := genRows(deadEndsSpec, 5)
	if err := WriteDeadEnds(path, old, testMD); err != nil {
		t.Fatal(err)
	}
	bad := genRows(deadEndsSpec, 5)
	bad[4].End = "\xff"
	if err := WriteDeadEnds(path, bad, Metadata{}); err == nil {
		t.Fatal("invalid UTF-8 accepted")
	}
	got, md, err := Read[DeadEndRow](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, old) || !reflect.DeepEqual(md, testMD) {
		t.Fatal("old file changed")
	}
	if names := listDir(t, dir); !reflect.DeepEqual(names, []string{"deadends.parquet"}) {
		t.Fatalf("dir holds %v", names)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}
