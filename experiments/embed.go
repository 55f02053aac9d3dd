// Package experiments holds the committed experiment files, embedded so
// that the experiment command can run them by name from anywhere. The file
// of experiment NAME is experiments/NAME.yaml, and its name key is NAME;
// internal/config reads and validates them. sources.yaml is not an
// experiment: it lists the published statements that claims refer to by
// id (Sources).
package experiments

import (
	"embed"
	"slices"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Default returns the default experiment, default.yaml: its name ("default")
// and its contents.
func Default() (name string, data []byte) {
	data, ok := Lookup("default")
	if !ok {
		panic("experiments: default.yaml is not embedded")
	}
	return "default", data
}

// SourcesFile is the file of published statements, embedded beside the
// experiments.
const SourcesFile = "sources.yaml"

// Sources returns the contents of sources.yaml.
func Sources() []byte {
	data, err := files.ReadFile(SourcesFile)
	if err != nil {
		panic("experiments: sources.yaml is not embedded")
	}
	return data
}

// Lookup returns the contents of the experiment file NAME.yaml; name may
// carry the .yaml suffix.
func Lookup(name string) ([]byte, bool) {
	name = strings.TrimSuffix(name, ".yaml")
	if name == "" || name+".yaml" == SourcesFile || strings.ContainsAny(name, `/\`) {
		return nil, false
	}
	data, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, false
	}
	return data, true
}

// Names returns the names of the embedded experiments, sorted.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() && e.Name() != SourcesFile {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
