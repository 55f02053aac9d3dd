package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRowWriterSameFile: a table streamed in pieces of any size is the
// file WriteSquares (…) writes from all its rows at once, byte for byte,
// across row-group boundaries (batches of 7 rows here), where the rows'
// categorical values are the run's levels; a value outside them is
// refused, naming it, and leaves no file.
func TestRowWriterSameFile(t *testing.T) {
	defer func(n int) { batchRows = n }(batchRows)
	batchRows = 7
	md := testMD
	for i := range 5 {
		md.Levels.Boards = append(md.Levels.Boards, fmt.Sprintf("board-%d", i))
		md.Levels.Rules = append(md.Levels.Rules, fmt.Sprintf("rule-%d", i))
		md.Levels.TieBreaks = append(md.Levels.TieBreaks, fmt.Sprintf("tie_break-%d", i))
	}
	md.Levels.Experiment = "default"
	squares := genRows(squaresSpec, 31)
	lengths := genRows(lengthsSpec, 31)
	deadEnds := genRows(deadEndsSpec, 31)
	for i := range 31 {
		squares[i].Experiment, lengths[i].Experiment, deadEnds[i].Experiment = "default", "default", "default"
	}
	dir := t.TempDir()
	same := func(name string, whole func(string) error, stream func(string, []int) error) {
		t.Helper()
		want := filepath.Join(dir, name+"-whole.parquet")
		if err := whole(want); err != nil {
			t.Fatal(err)
		}
		for _, pieces := range [][]int{{31}, {1, 6, 7, 0, 3, 14}, {13, 13, 5}} {
			got := filepath.Join(dir, name+"-stream.parquet")
			if err := stream(got, pieces); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(want)
			b, _ := os.ReadFile(got)
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s streamed in pieces %v: %d bytes, written whole %d bytes, not the same", name, pieces, len(b), len(a))
			}
		}
	}
	same("squares", func(p string) error { return WriteSquares(p, squares, md) }, func(p string, pieces []int) error {
		return streamPieces(NewSquaresWriter, p, md, squares, pieces)
	})
	same("lengths", func(p string) error { return WriteLengths(p, lengths, md) }, func(p string, pieces []int) error {
		return streamPieces(NewLengthsWriter, p, md, lengths, pieces)
	})
	same("deadends", func(p string) error { return WriteDeadEnds(p, deadEnds, md) }, func(p string, pieces []int) error {
		return streamPieces(NewDeadEndsWriter, p, md, deadEnds, pieces)
	})

	bad := filepath.Join(dir, "bad.parquet")
	squares[20].Rule = "rule-9" // not among the run's rules
	err := streamPieces(NewSquaresWriter, bad, md, squares, []int{31})
	if err == nil || !strings.Contains(err.Error(), "rule-9") {
		t.Errorf("a rule outside the levels: %v", err)
	}
	if _, serr := os.Stat(bad); !os.IsNotExist(serr) {
		t.Errorf("a refused stream left %s: %v", bad, serr)
	}
}

func streamPieces[R any](open func(string, Metadata) (*RowWriter[R], error), path string, md Metadata, rows []R, pieces []int) error {
	w, err := open(path, md)
	if err != nil {
		return err
	}
	defer w.Abort()
	for _, n := range pieces {
		if err := w.Write(rows[:n]...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return w.Close()
}
