package table

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

var update = flag.Bool("update", false, "rewrite fielddocs.go from docs/tables.md")

const docsPath = "../../docs/tables.md"

// docCol is one column as docs/tables.md documents it.
type docCol struct {
	colInfo
	unit    string
	meaning string
}

// docTables parses docs/tables.md: a table section is a heading
// "## `name`", and its columns are the rows
// "| `column` | type | unit | meaning |" that follow it. A type
// "float64 or null" is a nullable float64.
func docTables(t *testing.T) (map[string][]docCol, []string) {
	t.Helper()
	f, err := os.Open(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kindOf := map[string]kind{}
	for _, k := range kinds {
		kindOf[k.String()] = k
	}
	tables := map[string][]docCol{}
	var order []string
	cur := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "## "):
			h := strings.TrimSpace(strings.TrimPrefix(line, "## "))
			cur = ""
			if strings.HasPrefix(h, "`") && strings.HasSuffix(h, "`") && len(h) > 2 {
				cur = strings.Trim(h, "`")
				if _, dup := tables[cur]; dup {
					t.Errorf("%s:%d: table %q documented twice", docsPath, n, cur)
				}
				tables[cur] = nil
				order = append(order, cur)
			}
		case strings.HasPrefix(line, "#"):
			cur = ""
		case cur != "" && strings.HasPrefix(line, "| `"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) != 4 {
				t.Errorf("%s:%d: want 4 cells (column, type, unit, meaning), got %d", docsPath, n, len(cells))
				continue
			}
			name := strings.Trim(strings.TrimSpace(cells[0]), "`")
			typ, nullable := strings.CutSuffix(strings.TrimSpace(cells[1]), " or null")
			k, ok := kindOf[typ]
			if !ok {
				t.Errorf("%s:%d: %s.%s: unknown type %q", docsPath, n, cur, name, typ)
			}
			meaning := strings.TrimSpace(cells[3])
			if meaning == "" {
				t.Errorf("%s:%d: %s.%s has no meaning", docsPath, n, cur, name)
			}
			tables[cur] = append(tables[cur], docCol{colInfo{name, k, nullable}, strings.TrimSpace(cells[2]), meaning})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tables, order
}

// TestDocsMatchCode keeps docs/tables.md and the column lists in step:
// every table and column in the code is documented with its type, in order,
// and nothing is documented that the code does not write.
func TestDocsMatchCode(t *testing.T) {
	doc, _ := docTables(t)
	code := map[string]bool{}
	for _, tb := range allTables {
		code[tb.name] = true
		cols, ok := doc[tb.name]
		if !ok {
			t.Errorf("table %s is not documented in %s (want a heading \"## `%s`\")", tb.name, docsPath, tb.name)
			continue
		}
		documented := map[string]docCol{}
		for _, c := range cols {
			documented[c.name] = c
		}
		inCode := map[string]bool{}
		for _, c := range tb.cols {
			inCode[c.name] = true
			d, ok := documented[c.name]
			switch {
			case !ok:
				t.Errorf("%s.%s is written but not documented", tb.name, c.name)
			case d.kind != c.kind:
				t.Errorf("%s.%s: documented as %s, written as %s", tb.name, c.name, d.kind, c.kind)
			case d.nullable != c.nullable:
				t.Errorf("%s.%s: documented nullable %v, written nullable %v", tb.name, c.name, d.nullable, c.nullable)
			}
		}
		for _, c := range cols {
			if !inCode[c.name] {
				t.Errorf("%s.%s is documented but not written", tb.name, c.name)
			}
		}
		if len(cols) == len(tb.cols) {
			for i := range cols {
				if cols[i].name != tb.cols[i].name {
					t.Errorf("%s: column %d is %s in the docs, %s in the code", tb.name, i, cols[i].name, tb.cols[i].name)
					break
				}
			}
		}
	}
	for name := range doc {
		if !code[name] {
			t.Errorf("table %s is documented but not written", name)
		}
	}
}

// TestDocsMetadataKeys checks the documented metadata keys are the ones
// written.
func TestDocsMetadataKeys(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range reservedKeys {
		if !strings.Contains(string(b), "`"+k+"`") {
			t.Errorf("metadata key %q is not documented", k)
		}
	}
}

// resolvedDocs returns every documented column's unit and description, keyed
// "table.column". A meaning "as in `other`" takes the unit and meaning of the
// same column in table other.
func resolvedDocs(t *testing.T) map[string]fieldDoc {
	t.Helper()
	doc, order := docTables(t)
	out := map[string]fieldDoc{}
	for _, tb := range order {
		for _, c := range doc[tb] {
			d := fieldDoc{unit: c.unit, description: c.meaning}
			if ref, ok := strings.CutPrefix(c.meaning, "as in `"); ok && strings.HasSuffix(ref, "`") {
				from, ok := out[strings.TrimSuffix(ref, "`")+"."+c.name]
				if !ok {
					t.Errorf("%s.%s: %q, but that table has no such column documented above", tb, c.name, c.meaning)
				}
				d = from
			}
			out[tb+"."+c.name] = d
		}
	}
	return out
}

// fieldDocsSource is fielddocs.go as generated from docs.
func fieldDocsSource(t *testing.T, docs map[string]fieldDoc) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./internal/table -run TestFieldDocs -update; DO NOT EDIT.\n\n")
	b.WriteString("package table\n\n")
	b.WriteString("// fieldDoc is a column's unit (empty when it has none) and description.\n")
	b.WriteString("type fieldDoc struct{ unit, description string }\n\n")
	b.WriteString("// fieldDocs holds the unit and meaning of every column of docs/tables.md,\n")
	b.WriteString("// keyed \"table.column\"; they become the columns' Arrow field metadata.\n")
	b.WriteString("var fieldDocs = map[string]fieldDoc{\n")
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%q: {%q, %q},\n", k, docs[k].unit, docs[k].description)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestFieldDocs checks the field metadata written into every file (unit and
// description) is docs/tables.md's: fielddocs.go is generated from the page
// (run with -update to regenerate it), and every written field carries it.
func TestFieldDocs(t *testing.T) {
	docs := resolvedDocs(t)
	want := fieldDocsSource(t, docs)
	if *update {
		if err := os.WriteFile("fielddocs.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("fielddocs.go rewritten; run the tests again")
	}
	got, err := os.ReadFile("fielddocs.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("fielddocs.go is stale against %s: run go test ./internal/table -run TestFieldDocs -update", docsPath)
	}
	for _, tb := range allTables {
		// what a reader finds in a file: the stored Arrow schema
		path := filepath.Join(t.TempDir(), tb.name+".parquet")
		if err := tb.write(path, 3); err != nil {
			t.Fatal(err)
		}
		stored := storedSchema(t, path)
		for _, f := range stored.Fields() {
			d := docs[tb.name+"."+f.Name]
			md := f.Metadata
			if v, _ := md.GetValue("description"); v != d.description || v == "" {
				t.Errorf("%s.%s: description %q, docs say %q", tb.name, f.Name, v, d.description)
			}
			if v, ok := md.GetValue("unit"); v != d.unit || ok != (d.unit != "") {
				t.Errorf("%s.%s: unit %q, docs say %q", tb.name, f.Name, v, d.unit)
			}
		}
	}
}

// storedSchema is the Arrow schema stored in a file, as pyarrow reads it.
func storedSchema(t *testing.T, path string) *arrow.Schema {
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
