package countcmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/procstat"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/sim"
)

// A count part is what `count --shard K/N --out PART` writes: the pieces
// its sweeps counted (package count, Shard) and what they took, for
// `merge` to add up with the other N-1 into the counts table of one
// count. It is its own small JSON file, apart from a run's part.json.
const countPartFormat = "knightwalk-count-part/1"

type Part struct {
	Format     string `json:"format"`
	Board      string `json:"board"`
	Kind       string `json:"kind"` // open or closed
	PairedEnds bool   `json:"paired_ends"`
	Shard      string `json:"shard"`
	K          int    `json:"k"`
	N          int    `json:"n"`
	// Units are the independent sweeps this shard ran (count.Units), and
	// Pieces what they counted: key and exact decimal count.
	Units  []string         `json:"units"`
	Pieces []countPartPiece `json:"pieces"`
	// Sweeps has the states, time and memory of every sweep the shard ran
	// (the shared prefixes included), in order.
	Sweeps []countPartSweep `json:"sweeps"`
	// The shard as a whole: wall and CPU seconds, the most states a layer
	// held, the most the state tables took, the process's peak RSS.
	Seconds        float64        `json:"seconds"`
	CPUSeconds     float64        `json:"cpu_seconds"`
	PeakStates     int            `json:"peak_states"`
	PeakTableBytes int64          `json:"peak_table_bytes"`
	PeakRSSBytes   int64          `json:"peak_rss_bytes"`
	Workers        int            `json:"workers"`
	MaxMemory      int64          `json:"max_memory"`
	ToolVersion    string         `json:"tool_version"`
	Build          buildinfo.Info `json:"build"`
	Sum            string         `json:"sum"`

	path string
}

type countPartPiece struct {
	Key   string `json:"key"`
	Count string `json:"count"`
}

type countPartSweep struct {
	Sweep      string  `json:"sweep"`
	Steps      int     `json:"steps"`
	PeakStates int     `json:"peak_states"`
	States     int64   `json:"states"`
	Seconds    float64 `json:"seconds"`
	PeakBytes  int64   `json:"peak_table_bytes"`
}

func sealCountPart(p Part) string {
	p.Sum = ""
	b, _ := json.Marshal(p)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (q *Query) kind() string {
	if q.Closed {
		return "closed"
	}
	return "open"
}

// ShardPart runs shard sh of the count's sweeps and writes its part to out
// (a new file).
func (q *Query) ShardPart(ctx context.Context, e *Env, sh runner.Shard, out string) error {
	t0 := time.Now()
	q.Shard = count.Shard{K: sh.K, N: sh.N}
	all, err := count.Units(q.Board, count.Options{Closed: q.Closed, PairedEnds: q.Paired, Shard: q.Shard})
	if err != nil {
		return err
	}
	if err := q.checkShards(sh, len(all)); err != nil {
		return err
	}
	r, err := q.frontierResult(ctx, e)
	if err != nil {
		opt := count.Options{Closed: q.Closed, PairedEnds: q.Paired, Shard: q.Shard}
		units, _ := count.Units(q.Board, opt)
		return fmt.Errorf("count shard %s of %s (%s): %w; run this shard again: experiment count --board %s%s --shard %s --out %s",
			sh, q.Board, strings.Join(shardUnits(units, sh), ", "), err, q.Board, q.flagsForShard(), sh, out)
	}
	opt := count.Options{Closed: q.Closed, PairedEnds: q.Paired, Shard: q.Shard}
	units, err := count.Units(q.Board, opt)
	if err != nil {
		return err
	}
	p := Part{Format: countPartFormat, Board: q.Board.String(), Kind: q.kind(), PairedEnds: q.Paired,
		Shard: sh.String(), K: sh.K, N: sh.N, Units: shardUnits(units, sh), Seconds: time.Since(t0).Seconds(),
		PeakStates: r.PeakStates, PeakTableBytes: r.PeakBytes, Workers: q.Workers, MaxMemory: q.MaxMemory,
		ToolVersion: e.ToolVersion, Build: buildinfo.Read()}
	if p.Units == nil {
		p.Units = []string{}
	}
	p.Pieces = []countPartPiece{}
	for _, pc := range r.Pieces {
		p.Pieces = append(p.Pieces, countPartPiece{pc.Key, pc.Count.String()})
	}
	for _, s := range r.SweepStats {
		p.Sweeps = append(p.Sweeps, countPartSweep{s.Sweep, s.Steps, s.PeakStates, s.States, s.Seconds, s.PeakBytes})
	}
	p.PeakRSSBytes, p.CPUSeconds = procstat.PeakRSSBytes(), procstat.CPUSeconds()
	p.Sum = sealCountPart(p)
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return err
	}
	if err := writeNewFile(out, append(b, '\n')); err != nil {
		return fmt.Errorf("count: --out %s: %w", out, err)
	}
	fmt.Fprintf(e.Stderr, "experiment: count shard %s of %s: %d of %d sweeps (%s), %.1f s, peak %d states, %s of state tables, peak RSS %s -> %s\n",
		sh, q.Board, len(p.Units), len(units), strings.Join(p.Units, ", "), p.Seconds, p.PeakStates, mib(p.PeakTableBytes), mib(p.PeakRSSBytes), out)
	return nil
}

// CheckShard is count --shard K/N --check: what the task would run,
// checked (flags, board, the shard's sweeps) without counting. Memory is
// not checked: --max-memory's default is the machine's, and the machine
// that queues is not the one that counts.
func (q *Query) CheckShard(ctx context.Context, e *Env, sh runner.Shard) error {
	units, err := cli.Interruptible(ctx, func() ([]string, error) { // a long thin board has many sweeps to list
		return count.Units(q.Board, count.Options{Closed: q.Closed, PairedEnds: q.Paired, Shard: count.Shard{K: sh.K, N: sh.N}})
	})
	if err != nil {
		return err
	}
	if err := q.checkShards(sh, len(units)); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "count shard %s of %s %s tours: ok (%d sweeps in all)\n", sh, q.Board, q.kind(), len(units))
	return nil
}

// checkShards refuses more shards than the count has sweeps to share
// among them: a shard past the sweeps would count nothing.
func (q *Query) checkShards(sh runner.Shard, sweeps int) error {
	if sh.N > sweeps {
		paired := ""
		if q.Paired {
			paired = " with --paired-ends"
		}
		return fmt.Errorf("count --shard %s: %d shards, but counting %s %s tours%s takes %d sweeps: at most %d shards (a shard past the sweeps would count nothing)",
			sh, sh.N, q.Board, q.kind(), paired, sweeps, sweeps)
	}
	return nil
}

// flagsForShard is the flags a rerun of this shard needs besides --board.
func (q *Query) flagsForShard() string {
	s := ""
	if q.Closed {
		s += " --closed"
	}
	if q.Paired {
		s += " --paired-ends"
	}
	return s
}

// shardUnits is the names of the units shard sh runs.
func shardUnits(units []string, sh runner.Shard) []string {
	var out []string
	for i, u := range units {
		if (count.Shard{K: sh.K, N: sh.N}).Takes(i) {
			out = append(out, u)
		}
	}
	return out
}

// writeNewFile writes b to path, which must not exist, through a
// temporary file renamed into place, so that a part is whole or absent.
func writeNewFile(path string, b []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("the file exists; write a new one (a finished part is kept)")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp.Name(), path) // fails if path appeared meanwhile
	}
	os.Remove(tmp.Name())
	return err
}

// maxPartBytes bounds a count part read into memory: a part is a few
// tables of counts, far below it.
const maxPartBytes = 1 << 30

// IsPart reports whether path is (or is a directory of) count parts.
func IsPart(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		return len(PartsIn(path)) > 0
	}
	return hasFormat(path, countPartFormat)
}

// PartsIn lists the count parts directly in dir, in name order.
func PartsIn(dir string) []string { return partsIn(dir, countPartFormat) }

// partsIn lists the files directly in dir, in name order, that are parts
// of format: .json files that name it in their first bytes.
func partsIn(dir, format string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && hasFormat(p, format) {
			out = append(out, p)
		}
	}
	return out
}

// hasFormat reports whether path is a regular file whose first bytes name
// format; a FIFO or device is no part, and is not opened.
func hasFormat(path, format string) bool {
	f, err := safeio.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"`+format+`"`))
}

func ReadPart(path string) (*Part, error) {
	b, err := safeio.ReadRegular(path, maxPartBytes)
	if err != nil {
		return nil, err
	}
	var p Part
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a count part (%s): %v", path, countPartFormat, err)
	}
	if p.Format != countPartFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, p.Format, countPartFormat)
	}
	if p.Sum != sealCountPart(p) {
		return nil, fmt.Errorf("%s: checksum mismatch: the part was changed after it was written; run shard %s again", path, p.Shard)
	}
	p.path = path
	return &p, nil
}

// Merge adds count parts (files, or directories of them) into the
// counts table of one count, written to out (a new Parquet file), and
// prints the board. Every check comes before anything is written.
func Merge(e *Env, args []string, out string) error {
	t0 := time.Now()
	parts, err := readParts(args)
	if err != nil {
		return err
	}
	b, opt, units, err := checkParts(parts)
	if err != nil {
		return err
	}
	r, err := combineParts(parts, b, opt, units)
	if err != nil {
		return err
	}
	v := mergedView(parts, b, opt, units, r)
	if out != "" {
		if err := WriteParquet(e, out, v); err != nil {
			return err
		}
	}
	Print(e, v, time.Since(t0))
	if out != "" {
		fmt.Fprintf(e.Stderr, "experiment: merged %d count parts -> %s\n", len(parts), out)
	}
	return nil
}

// readParts reads the count parts args name (files, or directories of
// them).
func readParts(args []string) ([]*Part, error) {
	var paths []string
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			paths = append(paths, PartsIn(a)...)
			continue
		}
		paths = append(paths, a)
	}
	var parts []*Part
	for _, path := range paths {
		p, err := ReadPart(path)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no count parts in %s", strings.Join(args, " "))
	}
	return parts, nil
}

// checkParts checks that parts are the N shards of one count, each once,
// and returns its board, options and sweeps.
func checkParts(parts []*Part) (*sim.Board, count.Options, []string, error) {
	first := parts[0]
	b, err := sim.ParseBoard(first.Board)
	if err != nil {
		return nil, count.Options{}, nil, fmt.Errorf("%s: board %q: %v", first.path, first.Board, err)
	}
	seen := map[int]string{}
	for _, p := range parts {
		if p.Board != first.Board || p.Kind != first.Kind || p.PairedEnds != first.PairedEnds || p.N != first.N {
			return nil, count.Options{}, nil, fmt.Errorf("%s is shard %s of a count of %s %s tours%s; %s is shard %s of %s %s tours%s: parts of different counts cannot be merged",
				p.path, p.Shard, p.Board, p.Kind, PairedNote(p.PairedEnds), first.path, first.Shard, first.Board, first.Kind, PairedNote(first.PairedEnds))
		}
		if p.N < 1 || p.K < 0 || p.K >= p.N || p.Shard != fmt.Sprintf("%d/%d", p.K, p.N) {
			return nil, count.Options{}, nil, fmt.Errorf("%s: bad shard %q", p.path, p.Shard)
		}
		if seen[p.K] != "" {
			return nil, count.Options{}, nil, fmt.Errorf("shard %s given twice (%s and %s)", p.Shard, seen[p.K], p.path)
		}
		seen[p.K] = p.path
	}
	opt := count.Options{Closed: first.Kind == "closed", PairedEnds: first.PairedEnds, Shard: count.Shard{N: first.N}}
	units, err := count.Units(b, opt)
	if err != nil {
		return nil, count.Options{}, nil, err
	}
	var missing []string
	for k := range first.N {
		if seen[k] == "" {
			sh := runner.Shard{K: k, N: first.N}
			flags := ""
			if opt.Closed {
				flags += " --closed"
			}
			if opt.PairedEnds {
				flags += " --paired-ends"
			}
			missing = append(missing, fmt.Sprintf("shard %s (sweeps: %s; run: experiment count --board %s%s --shard %s --out PART)",
				sh, strings.Join(shardUnits(units, sh), ", "), b, flags, sh))
		}
	}
	if len(missing) > 0 {
		return nil, count.Options{}, nil, fmt.Errorf("merge: %d of %d count parts given; missing %s", len(seen), first.N, strings.Join(missing, "; "))
	}
	return b, opt, units, nil
}

// combineParts adds the parts' pieces into the count, after checking that
// each shard ran the sweeps this version deals it.
func combineParts(parts []*Part, b *sim.Board, opt count.Options, units []string) (count.Result, error) {
	var pieces []count.Piece
	for _, p := range parts {
		if want := shardUnits(units, runner.Shard{K: p.K, N: p.N}); strings.Join(want, "\n") != strings.Join(p.Units, "\n") {
			return count.Result{}, fmt.Errorf("%s: shard %s ran sweeps %q, this version deals it %q: parts of another version cannot be merged", p.path, p.Shard, p.Units, want)
		}
		for _, pc := range p.Pieces {
			n, ok := new(big.Int).SetString(pc.Count, 10)
			if !ok || n.Sign() < 0 || n.BitLen() > 128 {
				return count.Result{}, fmt.Errorf("%s: piece %q: count %q is not a whole number below 2^128", p.path, pc.Key, pc.Count)
			}
			lo := new(big.Int).And(n, new(big.Int).SetUint64(^uint64(0))).Uint64()
			hi := new(big.Int).Rsh(n, 64).Uint64()
			pieces = append(pieces, count.Piece{Key: pc.Key, Count: count.Count{Hi: hi, Lo: lo}})
		}
	}
	r, err := count.Combine(b, opt, pieces)
	if err != nil {
		return count.Result{}, fmt.Errorf("merge of %d count parts: %w", len(parts), err)
	}
	return r, nil
}

// mergedView is the merged count for printing, with the parts' work.
func mergedView(parts []*Part, b *sim.Board, opt count.Options, units []string, r count.Result) View {
	first := parts[0]
	v := View{board: b, closed: opt.Closed, method: "frontier", perStart: make([]string, b.Squares())}
	var secs, cpu float64
	var rss int64
	for _, p := range parts {
		secs = max(secs, p.Seconds)
		cpu += p.CPUSeconds
		rss = max(rss, p.PeakRSSBytes)
	}
	v.work = fmt.Sprintf("%d frontier sweeps in %d shards, the longest %.1f s, %.1f CPU-s in all, peak RSS %s", len(units), first.N, secs, cpu, mib(rss))
	if opt.PairedEnds {
		v.work += ", paired ends"
	}
	for sq := range b.Squares() {
		v.perStart[sq] = r.PerStart[sq].String()
	}
	if opt.Closed {
		v.undirected = r.Tours.String()
		v.directed = r.Tours.Mul64(2 * uint64(b.Squares())).String()
	} else {
		v.directed = r.Tours.String()
		v.undirected = r.Tours.Half().String()
		if b.Squares() == 1 {
			v.undirected = v.directed
		}
	}
	return v
}

func PairedNote(paired bool) string {
	if paired {
		return " by paired ends"
	}
	return ""
}

// mib writes a size in MiB to one decimal.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// PartsStatus prints how far the count parts in dir are, the parts done
// of all, and reports whether dir holds any.
func PartsStatus(w io.Writer, dir string) (bool, error) {
	cps := PartsIn(dir)
	if len(cps) == 0 {
		return false, nil
	}
	p, err := ReadPart(cps[0])
	if err != nil {
		return true, err
	}
	fmt.Fprintf(w, "count of %s %s tours%s: %d of %d parts done\n", p.Board, p.Kind, PairedNote(p.PairedEnds), len(cps), p.N)
	return true, nil
}
