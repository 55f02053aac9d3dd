package table

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
)

// colInfo and tableInfo are the non-generic view of a spec the tests use.
type colInfo struct {
	name     string
	kind     kind
	nullable bool
}

type tableInfo struct {
	name     string
	rowType  reflect.Type
	cols     []colInfo
	schema   *arrow.Schema
	coverage func(t *testing.T)
	// write writes n generated rows to path.
	write func(path string, n int) error
	// roundTrip writes n generated rows with md and checks they read back.
	roundTrip func(t *testing.T, dir string, n int, md Metadata)
}

func infoOf[R any](s *spec[R], wr func(string, []R, Metadata) error, rd func(string) ([]R, Metadata, error)) tableInfo {
	cols := make([]colInfo, len(s.cols))
	for i, c := range s.cols {
		cols[i] = colInfo{c.name, c.kind, c.nullable}
	}
	return tableInfo{
		name:     s.name,
		rowType:  reflect.TypeFor[R](),
		cols:     cols,
		schema:   s.schema,
		coverage: func(t *testing.T) { checkCoverage(t, s) },
		write:    func(path string, n int) error { return wr(path, genRows(s, n), Metadata{}) },
		roundTrip: func(t *testing.T, dir string, n int, md Metadata) {
			t.Helper()
			rows := genRows(s, n)
			path := filepath.Join(dir, s.name+".parquet")
			if err := wr(path, rows, md); err != nil {
				t.Fatalf("write %s: %v", s.name, err)
			}
			got, gotMD, err := rd(path)
			if err != nil {
				t.Fatalf("read %s: %v", s.name, err)
			}
			if len(got) != len(rows) {
				t.Fatalf("%s: read %d rows, wrote %d", s.name, len(got), len(rows))
			}
			for i := range rows {
				if !sameRow(got[i], rows[i]) {
					t.Fatalf("%s row %d:\n got %+v\nwant %+v", s.name, i, got[i], rows[i])
				}
			}
			md.SchemaVersion, md.Levels = SchemaVersion, Levels{}
			if !reflect.DeepEqual(gotMD, md) {
				t.Fatalf("%s metadata:\n got %+v\nwant %+v", s.name, gotMD, md)
			}
		},
	}
}

// allTables is every table of tableList, each written by write and read
// by Read's spec lookup.
var allTables = func() []tableInfo {
	out := make([]tableInfo, len(tableList))
	for i, e := range tableList {
		out[i] = e.spec.(interface{ info() tableInfo }).info()
	}
	return out
}()

// info is s's tableInfo.
func (s *spec[R]) info() tableInfo {
	return infoOf(s,
		func(path string, rows []R, md Metadata) error { return write(path, s, rows, md) },
		func(path string) ([]R, Metadata, error) { return read(path, lookupSpec[R]()) })
}

// genRows makes n rows in which every column of every row has its own value,
// with edge values (extremes, infinities, non-ASCII text) mixed in, and runs
// of equal strings as real tables have.
func genRows[R any](s *spec[R], n int) []R {
	rows := make([]R, n)
	for i := range rows {
		r := &rows[i]
		for j, c := range s.cols {
			switch c.kind {
			case kDict:
				// values from the column's levels when it has fixed ones
				switch f := c.order.fixed; {
				case c.nullable && i%4 == 3:
					*c.str(r) = "" // null
				case c.order.closed:
					*c.str(r) = f[(i/3+j)%len(f)]
				default:
					*c.str(r) = fmt.Sprintf("%s-%d", c.name, i/3%5)
				}
			case kString:
				v := fmt.Sprintf("%s-%d", c.name, i/3) // runs of 3
				switch i % 7 {
				case 1:
					v = ""
				case 2:
					v = "centre ♞ é"
				}
				*c.str(r) = v
			case kInt32:
				v := int32(i*100 + j)
				switch i % 5 {
				case 1:
					v = math.MaxInt32
				case 2:
					v = math.MinInt32
				}
				if c.nullable {
					var x NullInt32 // null in every fourth row
					if i%4 != 3 {
						x = Int32Of(v)
					}
					*c.ni32(r) = x
					continue
				}
				*c.i32(r) = v
			case kInt64:
				v := int64(i)*1_000_003 + int64(j)
				switch i % 5 {
				case 1:
					v = math.MaxInt64
				case 2:
					v = math.MinInt64
				}
				if c.nullable {
					var x NullInt64 // null in every fourth row
					if i%4 != 3 {
						x = Int64Of(v)
					}
					*c.ni64(r) = x
					continue
				}
				*c.i64(r) = v
			case kFloat64:
				v := float64(i) + float64(j)/64
				switch i % 6 {
				case 1:
					v = math.Inf(1)
				case 2:
					v = math.Inf(-1)
				case 3:
					v = 1e-300
				case 4:
					if c.nullable {
						v = math.NaN() // written as null
					}
				}
				*c.f64(r) = v
			case kBool:
				*c.b(r) = (i+j)%2 == 0
			}
		}
	}
	return rows
}

// checkCoverage checks that the columns of s address every field of R
// exactly once: setting column j makes exactly j+1 fields non-zero.
func checkCoverage[R any](t *testing.T, s *spec[R]) {
	t.Helper()
	var r R
	v := reflect.ValueOf(&r).Elem()
	// the fields, with RuleParams's and StartKey's fields counted one by one
	var fields []reflect.Value
	for f := range v.NumField() {
		if fv := v.Field(f); fv.Type() == reflect.TypeFor[RuleParams]() || fv.Type() == reflect.TypeFor[StartKey]() {
			for g := range fv.NumField() {
				fields = append(fields, fv.Field(g))
			}
		} else {
			fields = append(fields, fv)
		}
	}
	if len(fields) != len(s.cols) {
		t.Errorf("%s: %d columns for %d fields of %T", s.name, len(s.cols), len(fields), r)
	}
	for j, c := range s.cols {
		switch c.kind {
		case kString, kDict:
			*c.str(&r) = "x"
		case kInt32:
			if c.nullable {
				*c.ni32(&r) = Int32Of(1)
			} else {
				*c.i32(&r) = 1
			}
		case kInt64:
			if c.nullable {
				*c.ni64(&r) = Int64Of(1)
			} else {
				*c.i64(&r) = 1
			}
		case kFloat64:
			*c.f64(&r) = 1
		case kBool:
			*c.b(&r) = true
		}
		nonZero := 0
		for _, f := range fields {
			if !f.IsZero() {
				nonZero++
			}
		}
		if nonZero != j+1 {
			t.Errorf("%s: column %q does not address a field of its own", s.name, c.name)
		}
	}
}

// listDir returns the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

var testMD = Metadata{
	SchemaVersion: SchemaVersion, // as read back
	Experiment:    "default",
	Seed:          0xdeadbeefcafef00d,
	ConfigHash:    "sha256:0123abcd",
	ToolVersion:   "v0.1.0",
	Build: buildinfo.Info{Revision: "f09c8cb", Modified: "false", GoVersion: "go1.26.0", ModuleVersion: "(devel)",
		GOOS: "linux", GOARCH: "amd64", CPU: "Some CPU @ 2.20GHz"},
	Config: `{"format":1,"name":"default"}`,
	Extra:  map[string]string{"confidence": "0.95", "interval": "wilson", "note": "ünïcode"},
}

// sameRow compares two rows field by field, taking NaN (a null in the file)
// as equal to NaN.
func sameRow[R any](a, b R) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		fa, fb := va.Field(i), vb.Field(i)
		if fa.Kind() == reflect.Float64 {
			x, y := fa.Float(), fb.Float()
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
			continue
		}
		if !fa.Equal(fb) {
			return false
		}
	}
	return true
}

// WriteWalks writes the walks table to path from a slice. For many walks use
// a WalkWriter, which does not need them all in memory.
func WriteWalks(path string, rows []WalkRow, md Metadata) error {
	return write(path, walksSpec, rows, md)
}
