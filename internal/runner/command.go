package runner

// The work of `experiment run` and `experiment merge` around the runner:
// the result directory a run writes by default, the plan and estimate of
// a dry run, a sequential run's rounds run shard by shard and merged, the
// parts merged into one result, how far the parts are, the figures drawn
// before a result is renamed into place, and the claims table both
// commands print.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
)

// OutDir is the directory a run of s writes: out, cleaned ("new/" names
// new, not a parent to create), or by default results/<name>, with
// .parts-of-N for a sequential run's rounds and .shard-K-of-N for a shard.
func OutDir(s *config.Experiment, shard Shard, out string) string {
	if out != "" {
		return filepath.Clean(out)
	}
	dir := filepath.Join("results", s.Name)
	switch {
	case s.Sequential != nil && shard.N > 1:
		dir += fmt.Sprintf(".parts-of-%d", shard.N)
	case shard.N > 1:
		dir += fmt.Sprintf(".shard-%d-of-%d", shard.K, shard.N)
	}
	return dir
}

// CommandOptions are what a run or merge command writes and where it
// talks: the version stamped into its outputs; Say, its notes (stderr,
// or io.Discard for --quiet); Out, its result (the claims table); Log,
// the runner's log and progress (nil for --quiet); Progress, the live
// progress display on Log (RunOptions.Progress).
type CommandOptions struct {
	Version       string
	Say, Out, Log io.Writer
	Progress      func(total uint64, done *atomic.Uint64) (stop func())
	Workers       int
	Force, Resume bool
	// Figures draws the named figures into a finished result directory
	// and updates its report (the runner does not draw: the figures are
	// drawn from the tables it writes, by the caller's drawer). A run
	// whose experiment asks for figures fails without one.
	Figures func(ctx context.Context, dir string, names []string) error
}

// runOptions are the runner's options for a run of s into dir.
func (o CommandOptions) runOptions(s *config.Experiment, shard Shard, dir string, build buildinfo.Info) RunOptions {
	opts := RunOptions{Out: dir, Force: o.Force, Resume: o.Resume, Workers: o.Workers, Shard: shard,
		Meta: results.Metadata(s, o.Version, build)}
	if o.Log != nil {
		opts.Log = o.Log
		opts.Progress = o.Progress
	}
	return opts
}

// RunCommand runs shard of s into dir and prints the claims it decided; for a
// sequential run split into shards, round r of shard (the first round
// without this shard's part for r = 0) into the parts directory dir.
func RunCommand(ctx context.Context, o CommandOptions, s *config.Experiment, shard Shard, r int, dir string, build buildinfo.Info) error {
	opts := o.runOptions(s, shard, dir, build)
	if s.Sequential != nil && shard.N > 1 {
		return runRound(ctx, o, s, opts, r)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	opts.BeforeCommit = o.figuresHook(s.Figures)
	if s.Sieve != nil {
		fmt.Fprintf(o.Say, "experiment: %s: %s, on %d workers -> %s\n", s.Name, SieveSize(s), o.Workers, dir)
		sum, err := Run(ctx, s, opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Say, "experiment: %d walks in %.2fs (%.3g walks/s) -> %s\n", sum.Walks, sum.Seconds, float64(sum.Walks)/sum.Seconds, sum.Dir)
		return nil
	}
	p, err := NewPlan(s)
	if err != nil {
		return err
	}
	if q := s.Sequential; q != nil {
		fmt.Fprintf(o.Say, "experiment: %s: sequential (until %s), %d to %d walks per start square, on %d workers -> %s\n",
			s.Name, q.Until, q.Min, q.Max, o.Workers, dir)
	} else {
		fmt.Fprintf(o.Say, "experiment: %s: %d walks in %d units on %d workers (shard %s) -> %s\n",
			s.Name, p.Walks(shard, -1, -1), p.ShardLen(shard), o.Workers, shard, dir)
	}
	sum, err := Run(ctx, s, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Say, "experiment: %d walks in %.2fs (%.3g walks/s) -> %s\n", sum.Walks, sum.Seconds, float64(sum.Walks)/sum.Seconds, sum.Dir)
	if sum.Tables != nil {
		PrintClaims(o.Out, sum.Tables)
	}
	return nil
}

// SieveSize says what a sieve walks: its cells and stages, and the walks
// it makes at most (every cell on every board of every stage; it stops
// each cell's walks in a stage at its first failure).
func SieveSize(s *config.Experiment) string {
	cells := len(s.Rules) * len(s.Starts[0])
	var stages []string
	for _, st := range s.Sieve {
		stages = append(stages, fmt.Sprintf("%s keep %s on %s", st.Key, st.Keep, countOf(len(st.Boards), "board")))
	}
	return fmt.Sprintf("a sieve of %s (%s × %s) in %s (%s), at most %s",
		countOf(cells, "cell"), countOf(len(s.Rules), "rule"), countOf(len(s.Starts[0]), "start square"), countOf(len(s.Sieve), "stage"),
		strings.Join(stages, "; "), countOf(cells*len(s.Boards), "walk"))
}

// countOf writes n things: "1 board", "423 boards".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// runRound runs a round of a shard of a sequential run into the parts
// directory opts.Out (RunRound): round r, or the next one for r = 0.
func runRound(ctx context.Context, o CommandOptions, s *config.Experiment, opts RunOptions, r int) error {
	sh, parts := opts.Shard, opts.Out
	if r == 0 {
		r = NextRound(parts, sh.K)
	}
	opts.Resume, opts.Round = false, r
	sum, err := Run(ctx, s, opts)
	if err != nil {
		return fmt.Errorf("round %d, shard %s: %w (to resubmit it: experiment run %s --shard %s --round %d --out %s)", r, sh, err, s.Name, sh, r, parts)
	}
	if sum.Walks > 0 {
		fmt.Fprintf(o.Say, "experiment: round %d, shard %s: %d walks in %.2fs -> %s\n", r, sh, sum.Walks, sum.Seconds, sum.Dir)
	}
	return nil
}

// PrintClaims prints the claims of t as a table, nothing when it has none;
// each number as the report prints it (results.ClaimedText, MeasuredText,
// ExactText), so every claim kind has its text here too.
func PrintClaims(w io.Writer, t *results.Tables) {
	if len(t.Claims) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "claim\trule\tboard\ttarget\tclaimed\tmeasured [interval]\texact\tdecided by\tverdict\tverdict (Holm)")
	for _, c := range t.Claims {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Rule, c.Board, c.Target,
			results.ClaimedText(c), results.MeasuredText(c), results.ExactText(c), c.DecidedBy, c.Verdict, c.VerdictHolm)
	}
	tw.Flush()
}

// CheckCommand is `run --check`: what a run of shard of s would refuse before it
// walks (CheckShard, which the caller has run, and the rules' own
// check), then one line saying it is ok and how many units the shard
// runs; nothing is estimated or run.
func CheckCommand(w io.Writer, s *config.Experiment, shard Shard) error {
	if err := CheckRules(s); err != nil {
		return err
	}
	if s.Sieve != nil {
		_, err := fmt.Fprintf(w, "experiment %s: ok: %s (runs whole)\n", s.Name, SieveSize(s))
		return err
	}
	p, err := NewPlan(s)
	if err != nil {
		return err
	}
	if s.Sequential != nil {
		_, err = fmt.Fprintf(w, "experiment %s, shard %s: ok (sequential until %s, %d units up to the max, in rounds)\n", s.Name, shard, s.Sequential.Until, p.Len())
		return err
	}
	_, err = fmt.Fprintf(w, "experiment %s, shard %s: ok (%d of %d units, %d walks)\n", s.Name, shard, p.ShardLen(shard), p.Len(), p.Walks(shard, -1, -1))
	return err
}

// DryRun prints the plan of shard and EstimateRun's estimate.
func DryRun(ctx context.Context, w io.Writer, s *config.Experiment, shard Shard, workers int) error {
	if s.Sieve != nil {
		fmt.Fprintf(w, "experiment %s: %s\nno time estimate: which cells walk a board depends on their walks on the boards before it\n", s.Name, SieveSize(s))
		return nil
	}
	est, err := EstimateRun(ctx, s, shard, workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "experiment %s: %d boards, %d rules, %d walks per start square\n", s.Name, len(s.Boards), len(s.Rules), s.Walks)
	for i := 0; i < len(est.Lines); i++ {
		l := est.Lines[i]
		how := ""
		if l.Interpolated {
			how = " (by size)"
		}
		if l.Design < 0 {
			fmt.Fprintf(w, "  %-9s %-18s %4d starts %6d units %14d walks  ~%.0f ns/walk%s\n", l.Board, l.Rule.Name(), l.Starts, l.Units, l.Walks, l.NsPerWalk, how)
			continue
		}
		// a design's cells on this board, as one line: their sums, and
		// the mean cost of a walk over the cells
		d := s.Designs[l.Design]
		var units int
		var walks uint64
		var ns float64
		sampled := 0
		for _, c := range est.Lines[i : i+d.N] {
			units += c.Units
			walks += c.Walks
			ns += c.NsPerWalk * float64(c.Walks)
			if c.Sampled {
				sampled++
			}
		}
		i += d.N - 1
		mean := 0.0
		if walks > 0 {
			mean = ns / float64(walks)
		}
		name := fmt.Sprintf("%s (%s, %d cells)", d.Key, d.Rule, d.N)
		fmt.Fprintf(w, "  %-9s %-18s %4d starts %6d units %14d walks  ~%.0f ns/walk (%d cells timed)%s\n", l.Board, name, l.Starts, units, walks, mean, sampled, how)
	}
	fmt.Fprintf(w, "total: %d units, %d walks (shard %s); estimated %s on %d workers\n", est.Units, est.Walks, shard,
		time.Duration(est.Seconds*float64(time.Second)).Round(time.Millisecond), workers)
	return nil
}

// DryRunSequential prints EstimateSequential's forecast.
func DryRunSequential(ctx context.Context, w io.Writer, s *config.Experiment, workers int) error {
	est, err := EstimateSequential(ctx, s, workers)
	if err != nil {
		return err
	}
	est.Print(w, s, workers)
	return nil
}

// WarnDeterministic says which rules are deterministic: each runs one walk
// per start (Experiment.WalksFor), since every further walk would repeat
// the first; walks applies to the other rules.
func WarnDeterministic(w io.Writer, s *config.Experiment) {
	if s.Walks <= 1 {
		return
	}
	for ri, r := range s.Rules {
		if r.Deterministic() {
			fmt.Fprintf(w, "experiment: %s is deterministic: it runs %d walk per start (every further walk would repeat it; walks: %d applies to the other rules)\n", r.Name(), s.WalksFor(ri), s.Walks)
		}
	}
}

// partExperiment is the experiment a part ran, from the file it carries.
func partExperiment(p *Part) (*config.Experiment, error) {
	cfg, err := config.Parse(p.ConfigFile, []byte(p.ConfigYAML))
	if err != nil {
		return nil, fmt.Errorf("the parts' experiment file no longer validates: %w", err)
	}
	s, err := config.Resolve(cfg, p.ConfigFile, []byte(p.ConfigYAML))
	if err != nil {
		return nil, fmt.Errorf("the parts' experiment file no longer validates: %w", err)
	}
	if s.ConfigHash != p.ConfigHash {
		return nil, fmt.Errorf("the parts were written by a version that hashes this config differently (%.12s, now %.12s)", p.ConfigHash, s.ConfigHash)
	}
	return s, nil
}

// MergeCommand merges the parts of a sharded run named by args into the result
// directory out, as one run writes it, and prints its claims; a single
// parts directory of a sequential run's rounds is merged by
// mergeRoundsCommand.
func MergeCommand(ctx context.Context, o CommandOptions, stderr io.Writer, args []string, out string) error {
	if len(args) == 1 {
		first, ok, err := RoundParts(args[0])
		if err != nil {
			return err
		}
		if ok {
			return mergeRoundsCommand(ctx, o, stderr, args[0], first, out)
		}
	}
	parts, err := ReadParts(args)
	if err != nil {
		return err
	}
	s, err := partExperiment(parts[0])
	if err != nil {
		return err
	}
	t0 := time.Now()
	ts := NewTallies()
	if err := MergeInto(s, ts, parts); err != nil {
		return err
	}
	build := readBuild(stderr)
	opts := RunOptions{Out: out, Force: o.Force, Workers: 1, Shard: All,
		Meta: results.Metadata(s, o.Version, build), BeforeCommit: o.figuresHook(s.Figures)}
	sum, err := WriteMerged(ctx, s, opts, ts, parts, time.Since(t0).Seconds())
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "experiment: merged %d parts -> %s\n", len(parts), sum.Dir)
	PrintClaims(o.Out, sum.Tables)
	return nil
}

// readBuild is the binary's build info, saying on w when it names no
// commit (the results cannot be traced to one).
func readBuild(w io.Writer) buildinfo.Info {
	build := buildinfo.Read()
	if !build.Traceable() {
		fmt.Fprintf(w, "experiment: %s\n", buildinfo.NoVCSNote)
	}
	return build
}

// mergeRoundsCommand merges the rounds of a sequential run split into
// shards (MergeRounds): the result directory once they decide the run;
// before, the run's progress and the next round to run, with exit status 3.
func mergeRoundsCommand(ctx context.Context, o CommandOptions, stderr io.Writer, parts string, first *Part, out string) error {
	s, err := partExperiment(first)
	if err != nil {
		return err
	}
	build := readBuild(stderr)
	opts := RunOptions{Out: out, Force: o.Force, Workers: 1, Shard: All,
		Meta: results.Metadata(s, o.Version, build), BeforeCommit: o.figuresHook(s.Figures)}
	sum, st, err := MergeRounds(ctx, s, parts, first.N, opts)
	if err != nil {
		if errors.Is(err, ErrNotDecided) {
			fmt.Fprintf(o.Out, "rounds merged: %d of at most %d; squares still running: %d of %d; walks so far: %d in %d units; next round: %d, %d walks in %d shards\n",
				st.Rounds, st.MaxRounds, st.Running, st.Squares, st.Walks, st.Units, st.Rounds+1, st.NextWalks, first.N)
		}
		return err
	}
	fmt.Fprintf(stderr, "experiment: merged %d rounds of %d shards (%d walks, %d units) -> %s\n", st.Rounds, first.N, st.Walks, st.Units, sum.Dir)
	PrintClaims(o.Out, sum.Tables)
	return nil
}

// Status prints how far the parts in a directory are: for a
// sequential run's rounds, the rounds merged, the squares still running
// and the next round's parts done; for count parts, what countParts
// prints (it reports whether dir holds any); for run parts, the parts
// done.
func Status(ctx context.Context, w io.Writer, dir string, countParts func(w io.Writer, dir string) (bool, error)) error {
	first, ok, err := RoundParts(dir)
	if err != nil {
		return err
	}
	if ok {
		s, err := partExperiment(first)
		if err != nil {
			return err
		}
		st, done, err := RoundsProgress(ctx, s, dir, first.N)
		if err != nil {
			return err
		}
		if st.Running == 0 {
			fmt.Fprintf(w, "%s: decided after round %d of at most %d (%d walks in %d units): merge it\n", s.Name, st.Rounds, st.MaxRounds, st.Walks, st.Units)
			return nil
		}
		fmt.Fprintf(w, "%s: rounds merged: %d of at most %d; squares still running: %d of %d; walks so far: %d; round %d: %d of %d parts done (%d walks)\n",
			s.Name, st.Rounds, st.MaxRounds, st.Running, st.Squares, st.Walks, st.Rounds+1, done, first.N, st.NextWalks)
		return nil
	}
	if ok, err := countParts(w, dir); ok || err != nil {
		return err
	}
	parts, err := ReadParts([]string{dir})
	if err != nil && len(parts) == 0 {
		return fmt.Errorf("merge --status %s: %w", dir, err)
	}
	fmt.Fprintf(w, "%s: %d of %d parts done\n", parts[0].Experiment, len(parts), parts[0].N)
	return nil
}

// figuresHook draws an experiment's figures into a finished result
// directory before it is renamed into place (nil when it asks for none).
func (o CommandOptions) figuresHook(figs []string) func(dir string) error {
	if len(figs) == 0 {
		return nil
	}
	return func(dir string) error {
		if o.Figures == nil {
			return fmt.Errorf("the experiment asks for figures %v, but this caller draws none", figs)
		}
		return o.Figures(context.Background(), dir, figs)
	}
}
