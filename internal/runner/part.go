package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
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

const partFormat = "knightwalk-part/2"

// Part is the mergeable result of one shard: its tallies, and the
// experiment file it ran, so that a merge needs nothing else. Sum seals
// the rest (a SHA-256 over the config hash and the part's JSON without
// it), so a part changed after it was written is refused.
type Part struct {
	Format     string      `json:"format"`
	Experiment string      `json:"experiment"`
	ConfigHash string      `json:"config_hash"`
	Seed       config.U64  `json:"seed"` // a string: seeds pass 2^53
	Shard      string      `json:"shard"`
	K          int         `json:"k"`
	N          int         `json:"n"`
	Units      int         `json:"units"`
	ConfigFile string      `json:"config_file"`
	ConfigYAML string      `json:"config_yaml"`
	Tallies    []partTally `json:"tallies"`
	Walks      *partWalks  `json:"walks,omitempty"`      // the per-walk fragment, when the experiment writes that table
	Sequential *partRound  `json:"sequential,omitempty"` // a round of a sequential run (rounds.go)
	// Provenance is the shard's binary, host, kernel path, workers and
	// times; absent in parts written before it was recorded.
	Provenance *results.ShardRun `json:"provenance,omitempty"`
	Sum        string            `json:"sum"`

	path string // where it was read from
}

// partWalks names a shard's per-walk fragment (beside part.json, records
// in plan order) and what it must hold.
type partWalks struct {
	File   string `json:"file"`
	Rows   uint64 `json:"rows"`
	SHA256 string `json:"sha256"`
}

// partTally is the tally of one (board, rule, start) within a part.
type partTally struct {
	Board int         `json:"board"`
	Rule  int         `json:"rule"`
	Start int         `json:"start"`
	Tally sparseTally `json:"tally"`
}

// sealPart returns the seal of p: its JSON with Sum empty.
func sealPart(p Part) (string, error) {
	p.Sum = ""
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return seal(p.ConfigHash, b), nil
}

// legacySeal is the seal of a part written before seeds were JSON
// strings (config.U64): the same JSON with the seed a bare number. Such a
// part still merges.
func legacySeal(p Part) string {
	p.Sum = ""
	b, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	seed := strconv.FormatUint(uint64(p.Seed), 10)
	// a string value holds its quotes escaped, so the first unescaped
	// ,"seed":" is the key's
	b = bytes.Replace(b, []byte(`,"seed":"`+seed+`",`), []byte(`,"seed":`+seed+`,`), 1)
	return seal(p.ConfigHash, b)
}

// writePart writes the shard's tallies to dir/part.json and, for an
// experiment with the per-walk table, its walks in plan order to
// dir/walks.frag.
func writePart(dir string, s *config.Experiment, pl *Plan, o RunOptions, ts *Tallies, walks *fragWriter, sum *Completed) error {
	prov := results.NewShardRun(o.Shard.String(), o.Meta, o.Workers, sum.Walks, sum.Started, sum.Seconds)
	return writePartOf(dir, s, pl, o, ts, walks, nil, &prov)
}

// writeRoundPart writes the part of one shard of one round of a
// sequential run: its tallies of the round, and the round.
func writeRoundPart(dir string, s *config.Experiment, pl *Plan, o RunOptions, ts *Tallies, r partRound, prov *results.ShardRun) error {
	return writePartOf(dir, s, pl, o, ts, nil, &r, prov)
}

func writePartOf(dir string, s *config.Experiment, pl *Plan, o RunOptions, ts *Tallies, walks *fragWriter, seq *partRound, prov *results.ShardRun) error {
	p := Part{Format: partFormat, Experiment: s.Name, ConfigHash: s.ConfigHash, Seed: config.U64(s.Seed), Shard: o.Shard.String(),
		K: o.Shard.K, N: o.Shard.N, Units: pl.Len(), ConfigFile: s.SourceFile, ConfigYAML: string(s.Source), Sequential: seq, Provenance: prov}
	for bi := range s.Boards {
		for ri := range s.Rules {
			for _, st := range s.Starts[bi] {
				if t := ts.Of(bi, ri, st); t != nil {
					p.Tallies = append(p.Tallies, partTally{bi, ri, st, sparseOf(t)})
				}
			}
		}
	}
	if walks != nil {
		var err error
		if p.Walks, err = writePartWalks(filepath.Join(dir, partWalksName), s.ConfigHash, pl, o.Shard, walks); err != nil {
			return err
		}
	}
	var err error
	if p.Sum, err = sealPart(p); err != nil {
		return err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, partName), b, 0o644)
}

// writePartWalks copies the shard's records from the run's fragments to
// path in plan order, so that a merge reads each part front to back.
func writePartWalks(path, configHash string, p *Plan, shard Shard, walks *fragWriter) (*partWalks, error) {
	if err := walks.w.Flush(); err != nil {
		return nil, err
	}
	out, err := createFrag(path, configHash) // a part is sealed with the config's hash, as merge reads it
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	out.w.Reset(io.MultiWriter(out.f, h))
	var rows uint64
	for u := range p.Units(shard) {
		_, _, payload, err := walks.unitWalks(p, u.ID)
		if err == nil {
			err = out.write(payload, u.ID)
		}
		if err != nil {
			out.close()
			return nil, err
		}
		rows += u.Hi - u.Lo
	}
	if err := out.close(); err != nil {
		return nil, err
	}
	return &partWalks{File: partWalksName, Rows: rows, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
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
	if sum, err := sealPart(p); err != nil || sum != p.Sum && legacySeal(p) != p.Sum {
		return nil, fmt.Errorf("%s: checksum mismatch: the part was changed after it was written; run that shard again", path)
	}
	if p.Walks != nil && p.Walks.File != partWalksName {
		return nil, fmt.Errorf("%s: walks file %q, want %q", path, p.Walks.File, partWalksName)
	}
	p.path = path
	return &p, nil
}

// ReadParts reads shard results (directories or part.json files) and checks
// that they are the complete set of shards of one config.
func ReadParts(paths []string) ([]*Part, error) {
	var parts []*Part
	paths = expandPartDirs(paths)
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			if _, err := os.Stat(filepath.Join(path, partName)); err != nil {
				return nil, fmt.Errorf("%s holds no part: no %s in it or in its directories, no count parts (count-K.json), no round-1 of a sequential run", path, partName)
			}
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
	seen := map[int]string{} // not a slice of N: N is what the file says
	for i, p := range parts {
		if p.ConfigHash != first.ConfigHash || p.Seed != first.Seed || p.N != first.N || p.Units != first.Units {
			return nil, fmt.Errorf("%s is shard %s of config %.12s (seed %d); %s is shard %s of config %.12s (seed %d): parts of different runs cannot be merged",
				paths[i], p.Shard, p.ConfigHash, p.Seed, paths[0], first.Shard, first.ConfigHash, first.Seed)
		}
		if p.K < 0 || p.K >= p.N || p.Shard != (Shard{p.K, p.N}).String() {
			return nil, fmt.Errorf("%s: bad shard %s", paths[i], p.Shard)
		}
		if seen[p.K] != "" {
			return nil, fmt.Errorf("shard %s given twice (%s and %s)", p.Shard, seen[p.K], paths[i])
		}
		seen[p.K] = paths[i]
	}
	if len(seen) < first.N {
		var missing []int
		for k := 0; k < first.N && len(missing) < 20; k++ {
			if seen[k] == "" {
				missing = append(missing, k)
			}
		}
		more := ""
		if first.N-len(seen) > len(missing) {
			more = " and more"
		}
		return nil, fmt.Errorf("incomplete set of shards: %d of %d given; missing %v%s", len(seen), first.N, missing, more)
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

// MergeInto checks every part against the plan of s and adds its tallies
// to ts: each part holds one tally for every (board, rule, start) its shard
// runs, and nothing else, each of exactly the walks the plan gives that
// shard. A part edited to more (or fewer) walks is refused even if it
// were sealed again.
func MergeInto(s *config.Experiment, ts *Tallies, parts []*Part) error {
	p, err := NewPlan(s)
	if err != nil {
		return err
	}
	for _, part := range parts {
		if part.Sequential != nil {
			return fmt.Errorf("%s is shard %s of round %d of a sequential run: merge the run's parts directory (the one holding round-1, round-2, ...), which merges its rounds in order", part.path, part.Shard, part.Sequential.Round)
		}
		if part.Units != p.Len() {
			return fmt.Errorf("%s: a plan of %d units, this config has %d", part.path, part.Units, p.Len())
		}
		shard := Shard{part.K, part.N}
		i := 0
		for bi, b := range s.Boards {
			for ri := range s.Rules {
				for si, st := range s.Starts[bi] {
					want := p.cellWalks(shard, bi, ri, si)
					if want == 0 {
						continue
					}
					cell := fmt.Sprintf("%s %s %s", b, s.Rules[ri].Name(), b.SquareName(st))
					if i >= len(part.Tallies) {
						return fmt.Errorf("%s: no tally of %s", part.path, cell)
					}
					t := part.Tallies[i]
					i++
					if t.Board != bi || t.Rule != ri || t.Start != st {
						return fmt.Errorf("%s: tally %d is of board %d, rule %d, square %d; want %s", part.path, i-1, t.Board, t.Rule, t.Start, cell)
					}
					x, err := t.Tally.tally(b.Squares())
					if err == nil {
						err = checkTally(x, want)
					}
					if err != nil {
						return fmt.Errorf("%s: %s: %v", part.path, cell, err)
					}
					if err := ts.Add(Cell{bi, ri, st}, x); err != nil {
						return err
					}
				}
			}
		}
		if i != len(part.Tallies) {
			return fmt.Errorf("%s: %d tallies, want %d", part.path, len(part.Tallies), i)
		}
		if s.PerWalk && part.Walks == nil {
			return fmt.Errorf("%s: no per-walk fragment, but the experiment writes the per-walk table", part.path)
		}
		if part.Walks != nil && part.Walks.Rows != p.Walks(shard, -1, -1) {
			return fmt.Errorf("%s: a per-walk fragment of %d rows, want %d", part.path, part.Walks.Rows, p.Walks(shard, -1, -1))
		}
	}
	return nil
}

// mergeWalks writes the per-walk table at path from the parts' fragments:
// unit by unit in plan order, each from its shard's part, so the table is
// the one a single run writes, byte for byte. Every record and each whole
// fragment is checked against its seal and the part.
func mergeWalks(ctx context.Context, path string, s *config.Experiment, p *Plan, md table.Metadata, parts []*Part) error {
	byK := make([]*fragReader, len(parts))
	partOf := make([]*Part, len(parts))
	for _, part := range parts {
		partOf[part.K] = part
		f, err := safeio.OpenRegular(filepath.Join(filepath.Dir(part.path), part.Walks.File))
		if err != nil {
			return err
		}
		defer f.Close()
		byK[part.K] = newFragReader(f, part.ConfigHash)
	}
	ww, err := table.NewWalkWriter(path, md, s.RowGroup)
	if err != nil {
		return err
	}
	defer ww.Abort()
	n := len(parts)
	for id := range p.Len() {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := partOf[id%n]
		name := filepath.Join(filepath.Dir(part.path), part.Walks.File)
		payload, _, err := byK[id%n].next()
		var u Unit
		var walks []sim.Outcome
		if err == nil {
			u, walks, err = decodeWalks(payload, p)
		}
		if err == nil && u.ID != id {
			err = fmt.Errorf("holds unit %d where unit %d belongs", u.ID, id)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if err := writeWalks(ww, s, u, walks); err != nil {
			return err
		}
	}
	for _, part := range parts {
		fr := byK[part.K]
		name := filepath.Join(filepath.Dir(part.path), part.Walks.File)
		if _, _, err := fr.next(); err != io.EOF {
			return fmt.Errorf("%s: more records than its shard's units", name)
		}
		if got := hex.EncodeToString(fr.sum.Sum(nil)); got != part.Walks.SHA256 {
			return fmt.Errorf("%s: checksum mismatch with %s: the fragment was changed after it was written", name, part.path)
		}
	}
	return ww.Close()
}

// outNotAPart refuses a merge's output directory that is one of the parts
// being merged, or lies inside one: --force would replace an input with
// the merged result, and a part is the only copy of its shard's work.
func outNotAPart(out string, parts []*Part) error {
	outAbs := realAbs(out)
	for _, p := range parts {
		dir := realAbs(filepath.Dir(p.path))
		if outAbs == dir || strings.HasPrefix(outAbs, dir+string(filepath.Separator)) {
			return fmt.Errorf("--out %s is the part %s being merged (or inside it): write the merged result to a new directory; the parts are left untouched", out, filepath.Dir(p.path))
		}
	}
	return nil
}

// realAbs is path made absolute with its symbolic links resolved as far
// as it exists, so that two names of one directory compare equal.
func realAbs(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	head, tail := abs, ""
	for {
		if r, err := filepath.EvalSymlinks(head); err == nil {
			return filepath.Join(r, tail)
		}
		parent := filepath.Dir(head)
		if parent == head {
			return abs
		}
		head, tail = parent, filepath.Join(filepath.Base(head), tail)
	}
}
