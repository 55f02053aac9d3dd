package config

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in an experiment file.
type Error struct {
	File string // as given to Parse or Load; "" for a Config built in Go
	Line int    // 1-based; 0 when unknown
	Key  string // key path, e.g. rules[1].tie_break; "" for the file as a whole
	Msg  string // what is wrong and what would be valid
}

// Error formats e as "file:line: key: msg", leaving out what is unknown.
func (e Error) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", e.File, e.Line)
	case e.File != "":
		fmt.Fprintf(&b, "%s: ", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one file, sorted by line.
type Errors []Error

// Error returns one error a line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted orders es by line, keeping the order of discovery within a line
// and dropping exact repeats; nil when empty.
func (es Errors) sorted() Errors {
	if len(es) == 0 {
		return nil
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Line < es[j].Line })
	out := es[:0]
	seen := map[Error]bool{}
	for _, e := range es {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// capped keeps the first MaxErrors errors of a sorted list and counts the
// rest in a last one, so that a file of thousands of mistakes gives a
// message a person can read.
func (es Errors) capped() Errors {
	if len(es) <= MaxErrors {
		return es
	}
	last := es[MaxErrors-1]
	more := Error{File: last.File, Line: last.Line, Msg: fmt.Sprintf("… and %d more problems after this line", len(es)-MaxErrors)}
	return append(es[:MaxErrors:MaxErrors], more)
}
