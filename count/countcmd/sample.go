package countcmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"math/big"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/knightwalk/knightwalk/count"
	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// SampleQuery is one `experiment count --method sample` request.
type SampleQuery struct {
	Board *sim.Board
	Opt   count.SampleOptions
}

// SampleView is a sampled count, for printing and writing.
type SampleView struct {
	b   *sim.Board
	opt count.SampleOptions
	r   count.SampleResult
}

// Run draws the estimate, with a progress line on stderr.
func (q *SampleQuery) Run(ctx context.Context, e *Env) (SampleView, error) {
	var last atomic.Pointer[string]
	first := fmt.Sprintf("count %s by sampling: first round", q.Board)
	last.Store(&first)
	stop := cli.ProgressLine(e.Stderr, func(d time.Duration) string { return *last.Load() })
	opt := q.Opt
	opt.Progress = func(s count.SampleEstimate) {
		line := fmt.Sprintf("count %s by sampling: %s walks, estimate %.4g ± %.2f%%", q.Board, commas(s.Samples), s.Estimate, 100*relHalf(s))
		last.Store(&line)
	}
	r, err := count.Sample(ctx, q.Board, opt)
	stop()
	if err != nil {
		return SampleView{}, err
	}
	return SampleView{b: q.Board, opt: q.Opt, r: r}, nil
}

func relHalf(s count.SampleEstimate) float64 {
	if s.Estimate == 0 {
		return 0
	}
	return (s.Hi - s.Lo) / 2 / s.Estimate
}

func kindOf(closed bool) string {
	if closed {
		return "closed"
	}
	return "open"
}

// rows are the view's table rows: the whole estimate, then each square.
func (v SampleView) rows() []table.TourEstimateRow {
	conv := func(s count.SampleEstimate) table.TourEstimateRow {
		return table.TourEstimateRow{Board: v.b.String(), Rows: int32(v.b.Rows), Cols: int32(v.b.Cols), Kind: kindOf(v.opt.Closed),
			Start: s.Start, Proposal: s.Proposal, Tail: int32(v.opt.Tail), Estimate: s.Estimate, Lo: s.Lo, Hi: s.Hi,
			Confidence: s.Confidence, Samples: s.Samples, Blocks: s.Blocks, Tours: s.Tours, RelSE: s.RelSE, ESS: s.ESS,
			MaxShare: s.MaxShare, KL: s.KL, CDSamples: s.CDSamples, Trusted: s.Trusted(), Warning: s.Warning, Zero: s.Zero,
			StoppedBy: v.r.StoppedBy, Seconds: s.Seconds}
	}
	out := []table.TourEstimateRow{conv(v.r.All)}
	for _, s := range v.r.PerStart {
		out = append(out, conv(s))
	}
	return out
}

// Command is the estimate as the command that draws the same walks again.
func (v SampleView) Command() string {
	c := fmt.Sprintf("count --board=%s --method=sample", v.b)
	if v.opt.Closed {
		c += " --closed"
	}
	if v.opt.Start >= 0 {
		c += " --start=" + v.b.SquareName(v.opt.Start)
	}
	if v.opt.PerStart {
		c += " --per-start"
	}
	c += fmt.Sprintf(" --proposal=%s --tail=%d --seed=%d", proposalFlag(v.opt.Proposal), v.opt.Tail, v.opt.Seed)
	if v.r.FirstChunk > 0 {
		c += fmt.Sprintf(" --first-chunk=%d", v.r.FirstChunk)
	}
	c += fmt.Sprintf(" --samples=%d --confidence=%g", v.r.All.Samples, v.opt.Confidence)
	return c
}

func proposalFlag(p count.Proposal) string {
	if p.Beta == 0 {
		return "uniform"
	}
	return "softmin:" + strconv.FormatFloat(p.Beta, 'g', -1, 64)
}

// PrintSample writes the estimate as text.
func PrintSample(e *Env, v SampleView) {
	a := v.r.All
	what := "directed open tours"
	switch {
	case v.opt.Closed && v.opt.Start < 0:
		what = "closed tours (cycles)"
	case v.opt.Closed:
		what = "directed closed tours from " + a.Start
	case v.opt.Start >= 0:
		what = "directed open tours from " + a.Start
	}
	fmt.Fprintf(e.Stdout, "%s on %s, sampled: %.6g [%.6g, %.6g] (%g%% normal interval, ±%.2f%%)\n",
		what, v.b, a.Estimate, a.Lo, a.Hi, 100*a.Confidence, 100*relHalf(a))
	fmt.Fprintf(e.Stdout, "proposal %s, tail %d, seed %d: %s walks in %s blocks, %s ended in a tour, %.1fs\n",
		a.Proposal, v.opt.Tail, v.opt.Seed, commas(a.Samples), commas(a.Blocks), commas(a.Tours), a.Seconds)
	switch v.r.StoppedBy {
	case "precision":
		fmt.Fprintf(e.Stdout, "stopped at the precision: the estimate is the last stage's, %s walks drawn after a pilot fixed their number (Stein's two-stage procedure)\n", commas(a.Samples))
	case "time":
		if v.opt.Precision > 0 {
			fmt.Fprintf(e.Stdout, "stopped at the time limit: every walk drawn, before the precision asked was reached\n")
		} else {
			fmt.Fprintf(e.Stdout, "stopped at the time limit: every walk drawn (no --precision asked)\n")
		}
	}
	fmt.Fprintf(e.Stdout, "diagnostics: relative SE %.3g, ESS %.4g, largest weight %.3g%% of the sum, KL %.3g (Chatterjee-Diaconis sample size %.3g)\n",
		a.RelSE, a.ESS, 100*a.MaxShare, a.KL, a.CDSamples)
	switch {
	case a.Zero != "":
		fmt.Fprintf(e.Stdout, "exactly 0: %s\n", a.Zero)
	case a.Trusted():
		fmt.Fprintln(e.Stdout, "trusted: no diagnostic raised a warning")
	default:
		fmt.Fprintf(e.Stdout, "NOT TRUSTED: %s\n", a.Warning)
	}
	if len(v.r.PerStart) > 0 {
		fmt.Fprintf(e.Stdout, "\nfrom each start square (estimates):\n\n")
		cli.PrintGrid(e.Stdout, v.b, func(sq int) string { return fmt.Sprintf("%.3g", v.r.PerStart[sq].Estimate) })
	}
	fmt.Fprintf(e.Stdout, "again: experiment %s\n", v.Command())
}

// WriteSampleCSV writes the rows as CSV to stdout.
func WriteSampleCSV(e *Env, v SampleView) error {
	w := csv.NewWriter(e.Stdout)
	w.Write([]string{"board", "rows", "cols", "kind", "start", "proposal", "tail", "estimate", "lo", "hi", "confidence", "samples", "blocks", "tours", "rel_se", "ess", "max_share", "kl", "cd_samples", "trusted", "warning", "zero", "stopped_by", "seconds"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range v.rows() {
		w.Write([]string{r.Board, strconv.Itoa(int(r.Rows)), strconv.Itoa(int(r.Cols)), r.Kind, r.Start, r.Proposal, strconv.Itoa(int(r.Tail)),
			g(r.Estimate), g(r.Lo), g(r.Hi), g(r.Confidence), strconv.FormatInt(r.Samples, 10), strconv.FormatInt(r.Blocks, 10),
			strconv.FormatInt(r.Tours, 10), g(r.RelSE), g(r.ESS), g(r.MaxShare), g(r.KL), g(r.CDSamples), strconv.FormatBool(r.Trusted), r.Warning, r.Zero, r.StoppedBy, g(r.Seconds)})
	}
	w.Flush()
	return w.Error()
}

// WriteSampleParquet writes the tour_estimates table to path.
func WriteSampleParquet(e *Env, path string, v SampleView) error {
	md := table.Metadata{Experiment: "count", ToolVersion: e.ToolVersion, Build: buildinfo.Read(), Seed: v.opt.Seed,
		Levels: table.Levels{Boards: []string{v.b.String()}},
		Extra:  map[string]string{"command": v.Command(), "count_method": "sample"}}
	if err := table.WriteTourEstimates(path, v.rows(), md); err != nil {
		return fmt.Errorf("count: --out %s: %w", path, err)
	}
	return nil
}

// A sample part is what `count --method sample --shard K/N --out PART`
// writes: the exact sums of the chunks it drew, for merge to add into the
// estimate of one run.
const samplePartFormat = "knightwalk-count-sample-part/1"

// SamplePart is a sample part file.
type SamplePart struct {
	Format     string   `json:"format"`
	Board      string   `json:"board"`
	Closed     bool     `json:"closed"`
	Start      string   `json:"start"` // "" for every square
	PerStart   bool     `json:"per_start"`
	Proposal   string   `json:"proposal"`
	Tail       int      `json:"tail"`
	Seed       uint64   `json:"seed"`
	Samples    int64    `json:"samples"`
	Confidence float64  `json:"confidence"`
	Shard      string   `json:"shard"`
	K          int      `json:"k"`
	N          int      `json:"n"`
	Chunks     []int    `json:"chunks"`
	Blocks     int64    `json:"blocks"`
	Walks      int64    `json:"walks"`
	Tours      int64    `json:"tours"`
	S1         string   `json:"s1"` // exact sums, as big.Float text
	S2         string   `json:"s2"`
	S3         string   `json:"s3"`
	S4         string   `json:"s4"`
	W2         string   `json:"w2"`
	WLogW      string   `json:"wlogw"`
	Max        float64  `json:"max"`
	Per        []string `json:"per,omitempty"`
	Per2       []string `json:"per2,omitempty"`
	PerTours   []int64  `json:"per_tours,omitempty"`
	Seconds    float64  `json:"seconds"`
	Version    string   `json:"tool_version"`
	Sum        string   `json:"sum"`
}

func bigText(x *big.Float) string { return x.Text('p', 0) }

func parseBig(s string) (*big.Float, error) {
	f, _, err := big.ParseFloat(s, 0, 1600, big.ToNearestEven)
	return f, err
}

func sealSamplePart(p SamplePart) string {
	p.Sum = ""
	b, _ := json.Marshal(p)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// ShardPart draws the shard's chunks and writes them to out.
func (q *SampleQuery) ShardPart(ctx context.Context, e *Env, out string) error {
	v, err := q.Run(ctx, e)
	if err != nil {
		return err
	}
	s := v.r.Sums
	p := SamplePart{Format: samplePartFormat, Board: q.Board.String(), Closed: q.Opt.Closed, PerStart: q.Opt.PerStart,
		Proposal: proposalFlag(q.Opt.Proposal), Tail: q.Opt.Tail, Seed: q.Opt.Seed, Samples: q.Opt.Samples,
		Confidence: q.Opt.Confidence, Shard: q.Opt.Shard.String(), K: q.Opt.Shard.K, N: q.Opt.Shard.N,
		Chunks: s.Chunks, Blocks: s.Blocks, Walks: s.Walks, Tours: s.Tours,
		S1: bigText(s.S1), S2: bigText(s.S2), S3: bigText(s.S3), S4: bigText(s.S4), W2: bigText(s.W2), WLogW: bigText(s.WLogW), Max: s.Max,
		Seconds: v.r.All.Seconds, Version: e.ToolVersion}
	if q.Opt.Start >= 0 {
		p.Start = q.Board.SquareName(q.Opt.Start)
	}
	for i := range s.Per {
		p.Per = append(p.Per, bigText(s.Per[i]))
		p.Per2 = append(p.Per2, bigText(s.Per2[i]))
	}
	p.PerTours = s.PerTours
	p.Sum = sealSamplePart(p)
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return err
	}
	if err := writeNewFile(out, append(b, '\n')); err != nil {
		return fmt.Errorf("count: --out %s: %w", out, err)
	}
	fmt.Fprintf(e.Stderr, "experiment: count sample shard %s: %d chunks, %s walks -> %s\n", p.Shard, len(p.Chunks), commas(p.Walks), out)
	return nil
}

// IsSamplePart reports whether path is (or is a directory of) sample parts.
func IsSamplePart(path string) bool {
	paths := []string{path}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		paths = sampleParts(path)
		if len(paths) == 0 {
			return false
		}
	}
	return hasFormat(paths[0], samplePartFormat)
}

func sampleParts(dir string) []string { return partsIn(dir, samplePartFormat) }

func readSamplePart(path string) (*SamplePart, error) {
	b, err := safeio.ReadRegular(path, maxPartBytes)
	if err != nil {
		return nil, err
	}
	var p SamplePart
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a count sample part (%s): %v", path, samplePartFormat, err)
	}
	if p.Format != samplePartFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, p.Format, samplePartFormat)
	}
	if p.Sum != sealSamplePart(p) {
		return nil, fmt.Errorf("%s: checksum mismatch: the part was changed after it was written; run shard %s again", path, p.Shard)
	}
	return &p, nil
}

// MergeSample adds sample parts (files or directories of them) into the
// estimate of one run: every shard of the same count, each once, or an
// error naming the part that does not fit. It prints the estimate and,
// with out, writes the tour_estimates table.
func MergeSample(e *Env, args []string, out string) error {
	var paths []string
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			paths = append(paths, sampleParts(a)...)
		} else {
			paths = append(paths, a)
		}
	}
	var parts []*SamplePart
	for _, p := range paths {
		sp, err := readSamplePart(p)
		if err != nil {
			return err
		}
		parts = append(parts, sp)
	}
	if len(parts) == 0 {
		return fmt.Errorf("merge: no count sample parts in %v", args)
	}
	p0 := parts[0]
	seen := map[int]string{}
	for i, p := range parts {
		same := p.Board == p0.Board && p.Closed == p0.Closed && p.Start == p0.Start && p.PerStart == p0.PerStart &&
			p.Proposal == p0.Proposal && p.Tail == p0.Tail && p.Seed == p0.Seed && p.Samples == p0.Samples &&
			p.Confidence == p0.Confidence && p.N == p0.N
		if !same {
			return fmt.Errorf("merge: %s is a part of another sampled count than %s (board, kind, start, proposal, tail, seed, samples, confidence and shard count must agree)", paths[i], paths[0])
		}
		if prev, dup := seen[p.K]; dup {
			return fmt.Errorf("merge: %s and %s are both shard %d/%d", prev, paths[i], p.K, p.N)
		}
		seen[p.K] = paths[i]
	}
	if len(parts) != p0.N {
		var missing []string
		for k := range p0.N {
			if _, ok := seen[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, p0.N))
			}
		}
		return fmt.Errorf("merge: %d of %d shards; missing %s", len(parts), p0.N, strings.Join(missing, ", "))
	}
	b, err := sim.ParseBoard(p0.Board)
	if err != nil {
		return err
	}
	prop, err := count.ParseProposal(p0.Proposal)
	if err != nil {
		return err
	}
	opt := count.SampleOptions{Closed: p0.Closed, Start: -1, PerStart: p0.PerStart, Proposal: prop, Tail: p0.Tail,
		Seed: p0.Seed, Samples: p0.Samples, Confidence: p0.Confidence, Workers: 1}
	if p0.Start != "" {
		if opt.Start, err = b.ParseSquare(p0.Start); err != nil {
			return err
		}
	}
	var total *count.SampleSums
	secs := 0.0
	for i, p := range parts {
		s, err := p.sums()
		if err != nil {
			return fmt.Errorf("merge: %s: %w", paths[i], err)
		}
		secs = max(secs, p.Seconds)
		if total == nil {
			total = s
		} else if err := total.Merge(s); err != nil {
			return fmt.Errorf("merge: %s: %w", paths[i], err)
		}
	}
	r, err := count.SampleFromSums(b, opt, total, time.Duration(secs*float64(time.Second)))
	if err != nil {
		return err
	}
	r.StoppedBy = "samples"
	v := SampleView{b: b, opt: opt, r: r}
	if out != "" {
		if err := WriteSampleParquet(e, out, v); err != nil {
			return err
		}
	}
	PrintSample(e, v)
	if out != "" {
		fmt.Fprintf(e.Stderr, "experiment: merged %d count sample parts -> %s\n", len(parts), out)
	}
	return nil
}

func (p *SamplePart) sums() (*count.SampleSums, error) {
	s := &count.SampleSums{Chunks: append([]int(nil), p.Chunks...), Blocks: p.Blocks, Walks: p.Walks, Tours: p.Tours, Max: p.Max}
	var err error
	for _, f := range []struct {
		dst **big.Float
		src string
	}{{&s.S1, p.S1}, {&s.S2, p.S2}, {&s.S3, p.S3}, {&s.S4, p.S4}, {&s.W2, p.W2}, {&s.WLogW, p.WLogW}} {
		if *f.dst, err = parseBig(f.src); err != nil {
			return nil, err
		}
	}
	s.PerTours = append([]int64(nil), p.PerTours...)
	if len(p.Per) != len(p.Per2) || len(p.Per) != len(p.PerTours) {
		return nil, fmt.Errorf("per-square sums of unequal length")
	}
	for i := range p.Per {
		a, err := parseBig(p.Per[i])
		if err != nil {
			return nil, err
		}
		c, err := parseBig(p.Per2[i])
		if err != nil {
			return nil, err
		}
		s.Per, s.Per2 = append(s.Per, a), append(s.Per2, c)
	}
	return s, nil
}

// commas writes n with thousands separators.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
