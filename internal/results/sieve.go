package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// SieveFile is the sieve table of a sieve (config.SieveStage), written in
// place of the squares, lengths and deadends tables and their summaries.
const SieveFile = table.Sieve + ".parquet"

// SieveStage is what a sieve found in one stage: the record of every cell
// that entered it, in the cells' order.
type SieveStage struct {
	Stage config.SieveStage
	Cells []SieveCell
}

// SieveCell is one cell's record of one stage: its rule and start square
// (indices into the experiment's rules and each board's starts), the
// stage's boards it walked and their squares visited, the board of its
// first failure there (HasFailed) with the failing walk's length, and
// whether it met the stage's keep.
type SieveCell struct {
	Rule, Start  int
	Boards       int
	Steps        int64
	HasFailed    bool
	Failed       int // board index, where HasFailed
	FailedLength int
	Passed       bool
}

// NotForSieve refuses, for what, a result directory that holds a sieve's
// result (its manifest's config has stages): it has the sieve table
// alone, no squares, claims or figures.
func NotForSieve(dir string, m *Manifest, what string) error {
	if len(m.Config.Sieve) == 0 {
		return nil
	}
	return fmt.Errorf("%s holds a sieve's result: the sieve table alone (%s), no squares, claims or figures to %s; load it with kw.load or read %s", dir, SieveFile, what, filepath.Join(dir, SieveFile))
}

// sieveRows turns the stages' records into the sieve table's rows.
func sieveRows(e *config.Experiment, stages []SieveStage) []table.SieveRow {
	kept := map[[2]int]bool{}
	if n := len(stages); n > 0 {
		for _, c := range stages[n-1].Cells {
			if c.Passed {
				kept[[2]int{c.Rule, c.Start}] = true
			}
		}
	}
	// The start's name: a1 as the squares table names it, unless a board
	// of the sieve has over 26 columns, where squares are named r0c0: one
	// name for the cell on every board it walks.
	wide := false
	for _, b := range e.Boards {
		wide = wide || b.Cols > 26
	}
	name := func(row, col int) string {
		if wide {
			return fmt.Sprintf("r%dc%d", row, col)
		}
		return fmt.Sprintf("%c%d", 'a'+col, row+1)
	}
	b0 := e.Boards[0]
	var rows []table.SieveRow
	for si, st := range stages {
		for _, c := range st.Cells {
			r := e.Rules[c.Rule]
			row, col := b0.RowCol(e.Starts[0][c.Start])
			sr := table.SieveRow{Experiment: e.Name, Stage: int32(si + 1), Keep: st.Stage.Keep, Rule: r.Name(),
				Start: name(row, col), StartRow: int32(row), StartCol: int32(col),
				Boards: int32(c.Boards), Steps: c.Steps, Passed: c.Passed, Kept: kept[[2]int{c.Rule, c.Start}], Params: Params(r)}
			if c.HasFailed {
				b := e.Boards[c.Failed]
				sr.FailedBoard = b.String()
				sr.FailedRows, sr.FailedCols = table.Int32Of(int32(b.Rows)), table.Int32Of(int32(b.Cols))
				sr.FailedLength = table.Int64Of(int64(c.FailedLength))
			}
			rows = append(rows, sr)
		}
	}
	return rows
}

// WriteSieve writes a sieve's result into dir: the sieve table, its
// manifest.json and report.md.
func WriteSieve(dir string, e *config.Experiment, stages []SieveStage, run RunInfo) error {
	md := run.Meta
	if md.Experiment == "" {
		md = Metadata(e, md.ToolVersion, md.Build)
	}
	rows := sieveRows(e, stages)
	if err := table.WriteSieve(filepath.Join(dir, SieveFile), rows, md); err != nil {
		return fmt.Errorf("writing %s: %w", SieveFile, err)
	}
	m := Manifest{Experiment: e.Name, Description: e.Description, Seed: config.U64(e.Seed), ConfigHash: e.ConfigHash,
		ToolVersion: md.ToolVersion, GitCommit: md.Build.Revision, Build: md.Build, Shard: run.Shard, Workers: run.Workers,
		StartedAt: timestamp(run.Started), FinishedAt: timestamp(time.Now()), Seconds: run.Seconds,
		Tables: []string{SieveFile}, Config: e.Config, Host: ReadHost()}
	if !md.Build.Traceable() {
		m.Warnings = append(m.Warnings, buildinfo.NoVCSWarning)
	}
	var successes uint64
	for _, st := range stages {
		for _, c := range st.Cells {
			successes += uint64(c.Boards)
			if c.HasFailed {
				successes--
			}
		}
	}
	m.Walks, m.Successes = config.U64(run.Walks), config.U64(successes)
	if run.Seconds > 0 {
		m.WalksPerSec = float64(run.Walks) / run.Seconds
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ReportFile), []byte(sieveReport(e, stages, rows, m.Warnings)), 0o644)
}

// maxKeptListed is the most kept cells the report names.
const maxKeptListed = 50

// sieveReport is a sieve's report.md: its stages, the cells each let
// through, and the cells it keeps.
func sieveReport(e *config.Experiment, stages []SieveStage, rows []table.SieveRow, warnings []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", e.Name)
	if d := strings.TrimSpace(e.Description); d != "" {
		fmt.Fprintf(&b, "%s\n\n", d)
	}
	squares := fmt.Sprintf("%d start squares", len(e.Starts[0]))
	if len(e.Starts[0]) == 1 {
		squares = "1 start square"
	}
	fmt.Fprintf(&b, "A sieve of %d rules × %s = %d cells; seed %d; config %.12s.\n\n",
		len(e.Rules), squares, len(e.Rules)*len(e.Starts[0]), e.Seed, e.ConfigHash)
	for _, w := range warnings {
		fmt.Fprintf(&b, "**Warning:** %s.\n\n", w)
	}
	b.WriteString("| stage | boards | keep | cells in | walks | passed |\n|---|---|---|---:|---:|---:|\n")
	for i, st := range stages {
		var walks, passed int
		for _, c := range st.Cells {
			walks += c.Boards
			if c.Passed {
				passed++
			}
		}
		bs := st.Stage.Boards
		span := e.Boards[bs[0]].String()
		if len(bs) > 1 {
			span += " … " + e.Boards[bs[len(bs)-1]].String() + fmt.Sprintf(" (%d boards)", len(bs))
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %d | %d | %d |\n", i+1, span, st.Stage.Keep, len(st.Cells), walks, passed)
	}
	var kept []string
	last := int32(len(stages))
	for _, r := range rows {
		if r.Kept && r.Stage == last {
			kept = append(kept, fmt.Sprintf("`%s` from %s", r.Params.Spec, r.Start))
		}
	}
	fmt.Fprintf(&b, "\nThe sieve keeps %d cells", len(kept))
	switch {
	case len(kept) == 0:
		b.WriteString(".\n")
	case len(kept) > maxKeptListed:
		fmt.Fprintf(&b, "; the first %d:\n\n- %s\n- … (%d in all: `kept` in the sieve table)\n", maxKeptListed, strings.Join(kept[:maxKeptListed], "\n- "), len(kept))
	default:
		fmt.Fprintf(&b, ":\n\n- %s\n", strings.Join(kept, "\n- "))
	}
	b.WriteString("\nEach stage walks the cells that passed the stages before it on its boards, in the order given, once each (walk 0 of the cell's stream: the walk of a run with walks: 1), and stops a cell's walks at its first failure; keep: fails passes a cell whose walk failed on some board of the stage, keep: succeeds one whose walks all succeeded. Every result is a walk, not an estimate: a deterministic rule's walk is its answer.\n")
	b.WriteString("\nTables: sieve (Parquet, see docs/tables.md); manifest.json records the config and timings.\n")
	return b.String()
}
