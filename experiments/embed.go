// Package experiments holds the committed experiment files, embedded so
// that the experiment command can run them by name from anywhere. The file
// of experiment NAME is experiments/NAME.yaml, and its name key is NAME;
// internal/config reads and validates them.
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

// Lookup returns the contents of the experiment file NAME.yaml; name may
// carry the .yaml suffix.
func Lookup(name string) ([]byte, bool) {
	name = strings.TrimSuffix(name, ".yaml")
	if name == "" || strings.ContainsAny(name, `/\`) {
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
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
