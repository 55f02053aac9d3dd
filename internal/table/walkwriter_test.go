package table

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

func TestWalkWriterRowGroups(t *testing.T) {
	const n, group = 2500, 1000
	dir := t.TempDir()
	path := filepath.Join(dir, "walks.parquet")
	rows, md := streamable(genRows(walksSpec, n), testMD)
	ww, err := NewWalkWriter(path, md, group)
	if err != nil {
		t.Fatal(err)
	}
	defer ww.Abort()
	for i, r := range rows {
		if err := ww.Write(r); err != nil {
			t.Fatal(err)
		}
		// Bounded buffering: the buffer never holds a full group and never
		// grows past the size it was made with.
		if len(ww.buf) >= group || cap(ww.buf) != group {
			t.Fatalf("after %d rows: buffer len %d cap %d", i+1, len(ww.buf), cap(ww.buf))
		}
		if i == 0 {
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("final name exists before Close: %v", err)
			}
		}
	}
	if ww.Rows() != n {
		t.Fatalf("Rows() = %d", ww.Rows())
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ww.Close(); err == nil {
		t.Error("second Close succeeded")
	}
	if err := ww.Write(WalkRow{}); err == nil {
		t.Error("Write after Close succeeded")
	}
	ww.Abort() // no-op after Close
	if names := listDir(t, dir); !reflect.DeepEqual(names, []string{"walks.parquet"}) {
		t.Fatalf("dir holds %v", names)
	}

	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for i := range rdr.NumRowGroups() {
		sizes = append(sizes, rdr.MetaData().RowGroup(i).NumRows())
	}
	rdr.Close()
	if want := []int64{1000, 1000, 500}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("row groups %v, want %v", sizes, want)
	}

	got, md, err := Read[WalkRow](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) || !reflect.DeepEqual(md, testMD) {
		t.Fatal("walks did not round-trip")
	}
}

func TestWalkWriterExactGroups(t *testing.T) {
	// A count that is a multiple of the group size must not leave an empty
	// last row group.
	path := filepath.Join(t.TempDir(), "walks.parquet")
	rows, md := streamable(genRows(walksSpec, 30), Metadata{Experiment: "e"})
	ww, err := NewWalkWriter(path, md, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := ww.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	if g := rdr.NumRowGroups(); g != 3 {
		t.Fatalf("%d row groups, want 3", g)
	}
}

func TestWalkWriterEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "walks.parquet")
	ww, err := NewWalkWriter(path, testMD, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cap(ww.buf) != DefaultWalkRowGroupRows {
		t.Fatalf("default buffer %d", cap(ww.buf))
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	got, md, err := Read[WalkRow](path)
	if err != nil || len(got) != 0 || md.Seed != testMD.Seed {
		t.Fatalf("got %d rows, %+v, %v", len(got), md, err)
	}
}

func TestWalkWriterAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "walks.parquet")
	rows, md := streamable(genRows(walksSpec, 50), testMD)
	ww, err := NewWalkWriter(path, md, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := ww.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if names := listDir(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], ".walks.parquet.tmp-") {
		t.Fatalf("while writing, dir holds %v", names)
	}
	ww.Abort()
	ww.Abort()
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("after Abort, dir holds %v", names)
	}
	if err := ww.Close(); err == nil {
		t.Fatal("Close after Abort succeeded")
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("after Close, dir holds %v", names)
	}
}

func TestWalkWriterBadRowFailsClose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "walks.parquet")
	ww, err := NewWalkWriter(path, Metadata{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer ww.Abort()
	ww.Write(WalkRow{Board: "8x8"})
	ww.Write(WalkRow{Board: "\xff"})
	if err := ww.Close(); err == nil {
		t.Fatal("Close wrote a row with invalid UTF-8")
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("dir holds %v", names)
	}
}

// streamable gives rows md's experiment and returns md with the levels a
// stream needs up front: the rows' boards, rules and tie-breaks.
func streamable(rows []WalkRow, md Metadata) ([]WalkRow, Metadata) {
	rows = slices.Clone(rows)
	lv := Levels{Experiment: md.Experiment}
	for i := range rows {
		rows[i].Experiment = md.Experiment
		lv.Boards = append(lv.Boards, rows[i].Board)
		lv.Rules = append(lv.Rules, rows[i].Rule)
		if rows[i].Params.TieBreak != "" {
			lv.TieBreaks = append(lv.TieBreaks, rows[i].Params.TieBreak)
		}
	}
	md.Levels = lv
	return rows, md
}

// TestWalkWriterFixedLevels: a stream's levels are fixed when it starts
// (they are in the schema), so a board not listed in Metadata.Levels is
// refused, naming the levels and where they come from.
func TestWalkWriterFixedLevels(t *testing.T) {
	dir := t.TempDir()
	md := Metadata{Experiment: "e", Levels: Levels{Experiment: "e", Boards: []string{"8x8"}, Rules: []string{"random"}}}
	ww, err := NewWalkWriter(filepath.Join(dir, "walks.parquet"), md, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer ww.Abort()
	ww.Write(WalkRow{Experiment: "e", Board: "8x8", Rule: "random", Outcome: OutcomeDeadEnd})
	ww.Write(WalkRow{Experiment: "e", Board: "5x5", Rule: "random", Outcome: OutcomeDeadEnd})
	err = ww.Close()
	if err == nil || !strings.Contains(err.Error(), `value "5x5" is not one of its levels ["8x8"] (a streamed table takes its levels from Metadata.Levels)`) {
		t.Fatalf("err = %v", err)
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("dir holds %v", names)
	}
}

// Rows returns the number of rows written so far.
func (ww *WalkWriter) Rows() uint64 { return ww.n }
