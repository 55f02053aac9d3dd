package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestAliasesRefused: a YAML alias is refused at its
// own line and key, wherever its anchor is (an unknown key, a valid key
// of another type or the same type, a list, an item, no anchor at all),
// never blamed on the anchor's line or key.
func TestAliasesRefused(t *testing.T) {
	base := "name: t\nseed: 5\nboards: [5x5]\nrules:\n  - {name: random}\n"
	for _, c := range []struct{ yaml, want string }{
		{"x: &a 5\n" + base + "walks: *a\n", "x.yaml:7: walks: an alias (*a) of the anchor &a at line 1; YAML aliases"},
		{strings.Replace(base, "seed: 5", "seed: &a 5", 1) + "walks: *a\n", "x.yaml:6: walks: an alias (*a) of the anchor &a at line 2"},
		{strings.Replace(base, "name: t", "name: &a t", 1) + "walks: *a\n", "x.yaml:6: walks: an alias (*a) of the anchor &a at line 1"},
		{strings.Replace(base, "[5x5]", "&b [5x5]", 1) + "starts: *b\n", "x.yaml:6: starts: an alias (*b) of the anchor &b at line 3"},
		{strings.Replace(base, "  - {name: random}\n", "  - &r {name: random}\n  - *r\n", 1), "x.yaml:6: rules[1]: an alias (*r) of the anchor &r at line 5"},
		{"x: &z {walk: 1000}\n" + base + "outputs:\n  figures: [walk]\n  figure_options:\n    <<: *z\n", "x.yaml:10: outputs.figure_options.<<: an alias (*z) of the anchor &z at line 1"},
		{base + "walks: *nowhere\n", "x.yaml:6: an alias (*nowhere) of an anchor not defined before it"},
	} {
		_, err := Parse("x.yaml", []byte(c.yaml))
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%q:\ngot  %v\nwant one error holding %q", c.yaml, err, c.want)
		}
	}
	// An anchor that no alias uses is only a name: still read.
	if _, err := Parse("x.yaml", []byte(strings.Replace(base, "seed: 5", "seed: &a 5", 1)+"walks: 5\n")); err != nil {
		t.Errorf("an anchor with no alias: %v", err)
	}
	// A sources file too.
	_, err := ParseSources("s.yaml", []byte("sources:\n  - &p {id: a-1, statement: x, where: p. 1}\n  - *p\n"))
	if err == nil || !strings.Contains(err.Error(), "s.yaml:3: sources[1]: an alias (*p) of the anchor &p at line 2") {
		t.Errorf("sources with an alias: %v", err)
	}
}

// TestTextEncodings: an experiment file or sources
// file in UTF-16 or UTF-32, with a byte-order mark or without, is refused
// in one error naming the file and saying to save it as UTF-8 (it was
// "incomplete UTF-16 character", or "cannot unmarshal" at line 1 and a
// cascade); a UTF-8 byte-order mark is read, lines counted as written.
func TestTextEncodings(t *testing.T) {
	good, err := os.ReadFile("testdata/ownsources/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sources, err := os.ReadFile("testdata/ownsources/good-sources.yaml")
	if err != nil {
		t.Fatal(err)
	}
	u16 := func(b []byte, bigEndian bool) []byte {
		var out []byte
		for _, r := range utf16.Encode([]rune(string(b))) {
			if bigEndian {
				out = append(out, byte(r>>8), byte(r))
			} else {
				out = append(out, byte(r), byte(r>>8))
			}
		}
		return out
	}
	u32le := func(b []byte) []byte {
		var out []byte
		for _, r := range string(b) {
			out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
		return out
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	encodings := []struct {
		name string
		enc  func([]byte) []byte
		want string
	}{
		{"utf-16le bom", func(b []byte) []byte { return cat([]byte{0xff, 0xfe}, u16(b, false)) }, "is UTF-16 text (little-endian, with a byte-order mark); save it as UTF-8"},
		{"utf-16be bom", func(b []byte) []byte { return cat([]byte{0xfe, 0xff}, u16(b, true)) }, "is UTF-16 text (big-endian, with a byte-order mark); save it as UTF-8"},
		{"utf-16le bom, odd length", func(b []byte) []byte { return cat([]byte{0xff, 0xfe}, u16(b, false), []byte("\n")) }, "is UTF-16 text (little-endian, with a byte-order mark); save it as UTF-8"},
		{"utf-16 bom before utf-8", func(b []byte) []byte { return cat([]byte{0xff, 0xfe}, b) }, "is UTF-16 text (little-endian, with a byte-order mark); save it as UTF-8"},
		{"utf-16le", func(b []byte) []byte { return u16(b, false) }, "is UTF-16 text (little-endian: a NUL byte after each character); save it as UTF-8"},
		{"utf-16be", func(b []byte) []byte { return u16(b, true) }, "is UTF-16 text (big-endian: a NUL byte before each character); save it as UTF-8"},
		{"utf-32le bom", func(b []byte) []byte { return cat([]byte{0xff, 0xfe, 0, 0}, u32le(b)) }, "is UTF-32 text (little-endian, with a byte-order mark); save it as UTF-8"},
		{"utf-32le", u32le, "is UTF-32 text (little-endian: a NUL byte after each character); save it as UTF-8"},
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, e := range encodings {
		// The experiment file.
		p := write("exp.yaml", e.enc(good))
		write("good-sources.yaml", sources)
		_, err := Load(p)
		if err == nil || err.Error() != p+": "+e.want {
			t.Errorf("experiment file, %s: got %v\nwant %s: %s", e.name, err, p, e.want)
		}
		// Its sources file: the one error, no cascade onto the claim.
		write("exp.yaml", good)
		s := write("good-sources.yaml", e.enc(sources))
		_, err = Load(filepath.Join(dir, "exp.yaml"))
		if err == nil || err.Error() != s+": "+e.want {
			t.Errorf("sources file, %s: got %v\nwant %s: %s", e.name, err, s, e.want)
		}
	}
	// A UTF-8 byte-order mark is read, and lines are the file's.
	bom := []byte{0xef, 0xbb, 0xbf}
	write("good-sources.yaml", cat(bom, sources))
	p := write("exp.yaml", cat(bom, good))
	if _, err := Load(p); err != nil {
		t.Errorf("UTF-8 with a byte-order mark: %v", err)
	}
	write("exp.yaml", cat(bom, []byte("nme: x\n"), good))
	if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":1: nme: unknown key (did you mean name?)") {
		t.Errorf("UTF-8 with a byte-order mark, a typo on line 1: %v", err)
	}
	write("good-sources.yaml", cat(bom, bytes.Replace(sources, []byte("trials: 100"), []byte("trials: -5"), 1)))
	write("exp.yaml", good)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "good-sources.yaml:8: sources[0].trials: -5 is not a trial count") {
		t.Errorf("UTF-8 sources with a byte-order mark, bad trials on line 8: %v", err)
	}
}

// TestOwnSourcesNoCascade: when the experiment's own
// sources file does not load or validate, its errors are the ones said:
// a claim (or a size-curve reference line) on one of its statements is
// not also told "no statement" and "not a source id". A claim on a
// built-in statement is still checked.
func TestOwnSourcesNoCascade(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exp := write("exp.yaml", `name: own
boards: [8x8]
starts: [a1]
walks: 10
rules: [{name: warnsdorff, tie_break: pohl}]
sources: s.yaml
claims:
  - {id: mine, rule: warnsdorff/pohl, square: a1, source: my-paper-2025}
  - {id: theirs, rule: warnsdorff/pohl, square: b1, source: pohl-1967-8x8}
outputs:
  figures: [size-curve]
  figure_options:
    size_curve:
      references: [{rule: warnsdorff/pohl, source: my-paper-2025, n: 8, at_least: 0.5}]
`)
	good := "sources:\n  - id: my-paper-2025\n    where: p. 3\n    statement: x\n    trials: 100\n    successes: 72\n"
	for _, c := range []struct{ name, sources, want string }{
		{"bad trials", strings.Replace(good, "trials: 100", "trials: -5", 1), "s.yaml:5: sources[0].trials: -5 is not a trial count"},
		{"unknown key", good + "    plan: 1\n", "s.yaml:7: sources[0].plan: unknown key"},
		{"missing", "", "exp.yaml:6: sources: cannot read the sources file"},
		{"utf-16", "\xff\xfe" + good, "s.yaml: is UTF-16 text"},
	} {
		os.Remove(filepath.Join(dir, "s.yaml"))
		if c.sources != "" {
			write("s.yaml", c.sources)
		}
		_, err := Load(exp)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "claims[0]") || strings.Contains(msg, "references[0]") {
			t.Errorf("%s: the claim on the file's statement is blamed too:\n%v", c.name, err)
		}
		if !strings.Contains(err.Error(), "claims[1].square") {
			t.Errorf("%s: the claim on a built-in statement is no longer checked:\n%v", c.name, err)
		}
	}
}

// TestFigureOptionsFileEncodingAndAliases: a figure options file (plot
// --figure-options) is read as the other YAML files are: UTF-16 refused
// with what to do, an alias refused at its own line, a UTF-8 byte-order
// mark read.
func TestFigureOptionsFileEncodingAndAliases(t *testing.T) {
	base := mustParse(t, "name: x\nboards: [5x5, 6x6]\nwalks: 20\nrules: [{name: warnsdorff}]\n")
	text := "heatmap: {scale: log}\n"
	u16 := []byte{0xff, 0xfe}
	for _, r := range text {
		u16 = append(u16, byte(r), 0)
	}
	if _, err := ParseFigureOptions("opts.yaml", u16, base); err == nil || err.Error() != "opts.yaml: is UTF-16 text (little-endian, with a byte-order mark); save it as UTF-8" {
		t.Errorf("UTF-16 figure options: %v", err)
	}
	if _, err := ParseFigureOptions("opts.yaml", []byte("heatmap: &h {scale: log}\nlength_distribution: *h\n"), base); err == nil ||
		!strings.Contains(err.Error(), "opts.yaml:2: length_distribution: an alias (*h) of the anchor &h at line 1") {
		t.Errorf("an alias in figure options: %v", err)
	}
	if o, err := ParseFigureOptions("opts.yaml", append([]byte{0xef, 0xbb, 0xbf}, text...), base); err != nil || o == nil {
		t.Errorf("UTF-8 with a byte-order mark: %v %v", o, err)
	}
}
