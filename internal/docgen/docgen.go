// Package docgen finds and rewrites the generated regions of the
// documentation pages: text between
//
//	<!-- begin generated: NAME -->
//	…
//	<!-- end generated -->
//
// that a named generator produces from the tool, never by hand. A region
// whose begin marker ends its line is a block: its body is the
// generator's text on lines of its own. Otherwise it is inline, inside a
// sentence: its body is the generator's text exactly.
//
// The generators and the check that each committed region is its
// generator's output are harness's TestDocs; `go test ./harness -run
// TestDocs -update-docs` rewrites the regions (KNIGHTWALK_SLOW=1 for the
// regions whose generators run experiments).
package docgen

import (
	"fmt"
	"strings"
)

const (
	beginPrefix = "<!-- begin generated: "
	beginSuffix = " -->"
	end         = "<!-- end generated -->"
)

// Begin is the begin marker of the region name.
func Begin(name string) string { return beginPrefix + name + beginSuffix }

// End is the end marker of every region.
const End = end

// span is where the body of region name lies in page, and whether it is a block.
func span(page, name string) (lo, hi int, block bool, err error) {
	b := Begin(name)
	i := strings.Index(page, b)
	if i < 0 {
		return 0, 0, false, fmt.Errorf("no region %q (%s)", name, b)
	}
	if strings.Contains(page[i+len(b):], b) {
		return 0, 0, false, fmt.Errorf("region %q begins twice", name)
	}
	lo = i + len(b)
	j := strings.Index(page[lo:], end)
	if j < 0 {
		return 0, 0, false, fmt.Errorf("region %q has no %s", name, end)
	}
	hi = lo + j
	if k := strings.Index(page[lo:hi], beginPrefix); k >= 0 {
		return 0, 0, false, fmt.Errorf("region %q has no %s before the next region", name, end)
	}
	return lo, hi, strings.HasPrefix(page[lo:], "\n"), nil
}

// body is how text stands in a region: on lines of its own in a block.
func body(text string, block bool) string {
	if block {
		return "\n" + strings.Trim(text, "\n") + "\n"
	}
	return text
}

// Region is the text of region name of page, as its generator gave it.
func Region(page, name string) (string, error) {
	lo, hi, block, err := span(page, name)
	if err != nil {
		return "", err
	}
	if block {
		return strings.Trim(page[lo:hi], "\n") + "\n", nil
	}
	return page[lo:hi], nil
}

// Holds reports whether region name of page is text.
func Holds(page, name, text string) (bool, error) {
	lo, hi, block, err := span(page, name)
	if err != nil {
		return false, err
	}
	return page[lo:hi] == body(text, block), nil
}

// Replace is page with the body of region name replaced by text.
func Replace(page, name, text string) (string, error) {
	lo, hi, block, err := span(page, name)
	if err != nil {
		return "", err
	}
	return page[:lo] + body(text, block) + page[hi:], nil
}

// Names are the regions of page, in order; a marker quoted as code
// (`<!-- begin generated: NAME -->`, as a page describing them writes it)
// begins none.
func Names(page string) []string {
	var names []string
	for rest := page; ; {
		i := strings.Index(rest, beginPrefix)
		if i < 0 {
			return names
		}
		quoted := i > 0 && rest[i-1] == '`'
		rest = rest[i+len(beginPrefix):]
		j := strings.Index(rest, beginSuffix)
		if j < 0 {
			return names
		}
		if !quoted {
			names = append(names, rest[:j])
		}
	}
}
