package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishedSources parses the embedded sources.yaml: every statement
// is valid, its ids differ, and the counts the comparisons use are the
// published ones.
func TestPublishedSources(t *testing.T) {
	ps := Published()
	if len(ps) < 10 {
		t.Fatalf("only %d published statements", len(ps))
	}
	p, ok := LookupSource("ganzfried-2004-n7")
	if !ok {
		t.Fatal("ganzfried-2004-n7 missing")
	}
	if k, n, assumed, ok := p.Count(); k != 75 || n != 100 || !assumed || !ok {
		t.Errorf("ganzfried-2004-n7 count = %d/%d assumed %v ok %v; want 75/100 assumed", k, n, assumed, ok)
	}
	if got, want := p.Citation(), "Ganzfried (2004), p. 4"; got != want {
		t.Errorf("citation %q; want %q", got, want)
	}
	p, _ = LookupSource("squirrel-cull-1996-none-over-325")
	if k, n, assumed, ok := p.Count(); k != 0 || n != 100 || assumed || !ok {
		t.Errorf("squirrel none count = %d/%d assumed %v ok %v; want 0/100 given", k, n, assumed, ok)
	}
	if got, want := p.Citation(), "Squirrel & Cull (1996), via Ganzfried (2004), p. 4"; got != want {
		t.Errorf("citation %q; want %q", got, want)
	}
	if _, ok := LookupSource("seed 000"); ok {
		t.Error("words found as a source id")
	}
}

// TestBadFilesSources compares the errors for each testdata/badsources
// file with its .golden file; go test -update rewrites them.
func TestBadFilesSources(t *testing.T) {
	files, _ := filepath.Glob("testdata/badsources/*.yaml")
	if len(files) < 3 {
		t.Fatalf("only %d bad sources files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ps, err := ParseSources(f, data)
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("ParseSources accepted %s (%v) or gave %T", f, ps, err)
			}
			for _, e := range es {
				if e.File != f || e.Line < 1 || e.Msg == "" {
					t.Errorf("error without file, line or message: %#v", e)
				}
			}
			got := err.Error() + "\n"
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("errors differ from %s:\ngot:\n%swant:\n%s", golden, got, want)
			}
		})
	}
}
