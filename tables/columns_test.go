package tables_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/tables"
)

// TestWalkRowsIterates: the iterator yields every row of the walks table in
// the file's order, the rows ReadWalks reads; a break stops it; a file
// that is not a walks table is one error, then the end.
func TestWalkRowsIterates(t *testing.T) {
	path := filepath.Join(exampleDir, tables.WalksFile)
	all, _, err := tables.ReadWalks(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 100_000 { // more than one batch
		t.Fatalf("the example's walks table has %d rows", len(all))
	}
	var got []tables.WalkRow
	for w, err := range tables.WalkRows(path) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, w)
	}
	if !slices.Equal(got, all) {
		t.Fatalf("the iterator gave %d rows, not ReadWalks' %d in order", len(got), len(all))
	}
	n := 0
	for range tables.WalkRows(path) {
		if n++; n == 10 {
			break
		}
	}
	if n != 10 {
		t.Errorf("a break after 10 rows: %d", n)
	}
	var errs []error
	for w, err := range tables.WalkRows(filepath.Join(exampleDir, tables.BoardsFile)) {
		if err == nil {
			t.Fatalf("a boards file yielded a walk: %+v", w)
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `not "walks"`) {
		t.Errorf("a boards file read as walks: %v", errs)
	}
	missing := filepath.Join(t.TempDir(), "walks.parquet")
	for _, err := range tables.WalkRows(missing) {
		if !os.IsNotExist(err) && !strings.Contains(err.Error(), "no such file") {
			t.Errorf("a missing file: %v", err)
		}
	}
}

// TestColumn: a column of the rows' field, in order.
func TestColumn(t *testing.T) {
	squares, _, err := tables.ReadSquares(filepath.Join(exampleDir, tables.SquaresFile))
	if err != nil {
		t.Fatal(err)
	}
	rates := tables.Column(squares, func(r *tables.SquareRow) float64 { return r.SuccessRate })
	if len(rates) != len(squares) {
		t.Fatalf("%d values of %d rows", len(rates), len(squares))
	}
	for i := range squares {
		if rates[i] != squares[i].SuccessRate && !(rates[i] != rates[i] && squares[i].SuccessRate != squares[i].SuccessRate) {
			t.Fatalf("row %d: %g, want %g", i, rates[i], squares[i].SuccessRate)
		}
	}
	if got := tables.Column([]tables.SquareRow{}, func(r *tables.SquareRow) string { return r.Start }); len(got) != 0 {
		t.Errorf("no rows: %v", got)
	}
}
