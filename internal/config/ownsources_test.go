package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnSources: an experiment file's sources key names a sources file
// beside it; its statements are claims' sources like the built-in ones,
// recorded in the canonical form (name, SHA-256, statements) so the hash
// changes with the file and a manifest reruns the same comparison.
func TestOwnSources(t *testing.T) {
	c, err := Load("testdata/ownsources/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := Resolve(c, "testdata/ownsources/good.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	ch := e.Checks[0]
	if ch.Published == nil || ch.Published.ID != "my-paper-2025" || !ch.Compare {
		t.Fatalf("claim on an own source: published %+v, compare %v", ch.Published, ch.Compare)
	}
	if _, ok := e.LookupSource("my-paper-2025"); !ok {
		t.Error("Experiment.LookupSource misses the own source")
	}
	if _, ok := LookupSource("my-paper-2025"); ok {
		t.Error("an own source leaked into the built-in ones")
	}
	cn := c.canonical()
	data, _ := os.ReadFile("testdata/ownsources/good-sources.yaml")
	if cn.Sources == nil || cn.Sources.File != "good-sources.yaml" || len(cn.Sources.SHA256) != 64 || len(cn.Sources.Statements) != 1 {
		t.Fatalf("canonical sources %+v", cn.Sources)
	}
	// The hash changes with the file's bytes.
	dir := t.TempDir()
	exp, _ := os.ReadFile("testdata/ownsources/good.yaml")
	os.WriteFile(filepath.Join(dir, "good.yaml"), exp, 0o644)
	os.WriteFile(filepath.Join(dir, "good-sources.yaml"), []byte(strings.Replace(string(data), "successes: 72", "successes: 73", 1)), 0o644)
	c2, err := Load(filepath.Join(dir, "good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c2.Hash() == c.Hash() {
		t.Error("the hash did not change with the sources file")
	}
	// A manifest's canonical form reruns the same statements, with no file.
	js, _ := json.Marshal(cn)
	var back Canonical
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	c3, err := FromCanonical("manifest.json", back)
	if err != nil {
		t.Fatal(err)
	}
	if c3.Hash() != c.Hash() {
		t.Errorf("from the manifest: hash %s, want %s", c3.Hash(), c.Hash())
	}
	if p, ok := c3.publication("my-paper-2025"); !ok || *p.Successes != 72 {
		t.Errorf("from the manifest: source %+v %v", p, ok)
	}
}

// TestOwnSourcesRefused: an own file that takes a built-in id, or that is
// missing, is refused with the file, line and key.
func TestOwnSourcesRefused(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"collide.yaml", `testdata/ownsources/collide-sources.yaml:9: sources[1].id: "ganzfried-2004-n7" is the id of a statement built into this binary`},
		{"missing.yaml", `testdata/ownsources/missing.yaml:6: sources: cannot read the sources file testdata/ownsources/no-such-file.yaml`},
	} {
		_, err := Load("testdata/ownsources/" + c.file)
		var es Errors
		if !errors.As(err, &es) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %s", c.file, err, c.want)
		}
	}
}
