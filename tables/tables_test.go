package tables_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/tables"
)

// TestOpenRefusesAnotherRunsTable: a result directory's tables are read
// only when their metadata names the run of its manifest, and a directory
// without a manifest is not a result directory.
func TestOpenRefusesAnotherRunsTable(t *testing.T) {
	if _, err := tables.Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a result directory") {
		t.Errorf("Open of an empty directory: %v", err)
	}
	dir := t.TempDir()
	m, err := os.ReadFile(filepath.Join(exampleDir, tables.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tables.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	boards, md, err := table.Read[table.BoardRow](filepath.Join(exampleDir, tables.BoardsFile))
	if err != nil {
		t.Fatal(err)
	}
	res, err := tables.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.WriteBoards(filepath.Join(dir, tables.BoardsFile), boards, md); err != nil {
		t.Fatal(err)
	}
	if got, err := res.Boards(); err != nil || len(got) != len(boards) {
		t.Fatalf("the run's own table: %d rows, %v", len(got), err)
	}
	md.Experiment = "other"
	if err := table.WriteBoards(filepath.Join(dir, tables.BoardsFile), boards, md); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Boards(); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("another run's table: %v", err)
	}
	if _, err := res.Squares(); err == nil || !strings.Contains(err.Error(), tables.SquaresFile) {
		t.Errorf("a missing table: %v", err)
	}
	if _, _, err := tables.ReadSquares(filepath.Join(exampleDir, tables.BoardsFile)); err == nil || !strings.Contains(err.Error(), `not "squares"`) {
		t.Errorf("a boards file read as squares: %v", err)
	}
}
