package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestExactParquet: exact --format parquet writes the exact table, whose
// key columns have the types of the squares table's (so they join with no
// cast), and refuses to write over a file it did not write.
func TestExactParquet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "exact.parquet")
	if _, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "parquet", "--out", path); err != nil {
		t.Fatal(err)
	}
	rows, md, err := table.Read[table.ExactRow](path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"a1": 1, "b2": 0.75, "c3": 1}
	for _, r := range rows {
		if p, ok := want[r.Key.Start]; ok {
			if r.PSuccess != p || r.Key.Board != "5x5" || r.Key.Rule != "warnsdorff/random" || r.Params.TieBreak != "random" {
				t.Errorf("%s: %+v, want P(success) %v on 5x5 under warnsdorff/random", r.Key.Start, r, p)
			}
			delete(want, r.Key.Start)
		}
	}
	if len(rows) != 25 || len(want) != 0 {
		t.Fatalf("%d rows, missing %v", len(rows), want)
	}
	if md.Extra["command"] != "exact --board=5x5 --format=parquet --out="+path {
		t.Errorf("command %q", md.Extra["command"])
	}

	res := filepath.Join(dir, "small")
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", res, "--quiet"); err != nil {
		t.Fatal(err)
	}
	sq, ex := arrowSchema(t, filepath.Join(res, "squares.parquet")), arrowSchema(t, path)
	for _, col := range []string{"board", "rows", "cols", "rule", "start", "start_row", "start_col", "start_class", "tie_break", "max_steps", "node_budget", "move_order"} {
		a, b := sq.Field(sq.FieldIndices(col)[0]), ex.Field(ex.FieldIndices(col)[0])
		if !arrow.TypeEqual(a.Type, b.Type) || a.Nullable != b.Nullable {
			t.Errorf("%s: squares %s (nullable %v), exact %s (nullable %v)", col, a.Type, a.Nullable, b.Type, b.Nullable)
		}
	}

	// an exact table it wrote is replaced with --force only; a user's file never
	if _, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "parquet", "--out", path); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("over its own file without --force: %v", err)
	}
	if _, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "parquet", "--out", path, "--force"); err != nil {
		t.Errorf("over its own file with --force: %v", err)
	}
	user := filepath.Join(dir, "notes.parquet")
	os.WriteFile(user, []byte("mine"), 0o644)
	sqPath := filepath.Join(res, "squares.parquet")
	for _, p := range []string{user, sqPath} {
		before, _ := os.ReadFile(p)
		_, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "parquet", "--out", p, "--force")
		if err == nil || !strings.Contains(err.Error(), "is not a \"exact\" table that experiment wrote") {
			t.Errorf("over %s: %v", p, err)
		}
		if after, _ := os.ReadFile(p); string(after) != string(before) {
			t.Errorf("%s was changed", p)
		}
	}
	if _, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "parquet"); err == nil || !strings.Contains(err.Error(), "--out FILE") {
		t.Errorf("parquet without --out: %v", err)
	}
}

// arrowSchema reads the Arrow schema stored in a Parquet file.
func arrowSchema(t *testing.T, path string) *arrow.Schema {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
