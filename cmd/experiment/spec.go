package main

import (
	"fmt"
	"os"
	"strings"

	"knightwalk/experiments"
	"knightwalk/internal/config"
)

// loadExperiment reads FILE, or a committed experiment by name, or the
// embedded default when arg is "", and resolves it.
func loadExperiment(arg string) (*config.Experiment, error) {
	file, data, err := readExperiment(arg)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return config.Resolve(cfg, file, data)
}

// readExperiment returns the name and contents of FILE, of a committed
// experiment by name, or of the embedded default when arg is "".
func readExperiment(arg string) (string, []byte, error) {
	var name string
	var data []byte
	switch {
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
