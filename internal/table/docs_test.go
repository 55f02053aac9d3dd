package table

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

const docsPath = "../../docs/tables.md"

// docTables parses docs/tables.md: a table section is a heading
// "## `name`", and its columns are the rows "| `column` | type | meaning |"
// that follow it.
func docTables(t *testing.T) (map[string][]colInfo, []string) {
	t.Helper()
	f, err := os.Open(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kinds := map[string]kind{}
	for _, k := range []kind{kString, kInt32, kUint64, kFloat64, kBool} {
		kinds[k.String()] = k
	}
	tables := map[string][]colInfo{}
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
			if len(cells) != 3 {
				t.Errorf("%s:%d: want 3 cells (column, type, meaning), got %d", docsPath, n, len(cells))
				continue
			}
			name := strings.Trim(strings.TrimSpace(cells[0]), "`")
			typ := strings.TrimSpace(cells[1])
			k, ok := kinds[typ]
			if !ok {
				t.Errorf("%s:%d: %s.%s: unknown type %q", docsPath, n, cur, name, typ)
			}
			if strings.TrimSpace(cells[2]) == "" {
				t.Errorf("%s:%d: %s.%s has no meaning", docsPath, n, cur, name)
			}
			tables[cur] = append(tables[cur], colInfo{name, k})
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
		documented := map[string]colInfo{}
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
