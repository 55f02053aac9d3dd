package table

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/knightwalk/knightwalk/internal/testenv"
)

func TestSpecsCoverFields(t *testing.T) {
	for _, tb := range allTables {
		t.Run(tb.name, tb.coverage)
	}
}

func TestRoundTrip(t *testing.T) {
	if !testenv.Slow() {
		// Batches of 7 rows, so that 17 and 12 rows cross batch (row
		// group) boundaries as 65,541 do in batches of 65,536, which the
		// slow pass writes: the same code path at a thousandth of the CPU.
		defer func(n int) { batchRows = n }(batchRows)
		batchRows = 7
	}
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
	got, md, err := Read[SquareRow](path)
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
	rows := []ClassRow{{Board: "1x1", GroupBy: "class", Group: "corner", SuccessRate: math.NaN(), SuccessLo: math.Inf(-1)}}
	path := filepath.Join(t.TempDir(), "classes.parquet")
	if err := WriteClasses(path, rows, Metadata{}); err != nil {
		t.Fatal(err)
	}
	got, _, err := Read[ClassRow](path)
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
		// a binary built in another module records the harness it embeds
		{Build: buildinfo.Info{Module: "example.com/lab", ModuleVersion: "v1.2.0", HarnessModule: buildinfo.ModulePath,
			HarnessVersion: "v0.0.0-20261128021024-d1f1801abcde", HarnessCommit: "d1f1801abcde"}},
		{Build: buildinfo.Info{Module: "example.com/lab", HarnessModule: buildinfo.ModulePath, HarnessReplace: "../knightwalk"}},
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
		_, got, err := Read[LengthRow](path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Seed != md.Seed || got.Experiment != md.Experiment || got.ConfigHash != md.ConfigHash ||
			got.ToolVersion != md.ToolVersion || got.Build != md.Build || got.Config != md.Config || len(got.Extra) != len(md.Extra) {
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

// TestHarnessKeysOnlyInOtherModules: the keys naming the embedded harness
// are written only by a binary built in another module, so a build of this
// module writes the bytes it always did; in a harness build they are
// written beside the building module's path.
func TestHarnessKeysOnlyInOtherModules(t *testing.T) {
	keys := []string{"module", "knightwalk_module", "knightwalk_version", "knightwalk_commit", "knightwalk_replace"}
	dir := t.TempDir()
	own := testMD
	own.Build.Module = buildinfo.ModulePath
	other := testMD
	other.Build = buildinfo.Info{Module: "example.com/lab", HarnessModule: buildinfo.ModulePath,
		HarnessVersion: "v0.1.0", HarnessReplace: "example.com/fork"}
	for i, tc := range []struct {
		md   Metadata
		want map[string]string // the keys present, of keys
	}{
		{own, map[string]string{}},
		{other, map[string]string{"module": "example.com/lab", "knightwalk_module": buildinfo.ModulePath,
			"knightwalk_version": "v0.1.0", "knightwalk_replace": "example.com/fork"}},
	} {
		path := filepath.Join(dir, fmt.Sprintf("squares%d.parquet", i))
		if err := WriteSquares(path, genRows(squaresSpec, 2), tc.md); err != nil {
			t.Fatal(err)
		}
		rdr, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		kv := rdr.MetaData().KeyValueMetadata()
		for _, k := range keys {
			v := kv.FindValue(k)
			want, ok := tc.want[k]
			if (v != nil) != ok || v != nil && *v != want {
				t.Errorf("case %d: key %q = %v, want %q (present %v)", i, k, v, want, ok)
			}
		}
		rdr.Close()
	}
	if _, err := (Metadata{Extra: map[string]string{"knightwalk_version": "x"}}).pairs("squares"); err == nil {
		t.Error("extra key knightwalk_version accepted: it is reserved")
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
		"interval": "wilson", "vcs_modified": "false", "go_version": "go1.26.0", "module_version": "(devel)",
		"goos": "linux", "goarch": "amd64", "cpu": "Some CPU @ 2.20GHz", "config": `{"format":1,"name":"default"}`,
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
	if _, _, err := Read[DeadEndRow](path); err == nil || !strings.Contains(err.Error(), `"lengths"`) {
		t.Fatalf("reading lengths as deadends: err = %v", err)
	}
}

func TestReadMissingFile(t *testing.T) {
	if _, _, err := Read[SquareRow](filepath.Join(t.TempDir(), "none.parquet")); err == nil {
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

// TestReadOldSchemaVersion: a version 1 file (a claims table written before
// schema_version existed, copied from an old results/example) and files of
// other versions are refused with the version found and the one expected.
func TestReadOldSchemaVersion(t *testing.T) {
	_, _, err := Read[ClaimRow](filepath.Join("testdata", "v1-claims.parquet"))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("v1-claims.parquet: schema version 1 (no schema_version key), but this tool reads version %d", SchemaVersion)) {
		t.Fatalf("reading a version 1 file: err = %v", err)
	}
	// read as another table, the version is still what is reported
	if _, _, err := Read[SquareRow](filepath.Join("testdata", "v1-claims.parquet")); err == nil || !strings.Contains(err.Error(), "schema version 1") {
		t.Fatalf("reading a version 1 file as squares: err = %v", err)
	}
	md, err := ReadMetadata(filepath.Join("testdata", "v1-claims.parquet"))
	if err != nil || md.SchemaVersion != 1 {
		t.Fatalf("ReadMetadata of a version 1 file: %+v, %v", md, err)
	}
	// A file that says schema_version 1 has the key: the message must not
	// say it has none.
	_, err = parseMetadata([]string{"schema_version", "table"}, []string{"1", "claims"}, "claims")
	if err == nil || !strings.Contains(err.Error(), "schema version 1, but this tool reads version") {
		t.Errorf("schema_version \"1\": err = %v; want the version without \"(no schema_version key)\"", err)
	}
	for _, v := range []string{"2", "4", "x", "0"} { // 2: before rule_spec (issue 35)
		_, err := parseMetadata([]string{"schema_version", "table"}, []string{v, "claims"}, "claims")
		if err == nil || !strings.Contains(err.Error(), v) {
			t.Errorf("schema_version %q: err = %v", v, err)
		}
	}
}

// TestCategoricalLevels checks the dictionaries written for categorical
// columns: the run's boards sorted by size and rules in the run's order,
// fixed vocabularies in full, the same levels in every row group, ordered.
func TestCategoricalLevels(t *testing.T) {
	md := Metadata{Levels: Levels{Boards: []string{"10x10", "8x8", "3x4", "4x3", "5x5"}, Rules: []string{"warnsdorff/random", "random"}}}
	rows := []ClassRow{
		{Board: "8x8", Rule: "random", GroupBy: "degree", Group: "8"},
		{Board: "10x10", Rule: "random", GroupBy: "degree", Group: "2"},
		{Board: "5x5", Rule: "warnsdorff/random", GroupBy: "class", Group: "edge"},
		{Board: "5x5", Rule: "warnsdorff/random", GroupBy: "degree", Group: "10"},
	}
	path := filepath.Join(t.TempDir(), "classes.parquet")
	if err := WriteClasses(path, rows, md); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	want := map[string][]string{
		"board":    {"3x4", "4x3", "5x5", "8x8", "10x10"},
		"rule":     {"warnsdorff/random", "random"},
		"group_by": {"class", "degree"},
		"group":    {"corner", "edge", "centre", "interior", "2", "8", "10"},
	}
	for name, levels := range want {
		i := tbl.Schema().FieldIndices(name)[0]
		col := tbl.Column(i)
		dt, ok := col.DataType().(*arrow.DictionaryType)
		if !ok || !dt.Ordered {
			t.Fatalf("%s: type %s, want an ordered dictionary", name, col.DataType())
		}
		for _, ch := range col.Data().Chunks() {
			d := ch.(*array.Dictionary).Dictionary().(*array.String)
			var got []string
			for j := range d.Len() {
				got = append(got, d.Value(j))
			}
			if !slices.Equal(got, levels) {
				t.Errorf("%s: levels %q, want %q", name, got, levels)
			}
		}
	}
	// a value outside a closed vocabulary is refused, naming the valid ones
	bad := []ClassRow{{Board: "8x8", Rule: "random", GroupBy: "colour", Group: "2"}}
	err = WriteClasses(path, bad, md)
	if err == nil || !strings.Contains(err.Error(), `"colour" is not one of its levels ["class" "degree"]`) {
		t.Fatalf("group_by colour: err = %v", err)
	}
}

// TestNullNotNaN: an undefined value is a null in the file (never a NaN),
// read back as NaN in Go; a NaN where a value is always defined is refused.
func TestNullNotNaN(t *testing.T) {
	rows := []ClassRow{{Board: "1x1", GroupBy: "class", Group: "corner", SuccessRate: math.NaN(), SuccessLo: 0.5}}
	path := filepath.Join(t.TempDir(), "classes.parquet")
	if err := WriteClasses(path, rows, Metadata{}); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	rg := rdr.MetaData().RowGroup(0)
	for i, name := range []string{"success_rate", "success_lo"} {
		cc, err := rg.ColumnChunk(rdr.MetaData().Schema.ColumnIndexByName(name))
		if err != nil {
			t.Fatal(err)
		}
		st, err := cc.Statistics()
		if err != nil || st == nil {
			t.Fatalf("%s: no statistics (%v)", name, err)
		}
		if got := st.NullCount(); got != int64(1-i) {
			t.Errorf("%s: %d nulls, want %d", name, got, 1-i)
		}
	}
	rdr.Close()
	claim := []ClaimRow{{Rule: "random", Board: "8x8", Kind: "rate", Verdict: "refuted", ClaimedLo: math.NaN()}}
	if err := WriteClaims(filepath.Join(t.TempDir(), "claims.parquet"), claim, Metadata{}); err == nil || !strings.Contains(err.Error(), "claimed_lo: NaN") {
		t.Fatalf("NaN claimed_lo: err = %v", err)
	}
}

// TestLevelsInMetadata: every categorical column's full level list is in
// its field metadata and in the file's levels key, also in a table with no
// rows; a null tie-break (the random rule) is not a level.
func TestLevelsInMetadata(t *testing.T) {
	md := Metadata{Experiment: "e", Levels: Levels{Experiment: "e", Boards: []string{"8x8", "5x5"}, Rules: []string{"warnsdorff/random", "random"}, TieBreaks: []string{"random"}}}
	dir := t.TempDir()
	rows := []SquareRow{
		{Experiment: "e", Board: "8x8", Rule: "random", StartClass: "corner"},
		{Experiment: "e", Board: "8x8", Rule: "warnsdorff/random", StartClass: "corner", Params: RuleParams{TieBreak: "random"}},
	}
	want := map[string][]string{
		"experiment":  {"e"},
		"board":       {"5x5", "8x8"},
		"rule":        {"warnsdorff/random", "random"},
		"start_class": {"corner", "edge", "centre", "interior"},
		"tie_break":   {"random", "first", "pohl", "roth"},
		"stop":        StopReasons,
		"estimator":   {EstimatorWalks, EstimatorSplitting},
	}
	for _, n := range []int{len(rows), 0} {
		path := filepath.Join(dir, fmt.Sprintf("squares-%d.parquet", n))
		if err := WriteSquares(path, rows[:n], md); err != nil {
			t.Fatal(err)
		}
		rdr, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := fr.Schema()
		if err != nil {
			t.Fatal(err)
		}
		var fileLevels map[string][]string
		v := rdr.MetaData().KeyValueMetadata().FindValue(LevelsKey)
		if v == nil {
			t.Fatalf("%d rows: no file key %s", n, LevelsKey)
		}
		if err := json.Unmarshal([]byte(*v), &fileLevels); err != nil {
			t.Fatalf("%d rows: file key %s: %v", n, LevelsKey, err)
		}
		rdr.Close()
		if !reflect.DeepEqual(fileLevels, want) {
			t.Errorf("%d rows: file levels %q, want %q", n, fileLevels, want)
		}
		for name, levels := range want {
			f := sc.Field(sc.FieldIndices(name)[0])
			i := f.Metadata.FindKey(LevelsKey)
			var got []string
			if i < 0 || json.Unmarshal([]byte(f.Metadata.Values()[i]), &got) != nil || !slices.Equal(got, levels) {
				t.Errorf("%d rows: %s field metadata %v, want levels %q", n, name, f.Metadata, levels)
			}
		}
	}
}

// TestTables: Tables describes every table of tableList, each column with
// the field it fills (the field of its name's type, by the column's kind)
// and docs/tables.md's description, and each table once.
func TestTables(t *testing.T) {
	seen := map[string]bool{}
	for _, tb := range Tables() {
		if seen[tb.Name] || seen[tb.GoName] {
			t.Errorf("%s (%s) listed twice", tb.Name, tb.GoName)
		}
		seen[tb.Name], seen[tb.GoName] = true, true
		if (tb.File != "") != (tb.Name != Exact && tb.Name != Counts && tb.Name != TourEstimates) {
			t.Errorf("%s: file %q", tb.Name, tb.File)
		}
		fields := map[string]bool{}
		for _, c := range tb.Columns {
			if c.Description == "" {
				t.Errorf("%s.%s: no description", tb.Name, c.Name)
			}
			if len(c.Field) == 0 {
				t.Errorf("%s.%s: no field", tb.Name, c.Name)
				continue
			}
			f := tb.Row.FieldByIndex(c.Field)
			key := fmt.Sprint(c.Field)
			if fields[key] {
				t.Errorf("%s.%s: field %s filled twice", tb.Name, c.Name, f.Name)
			}
			fields[key] = true
			want := map[string]reflect.Kind{"string": reflect.String, "dictionary": reflect.String, "int32": reflect.Int32,
				"int64": reflect.Int64, "float64": reflect.Float64, "bool": reflect.Bool}[c.Type]
			if (c.Type == "int64" || c.Type == "int32") && c.Nullable {
				want = reflect.Struct // NullInt64, NullInt32
			}
			if f.Type.Kind() != want {
				t.Errorf("%s.%s: %s column in field %s of kind %s", tb.Name, c.Name, c.Type, f.Name, f.Type.Kind())
			}
		}
	}
	if len(seen) != 2*len(allTables) {
		t.Errorf("Tables lists %d names, the tests %d tables", len(seen)/2, len(allTables))
	}
}
