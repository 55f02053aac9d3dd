package runner

import (
	"encoding/json"
	"fmt"
	"knightwalk/internal/config"
	"os"
	"path/filepath"
)

// partName is the file a shard writes into its result directory.
const partName = "part.json"

// unitWalksName is the per-walk fragment a run appends to in DIR.partial,
// one record per finished unit in the order they finished; partWalksName
// is a shard's fragment, in plan order, beside its part.json.
const (
	unitWalksName = "unit-walks.bin"
	partWalksName = "walks.frag"
)

const partFormat = "knightwalk-part/1"

// Part is the mergeable result of one shard: its tallies, and the
// experiment file it ran, so that a merge needs nothing else.
type Part struct {
	Format     string      `json:"format"`
	Experiment string      `json:"experiment"`
	ConfigHash string      `json:"config_hash"`
	Seed       uint64      `json:"seed"`
	Shard      string      `json:"shard"`
	K          int         `json:"k"`
	N          int         `json:"n"`
	Units      int         `json:"units"`
	ConfigFile string      `json:"config_file"`
	ConfigYAML string      `json:"config_yaml"`
	Tallies    []partTally `json:"tallies"`
}

// partTally is the tally of one (board, rule, start) within a part.
type partTally struct {
	Board int       `json:"board"`
	Rule  int       `json:"rule"`
	Start int       `json:"start"`
	Tally tallyJSON `json:"tally"`
}

// writePart writes the shard's tallies to dir/part.json.
func writePart(dir string, s *config.Experiment, o RunOptions, ts *Tallies) error {
	p := Part{Format: partFormat, Experiment: s.Name, ConfigHash: s.ConfigHash, Seed: s.Seed, Shard: o.Shard.String(),
		K: o.Shard.K, N: o.Shard.N, Units: len(NewPlan(s).Units), ConfigFile: s.SourceFile, ConfigYAML: string(s.Source)}
	for bi := range s.Boards {
		for ri := range s.Rules {
			for _, st := range s.Starts[bi] {
				if t := ts.Of(bi, ri, st); t != nil {
					p.Tallies = append(p.Tallies, partTally{bi, ri, st, tallyJSON{t}})
				}
			}
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, partName), b, 0o644)
}

// maxPartBytes bounds what a merge reads of one part.json: the config and
// one sparse tally per (board, rule, start) fit easily.
const maxPartBytes = 1 << 30

// readPart reads and strictly decodes one part.json.
func readPart(path string) (*Part, error) {
	b, err := readLimited(path, maxPartBytes)
	if err != nil {
		return nil, err
	}
	var p Part
	if err := decodeStrict(b, &p); err != nil {
		return nil, fmt.Errorf("%s: not a shard result of this version (%s): %v", path, partFormat, err)
	}
	if p.Format != partFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, p.Format, partFormat)
	}
	return &p, nil
}

// ReadParts reads shard results (directories or part.json files) and checks
// that they are the complete set of shards of one config.
func ReadParts(paths []string) ([]*Part, error) {
	var parts []*Part
	paths = expandPartDirs(paths)
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			path = filepath.Join(path, partName)
		}
		p, err := readPart(path)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("no parts to merge")
	}
	first := parts[0]
	seen := make([]string, first.N)
	for i, p := range parts {
		if p.ConfigHash != first.ConfigHash || p.Seed != first.Seed || p.N != first.N || p.Units != first.Units {
			return nil, fmt.Errorf("%s is shard %s of config %.12s (seed %d); %s is shard %s of config %.12s (seed %d): parts of different runs cannot be merged",
				paths[i], p.Shard, p.ConfigHash, p.Seed, paths[0], first.Shard, first.ConfigHash, first.Seed)
		}
		if p.K < 0 || p.K >= p.N {
			return nil, fmt.Errorf("%s: bad shard %s", paths[i], p.Shard)
		}
		if seen[p.K] != "" {
			return nil, fmt.Errorf("shard %s given twice (%s and %s)", p.Shard, seen[p.K], paths[i])
		}
		seen[p.K] = paths[i]
	}
	var missing []int
	for k, s := range seen {
		if s == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("incomplete set of shards: missing %v of %d", missing, first.N)
	}
	return parts, nil
}

// expandPartDirs replaces a directory that is not itself a part with the
// parts directly inside it (in name order), so that a cluster's merge step
// can name the parts directory without a shell glob.
func expandPartDirs(paths []string) []string {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if _, err := os.Stat(filepath.Join(p, partName)); err != nil {
				ents, _ := os.ReadDir(p)
				found := false
				for _, e := range ents {
					if _, err := os.Stat(filepath.Join(p, e.Name(), partName)); e.IsDir() && err == nil {
						out = append(out, filepath.Join(p, e.Name()))
						found = true
					}
				}
				if found {
					continue
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// MergeInto adds every part's tallies to ts.
func MergeInto(ts *Tallies, parts []*Part) error {
	for _, p := range parts {
		for _, t := range p.Tallies {
			if t.Tally.Tally == nil {
				return fmt.Errorf("shard %s: empty tally", p.Shard)
			}
			if err := ts.Add(Cell{t.Board, t.Rule, t.Start}, t.Tally.Tally); err != nil {
				return err
			}
		}
	}
	return nil
}
