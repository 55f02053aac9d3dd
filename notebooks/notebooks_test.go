package notebooks

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The notebooks name tables and columns by a convention that this test can
// read without running them (see README.md here):
//
// Python (analysis.py, and the code cells of analysis.ipynb):
//   - tables are loaded with load("name") (or located with table_path("name"));
//   - columns are string literals in a subscript, df["col"] or
//     df[["a", "b"]]; as a keyword argument on=, left_on=, right_on=, by=,
//     subset=, index=, columns=, values=, x=, y= (a literal or a list of
//     literals); as the first argument of .groupby, .sort_values,
//     .set_index, .drop_duplicates; or in a constant NAME_COLUMNS = [...];
//   - df["new"] = ... defines a derived column, which may be used after.
//
// R (the ```{r} chunks of knightwalk.Rmd):
//   - tables are read with read_table("name");
//   - columns are bare names inside dplyr verbs and ggplot's aes(),
//     .data$col or .data[["col"]], strings in by = "col" / by = c(...), and
//     the strings of a vector name_columns <- c(...);
//   - a bare name in a verb is a column unless it is called (f(...)), named
//     as an argument (x = ...), qualified (a$x, pkg::x), an R constant, or
//     a local variable (assigned with <-, a function parameter or a for
//     variable); name = ... at the top level of mutate, summarise,
//     transmute, rename or reframe defines a derived column.
//
// A column must be documented for one of the tables the notebook loads, or
// be derived by the notebook itself.

const (
	docsPath  = "../docs/tables.md"
	pyPath    = "python/analysis.py"
	ipynbPath = "python/analysis.ipynb"
	rmdPath   = "r/knightwalk.Rmd"
)

// ---------------------------------------------------------------------------
// docs/tables.md

// parseDocs reads the documented schema, as internal/table's
// TestDocsMatchCode does: a table section is a heading "## `name`", ended by
// any other heading, and its columns are the rows "| `column` | type |
// meaning |" in it.
func parseDocs(text string) (map[string][]string, error) {
	tables := map[string][]string{}
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "## "):
			h := strings.TrimSpace(strings.TrimPrefix(line, "## "))
			cur = ""
			if strings.HasPrefix(h, "`") && strings.HasSuffix(h, "`") && len(h) > 2 {
				cur = strings.Trim(h, "`")
				if _, dup := tables[cur]; dup {
					return nil, fmt.Errorf("line %d: table %q documented twice", n, cur)
				}
				tables[cur] = nil
			}
		case strings.HasPrefix(line, "#"):
			cur = ""
		case cur != "" && strings.HasPrefix(line, "| `"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) != 4 {
				return nil, fmt.Errorf("line %d: want 4 cells (column, type, unit, meaning), got %d", n, len(cells))
			}
			tables[cur] = append(tables[cur], strings.Trim(strings.TrimSpace(cells[0]), "`"))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("no table sections (\"## `name`\") found")
	}
	for name, cols := range tables {
		if len(cols) == 0 {
			return nil, fmt.Errorf("table %s has no column rows", name)
		}
	}
	return tables, nil
}

func readDocs(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := parseDocs(string(b))
	if err != nil {
		t.Fatalf("%s: %v", docsPath, err)
	}
	return docs
}

// ---------------------------------------------------------------------------
// Tokens

type tokKind int

const (
	tIdent tokKind = iota
	tString
	tNumber
	tOp
)

type token struct {
	kind  tokKind
	text  string // the identifier, operator, number, or the string's contents
	line  int
	bytes bool // a Python bytes literal: never a column name
}

func (t token) is(op string) bool { return t.kind == tOp && t.text == op }

// at returns toks[i], or an empty operator token past either end.
func at(toks []token, i int) token {
	if i < 0 || i >= len(toks) {
		return token{kind: tOp}
	}
	return toks[i]
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ---------------------------------------------------------------------------
// Python

var pyOps2 = map[string]bool{
	"==": true, "!=": true, "<=": true, ">=": true, ":=": true, "->": true, "**": true, "//": true,
	"+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true,
	"<<": true, ">>": true, "@=": true,
}

var pyStringPrefixes = map[string]bool{
	"r": true, "u": true, "b": true, "f": true, "br": true, "rb": true, "fr": true, "rf": true,
}

// lexPython splits Python source into tokens. Comments are dropped. The
// expressions inside an f-string's braces are lexed too, each into a
// separate stream of its own (returned in streams after the main one).
func lexPython(src string, line int) (streams [][]token) {
	var toks []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\\' || c == '\f':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'' || isIdentStart(c):
			prefix := ""
			if c != '"' && c != '\'' {
				j := i
				for j < len(src) && isIdentChar(src[j]) {
					j++
				}
				word := src[i:j]
				if j < len(src) && (src[j] == '"' || src[j] == '\'') && pyStringPrefixes[strings.ToLower(word)] {
					prefix = strings.ToLower(word)
					i = j
				} else {
					toks = append(toks, token{kind: tIdent, text: word, line: line})
					i = j
					continue
				}
			}
			q := src[i]
			triple := strings.HasPrefix(src[i:], strings.Repeat(string(q), 3))
			open := 1
			if triple {
				open = 3
			}
			start, j, startLine := i+open, i+open, line
			for j < len(src) {
				if src[j] == '\\' {
					if j+1 < len(src) && src[j+1] == '\n' {
						line++
					}
					j += 2
					continue
				}
				if src[j] == '\n' {
					line++
				}
				if triple && strings.HasPrefix(src[j:], src[i:i+3]) || !triple && src[j] == q {
					break
				}
				j++
			}
			body := src[start:min(j, len(src))]
			toks = append(toks, token{kind: tString, text: body, line: startLine, bytes: strings.Contains(prefix, "b")})
			if strings.Contains(prefix, "f") {
				for _, expr := range fStringExprs(body) {
					streams = append(streams, lexPython(expr, startLine)...)
				}
			}
			i = j + open
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			for i < len(src) && (isIdentChar(src[i]) || src[i] == '.') {
				i++
			}
			toks = append(toks, token{kind: tNumber, line: line})
		default:
			if i+1 < len(src) && pyOps2[src[i:i+2]] {
				toks = append(toks, token{kind: tOp, text: src[i : i+2], line: line})
				i += 2
			} else {
				toks = append(toks, token{kind: tOp, text: src[i : i+1], line: line})
				i++
			}
		}
	}
	return append([][]token{toks}, streams...)
}

// fStringExprs returns the expressions between the braces of an f-string's
// body ("{{" and "}}" are literal braces).
func fStringExprs(body string) []string {
	var out []string
	for i := 0; i < len(body); i++ {
		if body[i] != '{' {
			continue
		}
		if i+1 < len(body) && body[i+1] == '{' {
			i++
			continue
		}
		depth, quote := 0, byte(0)
		j := i + 1
	scan:
		for ; j < len(body); j++ {
			c := body[j]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']':
				depth--
			case c == '}':
				if depth == 0 {
					break scan
				}
				depth--
			}
		}
		out = append(out, body[i+1:min(j, len(body))])
		i = j
	}
	return out
}

var (
	pyTableFuncs    = map[string]bool{"load": true, "table_path": true}
	pyColumnKwargs  = map[string]bool{"on": true, "left_on": true, "right_on": true, "by": true, "subset": true, "index": true, "columns": true, "values": true, "x": true, "y": true}
	pyColumnMethods = map[string]bool{"groupby": true, "sort_values": true, "set_index": true, "drop_duplicates": true}
	pyKeywords      = map[string]bool{
		"and": true, "as": true, "assert": true, "await": true, "del": true, "elif": true, "else": true,
		"for": true, "from": true, "if": true, "import": true, "in": true, "is": true, "lambda": true,
		"not": true, "or": true, "return": true, "while": true, "with": true, "yield": true,
	}
)

type refKind int

const (
	refTable refKind = iota
	refColumn
	refDefine
)

type ref struct {
	kind refKind
	name string
	line int
}

// stringList reads a string literal, or a list or tuple of string
// literals, starting at toks[i]. It returns the strings and the index of
// the value's last token; ok is false for anything else.
func stringList(toks []token, i int) (names []string, end int, ok bool) {
	t := at(toks, i)
	if t.kind == tString && !t.bytes {
		return []string{t.text}, i, true
	}
	closer := map[string]string{"[": "]", "(": ")"}[t.text]
	if t.kind != tOp || closer == "" {
		return nil, i, false
	}
	for j := i + 1; j < len(toks); j++ {
		switch u := toks[j]; {
		case u.is(closer):
			return names, j, len(names) > 0
		case u.kind == tString && !u.bytes:
			names = append(names, u.text)
		case u.is(","):
		default:
			return nil, i, false
		}
	}
	return nil, i, false
}

// pythonRefs finds the tables and columns that Python source names, by the
// convention at the top of this file.
func pythonRefs(src string) []ref {
	var refs []ref
	add := func(k refKind, names []string, line int) {
		for _, n := range names {
			refs = append(refs, ref{k, n, line})
		}
	}
	for _, toks := range lexPython(src, 1) {
		for i, t := range toks {
			prev, next := at(toks, i-1), at(toks, i+1)
			switch {
			case t.kind == tIdent && pyTableFuncs[t.text] && next.is("(") && !prev.is("."):
				if s := at(toks, i+2); s.kind == tString && !s.bytes {
					add(refTable, []string{s.text}, s.line)
				}
			case t.is("[") && (prev.kind == tIdent && !pyKeywords[prev.text] || prev.is(")") || prev.is("]")):
				names, end, ok := stringList(toks, i+1)
				if !ok || !at(toks, end+1).is("]") {
					continue
				}
				if at(toks, end+2).is("=") {
					add(refDefine, names, t.line)
				} else {
					add(refColumn, names, t.line)
				}
			case t.kind == tIdent && pyColumnKwargs[t.text] && next.is("=") && (prev.is("(") || prev.is(",")):
				if names, end, ok := stringList(toks, i+2); ok && (at(toks, end+1).is(",") || at(toks, end+1).is(")")) {
					add(refColumn, names, t.line)
				}
			case t.is(".") && next.kind == tIdent && pyColumnMethods[next.text] && at(toks, i+2).is("("):
				if names, end, ok := stringList(toks, i+3); ok && (at(toks, end+1).is(",") || at(toks, end+1).is(")")) {
					add(refColumn, names, t.line)
				}
			case t.kind == tIdent && strings.HasSuffix(strings.ToUpper(t.text), "_COLUMNS") && next.is("=") && !prev.is("."):
				if names, _, ok := stringList(toks, i+2); ok {
					add(refColumn, names, t.line)
				}
			}
		}
	}
	return refs
}

// ---------------------------------------------------------------------------
// R

// lexR splits R source into tokens; comments are dropped and a backquoted
// name is an identifier.
func lexR(src string, line int) []token {
	var toks []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'' || c == '`':
			j, startLine := i+1, line
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				if j < len(src) && src[j] == '\n' {
					line++
				}
				j++
			}
			kind := tString
			if c == '`' {
				kind = tIdent
			}
			toks = append(toks, token{kind: kind, text: src[i+1 : min(j, len(src))], line: startLine})
			i = j + 1
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			for i < len(src) && (isIdentChar(src[i]) || src[i] == '.') {
				i++
			}
			toks = append(toks, token{kind: tNumber, line: line})
		case isIdentStart(c) || c == '.':
			j := i
			for j < len(src) && (isIdentChar(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: src[i:j], line: line})
			i = j
		case c == '%':
			j := strings.IndexByte(src[i+1:], '%')
			if j < 0 {
				j = len(src) - i - 2
			}
			toks = append(toks, token{kind: tOp, text: src[i : i+j+2], line: line})
			i += j + 2
		default:
			n := 1
			for _, op := range []string{"<<-", "->>", ":::", "<-", "->", "|>", "==", "!=", "<=", ">=", "&&", "||", "::"} {
				if strings.HasPrefix(src[i:], op) {
					n = len(op)
					break
				}
			}
			toks = append(toks, token{kind: tOp, text: src[i : i+n], line: line})
			i += n
		}
	}
	return toks
}

var (
	rTableFuncs = map[string]bool{"read_table": true, "table_path": true}
	// calls whose bare arguments are columns (dplyr verbs, tidyselect
	// helpers that take columns, ggplot2's mappings and facets)
	rVerbs = map[string]bool{
		"filter": true, "mutate": true, "transmute": true, "summarise": true, "summarize": true, "reframe": true,
		"group_by": true, "arrange": true, "select": true, "distinct": true, "count": true, "pull": true,
		"rename": true, "relocate": true, "slice_max": true, "slice_min": true, "desc": true,
		"inner_join": true, "left_join": true, "right_join": true, "full_join": true, "semi_join": true,
		"anti_join": true, "join_by": true, "aes": true, "vars": true, "facet_wrap": true, "facet_grid": true,
	}
	// verbs where name = value at their top level makes a new column
	rDefiners = map[string]bool{
		"mutate": true, "transmute": true, "summarise": true, "summarize": true, "reframe": true, "rename": true,
	}
	rConstants = map[string]bool{
		"TRUE": true, "FALSE": true, "T": true, "F": true, "NA": true, "NULL": true, "Inf": true, "NaN": true,
		"NA_integer_": true, "NA_real_": true, "NA_character_": true, "NA_complex_": true,
		"function": true, "if": true, "else": true, "for": true, "while": true, "repeat": true, "in": true,
		"next": true, "break": true, "letters": true, "LETTERS": true, "pi": true, "month.abb": true, "month.name": true,
	}
)

// rLocals returns the names R code assigns to (x <- ..., ... -> x), the
// parameters of its functions and its for variables.
func rLocals(toks []token) map[string]bool {
	locals := map[string]bool{}
	for i, t := range toks {
		next := at(toks, i+1)
		switch {
		case t.kind == tIdent && (next.is("<-") || next.is("<<-")):
			locals[t.text] = true
		case (t.is("->") || t.is("->>")) && next.kind == tIdent:
			locals[next.text] = true
		case t.kind == tIdent && t.text == "for" && next.is("(") && at(toks, i+2).kind == tIdent:
			locals[at(toks, i+2).text] = true
		case t.kind == tIdent && t.text == "function" && next.is("("):
			depth := 0
			for j := i + 1; j < len(toks); j++ {
				u := toks[j]
				switch {
				case u.is("(") || u.is("[") || u.is("{"):
					depth++
				case u.is(")") || u.is("]") || u.is("}"):
					depth--
				case depth == 1 && u.kind == tIdent && (at(toks, j-1).is("(") || at(toks, j-1).is(",")):
					locals[u.text] = true
				}
				if depth == 0 {
					break
				}
			}
		}
	}
	return locals
}

// rRefs finds the tables and columns that R code names, by the convention
// at the top of this file.
func rRefs(src string) []ref {
	toks := lexR(src, 1)
	locals := rLocals(toks)
	var refs []ref
	add := func(k refKind, names []string, line int) {
		for _, n := range names {
			refs = append(refs, ref{k, n, line})
		}
	}
	// rStrings reads "a" or c("a", "b") at toks[i].
	rStrings := func(i int) []string {
		if t := at(toks, i); t.kind == tString {
			return []string{t.text}
		}
		if !(at(toks, i).kind == tIdent && at(toks, i).text == "c" && at(toks, i+1).is("(")) {
			return nil
		}
		var names []string
		for j := i + 2; j < len(toks); j++ {
			switch u := toks[j]; {
			case u.is(")"):
				return names
			case u.kind == tString:
				names = append(names, u.text)
			case u.is(","):
			default:
				return nil
			}
		}
		return nil
	}
	for i, t := range toks {
		prev, next := at(toks, i-1), at(toks, i+1)
		switch {
		case t.kind == tIdent && rTableFuncs[t.text] && next.is("(") && at(toks, i+2).kind == tString:
			add(refTable, []string{at(toks, i+2).text}, t.line)
		case t.kind == tIdent && t.text == ".data" && next.is("$") && at(toks, i+2).kind == tIdent:
			add(refColumn, []string{at(toks, i+2).text}, t.line)
		case t.kind == tIdent && t.text == ".data" && next.is("[") && at(toks, i+2).is("[") && at(toks, i+3).kind == tString:
			add(refColumn, []string{at(toks, i+3).text}, t.line)
		case t.kind == tIdent && strings.HasSuffix(t.text, "_columns") && next.is("<-"):
			add(refColumn, rStrings(i+2), t.line)
		case t.kind == tIdent && rVerbs[t.text] && next.is("(") && !prev.is("$"):
			verb, depth := t.text, 0
			for j := i + 1; j < len(toks); j++ {
				u := toks[j]
				switch {
				case u.is("(") || u.is("[") || u.is("{"):
					depth++
				case u.is(")") || u.is("]") || u.is("}"):
					depth--
				case u.kind == tIdent:
					before, after := at(toks, j-1), at(toks, j+1)
					switch {
					case after.is("("), before.is("$"), before.is("@"), before.is("::"), before.is(":::"):
					case after.is("="):
						if u.text == "by" {
							add(refColumn, rStrings(j+2), u.line)
						}
						if depth == 1 && rDefiners[verb] {
							add(refDefine, []string{u.text}, u.line)
						}
					case strings.HasPrefix(u.text, "."), rConstants[u.text], locals[u.text]:
					default:
						add(refColumn, []string{u.text}, u.line)
					}
				}
				if depth == 0 {
					break
				}
			}
		}
	}
	return refs
}

// rmdCode returns the R code of an R Markdown document's ```{r} chunks,
// with every other line blanked so that line numbers stay those of the file.
func rmdCode(doc string) string {
	lines := strings.Split(doc, "\n")
	in := false
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case !in && (strings.HasPrefix(trimmed, "```{r}") || strings.HasPrefix(trimmed, "```{r ") || strings.HasPrefix(trimmed, "```{r,")):
			in = true
			lines[i] = ""
		case in && strings.HasPrefix(trimmed, "```"):
			in = false
			lines[i] = ""
		case !in:
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// ---------------------------------------------------------------------------
// The check

// checkRefs returns one problem per table or column that the docs do not
// have: a table must be documented; a column must be documented for one of
// the tables the source loads (any documented table when it loads none) or
// be derived by the source.
func checkRefs(file, src string, refs []ref, docs map[string][]string) []string {
	lines := strings.Split(src, "\n")
	where := func(line int) string {
		text := ""
		if line >= 1 && line <= len(lines) {
			text = strings.TrimSpace(lines[line-1])
		}
		return fmt.Sprintf("%s:%d: ", file, line) + "%s\n\t" + text
	}
	var problems []string
	loaded := map[string]bool{}
	defined := map[string]bool{}
	for _, r := range refs {
		switch r.kind {
		case refTable:
			if _, ok := docs[r.name]; !ok {
				problems = append(problems, fmt.Sprintf(where(r.line), fmt.Sprintf("table %q is not documented in docs/tables.md (tables: %s)", r.name, strings.Join(sortedKeys(docs), ", "))))
				continue
			}
			loaded[r.name] = true
		case refDefine:
			defined[r.name] = true
		}
	}
	if len(loaded) == 0 {
		for name := range docs {
			loaded[name] = true
		}
	}
	allowed := map[string]bool{}
	for name := range loaded {
		for _, c := range docs[name] {
			allowed[c] = true
		}
	}
	for _, r := range refs {
		if r.kind == refColumn && !allowed[r.name] && !defined[r.name] {
			problems = append(problems, fmt.Sprintf(where(r.line), fmt.Sprintf("column %q is not documented in docs/tables.md for the tables loaded here (%s), nor derived here", r.name, strings.Join(sortedKeys(loaded), ", "))))
		}
	}
	return problems
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func count(refs []ref, k refKind) int {
	n := 0
	for _, r := range refs {
		if r.kind == k {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------------------
// Notebook cells

type cell struct {
	kind   string // "code" or "markdown"
	source string
}

// percentCells splits a jupytext percent-format script into cells, as
// python/py2ipynb.py does: a leading "# ---" header is skipped, a cell
// starts at a line "# %%" ("# %% [markdown]" for markdown, whose lines are
// commented with "# "), and blank lines around a cell are dropped.
func percentCells(src string) ([]cell, error) {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if len(lines) > 0 && lines[0] == "# ---" {
		end := slices.Index(lines[1:], "# ---")
		if end < 0 {
			return nil, fmt.Errorf("unterminated jupytext header")
		}
		lines = lines[end+2:]
	}
	var cells []cell
	var cur *cell
	var body []string
	flush := func() {
		if cur != nil {
			cur.source = trimBlank(body)
			cells = append(cells, *cur)
		}
	}
	for n, l := range lines {
		switch {
		case strings.HasPrefix(l, "# %%"):
			flush()
			kind := "code"
			if strings.Contains(l, "[markdown]") {
				kind = "markdown"
			}
			cur, body = &cell{kind: kind}, nil
		case cur == nil:
			if strings.TrimSpace(l) != "" {
				return nil, fmt.Errorf("line %d: text before the first cell", n+1)
			}
		case cur.kind == "markdown":
			switch {
			case l == "#" || strings.TrimSpace(l) == "":
				body = append(body, "")
			case strings.HasPrefix(l, "# "):
				body = append(body, l[2:])
			default:
				return nil, fmt.Errorf("markdown line not commented: %q", l)
			}
		default:
			body = append(body, l)
		}
	}
	flush()
	return cells, nil
}

func trimBlank(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// ipynbCells reads an nbformat 4 notebook's cells, and reports code cells
// that carry outputs or an execution count (the committed notebook has none).
func ipynbCells(data []byte) (cells []cell, withOutputs []int, err error) {
	var nb struct {
		NBFormat int `json:"nbformat"`
		Cells    []struct {
			CellType       string            `json:"cell_type"`
			Source         json.RawMessage   `json:"source"`
			Outputs        []json.RawMessage `json:"outputs"`
			ExecutionCount *int              `json:"execution_count"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, nil, err
	}
	if nb.NBFormat != 4 {
		return nil, nil, fmt.Errorf("nbformat %d, want 4", nb.NBFormat)
	}
	for i, c := range nb.Cells {
		var src string
		var parts []string
		if err := json.Unmarshal(c.Source, &parts); err == nil {
			src = strings.Join(parts, "")
		} else if err := json.Unmarshal(c.Source, &src); err != nil {
			return nil, nil, fmt.Errorf("cell %d: source is neither a string nor a list of strings", i)
		}
		cells = append(cells, cell{kind: c.CellType, source: trimBlank(strings.Split(src, "\n"))})
		if len(c.Outputs) > 0 || c.ExecutionCount != nil {
			withOutputs = append(withOutputs, i)
		}
	}
	return cells, withOutputs, nil
}

func codeOf(cells []cell) string {
	var code []string
	for _, c := range cells {
		if c.kind == "code" {
			code = append(code, c.source)
		}
	}
	return strings.Join(code, "\n\n")
}

// diffCells describes the first difference between two cell lists, or "".
func diffCells(a, b []cell) string {
	for i := range min(len(a), len(b)) {
		if a[i].kind != b[i].kind {
			return fmt.Sprintf("cell %d is %s in the .py, %s in the .ipynb", i, a[i].kind, b[i].kind)
		}
		if a[i].source != b[i].source {
			al, bl := strings.Split(a[i].source, "\n"), strings.Split(b[i].source, "\n")
			for j := range max(len(al), len(bl)) {
				x, y := "", ""
				if j < len(al) {
					x = al[j]
				}
				if j < len(bl) {
					y = bl[j]
				}
				if x != y || j >= len(al) || j >= len(bl) {
					return fmt.Sprintf("%s cell %d, line %d: .py has %q, .ipynb has %q", a[i].kind, i, j+1, x, y)
				}
			}
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf(".py has %d cells, .ipynb has %d", len(a), len(b))
	}
	return ""
}

// ---------------------------------------------------------------------------
// Tests

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDocsParse(t *testing.T) {
	docs := readDocs(t)
	for _, name := range []string{"squares", "lengths", "classes"} {
		if _, ok := docs[name]; !ok {
			t.Errorf("table %s not found in %s: has the document's structure changed?", name, docsPath)
		}
	}
	if !slices.Contains(docs["squares"], "success_rate") {
		t.Errorf("squares.success_rate not found in %s: has the document's structure changed?", docsPath)
	}
}

// TestNotebooksUseDocumentedNames is the check: every table and column the
// notebooks name is in docs/tables.md.
func TestNotebooksUseDocumentedNames(t *testing.T) {
	docs := readDocs(t)
	py := readFile(t, pyPath)
	nbCells, _, err := ipynbCells([]byte(readFile(t, ipynbPath)))
	if err != nil {
		t.Fatalf("%s: %v", ipynbPath, err)
	}
	nbCode := codeOf(nbCells)
	rmd := rmdCode(readFile(t, rmdPath))
	for _, c := range []struct {
		file, src string
		refs      []ref
	}{
		{pyPath, py, pythonRefs(py)},
		{ipynbPath + " (code cells)", nbCode, pythonRefs(nbCode)},
		{rmdPath, rmd, rRefs(rmd)},
	} {
		t.Run(c.file, func(t *testing.T) {
			// The convention must actually be in use: a notebook that
			// named nothing the checker can see would pass vacuously.
			if n := count(c.refs, refTable); n < 6 {
				t.Errorf("only %d table references found: load tables with load(\"name\") / read_table(\"name\")", n)
			}
			if n := count(c.refs, refColumn); n < 40 {
				t.Errorf("only %d column references found: name columns as the convention in notebooks_test.go says", n)
			}
			for _, p := range checkRefs(c.file, c.src, c.refs, docs) {
				t.Error(p)
			}
			t.Logf("%d table and %d column references checked", count(c.refs, refTable), count(c.refs, refColumn))
		})
	}
}

// TestIpynbMatchesPy checks that the notebook and its paired script hold the
// same cells (regenerate with python3 notebooks/python/py2ipynb.py), and
// that the committed notebook carries no outputs.
func TestIpynbMatchesPy(t *testing.T) {
	pyCells, err := percentCells(readFile(t, pyPath))
	if err != nil {
		t.Fatalf("%s: %v", pyPath, err)
	}
	nbCells, withOutputs, err := ipynbCells([]byte(readFile(t, ipynbPath)))
	if err != nil {
		t.Fatalf("%s: %v", ipynbPath, err)
	}
	if d := diffCells(pyCells, nbCells); d != "" {
		t.Errorf("%s and %s differ (run python3 notebooks/python/py2ipynb.py): %s", pyPath, ipynbPath, d)
	}
	if codeOf(pyCells) != codeOf(nbCells) {
		t.Errorf("the code cells of %s and %s differ", pyPath, ipynbPath)
	}
	if len(withOutputs) > 0 {
		t.Errorf("%s: cells %v carry outputs or execution counts; commit it without", ipynbPath, withOutputs)
	}
	if count := len(pyCells); count < 10 {
		t.Errorf("%s: only %d cells", pyPath, count)
	}
}

// TestCheckerCatchesMistakes feeds wrong names through the same checker: the
// check must be able to fail.
func TestCheckerCatchesMistakes(t *testing.T) {
	docs := readDocs(t)
	cases := []struct {
		name, lang, src string
		want            []string // names the checker must report; none for a correct snippet
	}{
		{"python misspelt column in a subscript", "py", `sq = load("squares")
x = sq["succes_rate"].mean()`, []string{"succes_rate"}},
		{"python misspelt column in a list subscript", "py", `sq = load("squares")
x = sq[["board", "walkz"]]`, []string{"walkz"}},
		{"python misspelt column in on=", "py", `sq = load("squares")
ln = load("lengths")
j = ln.merge(sq, on=["board", "start_rows"])`, []string{"start_rows"}},
		{"python misspelt column in groupby", "py", `sq = load("squares")
g = sq.groupby("start_klass")[["walks"]].sum()`, []string{"start_klass"}},
		{"python misspelt column in a _COLUMNS constant", "py", `sq = load("squares")
KEY_COLUMNS = ["board", "row"]`, []string{"row"}},
		{"python misspelt column in an f-string", "py", `sq = load("squares")
print(f"{sq['walkz'].sum()} walks")`, []string{"walkz"}},
		{"python column of a table not loaded", "py", `ln = load("lengths")
x = ln["success_rate"]`, []string{"success_rate"}},
		{"python undocumented table", "py", `t = load("square")`, []string{"square"}},
		{"python correct", "py", `sq = load("squares")
sq["share"] = sq["successes"] / sq["walks"]
m = sq.sort_values(["share", "start"], ascending=False)
meta = {k.decode(): v for k, v in pq.read_schema(p).metadata.items() if k != b"ARROW:schema"}
print(f"{sq['share'].max():.1%}", meta.get("seed"))`, nil},
		{"r misspelt column in filter", "r", `sq <- read_table("squares")
sq |> filter(sucess_rate > 0.5)`, []string{"sucess_rate"}},
		{"r misspelt column in aes", "r", `sq <- read_table("squares")
ggplot(sq, aes(x = start_col, y = start_row, fill = succes_rate))`, []string{"succes_rate"}},
		{"r misspelt column after .data", "r", `sq <- read_table("squares")
sq |> mutate(r = .data$sucesses / walks)`, []string{"sucesses"}},
		{"r misspelt column in by =", "r", `sq <- read_table("squares")
ln <- read_table("lengths")
ln |> inner_join(sq, by = c("board", "strat"))`, []string{"strat"}},
		{"r misspelt column in a _columns vector", "r", `key_columns <- c("board", "start_rw")
sq <- read_table("squares")`, []string{"start_rw"}},
		{"r undocumented table", "r", `x <- read_table("square")`, []string{"square"}},
		{"r correct", "r", `sq <- read_table("squares")
lim <- 0.5
f <- function(v, w) v / w
sq |> filter(success_rate > lim, .data$walks > 0) |>
  mutate(share = f(successes, walks), start = factor(start, levels = c("a1"))) |>
  group_by(board, rule) |> summarise(m = mean(share), .groups = "drop") |>
  arrange(desc(m))`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var refs []ref
			if c.lang == "py" {
				refs = pythonRefs(c.src)
			} else {
				refs = rRefs(c.src)
			}
			problems := checkRefs("snippet", c.src, refs, docs)
			if len(c.want) == 0 && len(problems) > 0 {
				t.Errorf("correct snippet reported:\n%s", strings.Join(problems, "\n"))
			}
			if len(c.want) > 0 && len(problems) != len(c.want) {
				t.Errorf("got %d problems, want %d (%v):\n%s", len(problems), len(c.want), c.want, strings.Join(problems, "\n"))
			}
			for _, w := range c.want {
				found := false
				for _, p := range problems {
					found = found || strings.Contains(p, fmt.Sprintf("%q", w))
				}
				if !found {
					t.Errorf("%q was not caught; problems: %v", w, problems)
				}
			}
		})
	}

	t.Run("ipynb differing from py", func(t *testing.T) {
		py := "# %% [markdown]\n# # T\n\n# %%\nx = load(\"squares\")\n"
		pyCells, err := percentCells(py)
		if err != nil {
			t.Fatal(err)
		}
		nb := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "metadata": {}, "source": ["# T"]},
 {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": ["x = load(\"lengths\")\n"]}]}`)
		nbCells, _, err := ipynbCells(nb)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffCells(pyCells, nbCells); !strings.Contains(d, "code cell 1") {
			t.Errorf("difference not caught: %q", d)
		}
		nbCells[1].source = "x = load(\"squares\")"
		if d := diffCells(pyCells, nbCells); d != "" {
			t.Errorf("equal cells reported as different: %s", d)
		}
	})
}
