package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/knightwalk/knightwalk/sim"
)

// source remembers where each key of a parsed file is, so that errors found
// after decoding can still name a line.
type source struct {
	file     string
	rootLine int
	lines    map[string]int // key path → line of its first occurrence
	entries  []entry        // every key and item, in document order
	byLine   map[int][]int  // entries by line, built by find

	// The YAML library leaves out of a decoded list every item that did
	// not decode (and null items, silently). dropped holds, for each list,
	// the file's indices of the items left out, so that errors found later
	// name the item as the file numbers it; partial marks lists that lost
	// items.
	dropped map[string][]int
	partial map[string]bool
}

// entry is one key of a mapping or one item of a sequence.
type entry struct {
	path    string     // e.g. rules[1].tie_break
	keyLine int        // line of the key (of the item, for sequence items)
	node    *yaml.Node // its value
}

// Parse decodes data, the contents of the file named filename, onto a copy
// of Default and validates the result. Its error is an Errors holding every
// problem found, sorted by line.
func Parse(filename string, data []byte) (*Config, error) {
	c := Default()
	src := &source{file: filename, rootLine: 1, lines: map[string]int{}}
	c.src = src

	if len(data) > MaxFileBytes {
		return nil, Errors{{File: filename, Msg: fmt.Sprintf("%d bytes; an experiment file holds at most %d bytes (1 MiB)", len(data), MaxFileBytes)}}
	}
	root, errs := parseNode(src, data)
	if errs != nil {
		return nil, errs
	}
	if root == nil { // empty file: nothing to decode, but say what is missing
		return nil, c.check()
	}
	src.rootLine = root.Line
	src.walk(root)
	if errs := src.bounds(); errs != nil {
		// Refused before decoding: a list or a value this long is a
		// mistake, and decoding it would only cost time and memory.
		return nil, errs.sorted()
	}

	decErrs, covered := src.decode(data, &c)
	c.applyWalks()
	decErrs = append(decErrs, src.dropItems(&c, decErrs, covered)...)
	for list, drop := range src.dropped {
		if drop == nil { // could not tell which items went: say nothing more about the list
			covered = append(covered, list)
		}
	}
	whole := src.wholeNumbers(covered)
	errs = append(decErrs, whole...)
	for _, e := range errs {
		covered = append(covered, e.Key)
	}
	if !coveredBy("sources", covered) {
		// Keys of the sources file's errors are that file's: they cover
		// nothing here (an error of no key would cover everything).
		own := c.readOwnSources(filename)
		errs = append(errs, own...)
		if own != nil {
			// What a claim on a statement of that file would be told
			// ("no statement", "not a source id") follows from the file.
			covered = append(covered, c.onOwnSources()...)
		}
	}
	for _, e := range c.check() {
		if !coveredBy(e.Key, covered) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, errs.sorted().capped()
	}
	return &c, nil
}

// parseNode reads the one YAML document of data.
func parseNode(src *source, data []byte) (root *yaml.Node, errs Errors) {
	defer func() {
		if r := recover(); r != nil { // the YAML library must not take the caller down
			root, errs = nil, Errors{{File: src.file, Msg: fmt.Sprintf("cannot read YAML: %v", r)}}
		}
	}()
	if msg := encodingProblem(data); msg != "" {
		return nil, Errors{{File: src.file, Msg: msg}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		e := src.yamlError(err)
		if m := reUnknownAnchor.FindStringSubmatch(e.Msg); m != nil {
			// The library names no line: find the alias in the text.
			e.Line, e.Msg = aliasLine(data, m[1]), fmt.Sprintf("an alias (*%s) of an anchor not defined before it; %s", m[1], noAliases)
		}
		return nil, Errors{e}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, Errors{{File: src.file, Line: next.Line, Msg: "a second YAML document; an experiment file holds exactly one"}}
	case !errors.Is(err, io.EOF):
		return nil, Errors{src.yamlError(err)}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		if errs := aliases(src.file, doc.Content[0], ""); errs != nil {
			return nil, errs.sorted().capped()
		}
		return doc.Content[0], nil
	}
	return nil, nil
}

// noAliases says what to do instead of a YAML alias.
const noAliases = "YAML aliases (*name, and merge keys <<: *name) are not supported: write the value out in full"

var reUnknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// aliases refuses every alias under n, at the alias's own line: the
// library decodes an alias from its anchor, so every later message about
// the value would name the anchor's line (or the anchor's key), not the
// line that used it; and the lines recorded for what lies under an alias
// are the anchor's.
func aliases(file string, n *yaml.Node, path string) (errs Errors) {
	bad := func(a *yaml.Node, key string) {
		msg := "an alias (*" + a.Value + ")"
		if a.Alias != nil {
			msg += fmt.Sprintf(" of the anchor &%s at line %d", a.Value, a.Alias.Line)
		}
		errs = append(errs, Error{File: file, Line: a.Line, Key: key, Msg: msg + "; " + noAliases})
	}
	switch n.Kind {
	case yaml.AliasNode:
		bad(n, path)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if k.Kind == yaml.AliasNode {
				bad(k, path)
				continue
			}
			errs = append(errs, aliases(file, v, p)...)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			errs = append(errs, aliases(file, v, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}

// aliasLine returns the line of the first alias *name in data, or 0.
func aliasLine(data []byte, name string) int {
	re, err := regexp.Compile(`(^|[\s,\[{:-])\*` + regexp.QuoteMeta(name) + `($|[\s,\]}])`)
	if err != nil {
		return 0
	}
	for i, line := range strings.Split(string(data), "\n") {
		if re.MatchString(line) {
			return i + 1
		}
	}
	return 0
}

// encodingProblem says why data is not text this package can read:
// UTF-16 or UTF-32 (with a byte-order mark or without, as Windows editors
// and PowerShell's > write it). The YAML library reads some UTF-16 but
// not all of it (a stray byte: "incomplete UTF-16 character"; a UTF-16
// mark before UTF-8 text: "cannot unmarshal" at line 1), and a file's
// text travels as UTF-8 (the run's recorded configuration), so both are
// refused with what to do. A UTF-8 byte-order mark is read (and skipped)
// by the library.
func encodingProblem(data []byte) string {
	const save = "; save it as UTF-8"
	has := func(p string) bool { return bytes.HasPrefix(data, []byte(p)) }
	switch {
	case has("\xff\xfe\x00\x00"):
		return "is UTF-32 text (little-endian, with a byte-order mark)" + save
	case has("\x00\x00\xfe\xff"):
		return "is UTF-32 text (big-endian, with a byte-order mark)" + save
	case has("\xff\xfe"):
		return "is UTF-16 text (little-endian, with a byte-order mark)" + save
	case has("\xfe\xff"):
		return "is UTF-16 text (big-endian, with a byte-order mark)" + save
	case len(data) >= 4 && data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0:
		return "is UTF-32 text (little-endian: a NUL byte after each character)" + save
	case len(data) >= 4 && data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0:
		return "is UTF-32 text (big-endian: NUL bytes before each character)" + save
	case len(data) >= 2 && data[0] != 0 && data[1] == 0:
		return "is UTF-16 text (little-endian: a NUL byte after each character)" + save
	case len(data) >= 2 && data[0] == 0 && data[1] != 0:
		return "is UTF-16 text (big-endian: a NUL byte before each character)" + save
	}
	return ""
}

// yamlError turns a syntax error ("yaml: line 3: …") into an Error.
func (s *source) yamlError(err error) Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := Error{File: s.file, Msg: msg}
	if m := reLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
	}
	if parserProblems[e.Msg] {
		// The YAML library reports a parser error at the 0-based line of
		// the construct it was reading (omitting line 0); scanner errors
		// come 1-based.
		e.Line++
	}
	if parserProblems[e.Msg] || reLine.MatchString(msg) {
		e.Msg = "invalid YAML: " + e.Msg
	}
	return e
}

// parserProblems are the YAML library's parser (not scanner) errors.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

var reLine = regexp.MustCompile(`(?s)^line (\d+): (.*)$`)

// walk records the position of every key and item under n. It does not
// follow aliases: what an alias names is indexed where it was written.
func (s *source) walk(root *yaml.Node) {
	s.add("", root.Line, root)
	s.walkChildren(root, "")
}

func (s *source) walkChildren(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			s.add(p, k.Line, v)
			s.walkChildren(v, p)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			s.add(p, v.Line, v)
			s.walkChildren(v, p)
		}
	}
}

func (s *source) add(path string, line int, n *yaml.Node) {
	s.entries = append(s.entries, entry{path: path, keyLine: line, node: n})
	if _, ok := s.lines[path]; !ok {
		s.lines[path] = line
	}
}

// line returns the line of key, or of its nearest ancestor that the file
// has (the line of its parent mapping for a missing key).
func (s *source) line(key string) int {
	if s == nil {
		return 0
	}
	for {
		if l, ok := s.lines[key]; ok {
			return l
		}
		if key == "" {
			return s.rootLine
		}
		key = parent(key)
	}
}

// parent returns the key path one level up: rules[1].order → rules[1] → rules → "".
func parent(key string) string {
	i := strings.LastIndexAny(key, ".[")
	if i < 0 {
		return ""
	}
	return key[:i]
}

// decode runs the YAML library's strict decoder and turns its type errors
// into Errors.
//
// covered lists the keys whose values did not decode (whole mappings, for a
// duplicate key), so that validation errors under them can be dropped as
// noise.
func (s *source) decode(data []byte, c *Config) (errs Errors, covered []string) {
	return s.decodeInto(data, c, func() (msgs []string) {
		for i := range c.Rules { // RuleSpec.UnmarshalYAML keeps its item and its errors here
			msgs = append(msgs, c.Rules[i].msgs...)
			c.Rules[i].msgs = nil
		}
		return msgs
	})
}

// decodeInto is decode into v (a Config, or the part of one a file of
// its own holds, e.g. FigureOptions); kept, when not nil, returns the
// messages that decoding kept aside (RuleSpec's).
func (s *source) decodeInto(data []byte, v any, kept func() []string) (errs Errors, covered []string) {
	defer func() {
		if r := recover(); r != nil {
			errs = append(errs, Error{File: s.file, Msg: fmt.Sprintf("cannot decode YAML: %v", r)})
			covered = append(covered, "")
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(v)
	var te *yaml.TypeError
	if err != nil && !errors.Is(err, io.EOF) && !errors.As(err, &te) {
		return Errors{s.yamlError(err)}, []string{""}
	}
	if te == nil {
		te = &yaml.TypeError{}
	}
	if kept != nil {
		te.Errors = append(te.Errors, kept()...)
	}
	if len(te.Errors) == 0 {
		return nil, nil
	}
	used := map[int]bool{}
	for _, msg := range te.Errors {
		e, cover := s.typeError(msg, used)
		errs = append(errs, e)
		covered = append(covered, cover)
	}
	return errs, covered
}

var (
	reNotFound = regexp.MustCompile(`(?s)^line (\d+): field (.*) not found in type (\S+)$`)
	reSetTwice = regexp.MustCompile(`(?s)^line (\d+): field (.*) already set in type (\S+)$`)
	reCannot   = regexp.MustCompile("(?s)^line (\\d+): cannot unmarshal (\\S+)(?: `(.*)`)? into (\\S+)$")
	reDupKey   = regexp.MustCompile(`(?s)^line (\d+): mapping key (".*") already defined at line (\d+)$`)
)

// typeError rewrites one of the YAML library's messages ("line 7: field x
// not found in type config.RuleSpec") as an Error with a key path and a
// message that says what is valid. used marks entries already blamed, so
// that two errors on one line go to two keys. cover is the key whose value
// the error kept from decoding.
func (s *source) typeError(msg string, used map[int]bool) (e Error, cover string) {
	e, cover = s.rewriteMessage(msg, used)
	if cover == "-" {
		cover = e.Key
	}
	return e, cover
}

func (s *source) rewriteMessage(msg string, used map[int]bool) (Error, string) {
	if m := reDupKey.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		name, err := strconv.Unquote(m[2])
		if err != nil {
			name = m[2]
		}
		i := s.find(used, line, func(e entry) bool { return e.keyLine == line && lastKey(e.path) == name })
		key := name
		if i >= 0 {
			key = s.entries[i].path
		}
		// The library skips the whole mapping that holds a duplicate key.
		return Error{File: s.file, Line: line, Key: key, Msg: "duplicate key; already set at line " + m[3]}, parent(key)
	}
	if m := reNotFound.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		i := s.find(used, line, func(e entry) bool {
			pt := typeAt(parent(e.path))
			if pt == walksSpecType {
				pt = sequentialType // a walks mapping decodes into sequentialYAML
			}
			return e.keyLine == line && lastKey(e.path) == m[2] && typeName(pt) == m[3]
		})
		key := m[2]
		if i >= 0 {
			key = s.entries[i].path
		}
		valid := yamlKeys(typeByName(m[3]))
		text := "unknown key"
		if g := guess(m[2], valid); g != "" {
			text += fmt.Sprintf(" (did you mean %s?)", g)
		}
		return Error{File: s.file, Line: line, Key: key, Msg: text + "; valid: " + strings.Join(valid, ", ")}, "-"
	}
	if m := reSetTwice.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		i := s.find(used, line, func(e entry) bool {
			return e.keyLine == line && lastKey(e.path) == m[2]
		})
		key := m[2]
		if i >= 0 {
			key = s.entries[i].path
		}
		return Error{File: s.file, Line: line, Key: key, Msg: fmt.Sprintf("duplicate key; already set at line %d", s.line(key))}, "-"
	}
	if m := reCannot.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		tag, value, into := m[2], m[3], m[4]
		match := func(e entry, typed bool) bool {
			n := e.node
			if n.Kind == yaml.AliasNode && n.Alias != nil {
				n = n.Alias // the library reports the anchor's line
			}
			if n.Line != line || typed && typeName(typeAt(e.path)) != into {
				return false
			}
			switch tag {
			case "!!seq":
				return n.Kind == yaml.SequenceNode
			case "!!map":
				return n.Kind == yaml.MappingNode
			}
			return n.Kind == yaml.ScalarNode && shorten(n.Value) == value
		}
		i := s.find(used, line, func(e entry) bool { return match(e, true) })
		if i < 0 {
			i = s.find(used, line, func(e entry) bool { return match(e, false) })
		}
		got := describeTag(tag, value)
		key := ""
		if i >= 0 {
			e := s.entries[i]
			key = e.path
			n := e.node
			if n.Kind == yaml.AliasNode && n.Alias != nil {
				line, n = e.keyLine, n.Alias // blame where the alias is used
			}
			if n.Kind == yaml.ScalarNode {
				got = strconv.Quote(n.Value)
			}
		}
		if r := validRange(key); r != "" && (tag == "!!int" || tag == "!!float") {
			// A number the integer type cannot hold (1e30, 2^64 for an int64).
			return Error{File: s.file, Line: line, Key: key, Msg: fmt.Sprintf("%s is out of range; want %s", strings.Trim(got, `"`), r)}, "-"
		}
		return Error{File: s.file, Line: line, Key: key, Msg: fmt.Sprintf("want %s, not %s", want(into), got)}, "-"
	}
	e := Error{File: s.file, Msg: msg}
	if m := reLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
	}
	return e, ""
}

// maxMapKeys bounds the keys of any one mapping, before decoding.
const maxMapKeys = 64

// listLimits bounds the items of each list as written, before decoding.
var listLimits = map[string]int{
	"boards": MaxBoards, "starts": MaxStarts, "rules": MaxRules,
	"outputs.figures": MaxFigures, "claims": MaxClaims, "families": MaxClaims,
}

// bounds reports lists with too many items and values (or keys) too long,
// so that Parse refuses them before decoding.
func (s *source) bounds() (errs Errors) {
	defer func() {
		// The total is checked last: a list too long says more.
		if errs == nil && len(s.entries) > MaxEntries {
			errs = Errors{{File: s.file, Line: s.rootLine, Msg: fmt.Sprintf("%d keys and list items; an experiment file holds at most %d", len(s.entries), MaxEntries)}}
		}
	}()
	for _, e := range s.entries {
		n := e.node
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if n.Kind == yaml.MappingNode && len(n.Content)/2 > maxMapKeys {
			// Every mapping of the format has a dozen keys at most; the
			// YAML library's duplicate check is quadratic in their number.
			errs = append(errs, Error{File: s.file, Line: e.keyLine, Key: e.path,
				Msg: fmt.Sprintf("a mapping of %d keys; at most %d", len(n.Content)/2, maxMapKeys)})
		}
		if max, ok := listLimits[e.path]; ok && n.Kind == yaml.SequenceNode && len(n.Content) > max {
			errs = append(errs, Error{File: s.file, Line: e.keyLine, Key: e.path,
				Msg: fmt.Sprintf("%d items; at most %d", len(n.Content), max)})
		}
		if k := lastKey(e.path); len(k) > MaxScalar {
			errs = append(errs, Error{File: s.file, Line: e.keyLine, Key: shorten(k),
				Msg: fmt.Sprintf("a key of %d bytes; at most %d", len(k), MaxScalar)})
			continue
		}
		limit := MaxScalar
		if e.path == "description" {
			limit = MaxDescription
		}
		if n.Kind == yaml.ScalarNode && len(n.Value) > limit {
			errs = append(errs, Error{File: s.file, Line: e.keyLine, Key: e.path,
				Msg: fmt.Sprintf("%d bytes; at most %d", len(n.Value), limit)})
		}
	}
	return errs
}

// lists are the lists whose items validation refers to by index.
var lists = []string{"boards", "starts", "rules", "outputs.figures", "claims", "families", refList}

// refList is the list of published values under the figure options.
const refList = "outputs.figure_options.size_curve.references"

// dropItems works out which items of each list the decoder left out,
// reporting null items, which it leaves out without a word.
func (s *source) dropItems(c *Config, decErrs Errors, covered []string) (errs Errors) {
	s.dropped, s.partial = map[string][]int{}, map[string]bool{}
	decoded := map[string]int{
		"boards": len(c.Boards), "starts": len(c.Starts), "rules": len(c.Rules),
		"outputs.figures": len(c.Outputs.Figures), "claims": len(c.Claims), "families": len(c.Families),
		refList: len(c.Outputs.FigureOptions.SizeCurve.References),
	}
	for _, list := range lists {
		var seq *yaml.Node
		for _, e := range s.entries {
			if e.path == list {
				seq = e.node
				break
			}
		}
		if seq != nil && seq.Kind == yaml.AliasNode && seq.Alias != nil {
			seq = seq.Alias
		}
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		var drop []int
		for i, item := range seq.Content {
			key := fmt.Sprintf("%s[%d]", list, i)
			if item.Kind == yaml.AliasNode && item.Alias != nil {
				item = item.Alias
			}
			gone := false
			if item.Kind == yaml.ScalarNode && item.ShortTag() == "!!null" {
				gone = true
				w := want(typeName(typeAt(key)))
				if list == "starts" {
					w = "a square (a1, r0c0) or a class (corner, edge, centre, interior)"
				}
				errs = append(errs, Error{File: s.file, Line: s.line(key), Key: key, Msg: "empty item; want " + w})
			}
			for _, c := range covered {
				if c == key {
					gone = true
				}
			}
			for _, e := range decErrs {
				if list == "boards" && strings.HasPrefix(e.Key, key+".") { // BoardSpec.UnmarshalYAML failed
					gone = true
				}
			}
			if gone {
				drop = append(drop, i)
			}
		}
		if len(drop) > 0 {
			s.partial[list] = true
			if decoded[list] == len(seq.Content)-len(drop) {
				s.dropped[list] = drop
			} else {
				s.dropped[list] = nil
			}
		}
	}
	return errs
}

// original maps a key path into a decoded list (rules[1].name) to the
// item's index in the file (rules[2].name when rules[0] was dropped).
func (s *source) original(key string) string {
	for list, drop := range s.dropped {
		rest, ok := strings.CutPrefix(key, list+"[")
		if !ok {
			continue
		}
		end := strings.IndexByte(rest, ']')
		j, err := strconv.Atoi(rest[:max(end, 0)])
		if end < 0 || err != nil {
			return key
		}
		i := 0 // the file's index of decoded item j
		for n := 0; ; i++ {
			if !slices.Contains(drop, i) {
				if n == j {
					break
				}
				n++
			}
		}
		return fmt.Sprintf("%s[%d]%s", list, i, rest[end+1:])
	}
	return key
}

// find returns the index of the first unused entry on line (as a key, or
// as a value, or as the anchor an alias value names) that ok accepts, and
// marks it used; -1 if there is none. It looks only at the entries of that
// line, so that a file with thousands of errors is not read thousands of
// times over.
func (s *source) find(used map[int]bool, line int, ok func(entry) bool) int {
	if s.byLine == nil {
		s.byLine = map[int][]int{}
		for i, e := range s.entries {
			lines := []int{e.keyLine, e.node.Line}
			if e.node.Kind == yaml.AliasNode && e.node.Alias != nil {
				lines = append(lines, e.node.Alias.Line)
			}
			slices.Sort(lines)
			for _, l := range slices.Compact(lines) {
				s.byLine[l] = append(s.byLine[l], i)
			}
		}
	}
	for _, i := range s.byLine[line] {
		if !used[i] && ok(s.entries[i]) {
			used[i] = true
			return i
		}
	}
	return -1
}

// shorten abbreviates a value the way the YAML library's messages do.
func shorten(v string) string {
	if len(v) > 10 {
		return v[:7] + "..."
	}
	return v
}

func lastKey(path string) string {
	return path[strings.LastIndexAny(path, ".]")+1:]
}

func describeTag(tag, value string) string {
	switch tag {
	case "!!seq":
		return "a list"
	case "!!map":
		return "a mapping"
	}
	return strconv.Quote(value)
}

// want says in words what a Go type of this package accepts.
func want(typ string) string {
	switch typ {
	case "int", "int64":
		return "a whole number"
	case "uint64":
		return "a whole number from 0 to 18446744073709551615 (2^64-1)"
	case "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case boardSpecType.String():
		return "a board (8x8, 8, {sizes: 5..60}, {from: 5, to: 60, step: 5} or {rows: 5..10, cols: 8})"
	case startsType.String():
		return "all, or a list of squares (a1, r0c0) and classes (corner, edge, centre, interior)"
	case "[]" + boardSpecType.String():
		return "a list of boards, e.g. [8x8]"
	case "[]" + reflect.TypeFor[RuleSpec]().String():
		return "a list of rules, e.g. [{name: warnsdorff}]"
	case "[]" + reflect.TypeFor[Claim]().String():
		return "a list of claims"
	case reflect.TypeFor[FamilySpec]().String():
		return "a family, {name: NAME, question: WHAT ITS CLAIMS ANSWER TOGETHER}"
	case "[]" + reflect.TypeFor[FamilySpec]().String():
		return "a list of families, e.g. [{name: corners, question: do the corner claims hold?}]"
	}
	if strings.HasPrefix(typ, "[]") {
		return "a list"
	}
	if t := typeByName(typ); t != nil && t.Kind() == reflect.Struct {
		return "a mapping with keys " + strings.Join(yamlKeys(t), ", ")
	}
	if strings.Contains(typ, ".") { // never a Go type name in a user's error
		return "a mapping"
	}
	return typ
}

// wholeNumbers reports integer keys written as fractions or as numbers
// their type cannot hold. The YAML library reads a number that does not fit
// int64 or uint64 (2^64, 1e30) as a float, then silently truncates it into
// the integer (1.5 to 1, 2^64 to 2^63); an integer key must get exactly the
// value written.
func (s *source) wholeNumbers(covered []string) (errs Errors) {
	for _, e := range s.entries {
		if !reIntKey.MatchString(e.path) || coveredBy(e.path, covered) || e.node.Kind != yaml.ScalarNode || e.node.ShortTag() != "!!float" {
			continue
		}
		var f float64
		if err := e.node.Decode(&f); err != nil {
			continue // reported by the decoder
		}
		lo, hi := intRange(e.path)
		bad := func(format string, args ...any) {
			errs = append(errs, Error{File: s.file, Line: e.keyLine, Key: e.path, Msg: fmt.Sprintf(format, args...)})
		}
		exact, ok := new(big.Rat).SetString(strings.ReplaceAll(e.node.Value, "_", ""))
		switch {
		case f != math.Trunc(f) || math.IsInf(f, 0) || ok && !exact.IsInt():
			bad("want a whole number, not %s", e.node.Value)
		case !ok:
			continue // .inf and the like: caught above
		case exact.Num().Cmp(lo) < 0 || exact.Num().Cmp(hi) > 0:
			bad("%s is out of range; want %s", e.node.Value, validRange(e.path))
		case new(big.Rat).SetFloat64(f).Cmp(exact) != 0:
			bad("%s cannot be read exactly (it passes through a float); write it as a plain integer", e.node.Value)
		}
	}
	return errs
}

// validRange says which whole numbers an integer key accepts, or "" for a
// key that is not one.
func validRange(path string) string {
	item := strings.HasSuffix(path, "]") && strings.HasPrefix(path, "rules[") // an item of a design's list
	if item {
		path = parent(path)
	}
	switch k := lastKey(path); {
	case !reIntKey.MatchString(path):
		return ""
	case k == "seed":
		return "a whole number from 0 to 18446744073709551615 (2^64-1)"
	case k == "walks", k == "min", k == "max":
		return fmt.Sprintf("1 to %.0e walks", float64(MaxWalks))
	case k == "max_steps":
		return fmt.Sprintf("0 (no limit) to %d steps", MaxSteps)
	case k == "node_budget":
		return fmt.Sprintf("0 (the default) to %.0e nodes", float64(MaxNodeBudget))
	case k == "row_group":
		return fmt.Sprintf("0 (the writer's default) to %d rows", MaxRowGroup)
	case k == "degree":
		return "0 to 8"
	case k == "step":
		return "a step of at least 1"
	case k == "walk":
		return "a walk index from 0 to 18446744073709551615 (2^64-1)"
	}
	return fmt.Sprintf("a side from 1 to %d", sim.MaxSide) // from, to
}

// intRange returns the range of the integer type that the key decodes into.
func intRange(path string) (lo, hi *big.Int) {
	if typeName(typeAt(path)) == "uint64" {
		return new(big.Int), new(big.Int).SetUint64(math.MaxUint64)
	}
	return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
}

var reIntKey = regexp.MustCompile(`^(seed|walks|walks\.(min|max)|rules\[\d+\]\.(max_steps|node_budget)(\[\d+\])?|outputs\.row_group|boards\[\d+\]\.(from|to|step)|claims\[\d+\]\.degree|outputs\.figure_options\.size_curve\.references\[\d+\]\.(n|n_max)|outputs\.figure_options\.walk)$`)

// coveredBy reports whether key lies at or under one of the covered keys
// ("" covers everything).
func coveredBy(key string, covered []string) bool {
	for _, c := range covered {
		if c == "" || key == c || strings.HasPrefix(key, c+".") || strings.HasPrefix(key, c+"[") {
			return true
		}
	}
	return false
}

// Types of this package, by the names that the YAML library's messages use.
var (
	configType     = reflect.TypeFor[Config]()
	boardSpecType  = reflect.TypeFor[BoardSpec]()
	startsType     = reflect.TypeFor[Starts]()
	sequentialType = reflect.TypeFor[sequentialYAML]()
	walksSpecType  = reflect.TypeFor[WalksSpec]()
)

func typeByName(name string) reflect.Type {
	for _, t := range decodedTypes() {
		if t.String() == name {
			return t
		}
	}
	return nil
}

// decodedTypes lists the struct types an experiment file decodes into:
// Config and every struct reachable from its fields (families, figure
// options, a walks mapping's sequentialYAML), so an unknown key anywhere
// lists the keys valid there.
func decodedTypes() []reflect.Type {
	var out []reflect.Type
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || slices.Contains(out, t) {
			return
		}
		out = append(out, t)
		for f := range t.Fields() {
			if f.IsExported() {
				walk(f.Type)
			}
		}
	}
	for _, t := range []reflect.Type{configType, boardSpecType, startsType, sequentialType} {
		walk(t)
	}
	return out
}

func typeName(t reflect.Type) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// typeAt returns the Go type that the value at key path decodes into, or nil.
func typeAt(path string) reflect.Type {
	t := configType
	for path != "" {
		if t == walksSpecType { // a walks mapping decodes into sequentialYAML
			t = sequentialType
		}
		var part string
		if path[0] == '[' {
			j := strings.IndexByte(path, ']')
			if j < 0 || t.Kind() != reflect.Slice {
				return nil
			}
			t, path = t.Elem(), path[j+1:]
			continue
		}
		path = strings.TrimPrefix(path, ".")
		j := strings.IndexAny(path, ".[")
		if j < 0 {
			j = len(path)
		}
		part, path = path[:j], path[j:]
		if t.Kind() != reflect.Struct {
			return nil
		}
		var found reflect.Type
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() && yamlName(f) == part {
				found = f.Type
			}
		}
		if found == nil {
			return nil
		}
		t = found
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	return t
}

// yamlKeys lists the YAML keys of struct type t in field order.
func yamlKeys(t reflect.Type) []string {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			if n := yamlName(f); n != "" {
				keys = append(keys, n)
			}
		}
	}
	return keys
}

func yamlName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if tag == "-" {
		return ""
	}
	if tag == "" {
		return strings.ToLower(f.Name)
	}
	return tag
}

// guess returns the valid key closest to a mistyped one, if it is close.
func guess(key string, valid []string) string {
	best, bestD := "", 3
	for _, v := range valid {
		if d := distance(key, v); d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
