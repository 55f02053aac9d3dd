package results

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// The files of a result directory.
const (
	SquaresFile     = table.Squares + ".parquet" // each table's file is its name's (table.Tables)
	LengthsFile     = table.Lengths + ".parquet"
	DeadEndsFile    = table.DeadEnds + ".parquet"
	ClassesFile     = table.Classes + ".parquet"
	BoardsFile      = table.Boards + ".parquet"
	ComparisonsFile = table.Comparisons + ".parquet"
	ClaimsFile      = table.Claims + ".parquet"
	WalksFile       = table.Walks + ".parquet"   // the per-walk table, when asked for
	DesignsFile     = table.Designs + ".parquet" // the designs table, when the experiment has a design
	ClaimsTeXFile   = "claims.tex"
	ManifestFile    = "manifest.json"
	ReportFile      = "report.md"
	FiguresDir      = "figures"
)

// TableFiles are the tables every result directory holds, in the order
// Write writes them (WalksFile comes after them when asked for).
var TableFiles = []string{SquaresFile, LengthsFile, DeadEndsFile, ClassesFile, BoardsFile, ComparisonsFile, ClaimsFile}

// Files are every file Write may put in a result directory.
var Files = append(append([]string(nil), TableFiles...), WalksFile, DesignsFile, ClaimsTeXFile, ManifestFile, ReportFile)

// FigureExts are the extensions of the figure files the figure writer
// puts in FiguresDir, and FigureIndexFile its gallery page: with Files,
// the one list of everything the tool writes into a result directory.
// The figure writer refuses to write any other name there (so a new kind
// of output cannot be added without being listed), and --force replaces
// a result directory only when it holds nothing else.
var FigureExts = []string{".png", ".svg", ".pdf", ".gif"}

// FigureIndexFile is the figures' gallery page in FiguresDir.
const FigureIndexFile = "index.html"

// IsFigureFile reports whether name (a base name, not a temporary file)
// is one the figure writer may put in FiguresDir.
func IsFigureFile(name string) bool {
	return name == FigureIndexFile || slices.Contains(FigureExts, filepath.Ext(name)) && !strings.HasPrefix(name, ".")
}

// IsResultFile reports whether name is one Write or the figure writer
// may put at the top of a result directory.
func IsResultFile(name string) bool { return slices.Contains(Files, name) }

// Manifest is manifest.json: what ran, how, and what came out. Figures and
// tools read result directories through it.
type Manifest struct {
	Experiment  string         `json:"experiment"`
	Description string         `json:"description,omitempty"`
	Seed        config.U64     `json:"seed"` // a string (config.U64): seeds pass 2^53
	ConfigHash  string         `json:"config_hash"`
	ToolVersion string         `json:"tool_version"`
	GitCommit   string         `json:"git_commit,omitempty"` // Build.Revision, as the tables' git_commit key
	Build       buildinfo.Info `json:"build"`
	Host        buildinfo.Host `json:"host"` // the machine the results were written on
	// Warnings say what makes the results harder to trace or compare (a
	// binary without VCS information); report.md carries them too.
	Warnings    []string   `json:"warnings,omitempty"`
	Shard       string     `json:"shard"`
	Workers     int        `json:"workers"`
	Units       int        `json:"units"`
	Walks       config.U64 `json:"walks"` // strings, as the seed: counts that can pass 2^53
	Successes   config.U64 `json:"successes"`
	Closed      config.U64 `json:"closed"`
	StartedAt   string     `json:"started_at"`  // RFC 3339, UTC: when the run (or merge) started
	FinishedAt  string     `json:"finished_at"` // when its results were written
	Seconds     float64    `json:"seconds"`     // time spent running walks; of a merge, the shards' summed
	WalksPerSec float64    `json:"walks_per_second"`
	// ExactSeconds is the time spent on exact values (enumeration, or
	// the stored values), SplittingSeconds on the splitting estimator's
	// rare-event estimates; neither counts in seconds or throughput, and
	// each is absent where the run had none.
	ExactSeconds     float64 `json:"exact_seconds,omitempty"`
	SplittingSeconds float64 `json:"splitting_seconds,omitempty"`
	// Shards lists, for a merged result (shard "merged"), each part's
	// provenance; MergeSeconds is the merge's own time, never throughput.
	Shards       []ShardRun       `json:"shards,omitempty"`
	MergeSeconds float64          `json:"merge_seconds,omitempty"`
	Tables       []string         `json:"tables"`
	Config       config.Canonical `json:"config"`
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := safeio.ReadRegular(path, 64<<20)
	if err != nil {
		return nil, fmt.Errorf("%s is not a result directory: %w", dir, err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// Metadata is the key-value metadata of every table of a run of e by a
// binary of the given version and provenance (buildinfo.Read()).
func Metadata(e *config.Experiment, toolVersion string, build buildinfo.Info) table.Metadata {
	cfg, err := json.Marshal(e.Config)
	if err != nil { // only NaN or Inf, which validation refuses
		panic("results: resolved configuration does not encode: " + err.Error())
	}
	return table.Metadata{Experiment: e.Name, Seed: e.Seed, ConfigHash: e.ConfigHash, ToolVersion: toolVersion, Build: build,
		Config: string(cfg), Levels: Levels(e),
		Extra: map[string]string{"confidence": strconv.FormatFloat(e.Confidence, 'g', -1, 64), "interval": e.Method.String()}}
}

// Levels are the levels of e's tables that the table writer cannot know
// itself: its name, boards, rules and the rules' tie-breaks.
func Levels(e *config.Experiment) table.Levels {
	lv := table.Levels{Experiment: e.Name}
	for _, b := range e.Boards {
		lv.Boards = append(lv.Boards, b.String())
	}
	for _, r := range e.Rules {
		lv.Rules = append(lv.Rules, r.Name())
		if t := Params(r).TieBreak; t != "" {
			lv.TieBreaks = append(lv.TieBreaks, t)
		}
	}
	return lv
}

// RunInfo describes how the tallies behind a set of tables were made, for the
// manifest.
type RunInfo struct {
	Meta    table.Metadata
	Shard   string // "0/1" for a whole run or a merge
	Workers int
	Units   int       // work units of the whole plan
	Walks   uint64    // walks run by this process
	Seconds float64   // time spent running them
	Started time.Time // when the run or merge started
	PerWalk bool      // the per-walk table was written too
	// ExactSeconds and SplittingSeconds are the time spent computing
	// exact values and splitting estimates, apart from the walks'.
	ExactSeconds, SplittingSeconds float64
	// Shards are the parts' provenance for a merge (then Seconds is the
	// merge's own time); nil for a run.
	Shards []ShardRun
}

// Write writes the tables, claims.tex (when there are claims), manifest.json
// and report.md of a run of e into dir.
func Write(dir string, e *config.Experiment, t *Tables, run RunInfo) error {
	return WriteContext(context.Background(), dir, e, t, run)
}

// WriteContext is Write stopping with ctx's error once ctx is done,
// between tables and, for rows made as they are written, between one
// (board, rule)'s rows and the next; what it wrote is then incomplete,
// and dir is for the caller to remove.
func WriteContext(ctx context.Context, dir string, e *config.Experiment, t *Tables, run RunInfo) error {
	md := run.Meta
	if md.Experiment == "" { // every table names its run (ReadOf checks it)
		md = Metadata(e, md.ToolVersion, md.Build)
	}
	files := slices.Clone(TableFiles)
	var writes []func() error // each table's, in files' order
	if t.cells != nil {
		var cellErrs [3]error // the squares, lengths and deadends tables
		done := false
		for i := range cellErrs {
			writes = append(writes, func() error {
				if !done {
					cellErrs, done = t.streamCells(ctx, dir, e, md), true
				}
				return cellErrs[i]
			})
		}
	} else {
		writes = append(writes,
			func() error { return table.WriteSquares(filepath.Join(dir, files[0]), t.Squares, md) },
			func() error { return table.WriteLengths(filepath.Join(dir, files[1]), t.Lengths, md) },
			func() error { return table.WriteDeadEnds(filepath.Join(dir, files[2]), t.DeadEnds, md) })
	}
	writes = append(writes,
		func() error { return table.WriteClasses(filepath.Join(dir, files[3]), t.Classes, md) },
		func() error { return table.WriteBoards(filepath.Join(dir, files[4]), t.Boards, md) },
		func() error { return table.WriteComparisons(filepath.Join(dir, files[5]), t.Comparisons, md) },
		func() error { return table.WriteClaims(filepath.Join(dir, files[6]), t.Claims, md) })
	if t.Designs != nil {
		files = append(files, DesignsFile)
		writes = append(writes, func() error { return table.WriteDesigns(filepath.Join(dir, DesignsFile), t.Designs, md) })
	}
	for i, write := range writes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := write(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("writing %s: %w", files[i], err)
		}
	}
	if run.PerWalk {
		files = append(files, WalksFile)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(t.Claims) > 0 {
		if err := os.WriteFile(filepath.Join(dir, ClaimsTeXFile), []byte(claimsLaTeX(t.Claims, e.Confidence)), 0o644); err != nil {
			return err
		}
	}
	m := Manifest{Experiment: e.Name, Description: e.Description, Seed: config.U64(e.Seed), ConfigHash: e.ConfigHash,
		ToolVersion: md.ToolVersion, GitCommit: md.Build.Revision, Build: md.Build, Shard: run.Shard, Workers: run.Workers,
		Units: run.Units, StartedAt: timestamp(run.Started), FinishedAt: timestamp(time.Now()), Seconds: run.Seconds,
		ExactSeconds: run.ExactSeconds, SplittingSeconds: run.SplittingSeconds,
		Tables: files, Config: e.Config, Host: ReadHost()}
	if !md.Build.Traceable() {
		m.Warnings = append(m.Warnings, buildinfo.NoVCSWarning)
	}
	sums := t.squareSums()
	m.Walks, m.Successes, m.Closed = config.U64(sums.walks), config.U64(sums.successes), config.U64(sums.closed)
	if run.Seconds > 0 {
		m.WalksPerSec = float64(run.Walks) / run.Seconds
	}
	if run.Shards != nil {
		mergedRun(&m, run.Shards, run.Seconds)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ReportFile), []byte(report(e, t, m.Warnings)), 0o644)
}

// timestamp writes t as RFC 3339 in UTC, to the second; "" for the zero time.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// kernelPaths describes the 8x8 kernel paths of this run for the
// manifest: the one KNIGHTWALK_KERNEL asks for (auto: the fastest,
// measured per rule) and those this CPU can run. The path changes speed
// only, never a walk.
func kernelPaths() string {
	p, err := sim.KernelPathFromEnv()
	if err != nil {
		p = "auto"
	}
	var names []string
	for _, q := range sim.KernelPaths() {
		names = append(names, string(q))
	}
	return fmt.Sprintf("%s (this CPU: %s)", p, strings.Join(names, ", "))
}

// ReadOf reads table file of result directory dir with read and refuses
// it unless its metadata names the run of m, the directory's manifest:
// the same experiment and config hash (table name and schema version are
// checked by the reader). A table copied in from another result is
// otherwise drawn, listed and loaded as this run's without a word.
func ReadOf[R any](dir, file string, m *Manifest, read func(string) ([]R, table.Metadata, error)) ([]R, error) {
	path := filepath.Join(dir, file)
	rows, md, err := read(path)
	if err != nil {
		return nil, err
	}
	if err := CheckProvenance(m, path, md); err != nil {
		return nil, err
	}
	return rows, nil
}

// CheckProvenance refuses a table whose metadata names another run than
// manifest m.
func CheckProvenance(m *Manifest, path string, md table.Metadata) error {
	if md.Experiment != m.Experiment || md.ConfigHash != m.ConfigHash {
		return fmt.Errorf("%s was written by a run of experiment %q (config %.12s), but its directory's %s is of %q (config %.12s): a table from another run; it is not used (run the experiment again, or put the table back with its own result)",
			path, md.Experiment, md.ConfigHash, ManifestFile, m.Experiment, m.ConfigHash)
	}
	return nil
}
