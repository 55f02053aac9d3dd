package table

import (
	"fmt"
	"strings"
)

// levelColumn is a categorical column of a table, for LevelDocs.
type levelColumn struct {
	name     string
	nullable bool
	o        *order
}

func (s *spec[R]) levelColumns() []levelColumn {
	var out []levelColumn
	for _, c := range s.cols {
		if c.kind == kDict {
			out = append(out, levelColumn{c.name, c.nullable, c.o()})
		}
	}
	return out
}

func (c column[R]) o() *order { return c.order }

// levelTables are the tables whose level lists LevelDocs writes, in
// docs/tables.md's order.
var levelTables = []struct {
	name string
	cols func() []levelColumn
}{
	{Squares, squaresSpec.levelColumns}, {Lengths, lengthsSpec.levelColumns}, {DeadEnds, deadEndsSpec.levelColumns},
	{Classes, classesSpec.levelColumns}, {Boards, boardsSpec.levelColumns}, {Comparisons, comparisonsSpec.levelColumns},
	{Claims, claimsSpec.levelColumns}, {Walks, walksSpec.levelColumns}, {Exact, exactSpec.levelColumns},
	{Counts, countsSpec.levelColumns}, {Designs, designsSpec.levelColumns},
	{Sieve, sieveSpec.levelColumns},
}

// LevelDocs is docs/tables.md's list of every categorical column's levels,
// table by table, generated from the orders the writer uses (go test
// ./internal/table -run TestLevelDocs -update rewrites it there). Levels
// belong to a table's column, not to a column name: counts.kind and
// claims.kind share a name, not their levels.
func LevelDocs() string {
	var b strings.Builder
	b.WriteString("| table | column | levels, in order |\n|---|---|---|\n")
	for _, t := range levelTables {
		for _, c := range t.cols() {
			var parts []string
			if len(c.o.fixed) > 0 {
				q := make([]string, len(c.o.fixed))
				for i, v := range c.o.fixed {
					q[i] = "`" + v + "`"
				}
				parts = append(parts, strings.Join(q, ", "))
			}
			if c.o.doc != "" {
				parts = append(parts, c.o.doc)
			}
			if c.o.closed {
				parts = append(parts, "no others")
			}
			null := ""
			if c.nullable {
				null = "; null where it does not apply"
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %s%s |\n", t.name, c.name, strings.Join(parts, "; "), null)
		}
	}
	return b.String()
}
