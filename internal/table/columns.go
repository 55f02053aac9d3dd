package table

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// kind is a column's value type. Each kind maps to one Arrow type and one
// Parquet type (see docs/tables.md).
type kind uint8

const (
	kString kind = iota
	kDict        // a categorical string: Arrow dictionary<int32, utf8>, ordered
	kInt32
	kInt64
	kFloat64
	kBool
)

// kinds is every kind, for the tests and the docs parser.
var kinds = []kind{kString, kDict, kInt32, kInt64, kFloat64, kBool}

func (k kind) String() string {
	switch k {
	case kString:
		return "string"
	case kDict:
		return "dictionary"
	case kInt32:
		return "int32"
	case kInt64:
		return "int64"
	case kFloat64:
		return "float64"
	case kBool:
		return "bool"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// dictType is the Arrow type of every categorical column. Ordered, so that
// pandas reads an ordered Categorical and the level order is part of the
// type, not an accident of the data.
var dictType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String, Ordered: true}

func (k kind) arrowType() arrow.DataType {
	switch k {
	case kString:
		return arrow.BinaryTypes.String
	case kDict:
		return dictType
	case kInt32:
		return arrow.PrimitiveTypes.Int32
	case kInt64:
		return arrow.PrimitiveTypes.Int64
	case kFloat64:
		return arrow.PrimitiveTypes.Float64
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	}
	panic("table: unknown column kind")
}

// isString reports whether t is one of the string types other writers use.
func isString(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	return false
}

// accepts reports whether an Arrow type read from a file can fill a column of
// kind k. Strings accept the large and view variants other writers produce;
// categorical columns accept a dictionary of strings or plain strings.
func (k kind) accepts(t arrow.DataType) bool {
	switch k {
	case kString, kDict:
		if isString(t) {
			return true
		}
		if d, ok := t.(*arrow.DictionaryType); ok {
			return isString(d.ValueType)
		}
		return false
	}
	return arrow.TypeEqual(t, k.arrowType())
}

// column binds a Parquet column to one field of the row type R. The accessor
// returns a pointer to the field, so one function serves both writing and
// reading; only the accessor matching kind is set. Columns are filled column
// by column over a batch of rows, with one type switch per batch, not per value.
type column[R any] struct {
	name string
	kind kind
	// A nullable column holds null where its value is undefined or does not
	// apply. In Go rows that is NaN for float64, "" for strings and
	// categories (no nullable column has "" as a value), and Valid false for
	// a NullInt64. A NaN in a float64 column that is not nullable is an error.
	nullable bool
	order    *order // level order of a kDict column
	str      func(*R) *string
	i32      func(*R) *int32
	i64      func(*R) *int64
	ni64     func(*R) *NullInt64 // a nullable int64 column
	ni32     func(*R) *NullInt32 // a nullable int32 column
	f64      func(*R) *float64
	b        func(*R) *bool
}

func strCol[R any](name string, f func(*R) *string) column[R] {
	return column[R]{name: name, kind: kString, str: f}
}

// dictCol is a categorical column whose levels are ordered by o.
func dictCol[R any](name string, o *order, f func(*R) *string) column[R] {
	return column[R]{name: name, kind: kDict, order: o, str: f}
}

// optStrCol is a string column that is null where the row holds "".
func optStrCol[R any](name string, f func(*R) *string) column[R] {
	return column[R]{name: name, kind: kString, nullable: true, str: f}
}

// optDictCol is a categorical column that is null where the row holds "".
func optDictCol[R any](name string, o *order, f func(*R) *string) column[R] {
	return column[R]{name: name, kind: kDict, nullable: true, order: o, str: f}
}

func i32Col[R any](name string, f func(*R) *int32) column[R] {
	return column[R]{name: name, kind: kInt32, i32: f}
}

func i64Col[R any](name string, f func(*R) *int64) column[R] {
	return column[R]{name: name, kind: kInt64, i64: f}
}

// optI32Col is an int32 column that is null where the row's NullInt32 is
// not Valid.
func optI32Col[R any](name string, f func(*R) *NullInt32) column[R] {
	return column[R]{name: name, kind: kInt32, nullable: true, ni32: f}
}

// optI64Col is an int64 column that is null where the row's NullInt64 is
// not Valid.
func optI64Col[R any](name string, f func(*R) *NullInt64) column[R] {
	return column[R]{name: name, kind: kInt64, nullable: true, ni64: f}
}

// f64Col is a float64 column that is never undefined.
func f64Col[R any](name string, f func(*R) *float64) column[R] {
	return column[R]{name: name, kind: kFloat64, f64: f}
}

// optCol is a float64 column that is null where the value is undefined (NaN
// in the row).
func optCol[R any](name string, f func(*R) *float64) column[R] {
	return column[R]{name: name, kind: kFloat64, nullable: true, f64: f}
}

func boolCol[R any](name string, f func(*R) *bool) column[R] {
	return column[R]{name: name, kind: kBool, b: f}
}

// build turns the column's values in rows into an Arrow array. levels is the
// column's dictionary (kDict only). Strings must be valid UTF-8: Parquet
// STRING columns with other bytes break pyarrow and pandas.
func (c *column[R]) build(mem memory.Allocator, rows []R, levels *levelSet) (arrow.Array, error) {
	switch c.kind {
	case kString:
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(len(rows))
		for i := range rows {
			s := *c.str(&rows[i])
			switch {
			case s == "" && c.nullable:
				b.AppendNull()
			case !utf8.ValidString(s):
				return nil, fmt.Errorf("column %s: value %q is not valid UTF-8", c.name, s)
			default:
				b.Append(s)
			}
		}
		return b.NewArray(), nil
	case kDict:
		return c.buildDict(mem, rows, levels)
	case kInt32:
		b := array.NewInt32Builder(mem)
		defer b.Release()
		b.Reserve(len(rows))
		for i := range rows {
			if c.nullable {
				if v := *c.ni32(&rows[i]); v.Valid {
					b.Append(v.Int32)
				} else {
					b.AppendNull()
				}
				continue
			}
			b.Append(*c.i32(&rows[i]))
		}
		return b.NewArray(), nil
	case kInt64:
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Reserve(len(rows))
		for i := range rows {
			if c.nullable {
				if v := *c.ni64(&rows[i]); v.Valid {
					b.Append(v.Int64)
				} else {
					b.AppendNull()
				}
				continue
			}
			b.Append(*c.i64(&rows[i]))
		}
		return b.NewArray(), nil
	case kFloat64:
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.Reserve(len(rows))
		for i := range rows {
			v := *c.f64(&rows[i])
			switch {
			case !math.IsNaN(v):
				b.Append(v)
			case c.nullable:
				b.AppendNull()
			default:
				return nil, fmt.Errorf("column %s: NaN in a column that is never undefined", c.name)
			}
		}
		return b.NewArray(), nil
	case kBool:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(len(rows))
		for i := range rows {
			b.Append(*c.b(&rows[i]))
		}
		return b.NewArray(), nil
	}
	panic("table: unknown column kind")
}

// buildDict writes the column as indices into its full, ordered level list,
// so every row group carries the same dictionary in the same order, levels
// that no row uses included.
func (c *column[R]) buildDict(mem memory.Allocator, rows []R, levels *levelSet) (arrow.Array, error) {
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.Reserve(len(rows))
	for i := range rows {
		s := *c.str(&rows[i])
		if s == "" && c.nullable {
			ib.AppendNull()
			continue
		}
		j, ok := levels.index[s]
		if !ok {
			if !c.order.closed {
				// an open vocabulary of a stream: its levels were fixed when
				// the file was started, from Metadata.Levels
				return nil, fmt.Errorf("column %s: value %q is not one of its levels %q (a streamed table takes its levels from Metadata.Levels)", c.name, s, levels.values)
			}
			return nil, fmt.Errorf("column %s: value %q is not one of its levels %q", c.name, s, levels.values)
		}
		ib.Append(int32(j))
	}
	db := array.NewStringBuilder(mem)
	defer db.Release()
	for _, s := range levels.values {
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("column %s: value %q is not valid UTF-8", c.name, s)
		}
		db.Append(s)
	}
	idx, dict := ib.NewArray(), db.NewArray()
	defer idx.Release()
	defer dict.Release()
	return array.NewDictionaryArray(dictType, idx, dict), nil
}

// values returns the values of a categorical column in rows, runs of equal
// values once. A nullable column's "" is a null, not a level.
func (c *column[R]) values(rows []R) []string {
	var vals []string
	prev := ""
	for j := range rows {
		v := *c.str(&rows[j])
		if (j == 0 || v != prev) && !(v == "" && c.nullable) {
			vals = append(vals, v)
		}
		prev = v
	}
	return vals
}

// stringValues is what String, LargeString and StringView arrays share.
type stringValues interface {
	Value(int) string
}

// read stores the values of a into rows[0:a.Len()]. The caller has checked
// the type with accepts, and nulls with checkNulls.
func (c *column[R]) read(a arrow.Array, rows []R) {
	n := a.Len()
	rows = rows[:n]
	switch c.kind {
	case kString, kDict:
		c.readStrings(a, rows)
	case kInt32:
		ia := a.(*array.Int32)
		v := ia.Int32Values()
		for i := range rows {
			if c.nullable {
				var x NullInt32
				if !ia.IsNull(i) {
					x = NullInt32{Int32: v[i], Valid: true}
				}
				*c.ni32(&rows[i]) = x
				continue
			}
			*c.i32(&rows[i]) = v[i]
		}
	case kInt64:
		ia := a.(*array.Int64)
		v := ia.Int64Values()
		for i := range rows {
			if c.nullable {
				var x NullInt64
				if !ia.IsNull(i) {
					x = NullInt64{Int64: v[i], Valid: true}
				}
				*c.ni64(&rows[i]) = x
				continue
			}
			*c.i64(&rows[i]) = v[i]
		}
	case kFloat64:
		fa := a.(*array.Float64)
		v := fa.Float64Values()
		for i := range rows {
			if fa.IsNull(i) {
				*c.f64(&rows[i]) = math.NaN()
			} else {
				*c.f64(&rows[i]) = v[i]
			}
		}
	case kBool:
		ba := a.(*array.Boolean)
		for i := range rows {
			*c.b(&rows[i]) = ba.Value(i)
		}
	default:
		panic("table: unknown column kind")
	}
}

// readStrings reads a string or dictionary-of-strings array. Array strings
// alias the batch's buffer; they are copied so rows do not pin it, and runs
// of equal values (board, rule, start) share one copy.
func (c *column[R]) readStrings(a arrow.Array, rows []R) {
	value := func(i int) string { return a.(stringValues).Value(i) }
	if d, ok := a.(*array.Dictionary); ok {
		dict := d.Dictionary().(stringValues)
		value = func(i int) string { return dict.Value(d.GetValueIndex(i)) }
	}
	prev := ""
	for i := range rows {
		if a.IsNull(i) {
			*c.str(&rows[i]) = ""
			continue
		}
		if s := value(i); s != prev {
			prev = strings.Clone(s)
		}
		*c.str(&rows[i]) = prev
	}
}

// checkNulls reports a null in a column that may not have one.
func (c *column[R]) checkNulls(a arrow.Array) error {
	if a.NullN() > 0 && !c.nullable {
		return fmt.Errorf("column %q has nulls", c.name)
	}
	return nil
}

// spec is one table: its name, its columns in file order, and the Arrow
// schema built from them.
type spec[R any] struct {
	name   string
	cols   []column[R]
	schema *arrow.Schema
	// plain lists columns whose values are (nearly) all distinct, written
	// without a dictionary: one would only grow until the writer gave up on it.
	plain []string
}

func newSpec[R any](name string, cols ...column[R]) *spec[R] {
	fields := make([]arrow.Field, len(cols))
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		if seen[c.name] {
			panic("table: duplicate column " + name + "." + c.name)
		}
		seen[c.name] = true
		if (c.kind == kDict) != (c.order != nil) {
			panic("table: column " + name + "." + c.name + ": a level order goes with a dictionary column")
		}
		fields[i] = arrow.Field{Name: c.name, Type: c.kind.arrowType(), Nullable: c.nullable, Metadata: fieldMetadata(name, c.name)}
	}
	return &spec[R]{name: name, cols: cols, schema: arrow.NewSchema(fields, nil)}
}

// fieldMetadata is a column's unit and one-line description from
// docs/tables.md (see fielddocs.go), stored with the Arrow schema.
func fieldMetadata(tableName, col string) arrow.Metadata {
	d, ok := fieldDocs[tableName+"."+col]
	if !ok {
		return arrow.Metadata{}
	}
	if d.unit == "" {
		return arrow.NewMetadata([]string{"description"}, []string{d.description})
	}
	return arrow.NewMetadata([]string{"description", "unit"}, []string{d.description, d.unit})
}

// LevelsKey is the key, in a categorical column's Arrow field metadata, of
// its full level list in order (a JSON array of strings), and the key of
// the file's key-value metadata that holds every categorical column's list
// (a JSON object, columns in file order). The lists hold levels no row
// uses, so an empty table, and readers that do not keep Parquet
// dictionaries (polars, DuckDB), can restore the categories and their order.
const LevelsKey = "levels"

// schemaWith returns s's schema with each categorical column's levels in
// its field metadata, and the file key-value pair that lists them all.
func (s *spec[R]) schemaWith(levels []*levelSet) (*arrow.Schema, [2]string, error) {
	fields := slices.Clone(s.schema.Fields())
	var all strings.Builder
	all.WriteByte('{')
	for i, ls := range levels {
		if ls == nil {
			continue
		}
		for _, v := range ls.values {
			if !utf8.ValidString(v) {
				return nil, [2]string{}, fmt.Errorf("column %s: value %q is not valid UTF-8", fields[i].Name, v)
			}
		}
		list, err := json.Marshal(ls.values)
		if err != nil {
			return nil, [2]string{}, err
		}
		name, _ := json.Marshal(fields[i].Name)
		if all.Len() > 1 {
			all.WriteByte(',')
		}
		fmt.Fprintf(&all, "%s:%s", name, list)
		md := fields[i].Metadata
		keys, vals := append(slices.Clone(md.Keys()), LevelsKey), append(slices.Clone(md.Values()), string(list))
		fields[i].Metadata = arrow.NewMetadata(keys, vals)
	}
	all.WriteByte('}')
	return arrow.NewSchema(fields, nil), [2]string{LevelsKey, all.String()}, nil
}

// withPlain marks columns to be written without a dictionary.
func (s *spec[R]) withPlain(names ...string) *spec[R] {
	for _, n := range names {
		if s.schema.FieldIndices(n) == nil {
			panic("table: withPlain: no column " + s.name + "." + n)
		}
	}
	s.plain = append(s.plain, names...)
	return s
}
