package tables

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// sampleRows makes n rows of tb, every column of every row set from its
// row and column number (a closed dictionary from its levels; a nullable
// column null in every third row).
func sampleRows(tb table.Table, n int) reflect.Value {
	rows := reflect.MakeSlice(reflect.SliceOf(tb.Row), n, n)
	for i := range n {
		r := rows.Index(i)
		for j, c := range tb.Columns {
			f := r.FieldByIndex(c.Field)
			null := c.Nullable && i%3 == 2
			switch {
			case null && c.Type == "float64":
				f.SetFloat(math.NaN())
			case null: // "" or an invalid NullInt64
			case c.Type == "dictionary" && c.Closed:
				f.SetString(c.Levels[(i+j)%len(c.Levels)])
			case c.Type == "dictionary" || c.Type == "string":
				f.SetString(fmt.Sprintf("%s-%d", c.Name, i))
			case (c.Type == "int32" || c.Type == "int64") && !c.Nullable:
				f.SetInt(int64(100*i + j))
			case c.Type == "int32":
				f.Set(reflect.ValueOf(table.Int32Of(int32(100*i + j))))
			case c.Type == "int64":
				f.Set(reflect.ValueOf(table.Int64Of(int64(100*i + j))))
			case c.Type == "float64":
				f.SetFloat(float64(i) + float64(j)/8)
			case c.Type == "bool":
				f.SetBool((i+j)%2 == 0)
			}
		}
	}
	return rows
}

// sameValue compares an internal value with the public one field by field
// by name (NaN equal to NaN).
func sameValue(in, pub reflect.Value) bool {
	if in.Kind() == reflect.Struct {
		if in.NumField() != pub.NumField() {
			return false
		}
		for i := range in.NumField() {
			name := in.Type().Field(i).Name
			if pub.Type().Field(i).Name != name || !sameValue(in.Field(i), pub.Field(i)) {
				return false
			}
		}
		return true
	}
	if in.Kind() == reflect.Float64 {
		x, y := in.Float(), pub.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	}
	return in.Interface() == pub.Interface()
}

// TestEveryTableReads: every table of internal/table's list has a public
// reader, which reads back what the tool wrote field for field, and the
// directory's tables a Result method; and a documented section in
// docs/tables.md naming its reader.
func TestEveryTableReads(t *testing.T) {
	docs, err := os.ReadFile("../docs/tables.md")
	if err != nil {
		t.Fatal(err)
	}
	goPage, err := os.ReadFile("../docs/go.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tb := range table.Tables() {
		read, ok := readers[tb.Name]
		if !ok {
			t.Errorf("%s: no public reader", tb.Name)
			continue
		}
		section, ok := strings.CutPrefix(string(docs)[strings.Index(string(docs), "\n## `"+tb.Name+"`\n")+1:], "## `"+tb.Name+"`\n")
		if !ok {
			t.Errorf("%s: no section \"## `%s`\" in docs/tables.md", tb.Name, tb.Name)
		} else if section, _, _ = strings.Cut(section, "\n## "); !strings.Contains(section, "`Read"+tb.GoName+"`") {
			t.Errorf("docs/tables.md, %s: the section does not name its Go reader `Read%s`", tb.Name, tb.GoName)
		}
		if !strings.Contains(string(goPage), "| `"+tb.Name+"`") || !strings.Contains(string(goPage), "`Read"+tb.GoName+"`") {
			t.Errorf("docs/go.md does not list the %s table with its reader Read%s", tb.Name, tb.GoName)
		}
		if _, ok := reflect.TypeFor[*Result]().MethodByName(tb.GoName); ok != (tb.File != "") {
			t.Errorf("%s: Result.%s exists %v, file %q", tb.Name, tb.GoName, ok, tb.File)
		}
		rows := sampleRows(tb, 7)
		path := filepath.Join(dir, tb.Name+".parquet")
		md := Metadata{Experiment: "every", Seed: 3}
		if err := table.WriteAny(path, rows.Interface(), md); err != nil {
			t.Fatal(err)
		}
		got, gotMD, err := read(path)
		if err != nil {
			t.Fatalf("%s: %v", tb.Name, err)
		}
		if gotMD.Experiment != md.Experiment || gotMD.Seed != md.Seed || gotMD.SchemaVersion != SchemaVersion {
			t.Errorf("%s: metadata %+v", tb.Name, gotMD)
		}
		g := reflect.ValueOf(got)
		if g.Len() != rows.Len() {
			t.Fatalf("%s: read %d rows, wrote %d", tb.Name, g.Len(), rows.Len())
		}
		if name := g.Type().Elem().Name(); name != tb.Row.Name() {
			t.Errorf("%s: public row type %s, internal %s", tb.Name, name, tb.Row.Name())
		}
		for i := range rows.Len() {
			if !sameValue(rows.Index(i), g.Index(i)) {
				t.Errorf("%s row %d:\n got %+v\nwant %+v", tb.Name, i, g.Index(i), rows.Index(i))
			}
		}
		// a file of another table is refused
		if other := filepath.Join(dir, "other.parquet"); tb.Name != table.Squares {
			if err := table.WriteAny(other, []table.SquareRow{}, md); err != nil {
				t.Fatal(err)
			}
			if _, _, err := read(other); err == nil {
				t.Errorf("%s: a squares file read as one", tb.Name)
			}
		}
	}
	for _, tb := range table.Tables() {
		if tb.File != "" && !slices.Contains(results.Files, tb.File) && tb.File != results.SieveFile {
			t.Errorf("%s: file %s is not one results writes", tb.Name, tb.File)
		}
	}
	if len(readers) != len(table.Tables()) {
		t.Errorf("%d readers for %d tables", len(readers), len(table.Tables()))
	}
}

// TestResultReadsDesignsAndSieve: a result directory's designs and sieve
// tables read through Open, and are refused when another run wrote them.
func TestResultReadsDesignsAndSieve(t *testing.T) {
	dir := t.TempDir()
	m, err := os.ReadFile(filepath.Join("..", "results", "example", ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	md := Metadata{Experiment: res.Manifest.Experiment, ConfigHash: res.Manifest.ConfigHash}
	designs := []table.DesignRow{{Experiment: md.Experiment, Board: "8x8", Rows: 8, Cols: 8, Design: "rules[0]", Rule: "warnsdorff",
		Start: "a1", StartClass: "corner", StartDegree: 2, Cells: 40320, CellsSucceeding: 40000, CellsFailing: 320, Walks: 40320, Successes: 40000, Deterministic: true}}
	sieve := []table.SieveRow{{Experiment: md.Experiment, Stage: 1, Keep: "fails", Rule: "warnsdorff/first", Start: "a1", Boards: 2, Steps: 90,
		FailedBoard: "9x9", FailedRows: table.Int32Of(9), FailedCols: table.Int32Of(9), FailedLength: table.Int64Of(26), Passed: true, Kept: true,
		Params: table.RuleParams{Spec: "warnsdorff/first", TieBreak: "first"}}}
	if err := table.WriteDesigns(filepath.Join(dir, DesignsFile), designs, md); err != nil {
		t.Fatal(err)
	}
	if err := table.WriteSieve(filepath.Join(dir, SieveFile), sieve, md); err != nil {
		t.Fatal(err)
	}
	d, err := res.Designs()
	if err != nil || len(d) != 1 || d[0].CellsFailing != 320 || d[0].Design != "rules[0]" {
		t.Errorf("Designs: %+v, %v", d, err)
	}
	s, err := res.Sieve()
	if err != nil || len(s) != 1 || s[0].FailedLength != (NullInt64{26, true}) || !s[0].Kept || s[0].Params.Spec != "warnsdorff/first" {
		t.Errorf("Sieve: %+v, %v", s, err)
	}
	md.Experiment = "other"
	if err := table.WriteSieve(filepath.Join(dir, SieveFile), sieve, md); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Sieve(); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("another run's sieve table: %v", err)
	}
}
