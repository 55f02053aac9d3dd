package table

import (
	"fmt"
	"reflect"
	"slices"
)

// tableList is the one list of the tables: each table's spec (its name,
// columns and row type, schemas.go), the name of its Go identifiers, and
// what writes it. Read, the tests' table list, the result directory's file
// names (results) and the public package's row types and readers
// (tables/rows.go, generated from Tables) all come from it; a table added
// to the tool is added here and nowhere else by hand.
var tableList = []entry{
	{squaresSpec, "Squares", inResult, "every run"},
	{lengthsSpec, "Lengths", inResult, "every run"},
	{deadEndsSpec, "DeadEnds", inResult, "every run"},
	{classesSpec, "Classes", inResult, "every run"},
	{boardsSpec, "Boards", inResult, "every run"},
	{comparisonsSpec, "Comparisons", inResult, "every run"},
	{claimsSpec, "Claims", inResult, "every run"},
	{walksSpec, "Walks", inResult, "a run that asks for the per-walk table"},
	{designsSpec, "Designs", inResult, "a run whose experiment has a design (docs/designs.md)"},
	{sieveSpec, "Sieve", inResult, "a sieve, in place of every other table (docs/designs.md)"},
	{exactSpec, "Exact", atOut, "`experiment exact --format parquet --out FILE`"},
	{countsSpec, "Counts", atOut, "`experiment count --format parquet --out FILE`"},
	{tourEstimatesSpec, "TourEstimates", atOut, "`experiment count --method sample --format parquet --out FILE`"},
}

// entry is one table of tableList.
type entry struct {
	spec   anySpec
	goName string
	// inResult: the table is a file of a result directory, named after
	// it; else a command writes it to the file its --out names.
	inResult  bool
	writtenBy string
}

const inResult, atOut = true, false

// anySpec is a *spec[R] of any row type R.
type anySpec interface {
	tableName() string
	rowType() reflect.Type
	columnsOf() []Column
	writeAny(path string, rows any, md Metadata) (bool, error)
}

func (s *spec[R]) tableName() string     { return s.name }
func (s *spec[R]) rowType() reflect.Type { return reflect.TypeFor[R]() }

// lookupSpec is the spec of the table of rows R, found in tableList.
func lookupSpec[R any]() *spec[R] {
	for _, e := range tableList {
		if s, ok := e.spec.(*spec[R]); ok {
			return s
		}
	}
	panic(fmt.Sprintf("table: no table of rows %v in tableList", reflect.TypeFor[R]()))
}

// Table describes one table, as tableList declares it.
type Table struct {
	// Name is the table's name, stored under every file's table key.
	Name string
	// GoName names its Go identifiers: the constant of its name, its
	// writer (WriteSquares) and its readers (tables.ReadSquares).
	GoName string
	// File is its file in a result directory ("squares.parquet"), or ""
	// for a table a command writes to the file --out names.
	File string
	// WrittenBy says what writes it: "every run", or a command.
	WrittenBy string
	// Row is its row type.
	Row reflect.Type
	// Columns are its columns in the files' order.
	Columns []Column
}

// Column is one column of a table and the field of the row type it fills.
type Column struct {
	Name string
	// Type is the column's type as docs/tables.md names it: string,
	// dictionary, int32, int64, float64 or bool.
	Type     string
	Nullable bool
	// Unit and Description are docs/tables.md's (fielddocs.go).
	Unit, Description string
	// Levels are a dictionary column's fixed levels, in their order; a
	// Closed column has no others.
	Levels []string
	Closed bool
	// Field is the index path of the column's field in the row type
	// (reflect.Value.FieldByIndex): two indices for a field of the row's
	// RuleParams or StartKey.
	Field []int
}

// Tables returns every table, in tableList's order.
func Tables() []Table {
	out := make([]Table, len(tableList))
	for i, e := range tableList {
		name := e.spec.tableName()
		file := ""
		if e.inResult {
			file = name + ".parquet"
		}
		out[i] = Table{Name: name, GoName: e.goName, File: file, WrittenBy: e.writtenBy,
			Row: e.spec.rowType(), Columns: e.spec.columnsOf()}
	}
	return out
}

// columnsOf describes s's columns, finding each one's field by setting it
// in a zero row and looking for the field that changed.
func (s *spec[R]) columnsOf() []Column {
	cols := make([]Column, len(s.cols))
	for i, c := range s.cols {
		var r R
		setOne(&c, &r)
		d := fieldDocs[s.name+"."+c.name]
		cols[i] = Column{Name: c.name, Type: c.kind.String(), Nullable: c.nullable,
			Unit: d.unit, Description: d.description, Field: setField(reflect.ValueOf(r), nil)}
		if c.order != nil {
			cols[i].Levels, cols[i].Closed = slices.Clone(c.order.fixed), c.order.closed
		}
	}
	return cols
}

// setOne sets column c of r to a non-zero value.
func setOne[R any](c *column[R], r *R) {
	switch c.kind {
	case kString, kDict:
		*c.str(r) = "x"
	case kInt32:
		if c.nullable {
			*c.ni32(r) = Int32Of(1)
		} else {
			*c.i32(r) = 1
		}
	case kInt64:
		if c.nullable {
			*c.ni64(r) = Int64Of(1)
		} else {
			*c.i64(r) = 1
		}
	case kFloat64:
		*c.f64(r) = 1
	case kBool:
		*c.b(r) = true
	}
}

// setField is the index path of the one non-zero field of v, a struct,
// descending into RuleParams and StartKey.
func setField(v reflect.Value, path []int) []int {
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		p := append(slices.Clone(path), i)
		if t := f.Type(); t == reflect.TypeFor[RuleParams]() || t == reflect.TypeFor[StartKey]() {
			return setField(f, p)
		}
		return p
	}
	return nil
}

// Write writes the table of rows R to path: the one writer the Write
// functions of each table call.
func Write[R Row](path string, rows []R, md Metadata) error {
	return write(path, lookupSpec[R](), rows, md)
}

// WriteAny writes rows, a slice of one table's row type ([]SquareRow,
// []SieveRow, …), to path as that table.
func WriteAny(path string, rows any, md Metadata) error {
	for _, e := range tableList {
		if ok, err := e.spec.writeAny(path, rows, md); ok {
			return err
		}
	}
	return fmt.Errorf("table: %s: %T is not a slice of a table's rows", path, rows)
}

func (s *spec[R]) writeAny(path string, rows any, md Metadata) (bool, error) {
	r, ok := rows.([]R)
	if !ok {
		return false, nil
	}
	return true, write(path, s, r, md)
}
