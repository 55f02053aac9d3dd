package table

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

func TestSpecsCoverFields(t *testing.T) {
	for _, tb := range allTables {
		t.Run(tb.name, tb.coverage)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tb := range allTables {
		t.Run(tb.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 17, batchRows + 5} {
				tb.roundTrip(t, t.TempDir(), n, testMD)
			}
		})
	}
}

func TestRoundTripSquaresExample(t *testing.T) {
	rows := []SquareRow{{
		Board: "8x8", Rows: 8, Cols: 8, Rule: "warnsdorff/random",
		Start: "d4", StartRow: 3, StartCol: 3, StartClass: "centre", StartDegree: 8,
		Walks: 10000, Successes: 8512, SuccessRate: 0.8512, SuccessLo: 0.8441, SuccessHi: 0.8580,
		Closed: 1200, ClosedRate: 0.12, ClosedLo: 0.1138, ClosedHi: 0.1265,
		LengthMean: 62.7, LengthSD: 3.1, LengthMin: 41, LengthP05: 55, LengthP25: 64,
		LengthMedian: 64, LengthP75: 64, LengthP95: 64, LengthMax: 64, TiesMean: 7.5,
	}}
	path := filepath.Join(t.TempDir(), "squares.parquet")
	if err := WriteSquares(path, rows, Metadata{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	got, md, err := ReadSquares(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, rows) || md.Seed != 1 {
		t.Fatalf("got %+v %+v", got, md)
	}
}

func TestNaNRoundTrips(t *testing.T) {
	// A rate over zero walks is undefined; whatever stats puts there must
	// survive the file.
	rows := []ClassRow{{Board: "1x1", SuccessRate: math.NaN(), SuccessLo: math.Inf(-1)}}
	path := filepath.Join(t.TempDir(), "classes.parquet")
	if err := WriteClasses(path, rows, Metadata{}); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadClasses(path)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(got[0].SuccessRate) || !math.IsInf(got[0].SuccessLo, -1) {
		t.Fatalf("got %+v", got[0])
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, md := range []Metadata{
		{},
		testMD,
		{Seed: math.MaxUint64, Extra: map[string]string{"": "x"}}, // rejected below
	} {
		path := filepath.Join(dir, "lengths.parquet")
		err := WriteLengths(path, genRows(lengthsSpec, 3), md)
		if _, empty := md.Extra[""]; empty {
			if err == nil {
				t.Fatal("empty extra key accepted")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := ReadLengths(path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Seed != md.Seed || got.Experiment != md.Experiment || got.ConfigHash != md.ConfigHash ||
			got.ToolVersion != md.ToolVersion || got.GitCommit != md.GitCommit || len(got.Extra) != len(md.Extra) {
			t.Fatalf("got %+v, want %+v", got, md)
		}
		for k, v := range md.Extra {
			if got.Extra[k] != v {
				t.Fatalf("extra %q: got %q, want %q", k, got.Extra[k], v)
			}
		}
		only, err := ReadMetadata(path)
		if err != nil {
			t.Fatal(err)
		}
		if only.Seed != md.Seed || only.Experiment != md.Experiment {
			t.Fatalf("ReadMetadata: got %+v, want %+v", only, md)
		}
	}
}

// TestFileMetadataForOtherReaders checks what pyarrow, R and DuckDB see: the
// run's keys in the Parquet footer, the table name, zstd on every column.
func TestFileMetadataForOtherReaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "squares.parquet")
	if err := WriteSquares(path, genRows(squaresSpec, 10), testMD); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	kv := rdr.MetaData().KeyValueMetadata()
	for k, want := range map[string]string{
		"table": "squares", "experiment": "default", "seed": "16045690984503111693",
		"config_hash": "sha256:0123abcd", "tool_version": "v0.1.0", "git_commit": "f09c8cb",
		"interval": "wilson",
	} {
		if v := kv.FindValue(k); v == nil || *v != want {
			t.Errorf("key %q: got %v, want %q", k, v, want)
		}
	}
	rg := rdr.MetaData().RowGroup(0)
	for i := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		if cc.Compression() != compress.Codecs.Zstd {
			t.Errorf("column %d: compression %v", i, cc.Compression())
		}
	}
}

func TestReservedExtraKeyRejected(t *testing.T) {
	dir := t.TempDir()
	for _, k := range reservedKeys {
		path := filepath.Join(dir, "claims.parquet")
		err := WriteClaims(path, nil, Metadata{Extra: map[string]string{k: "x"}})
		if err == nil || !strings.Contains(err.Error(), "reserved") {
			t.Errorf("extra key %q: err = %v", k, err)
		}
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Errorf("left %v", names)
	}
}

func TestDeterministicBytes(t *testing.T) {
	// Equal inputs give equal files, so a rerun (or a merge of shards) can be
	// compared byte for byte.
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	rows := genRows(squaresSpec, 100)
	if err := WriteSquares(a, rows, testMD); err != nil {
		t.Fatal(err)
	}
	if err := WriteSquares(b, rows, testMD); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("two writes of the same rows differ")
	}
}

func TestReadWrongTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := WriteLengths(path, genRows(lengthsSpec, 2), Metadata{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadDeadEnds(path); err == nil || !strings.Contains(err.Error(), `"lengths"`) {
		t.Fatalf("reading lengths as deadends: err = %v", err)
	}
}

func TestReadMissingFile(t *testing.T) {
	if _, _, err := ReadSquares(filepath.Join(t.TempDir(), "none.parquet")); err == nil {
		t.Fatal("no error")
	}
}

func TestInvalidUTF8Rejected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "claims.parquet")
	err := WriteClaims(path, []ClaimRow{{ID: "ok"}, {ID: "bad\xff"}}, Metadata{})
	if err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Fatalf("err = %v", err)
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Errorf("left %v", names)
	}
}
