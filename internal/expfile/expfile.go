// Package expfile reads the experiment a command names: an experiment
// file, a committed experiment by name, a result's manifest.json or a
// table's resolved configuration (which run exactly what produced the
// results), or the default; and tells a sources file from an experiment.
package expfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/knightwalk/knightwalk/experiments"
	"github.com/knightwalk/knightwalk/internal/config"

	"go.yaml.in/yaml/v3"
)

// Load reads FILE, or a committed experiment by name, or the
// embedded default when arg is "", and resolves it.
func Load(arg string) (*config.Experiment, error) {
	file, data, err := Read(arg)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	return config.Resolve(cfg, file, data)
}

// Parse reads an experiment file; a result's manifest.json (its
// config, checked against its config_hash); or a resolved configuration as
// the manifest and the tables' config key store it (top-level key format).
// The last two run exactly what produced the results.
func Parse(file string, data []byte) (*config.Config, error) {
	var top map[string]any
	if yaml.Unmarshal(data, &top) != nil {
		return config.Parse(file, data) // its errors say what is wrong
	}
	_, isCanonical := top["format"]
	_, hasHash := top["config_hash"]
	_, hasConfig := top["config"]
	switch {
	case hasHash && hasConfig:
		var m struct {
			ConfigHash string          `json:"config_hash"`
			Config     json.RawMessage `json:"config"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: a manifest, but %w", file, err)
		}
		cfg, err := parseCanonical(file+": config", m.Config)
		if err != nil {
			return nil, err
		}
		if h := cfg.Hash(); h != m.ConfigHash {
			return nil, fmt.Errorf("%s: config hashes to %s, not the manifest's config_hash %s: edited, or written by another version", file, h, m.ConfigHash)
		}
		return cfg, nil
	case isCanonical:
		js, err := json.Marshal(top) // YAML or JSON: the canonical form's keys either way
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return parseCanonical(file, js)
	}
	return config.Parse(file, data)
}

// parseCanonical decodes a resolved configuration strictly (every key
// known) and turns it back into a configuration.
func parseCanonical(file string, data []byte) (*config.Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cn config.Canonical
	if err := dec.Decode(&cn); err != nil {
		return nil, fmt.Errorf("%s: not a resolved configuration (the config of a manifest): %w", file, err)
	}
	return config.FromCanonical(file, cn)
}

// Read returns the name and contents of FILE, of a committed
// experiment by name, or of the embedded default when arg is "".
func Read(arg string) (string, []byte, error) {
	var name string
	var data []byte
	switch {
	case arg == "" && defaultExperiment.data != nil:
		name, data = defaultExperiment.name, defaultExperiment.data
	case arg == "":
		name, data = experiments.Default()
		name = "experiments/" + name + ".yaml"
	case fileExists(arg):
		b, err := config.ReadFile(arg) // bounded: /dev/zero or a FIFO cannot exhaust memory
		if err != nil {
			return "", nil, err
		}
		name, data = arg, b
	default:
		b, ok := experiments.Lookup(strings.TrimSuffix(arg, ".yaml"))
		if _, err := os.Stat(arg); !ok && err == nil {
			_, err := config.ReadFile(arg) // a directory: say so, not "no such file"
			return "", nil, err
		}
		if !ok {
			return "", nil, fmt.Errorf("%s: no such file, and no committed experiment of that name (committed: %s)", arg, strings.Join(experiments.Names(), ", "))
		}
		name, data = "experiments/"+strings.TrimSuffix(arg, ".yaml")+".yaml", b
	}
	return name, data, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// defaultExperiment is what `run` with no argument runs when a program
// of your own set it (SetDefault); otherwise the embedded default.
var defaultExperiment struct {
	name string
	data []byte
}

// SetDefault makes the experiment file data (named name in messages and
// provenance) what Load("") reads, in place of the embedded default
// (harness.SetDefault).
func SetDefault(name string, data []byte) {
	defaultExperiment.name, defaultExperiment.data = name, data
}

// Sources checks FILE when it is a sources file (its one
// top-level key is sources, as experiments/sources.yaml), so that
// `validate experiments/*.yaml` checks every file there; ok is false for
// anything else, left to the experiment reader.
func Sources(arg string) (n int, ok bool, err error) {
	if !fileExists(arg) {
		return 0, false, nil
	}
	data, err := config.ReadFile(arg)
	if err != nil {
		return 0, false, nil
	}
	var top map[string]any
	if yaml.Unmarshal(data, &top) != nil || len(top) != 1 || top["sources"] == nil {
		return 0, false, nil
	}
	pubs, err := config.ParseSources(arg, data)
	return len(pubs), true, err
}
