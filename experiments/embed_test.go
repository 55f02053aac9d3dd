package experiments_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/internal/config"
)

// TestCommittedExperimentsValidate parses every committed experiment: each
// must pass validation and be named after its file.
func TestCommittedExperimentsValidate(t *testing.T) {
	names := experiments.Names()
	if !slices.Contains(names, "default") {
		t.Fatalf("experiments.Names() = %v, want default among them", names)
	}
	files, _ := filepath.Glob("*.yaml")
	if len(files) != len(names)+1 { // sources.yaml is not an experiment
		t.Errorf("%d .yaml files but %d embedded: %v", len(files), len(names), names)
	}
	for _, name := range names {
		data, ok := experiments.Lookup(name)
		if !ok {
			t.Fatalf("experiments.Lookup(%q) failed", name)
		}
		disk, err := os.ReadFile(name + ".yaml")
		if err != nil || string(disk) != string(data) {
			t.Errorf("%s.yaml: embedded copy differs from the file (%v)", name, err)
		}
		c, err := config.Parse("experiments/"+name+".yaml", data)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if c.Name != name {
			t.Errorf("experiments/%s.yaml: name is %q; want %q, the file's name", name, c.Name, name)
		}
		if strings.TrimSpace(c.Description) == "" {
			t.Errorf("experiments/%s.yaml: no description", name)
		}
	}
}

func TestDefault(t *testing.T) {
	name, data := experiments.Default()
	if name != "default" {
		t.Errorf("Default name %q", name)
	}
	c, err := config.Parse("experiments/default.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "experiments/default.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000's claims for Warnsdorff's rule, and the random walk as baseline.
	var rules []string
	for _, r := range e.Rules {
		rules = append(rules, r.Name())
	}
	if !slices.Equal(rules, []string{"warnsdorff/random", "random"}) {
		t.Errorf("rules %v", rules)
	}
	if len(e.Boards) != 1 || e.Boards[0].String() != "8x8" || len(e.Starts[0]) != 64 {
		t.Errorf("boards %v", e.Boards)
	}
	if e.Walks != 250000 || e.Seed != 1 {
		t.Errorf("walks %d seed %d", e.Walks, e.Seed)
	}
	if len(e.Checks) != 6 {
		t.Errorf("%d claims, want 3 for each rule", len(e.Checks))
	}
	for i, ch := range e.Checks {
		want := 4
		if c.Claims[i].Class == "edge" {
			want = 24
		}
		if len(ch.Boards) != 1 || len(ch.Squares[0]) != want {
			t.Errorf("claim %s pools %v squares", ch.ID, ch.Squares)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"default", "default.yaml"} {
		if _, ok := experiments.Lookup(name); !ok {
			t.Errorf("experiments.Lookup(%q) failed", name)
		}
	}
	for _, name := range []string{"", "nope", "../go.mod", "embed.go", "/default", "sources", "sources.yaml"} {
		if _, ok := experiments.Lookup(name); ok {
			t.Errorf("experiments.Lookup(%q) succeeded", name)
		}
	}
}
