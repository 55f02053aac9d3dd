package table

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// kind is a column's value type. Each kind maps to one Arrow type and one
// Parquet type (see docs/tables.md).
type kind uint8

const (
	kString kind = iota
	kInt32
	kUint64
	kFloat64
	kBool
)

func (k kind) String() string {
	switch k {
	case kString:
		return "string"
	case kInt32:
		return "int32"
	case kUint64:
		return "uint64"
	case kFloat64:
		return "float64"
	case kBool:
		return "bool"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

func (k kind) arrowType() arrow.DataType {
	switch k {
	case kString:
		return arrow.BinaryTypes.String
	case kInt32:
		return arrow.PrimitiveTypes.Int32
	case kUint64:
		return arrow.PrimitiveTypes.Uint64
	case kFloat64:
		return arrow.PrimitiveTypes.Float64
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	}
	panic("table: unknown column kind")
}

// accepts reports whether an Arrow type read from a file can fill a column of
// kind k. Strings accept the large and view variants other writers produce.
func (k kind) accepts(t arrow.DataType) bool {
	switch k {
	case kString:
		switch t.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return true
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
	str  func(*R) *string
	i32  func(*R) *int32
	u64  func(*R) *uint64
	f64  func(*R) *float64
	b    func(*R) *bool
}

func strCol[R any](name string, f func(*R) *string) column[R] {
	return column[R]{name: name, kind: kString, str: f}
}

func i32Col[R any](name string, f func(*R) *int32) column[R] {
	return column[R]{name: name, kind: kInt32, i32: f}
}

func u64Col[R any](name string, f func(*R) *uint64) column[R] {
	return column[R]{name: name, kind: kUint64, u64: f}
}

func f64Col[R any](name string, f func(*R) *float64) column[R] {
	return column[R]{name: name, kind: kFloat64, f64: f}
}

func boolCol[R any](name string, f func(*R) *bool) column[R] {
	return column[R]{name: name, kind: kBool, b: f}
}

// append appends the column's value of every row to b, which must be the
// builder for c.kind. Strings must be valid UTF-8: Parquet STRING columns
// with other bytes break pyarrow and pandas.
func (c *column[R]) append(b array.Builder, rows []R) error {
	switch c.kind {
	case kString:
		sb := b.(*array.StringBuilder)
		for i := range rows {
			s := *c.str(&rows[i])
			if !utf8.ValidString(s) {
				return fmt.Errorf("column %s: value %q is not valid UTF-8", c.name, s)
			}
			sb.Append(s)
		}
	case kInt32:
		ib := b.(*array.Int32Builder)
		for i := range rows {
			ib.Append(*c.i32(&rows[i]))
		}
	case kUint64:
		ub := b.(*array.Uint64Builder)
		for i := range rows {
			ub.Append(*c.u64(&rows[i]))
		}
	case kFloat64:
		fb := b.(*array.Float64Builder)
		for i := range rows {
			fb.Append(*c.f64(&rows[i]))
		}
	case kBool:
		bb := b.(*array.BooleanBuilder)
		for i := range rows {
			bb.Append(*c.b(&rows[i]))
		}
	default:
		panic("table: unknown column kind")
	}
	return nil
}

// stringValues is what String, LargeString and StringView arrays share.
type stringValues interface {
	Value(int) string
}

// read stores the values of a into rows[0:a.Len()]. The caller has checked
// the type with accepts and that a has no nulls.
func (c *column[R]) read(a arrow.Array, rows []R) {
	n := a.Len()
	rows = rows[:n]
	switch c.kind {
	case kString:
		sa := a.(stringValues)
		// Array strings alias the batch's buffer; copy them so rows do not
		// pin it. Runs of equal values (board, rule, start) share one copy.
		prev := ""
		for i := range rows {
			if s := sa.Value(i); s != prev {
				prev = strings.Clone(s)
			}
			*c.str(&rows[i]) = prev
		}
	case kInt32:
		v := a.(*array.Int32).Int32Values()
		for i := range rows {
			*c.i32(&rows[i]) = v[i]
		}
	case kUint64:
		v := a.(*array.Uint64).Uint64Values()
		for i := range rows {
			*c.u64(&rows[i]) = v[i]
		}
	case kFloat64:
		v := a.(*array.Float64).Float64Values()
		for i := range rows {
			*c.f64(&rows[i]) = v[i]
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
		fields[i] = arrow.Field{Name: c.name, Type: c.kind.arrowType(), Nullable: false}
	}
	return &spec[R]{name: name, cols: cols, schema: arrow.NewSchema(fields, nil)}
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
