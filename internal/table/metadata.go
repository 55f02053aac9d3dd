package table

import (
	"fmt"
	"slices"
	"strconv"
)

// Metadata identifies the run that produced a table. It is stored as Parquet
// file key-value metadata on every table, so a file copied out of its
// results directory still says where it came from.
type Metadata struct {
	Experiment  string
	Seed        uint64
	ConfigHash  string
	ToolVersion string
	GitCommit   string
	// Extra holds further keys. They must not be one of the reserved keys
	// (see reservedKeys); a nil and an empty map are written alike, and
	// reading returns nil when there are none.
	Extra map[string]string
}

// Metadata keys. Values are strings; the seed is written in decimal.
const (
	keyTable       = "table"
	keyExperiment  = "experiment"
	keySeed        = "seed"
	keyConfigHash  = "config_hash"
	keyToolVersion = "tool_version"
	keyGitCommit   = "git_commit"
	// keyArrowSchema is written by pqarrow (the serialized Arrow schema).
	keyArrowSchema = "ARROW:schema"
)

var reservedKeys = []string{
	keyTable, keyExperiment, keySeed, keyConfigHash, keyToolVersion, keyGitCommit, keyArrowSchema,
}

// pairs returns md as key-value pairs in a fixed order (reserved keys first,
// then extras sorted by key), so equal inputs give byte-identical files.
func (md Metadata) pairs(table string) ([][2]string, error) {
	kv := [][2]string{
		{keyTable, table},
		{keyExperiment, md.Experiment},
		{keySeed, strconv.FormatUint(md.Seed, 10)},
		{keyConfigHash, md.ConfigHash},
		{keyToolVersion, md.ToolVersion},
		{keyGitCommit, md.GitCommit},
	}
	keys := make([]string, 0, len(md.Extra))
	for k := range md.Extra {
		if slices.Contains(reservedKeys, k) {
			return nil, fmt.Errorf("metadata: extra key %q is reserved", k)
		}
		if k == "" {
			return nil, fmt.Errorf("metadata: empty extra key")
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		kv = append(kv, [2]string{k, md.Extra[k]})
	}
	return kv, nil
}

// parseMetadata is the inverse of pairs. It checks the file holds the
// expected table when it says which table it holds; table "" accepts any.
func parseMetadata(keys, values []string, table string) (Metadata, error) {
	var md Metadata
	for i, k := range keys {
		v := values[i]
		switch k {
		case keyTable:
			if table != "" && v != table {
				return Metadata{}, fmt.Errorf("file holds table %q, not %q", v, table)
			}
		case keyExperiment:
			md.Experiment = v
		case keySeed:
			s, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return Metadata{}, fmt.Errorf("metadata: seed %q: %v", v, err)
			}
			md.Seed = s
		case keyConfigHash:
			md.ConfigHash = v
		case keyToolVersion:
			md.ToolVersion = v
		case keyGitCommit:
			md.GitCommit = v
		case keyArrowSchema:
		default:
			if md.Extra == nil {
				md.Extra = make(map[string]string)
			}
			md.Extra[k] = v
		}
	}
	return md, nil
}
