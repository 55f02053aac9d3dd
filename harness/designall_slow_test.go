package harness

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestMarateckOrdersAll runs experiments/marateck-orders-all (all 40,320
// move orders from all 64 squares of 8x8, one run): each square's tally of
// failing orders is that of its image in the triangle of
// TestMarateckOrders (docs/designs.md), the squares table has a row per
// (order, square), and 7,376 orders succeed from every square, a number
// the triangle cannot give (a symmetry maps an order to another order).
func TestMarateckOrdersAll(t *testing.T) {
	testenv.SkipUnlessSlow(t, "2,580,480 walks of warnsdorff/first and their 2.6 million rows (about 2 minutes on 2 cores)")
	dir := filepath.Join(t.TempDir(), "all")
	if _, _, err := runCmd(t, "run", "marateck-orders-all", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	triangle := map[string]int64{"a1": 396, "b1": 272, "c1": 609, "d1": 1313, "b2": 1386, "c2": 338, "d2": 3457, "c3": 1080, "d3": 1902, "d4": 1064}
	rows, _, err := table.Read[table.DesignRow](filepath.Join(dir, results.DesignsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 64 {
		t.Fatalf("%d designs rows, want 64", len(rows))
	}
	for _, r := range rows {
		// the image in the triangle: fold to the lower-left quarter, then below the diagonal
		row, col := min(r.StartRow, 7-r.StartRow), min(r.StartCol, 7-r.StartCol)
		row, col = min(row, col), max(row, col)
		image := fmt.Sprintf("%c%d", 'a'+col, row+1)
		if r.Cells != 40320 || r.CellsFailing != triangle[image] || r.CellsNever != r.CellsFailing {
			t.Errorf("%s: %d of %d orders fail; its image %s has %d", r.Start, r.CellsFailing, r.Cells, image, triangle[image])
		}
	}
	boards, _, err := table.Read[table.BoardRow](filepath.Join(dir, results.BoardsFile))
	if err != nil {
		t.Fatal(err)
	}
	everywhere := 0
	for _, b := range boards {
		if b.Squares != 64 || b.Walks != 64 {
			t.Fatalf("boards row %s: %d squares, %d walks; want 64 of each", b.Params.Spec, b.Squares, b.Walks)
		}
		if b.Successes == b.Walks {
			everywhere++
		}
	}
	if len(boards) != 40320 || everywhere != 7376 {
		t.Errorf("%d orders, %d succeed from all 64 squares; want 40320, 7376", len(boards), everywhere)
	}
	f, err := file.OpenParquetFile(filepath.Join(dir, results.SquaresFile), false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := f.NumRows(); n != 64*40320 {
		t.Errorf("%d squares rows, want one per (order, square), %d", n, 64*40320)
	}
}
