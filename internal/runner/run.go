package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"knightwalk/internal/table"
)

// RunOptions say how to run a spec and where the results go.
type RunOptions struct {
	Out     string // result directory
	Force   bool   // replace an existing result directory
	Resume  bool   // continue an interrupted run from its checkpoint
	Workers int
	Shard   Shard

	Stats       Stats
	Claims      []ClaimSpec
	PerWalk     bool // write the per-walk table
	RowGroup    int  // rows per row group of the per-walk table
	Meta        table.Metadata
	Description string
	Config      any // the resolved config, recorded in the manifest

	// Finish, if set, runs on the complete result directory before it is
	// renamed into place (the figures are drawn there).
	Finish func(dir string) error

	Log      io.Writer                                             // plain progress lines (nil: none)
	Progress func(total uint64, done *atomic.Uint64) (stop func()) // a live progress display; nil: plain Log lines
}

// Summary is what a finished run reports.
type Summary struct {
	Dir     string
	Tables  *Tables
	Walks   uint64
	Seconds float64
}

// Run runs the plan of s (or its shard) and writes the results.
func Run(ctx context.Context, s *Spec, o RunOptions) (*Summary, error) {
	p := NewPlan(s)
	units := p.ShardUnits(o.Shard)
	dir, err := PrepareOutDir(o.Out, o.Force, o.Resume)
	if err != nil {
		return nil, err
	}
	ts := NewTallies()
	hdr := checkpointHeader{ConfigHash: s.ConfigHash, Shard: o.Shard.String(), Units: len(p.Units)}
	var cp *Checkpoint
	done := map[int]bool{}
	if o.Resume {
		if o.PerWalk && o.Shard.N == 1 {
			return nil, fmt.Errorf("--resume: this experiment writes the per-walk table, which cannot be continued; run it again without --resume")
		}
		if done, cp, err = ResumeCheckpoint(dir.Partial, hdr, p, ts); err != nil {
			return nil, err
		}
	} else if cp, err = OpenCheckpoint(dir.Partial, hdr); err != nil {
		return nil, err
	}
	todo := units[:0:0]
	for _, u := range units {
		if !done[u.ID] {
			todo = append(todo, u)
		}
	}
	total := TotalWalks(units)
	var progress atomic.Uint64
	progress.Add(total - TotalWalks(todo))
	stopProgress := startProgress(ctx, o, &progress, total)

	md := o.Meta
	var ww *table.WalkWriter
	if o.PerWalk && o.Shard.N == 1 { // a shard's walks would be a fragment: parts carry tallies only
		if ww, err = table.NewWalkWriter(filepath.Join(dir.Partial, "walks.parquet"), md, o.RowGroup); err != nil {
			cp.Close()
			return nil, err
		}
	}
	t0 := time.Now()
	finished := len(done)
	err = Execute(ctx, p, todo, Options{Workers: o.Workers, PerWalk: ww != nil, Progress: &progress}, func(r Result) error {
		if err := ts.Add(r.Unit.Key(), r.Tally); err != nil {
			return err
		}
		if ww != nil {
			if err := writeWalks(ww, s, r); err != nil {
				return err
			}
		}
		finished++
		return cp.Add(r)
	})
	stopProgress()
	cerr := cp.Close()
	if err == nil {
		err = cerr
	}
	if err == nil && ww != nil {
		err = ww.Close()
	} else if ww != nil {
		ww.Abort()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cancelled: %s left unchanged; %d of %d units done are kept in %s for --resume", dir.Final, finished, len(units), dir.Partial)
		}
		return nil, err
	}
	secs := time.Since(t0).Seconds()
	sum := &Summary{Dir: dir.Final, Walks: TotalWalks(todo), Seconds: secs}
	if o.Shard.N > 1 {
		if err := WritePart(dir.Partial, s, o, ts); err != nil {
			return nil, err
		}
	} else {
		if sum.Tables, err = BuildTables(s, ts, o.Stats, o.Claims); err != nil {
			return nil, err
		}
		if err := WriteResults(dir.Partial, s, o, sum); err != nil {
			return nil, err
		}
		if o.Finish != nil {
			if err := o.Finish(dir.Partial); err != nil {
				return nil, err
			}
		}
	}
	if err := dir.Commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

func startProgress(ctx context.Context, o RunOptions, n *atomic.Uint64, total uint64) func() {
	if o.Progress != nil {
		return o.Progress(total, n)
	}
	if o.Log == nil {
		return func() {}
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	t0 := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				d := n.Load()
				rate := float64(d) / time.Since(t0).Seconds()
				eta := time.Duration(float64(total-d) / rate * float64(time.Second)).Round(time.Second)
				fmt.Fprintf(o.Log, "experiment: %d/%d walks (%.1f%%), %.3g walks/s, ETA %s\n", d, total, 100*float64(d)/float64(total), rate, eta)
			}
		}
	}()
	return func() { close(stop); <-finished }
}

// Finish writes the result directory of a complete set of tallies that
// did not come from Run (a merge of shards).
func Finish(s *Spec, o RunOptions, ts *Tallies, secs float64) (*Summary, error) {
	dir, err := PrepareOutDir(o.Out, o.Force, false)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Dir: dir.Final, Seconds: secs}
	if sum.Tables, err = BuildTables(s, ts, o.Stats, o.Claims); err != nil {
		os.RemoveAll(dir.Partial)
		return nil, err
	}
	for _, r := range sum.Tables.Squares {
		sum.Walks += uint64(r.Walks)
	}
	if err := WriteResults(dir.Partial, s, o, sum); err != nil {
		os.RemoveAll(dir.Partial)
		return nil, err
	}
	if o.Finish != nil {
		if err := o.Finish(dir.Partial); err != nil {
			os.RemoveAll(dir.Partial)
			return nil, err
		}
	}
	if err := dir.Commit(); err != nil {
		return nil, err
	}
	return sum, nil
}

// Manifest is manifest.json: what ran, how, and what came out.
type Manifest struct {
	Experiment  string   `json:"experiment"`
	Description string   `json:"description,omitempty"`
	Seed        uint64   `json:"seed"`
	ConfigHash  string   `json:"config_hash"`
	ToolVersion string   `json:"tool_version"`
	GitCommit   string   `json:"git_commit,omitempty"`
	Shard       string   `json:"shard"`
	Workers     int      `json:"workers"`
	Units       int      `json:"units"`
	Walks       uint64   `json:"walks"`
	Successes   uint64   `json:"successes"`
	Closed      uint64   `json:"closed"`
	Started     string   `json:"finished_at"`
	Seconds     float64  `json:"seconds"`
	WalksPerSec float64  `json:"walks_per_second"`
	Tables      []string `json:"tables"`
	Config      any      `json:"config"`
}

// WriteResults writes the tables, report.md and manifest.json into dir.
func WriteResults(dir string, s *Spec, o RunOptions, sum *Summary) error {
	t := sum.Tables
	md := o.Meta
	files := []string{"squares.parquet", "lengths.parquet", "deadends.parquet", "classes.parquet", "comparisons.parquet", "claims.parquet"}
	for i, err := range []error{
		table.WriteSquares(filepath.Join(dir, files[0]), t.Squares, md),
		table.WriteLengths(filepath.Join(dir, files[1]), t.Lengths, md),
		table.WriteDeadEnds(filepath.Join(dir, files[2]), t.DeadEnds, md),
		table.WriteClasses(filepath.Join(dir, files[3]), t.Classes, md),
		table.WriteComparisons(filepath.Join(dir, files[4]), t.Comparisons, md),
		table.WriteClaims(filepath.Join(dir, files[5]), t.Claims, md),
	} {
		if err != nil {
			return fmt.Errorf("writing %s: %w", files[i], err)
		}
	}
	if o.PerWalk && o.Shard.N == 1 {
		files = append(files, "walks.parquet")
	}
	if len(t.Claims) > 0 {
		if err := os.WriteFile(filepath.Join(dir, "claims.tex"), []byte(ClaimsLaTeX(t.Claims, o.Stats.Confidence)), 0o644); err != nil {
			return err
		}
	}
	m := Manifest{Experiment: s.Name, Description: o.Description, Seed: s.Seed, ConfigHash: s.ConfigHash,
		ToolVersion: md.ToolVersion, GitCommit: md.GitCommit, Shard: o.Shard.String(), Workers: o.Workers,
		Units: len(NewPlan(s).Units), Started: time.Now().UTC().Format(time.RFC3339), Seconds: sum.Seconds,
		Tables: files, Config: o.Config}
	for _, r := range t.Squares {
		m.Walks += uint64(r.Walks)
		m.Successes += uint64(r.Successes)
		m.Closed += uint64(r.Closed)
	}
	if sum.Seconds > 0 {
		m.WalksPerSec = float64(sum.Walks) / sum.Seconds
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(Report(s, o, t)), 0o644)
}
