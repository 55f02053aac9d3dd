package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	for _, ext := range []string{"png", "svg", "pdf"} {
		if _, err := os.Stat(filepath.Join(dir, "figures", "design-map_8x8_rules0."+ext)); err != nil {
			t.Errorf("the design map: %v", err)
		}
	}
}

// TestRothOStarSearch re-derives O* by running experiments/roth-ostar-search
// (a sieve over all 40,320 move orders of Roth's rule from a1): the orders
// that fail on 428x428 and on no board from 5x5 to 427x427 are exactly O*
// and its transpose (the same walk, reflected in the diagonal through a1),
// the order roth-sweep-ostar states. Every kept order's first failure is
// 428, checked walk for walk in TestSieveAgainstWalks's way by the sieve
// table's own columns: it walked all 423 boards of stage 2.
func TestRothOStarSearch(t *testing.T) {
	testenv.SkipUnlessSlow(t, "the O* search: 40,320 walks of Roth's rule on 428x428 and the sweep of those that fail there (about 3 minutes on 2 cores)")
	dir := filepath.Join(t.TempDir(), "ostar")
	if _, _, err := runCmd(t, "run", "roth-ostar-search", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.Read[table.SieveRow](filepath.Join(dir, results.SieveFile))
	if err != nil {
		t.Fatal(err)
	}
	const ostar = "(-2,1) (-2,-1) (1,2) (-1,-2) (-1,2) (2,-1) (1,-2) (2,1)"
	transpose := "(1,-2) (-1,-2) (2,1) (-2,-1) (2,-1) (-1,2) (-2,1) (1,2)"
	var kept []string
	stage1, failing := 0, 0
	for _, r := range rows {
		switch {
		case r.Stage == 1:
			stage1++
			if r.Passed {
				failing++
				if r.FailedBoard != "428x428" {
					t.Errorf("%s passed stage 1 failing on %q", r.Params.MoveOrder, r.FailedBoard)
				}
			}
		case r.Stage == 2 && r.Kept:
			kept = append(kept, r.Params.MoveOrder)
			if r.Boards != 423 || r.FailedBoard != "" {
				t.Errorf("%s kept after %d boards of 423, failing on %q", r.Params.MoveOrder, r.Boards, r.FailedBoard)
			}
		}
	}
	if stage1 != 40320 || failing == 0 {
		t.Fatalf("stage 1: %d orders, %d failing on 428x428", stage1, failing)
	}
	if len(kept) != 2 || !(kept[0] == ostar && kept[1] == transpose || kept[1] == ostar && kept[0] == transpose) {
		t.Errorf("the orders that first fail at 428: %q; want O* %q and its transpose %q", kept, ostar, transpose)
	}
	t.Logf("%d of 40,320 orders fail on 428x428; first at 428: %q", failing, kept)
}

// TestRothNaturalOrders runs experiments/roth-natural-orders (a sieve of
// Roth's rule under the 24 natural move orders from a1, n = 5..450): every
// order fails, none first at 428, the number Roth gives. The experiment
// stands for all four corners by the board's symmetry (the rule and the
// family of orders are symmetric): checked here by a design of the same
// orders from the four corners on n = 5..60, where each corner's first
// failures, order by order, are a permutation of a1's from the sieve.
func TestRothNaturalOrders(t *testing.T) {
	testenv.SkipUnlessSlow(t, "Roth's rule under the 24 natural orders to their first failures (seconds)")
	dir := filepath.Join(t.TempDir(), "nat")
	if _, _, err := runCmd(t, "run", "roth-natural-orders", "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.Read[table.SieveRow](filepath.Join(dir, results.SieveFile))
	if err != nil {
		t.Fatal(err)
	}
	var a1 []int64
	for _, r := range rows {
		if !r.FailedRows.Valid || r.Kept {
			t.Errorf("%s: never fails on n = 5..450 (kept %v)", r.Params.MoveOrder, r.Kept)
			continue
		}
		if n := int64(r.FailedRows.Int32); n == 428 {
			t.Errorf("%s first fails at 428", r.Params.MoveOrder)
		} else if n <= 60 {
			a1 = append(a1, n)
		}
	}
	if len(rows) != 24 || len(a1) == 0 {
		t.Fatalf("%d orders, %d first failing by n = 60", len(rows), len(a1))
	}
	slices.Sort(a1)
	file := filepath.Join(t.TempDir(), "corners.yaml")
	if err := os.WriteFile(file, []byte("name: corners\nseed: 428\nboards: [{sizes: 5..60}]\nstarts: [corner]\nwalks: 1\nrules: [{name: warnsdorff, tie_break: roth+first, order: natural}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "corners")
	if _, _, err := runCmd(t, "run", file, "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	squares, _, err := table.Read[table.SquareRow](filepath.Join(out, results.SquaresFile))
	if err != nil {
		t.Fatal(err)
	}
	first := map[[3]string]int64{} // (order, corner): first failing n
	for _, s := range squares {
		corner := fmt.Sprintf("%v,%v", s.StartRow == 0, s.StartCol == 0)
		k := [3]string{s.Params.MoveOrder, corner}
		if s.Successes == 0 && (first[k] == 0 || int64(s.Rows) < first[k]) {
			first[k] = int64(s.Rows)
		}
	}
	for _, corner := range []string{"true,true", "true,false", "false,true", "false,false"} {
		var got []int64
		for k, n := range first {
			if k[1] == corner {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, a1) {
			t.Errorf("corner (row 0, col 0 = %s): first failures %v by n = 60, a1's from the sieve %v", corner, got, a1)
		}
	}
}
