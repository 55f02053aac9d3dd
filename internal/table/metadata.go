package table

import (
	"fmt"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
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
	// Build is the provenance of the binary that wrote the file and of its
	// machine; its Revision is stored under git_commit. No times: equal
	// tables give byte-identical files (times go to manifest.json).
	Build buildinfo.Info
	// Config is the resolved configuration as JSON (config.Canonical).
	Config string
	// SchemaVersion is the version of the tables' layout a file was written
	// with, set when a file is read (1 for files without the key). Files are
	// always written with the current SchemaVersion, whatever it says here.
	SchemaVersion int
	// Levels lists the run's boards and rules for the categorical columns;
	// it is not read back: each file stores its columns' full level lists
	// (LevelsKey) and its dictionaries hold them.
	Levels Levels
	// Extra holds further keys. They must not be one of the reserved keys
	// (see reservedKeys); a nil and an empty map are written alike, and
	// reading returns nil when there are none.
	Extra map[string]string
}

// SchemaVersion is the version of the tables' layout this package writes and
// reads, stored under the schema_version key. Version 2 made counts signed,
// undefined values null and categorical columns dictionaries; version 3
// added rule_spec (and comparisons' rule_spec_a, rule_spec_b) and made
// claims.test null where no test applies; files before 2 have no key and
// are version 1.
const SchemaVersion = 3

// Metadata keys. Values are strings; the seed is written in decimal.
const (
	keySchemaVersion = "schema_version"
	keyTable         = "table"
	keyExperiment    = "experiment"
	keySeed          = "seed"
	keyConfigHash    = "config_hash"
	keyToolVersion   = "tool_version"
	keyGitCommit     = "git_commit"
	keyVCSModified   = "vcs_modified"
	keyGoVersion     = "go_version"
	keyModuleVersion = "module_version"
	keyGOOS          = "goos"
	keyGOARCH        = "goarch"
	keyCPU           = "cpu"
	keyConfig        = "config"
	// The keys of a binary built in another module (buildinfo.Info's
	// Harness fields and the building module's path), written only when
	// set, so that a build of this module writes the bytes it always did.
	keyModule         = "module"
	keyHarnessModule  = "knightwalk_module"
	keyHarnessVersion = "knightwalk_version"
	keyHarnessCommit  = "knightwalk_commit"
	keyHarnessReplace = "knightwalk_replace"
	keyLevels         = LevelsKey // written by the writer from the columns' levels
	// keyArrowSchema is written by pqarrow (the serialized Arrow schema).
	keyArrowSchema = "ARROW:schema"
)

var reservedKeys = []string{
	keySchemaVersion, keyTable, keyExperiment, keySeed, keyConfigHash, keyToolVersion, keyGitCommit,
	keyVCSModified, keyGoVersion, keyModuleVersion, keyGOOS, keyGOARCH, keyCPU, keyConfig, keyLevels, keyArrowSchema,
	keyModule, keyHarnessModule, keyHarnessVersion, keyHarnessCommit, keyHarnessReplace,
}

// pairs returns md as key-value pairs in a fixed order (reserved keys first,
// then extras sorted by key), so equal inputs give byte-identical files.
func (md Metadata) pairs(table string) ([][2]string, error) {
	kv := [][2]string{
		{keySchemaVersion, strconv.Itoa(SchemaVersion)},
		{keyTable, table},
		{keyExperiment, md.Experiment},
		{keySeed, strconv.FormatUint(md.Seed, 10)},
		{keyConfigHash, md.ConfigHash},
		{keyToolVersion, md.ToolVersion},
		{keyGitCommit, md.Build.Revision},
		{keyVCSModified, md.Build.Modified},
		{keyGoVersion, md.Build.GoVersion},
		{keyModuleVersion, md.Build.ModuleVersion},
		{keyGOOS, md.Build.GOOS},
		{keyGOARCH, md.Build.GOARCH},
		{keyCPU, md.Build.CPU},
		{keyConfig, md.Config},
	}
	if b := md.Build; b.HarnessModule != "" {
		for _, p := range [][2]string{{keyModule, b.Module}, {keyHarnessModule, b.HarnessModule},
			{keyHarnessVersion, b.HarnessVersion}, {keyHarnessCommit, b.HarnessCommit}, {keyHarnessReplace, b.HarnessReplace}} {
			if p[1] != "" {
				kv = append(kv, p)
			}
		}
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

// parseMetadata is the inverse of pairs. Given a table name, it checks the
// file is of this package's schema version and holds that table; table ""
// accepts any version and table.
func parseMetadata(keys, values []string, table string) (Metadata, error) {
	md := Metadata{SchemaVersion: 1}
	found, versioned := "", false
	for i, k := range keys {
		v := values[i]
		switch k {
		case keySchemaVersion:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return Metadata{}, fmt.Errorf("metadata: schema_version %q is not a version number", v)
			}
			md.SchemaVersion, versioned = n, true
		case keyTable:
			found = v
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
			md.Build.Revision = v
		case keyVCSModified:
			md.Build.Modified = v
		case keyGoVersion:
			md.Build.GoVersion = v
		case keyModuleVersion:
			md.Build.ModuleVersion = v
		case keyGOOS:
			md.Build.GOOS = v
		case keyGOARCH:
			md.Build.GOARCH = v
		case keyCPU:
			md.Build.CPU = v
		case keyConfig:
			md.Config = v
		case keyModule:
			md.Build.Module = v
		case keyHarnessModule:
			md.Build.HarnessModule = v
		case keyHarnessVersion:
			md.Build.HarnessVersion = v
		case keyHarnessCommit:
			md.Build.HarnessCommit = v
		case keyHarnessReplace:
			md.Build.HarnessReplace = v
		case keyArrowSchema, keyLevels:
		default:
			if md.Extra == nil {
				md.Extra = make(map[string]string)
			}
			md.Extra[k] = v
		}
	}
	if table != "" {
		// the version first: another version's keys may mean other things
		if err := checkVersion(md, versioned); err != nil {
			return Metadata{}, err
		}
		if found != table {
			return Metadata{}, fmt.Errorf("file holds table %q, not %q", found, table)
		}
	}
	return md, nil
}
