package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourcesFileMessages: a sources path that is the experiment file
// itself, another experiment file, a directory or a file over the limit
// is refused in one error naming the experiment's line and key and what
// the path is, as a sources file.
func TestSourcesFileMessages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exp := func(src string) string {
		return "name: e\nboards: [5x5]\nrules: [{name: random}]\nsources: " + src + "\n"
	}
	write("other.yaml", exp("x.yaml"))
	write("big.yaml", strings.Repeat("#", 2*MaxFileBytes))
	if err := os.Mkdir(filepath.Join(dir, "srcdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, want string }{
		{"self.yaml", "self.yaml:4: sources: self.yaml names this experiment file itself; want a sources file"},
		{"other.yaml", "sources: " + filepath.Join(dir, "other.yaml") + " is an experiment file (it has name, boards, rules), not a sources file"},
		{"srcdir", "srcdir: is a directory; want a sources file (YAML)"},
		{"big.yaml", "a sources file holds at most 1048576 bytes"},
	} {
		path := write("self.yaml", exp(c.src))
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "unknown key") || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("sources: %s: got %v; want one error holding %q", c.src, err, c.want)
		}
	}
}
