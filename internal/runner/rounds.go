package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
)

// A sequential run on a cluster goes round by round (docs/design.md,
// "Running until decided", and deploy/README.md): round R's units, those
// of the squares still running after round R-1, are split into N shards
// (the i-th unit of the round, in plan order, goes to shard i mod N), each
// shard writes PARTS/round-R/part-K, and once all N parts of a round are
// in, the decision for round R+1 is taken from the merged tallies by the
// same decider, round by round, as on one machine. Every shard of a round
// and every merge replays the decisions from the parts of the rounds
// before it, so nothing but the parts directory is shared, any process can
// be killed and run again, and the result is that of one machine's run,
// byte for byte, for any N.

// partRound is what a sequential run's part adds to a part: its round
// (from 1), the squares that ran in it (on every shard), and the walks of
// this shard in it.
type partRound struct {
	Round   int    `json:"round"`
	Squares int    `json:"squares"`
	Walks   uint64 `json:"walks"`
}

// RoundDir is where the parts of round r (from 1) of a sequential run
// sharded into parts lie, and RoundPartDir the part of shard k.
func RoundDir(parts string, r int) string { return filepath.Join(parts, "round-"+strconv.Itoa(r)) }

func RoundPartDir(parts string, r, k int) string {
	return filepath.Join(RoundDir(parts, r), "part-"+strconv.Itoa(k))
}

// NextRound is the first round (from 1) of the sequential run sharded
// into parts that has no part of shard k: the round shard k runs next.
// Shard k runs round R only once its own parts of the rounds before are
// there, and RunRound refuses it unless every shard's are: so shards that
// start at different times never run different rounds as the same one.
// (Whether the run needs that round is for RunRound to say: a decided run
// needs none.)
func NextRound(parts string, k int) int {
	for r := 1; ; r++ {
		if _, err := os.Stat(filepath.Join(RoundPartDir(parts, r, k), partName)); err != nil {
			return r
		}
	}
}

// replay is a sequential run's state after the rounds merged so far.
type replay struct {
	s      *config.Experiment
	p      *Plan
	n      int // shards
	ts     *Tallies
	d      *decider
	active map[Cell]bool
	rounds int    // rounds merged
	units  int    // units run in them
	walks  uint64 // walks run in them
}

func newReplay(ctx context.Context, s *config.Experiment, p *Plan, n, workers int, log io.Writer) (*replay, error) {
	rp := &replay{s: s, p: p, n: n, ts: NewTallies(), active: map[Cell]bool{}}
	rp.d = newDecider(s, p, rp.ts)
	if s.Sequential.Until == "decided" { // as runRounds
		x, err := computeExact(ctx, s, max(1, workers), log)
		if err != nil {
			return nil, err
		}
		rp.d.exact = x.Of
	}
	for bi := range s.Boards {
		for ri := range s.Rules {
			for _, start := range s.Starts[bi] {
				rp.active[Cell{bi, ri, start}] = true
			}
		}
	}
	return rp, nil
}

// finished reports whether no square runs another round.
func (rp *replay) finished() bool { return len(rp.active) == 0 || rp.rounds >= rp.p.Rounds() }

// shardUnits returns the units shard k runs in the next round.
func (rp *replay) shardUnits(k int) []Unit {
	var out []Unit
	i := 0
	for u := range rp.p.RoundUnits(rp.rounds, func(c Cell) bool { return rp.active[c] }) {
		if i%rp.n == k {
			out = append(out, u)
		}
		i++
	}
	return out
}

// add checks the N parts of the next round against the units the replay
// gives each shard, adds their tallies and takes the decision.
func (rp *replay) add(parts []*Part) error {
	r := rp.rounds + 1
	round := NewTallies()
	for _, part := range parts {
		units := rp.shardUnits(part.K)
		want := map[Cell]uint64{}
		var walks uint64
		for _, u := range units {
			want[u.Cell()] += u.Hi - u.Lo
			walks += u.Hi - u.Lo
		}
		if part.Sequential.Walks != walks || part.Sequential.Squares != len(rp.active) {
			return fmt.Errorf("%s: round %d of shard %s with %d walks of %d squares; after round %d the run gives it %d walks of %d squares: a part of another run, or of a round decided otherwise", part.path, r, part.Shard, part.Sequential.Walks, part.Sequential.Squares, r-1, walks, len(rp.active))
		}
		if len(part.Tallies) != len(want) {
			return fmt.Errorf("%s: %d tallies, round %d gives shard %s %d squares", part.path, len(part.Tallies), r, part.Shard, len(want))
		}
		for _, t := range part.Tallies {
			c := Cell{t.Board, t.Rule, t.Start}
			w, ok := want[c]
			if t.Board < 0 || t.Board >= len(rp.s.Boards) || !ok {
				return fmt.Errorf("%s: a tally of board %d, rule %d, square %d, which shard %s does not run in round %d", part.path, t.Board, t.Rule, t.Start, part.Shard, r)
			}
			x, err := t.Tally.tally(rp.s.Boards[t.Board].Squares())
			if err == nil {
				err = checkTally(x, w)
			}
			if err != nil {
				return fmt.Errorf("%s: board %d, rule %d, square %d: %v", part.path, t.Board, t.Rule, t.Start, err)
			}
			if err := round.Add(c, x); err != nil {
				return err
			}
		}
		rp.units += len(units)
		rp.walks += walks
	}
	if err := round.mergeInto(rp.ts); err != nil {
		return err
	}
	next, err := rp.d.next(rp.rounds, rp.ts, rp.active)
	if err != nil {
		return err
	}
	rp.active, rp.rounds = next, r
	return nil
}

// readRound reads the N parts of round r from parts: sealed parts of
// config s, round r, shards 0 to N-1 of N; a part missing, of another
// run or another round is an error naming it and the command that makes
// it.
func readRound(s *config.Experiment, parts string, r, n int) ([]*Part, error) {
	var out []*Part
	var missing []string
	for k := range n {
		path := filepath.Join(RoundPartDir(parts, r, k), partName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			missing = append(missing, strconv.Itoa(k))
			continue
		}
		p, err := readPart(path)
		if err != nil {
			return nil, err
		}
		if err := checkRoundPart(s, p, r, Shard{k, n}); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("round %d of %s is incomplete: no part of shard %s of %d in %s; run it (experiment run %s --shard K/%d --round %d --out %s), then merge again",
			r, s.Name, strings.Join(missing, ", "), n, RoundDir(parts, r), expName(s), n, r, parts)
	}
	return out, nil
}

// checkRoundPart refuses a part that is not shard sh of round r of s.
func checkRoundPart(s *config.Experiment, p *Part, r int, sh Shard) error {
	switch {
	case p.ConfigHash != s.ConfigHash || uint64(p.Seed) != s.Seed:
		return fmt.Errorf("%s is a part of config %.12s (seed %d); this run is %.12s (seed %d): parts of different runs cannot be merged", p.path, p.ConfigHash, uint64(p.Seed), s.ConfigHash, s.Seed)
	case p.Sequential == nil:
		return fmt.Errorf("%s is a part of a run of a fixed number of walks, not a round of a sequential run", p.path)
	case p.Sequential.Round != r:
		return fmt.Errorf("%s is a part of round %d, found where round %d belongs: parts of another round cannot be merged", p.path, p.Sequential.Round, r)
	case p.K != sh.K || p.N != sh.N:
		return fmt.Errorf("%s is shard %s, found where shard %s belongs", p.path, p.Shard, sh)
	}
	return nil
}

// replayRounds reads and merges the rounds 1 to upto (or, for upto < 0,
// all the rounds the run needs that parts holds) and returns the replay.
func replayRounds(ctx context.Context, s *config.Experiment, parts string, n, upto, workers int, log io.Writer) (*replay, error) {
	return replayRoundsOf(ctx, s, parts, n, upto, workers, log, false)
}

// replayRoundsOf is replayRounds; complete stops at the first round whose
// parts are not all there instead of refusing it.
func replayRoundsOf(ctx context.Context, s *config.Experiment, parts string, n, upto, workers int, log io.Writer, complete bool) (*replay, error) {
	if s.Sequential == nil {
		return nil, fmt.Errorf("%s runs a fixed number of walks: it has no rounds to merge in %s (merge its parts with experiment merge --out DIR PART...)", s.Name, parts)
	}
	p, err := NewPlan(s)
	if err != nil {
		return nil, err
	}
	rp, err := newReplay(ctx, s, p, n, workers, log)
	if err != nil {
		return nil, err
	}
	for r := 1; (upto < 0 || r <= upto) && !rp.finished(); r++ {
		if upto < 0 {
			if _, err := os.Stat(RoundDir(parts, r)); err != nil {
				break
			}
		}
		if complete && roundPartsDone(parts, r, n) < n {
			break
		}
		round, err := readRound(s, parts, r, n)
		if err != nil {
			return nil, err
		}
		if err := rp.add(round); err != nil {
			return nil, err
		}
	}
	if upto < 0 && rp.finished() {
		if _, err := os.Stat(RoundDir(parts, rp.rounds+1)); err == nil {
			return nil, fmt.Errorf("%s: the run was decided after round %d, so it has no round %d: parts of another run", RoundDir(parts, rp.rounds+1), rp.rounds, rp.rounds+1)
		}
	}
	return rp, nil
}

// RoundStatus is where a sequential run sharded into parts stands.
type RoundStatus struct {
	Rounds    int // rounds merged
	MaxRounds int // the most the run can take
	Running   int // squares still running (0 when decided)
	Squares   int // squares of the experiment
	NextWalks uint64
	Units     int
	Walks     uint64
}

func (rp *replay) status() RoundStatus {
	st := RoundStatus{Rounds: rp.rounds, MaxRounds: rp.p.Rounds(), Units: rp.units, Walks: rp.walks}
	for bi := range rp.s.Boards {
		st.Squares += len(rp.s.Rules) * len(rp.s.Starts[bi])
	}
	if !rp.finished() {
		st.Running = len(rp.active)
		for u := range rp.p.RoundUnits(rp.rounds, func(c Cell) bool { return rp.active[c] }) {
			st.NextWalks += u.Hi - u.Lo
		}
	}
	return st
}

// roundPartsDone counts the finished parts of round r.
func roundPartsDone(parts string, r, n int) int {
	done := 0
	for k := range n {
		if _, err := os.Stat(filepath.Join(RoundPartDir(parts, r, k), partName)); err == nil {
			done++
		}
	}
	return done
}

// RoundsProgress says where a sequential run sharded into n parts stands,
// without writing anything: the rounds merged (every complete round), the
// squares still running, and how many of the next round's parts are done.
func RoundsProgress(ctx context.Context, s *config.Experiment, parts string, n int) (RoundStatus, int, error) {
	rp, err := replayRoundsOf(ctx, s, parts, n, -1, 1, nil, true)
	if err != nil {
		return RoundStatus{}, 0, err
	}
	return rp.status(), roundPartsDone(parts, rp.rounds+1, n), nil
}

// ErrNotDecided is what MergeRounds returns, wrapped with the run's
// status, when the rounds merged leave squares running: the next round is
// to run before the merge writes anything.
var ErrNotDecided = errors.New("not decided yet")

// RunRound runs shard o.Shard of round o.Round (from 1) of a sequential
// experiment whose parts are in o.Out: it replays the rounds before from
// their parts, runs its units of the round and writes
// o.Out/round-R/part-K. A part already there is kept (nothing to do); an
// interrupted one continues from its checkpoint. When the run was decided
// before the round, it writes nothing.
func RunRound(ctx context.Context, s *config.Experiment, o RunOptions) (*Completed, error) {
	started := time.Now()
	if err := CheckShard(s, o.Shard); err != nil { // the per-walk table, the shards past the first round's units
		return nil, err
	}
	parts, sh, r := o.Out, o.Shard, o.Round
	if o.Meta.Experiment == "" {
		o.Meta = results.Metadata(s, o.Meta.ToolVersion, o.Meta.Build)
	}
	o.Meta.Levels = results.Levels(s)
	if err := CheckRules(s); err != nil {
		return nil, err
	}
	final := RoundPartDir(parts, r, sh.K)
	if _, err := os.Stat(filepath.Join(final, partName)); err == nil {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "experiment: %s is already complete: nothing to do\n", final)
		}
		return &Completed{Dir: final, Started: started}, nil
	}
	rp, err := replayRounds(ctx, s, parts, sh.N, r-1, o.Workers, o.Log)
	if err != nil {
		return nil, err
	}
	if rp.finished() {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "experiment: %s was decided after round %d: round %d has nothing to run; merge the parts (experiment merge --out DIR %s)\n", s.Name, rp.rounds, r, parts)
		}
		return &Completed{Started: started}, nil
	}
	units := rp.shardUnits(sh.K)
	if err := os.MkdirAll(RoundDir(parts, r), 0o755); err != nil {
		return nil, err
	}
	resume := false
	if _, err := os.Stat(filepath.Join(final+".partial", checkpointName)); err == nil {
		resume = true
	}
	dir, err := prepareOutDir(final, workKey(s), o.Force, resume, o.Log)
	if err != nil {
		return nil, err
	}
	defer dir.release()
	p := rp.p
	ts := NewTallies()
	so := o
	so.Shard, so.Resume = All, resume // the directory is the round's and shard's: the checkpoint takes its units
	st, err := openState(dir.Partial, s, p, so, ts)
	if err != nil {
		return nil, err
	}
	mine := map[int]bool{}
	var todo []Unit
	var total, walks uint64
	for _, u := range units {
		mine[u.ID] = true
		walks += u.Hi - u.Lo
		if !st.done[u.ID] {
			todo = append(todo, u)
			total += u.Hi - u.Lo
		}
	}
	for id := range st.done {
		if !mine[id] {
			st.cp.Close()
			return nil, fmt.Errorf("%s: its checkpoint holds unit %d, which is not shard %s's in round %d: run again with --force to discard it", dir.Partial, id, sh, r)
		}
	}
	if o.Log != nil {
		how := ""
		if resume {
			how = fmt.Sprintf(", resuming: %d of its %d units done", len(st.done), len(units))
		}
		fmt.Fprintf(o.Log, "experiment: round %d of at most %d, shard %s: %d squares undecided, %d of the round's walks on this shard%s\n", r, p.Rounds(), sh, len(rp.active), walks, how)
	}
	t0 := time.Now()
	walked, err := st.execute(ctx, p, slices.Values(todo), total, o, ts)
	if cerr := st.cp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cancelled: %d of %d units of round %d, shard %s done are kept in %s; run the same command again to continue", len(st.done), len(units), r, sh, dir.Partial)
		}
		return nil, err
	}
	o.Round = r
	prov := results.NewShardRun(sh.String(), o.Meta, o.Workers, uint64(walks), t0, time.Since(t0).Seconds())
	if err := writeRoundPart(dir.Partial, s, p, o, ts, partRound{Round: r, Squares: len(rp.active), Walks: walks}, &prov); err != nil {
		return nil, err
	}
	if err := dir.commit(); err != nil {
		return nil, err
	}
	return &Completed{Dir: dir.Final, Walks: walked, Seconds: time.Since(t0).Seconds(), Started: started}, nil
}

// MergeRounds merges the rounds of a sequential run in parts (N shards
// each). When they decide the run it writes the result directory o.Out,
// the tables, report and manifest one machine's run writes; otherwise it
// writes nothing and returns the status with ErrNotDecided.
func MergeRounds(ctx context.Context, s *config.Experiment, parts string, n int, o RunOptions) (*Completed, RoundStatus, error) {
	t0 := time.Now()
	if o.Meta.Experiment == "" {
		o.Meta = results.Metadata(s, o.Meta.ToolVersion, o.Meta.Build)
	}
	o.Meta.Levels = results.Levels(s)
	rp, err := replayRounds(ctx, s, parts, n, -1, o.Workers, o.Log)
	if err != nil {
		return nil, RoundStatus{}, err
	}
	st := rp.status()
	if !rp.finished() {
		return nil, st, fmt.Errorf("%s: %w after round %d of at most %d: %d of %d squares still running; run round %d (experiment run %s --shard K/%d --round %d --out %s, K from 0 to %d), then merge again",
			s.Name, ErrNotDecided, st.Rounds, st.MaxRounds, st.Running, st.Squares, st.Rounds+1, expName(s), n, st.Rounds+1, parts, n-1)
	}
	if err := outNotAPart(o.Out, []*Part{{path: filepath.Join(parts, partName)}}); err != nil {
		return nil, st, err
	}
	dir, err := prepareOutDir(o.Out, workKey(s), o.Force, false, o.Log)
	if err != nil {
		return nil, st, err
	}
	defer dir.release()
	sum := &Completed{Dir: dir.Final, Walks: rp.walks, Seconds: time.Since(t0).Seconds(), Started: t0}
	stopOf := func(board, rule, start int) string { return rp.d.stops[Cell{board, rule, start}] }
	if err := writeResults(ctx, dir.Partial, s, o, rp.ts, stopOf, rp.d, sum, rp.units, false); err != nil {
		os.RemoveAll(dir.Partial)
		return nil, st, err
	}
	if err := dir.commit(); err != nil {
		return nil, st, err
	}
	return sum, st, nil
}

// RoundParts reports whether dir holds the rounds of a sequential run (a
// round-1 directory), and returns a part of its first round, which names
// the run and its number of shards. Before naming the run it reads every
// finished part of every round and refuses, naming the part, one that is
// not what its place says (a fixed run's part, another round, another
// shard) and one of another run (config, seed or shard count) than the
// most parts are of; where no run has the most parts, it names both sides.
// So `merge --status` and `merge` judge a directory by the same parts,
// and neither takes its run from whichever part it happens to read first.
func RoundParts(dir string) (*Part, bool, error) {
	fi, err := os.Stat(RoundDir(dir, 1))
	if err != nil || !fi.IsDir() {
		return nil, false, nil
	}
	var all []*Part
	for r := 1; ; r++ {
		ents, err := os.ReadDir(RoundDir(dir, r))
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return nil, true, err
		}
		for _, e := range ents {
			k, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "part-"))
			path := filepath.Join(RoundDir(dir, r), e.Name(), partName)
			if !e.IsDir() || !strings.HasPrefix(e.Name(), "part-") || err != nil || k < 0 || e.Name() != "part-"+strconv.Itoa(k) {
				continue
			}
			if _, err := os.Stat(path); err != nil {
				continue // a part still running (part-K.partial holds it) or not begun
			}
			p, err := readPart(path)
			if err != nil {
				return nil, true, err
			}
			if err := partInPlace(p, r, k); err != nil {
				return nil, true, err
			}
			all = append(all, p)
		}
	}
	if len(all) == 0 || all[0].Sequential.Round != 1 {
		return nil, true, fmt.Errorf("%s: no finished part of round 1: run round 1 (experiment run EXPERIMENT --shard K/N --round 1 --out %s for each K)", RoundDir(dir, 1), dir)
	}
	ref, err := oddPartOut(all, "here")
	if err != nil {
		return nil, true, err
	}
	return ref, true, nil
}

// partInPlace refuses a part found at round-R/part-K that is not a round
// of a sequential run, or is another round's or shard's part.
func partInPlace(p *Part, r, k int) error {
	switch {
	case p.Sequential == nil:
		return fmt.Errorf("%s is a part of a run of a fixed number of walks (experiment %s, shard %s), not a round of a sequential run: it does not belong among rounds; move it out (merge it with the parts of its own run)", p.path, p.Experiment, p.Shard)
	case p.Sequential.Round != r:
		return fmt.Errorf("%s is a part of round %d, found where round %d belongs: parts of another round cannot be merged", p.path, p.Sequential.Round, r)
	case p.K != k || p.K >= p.N || p.Shard != (Shard{p.K, p.N}).String():
		return fmt.Errorf("%s is shard %s, found where a part of shard %d belongs", p.path, p.Shard, k)
	}
	return nil
}

// partRun is what makes parts of one run: config, seed and shard count.
type partRun struct {
	hash string
	seed uint64
	n    int
}

func runOf(p *Part) partRun { return partRun{p.ConfigHash, uint64(p.Seed), p.N} }

func (r partRun) String() string {
	return fmt.Sprintf("config %.12s, seed %d, %d shards", r.hash, r.seed, r.n)
}

// oddPartOut returns the first of parts when all are of one run. Otherwise
// it refuses the parts of the runs fewer parts are of, naming the first
// of them and the run the most are of; when no run has the most, it names
// a part of each of the two largest (neither is taken for the genuine one).
func oddPartOut(parts []*Part, where string) (*Part, error) {
	count := map[partRun]int{}
	var order []partRun
	for _, p := range parts {
		if count[runOf(p)] == 0 {
			order = append(order, runOf(p))
		}
		count[runOf(p)]++
	}
	if len(order) == 1 {
		return parts[0], nil
	}
	slices.SortStableFunc(order, func(a, b partRun) int { return count[b] - count[a] })
	major, second := order[0], order[1]
	firstOf := func(r partRun) *Part {
		return parts[slices.IndexFunc(parts, func(p *Part) bool { return runOf(p) == r })]
	}
	if count[major] == count[second] {
		return nil, fmt.Errorf("%s (%s) and %s (%s) are parts of different runs, as many parts %s of each: parts of different runs cannot be merged; remove the parts that do not belong",
			firstOf(major).path, major, firstOf(second).path, second, where)
	}
	for _, p := range parts {
		if r := runOf(p); r != major {
			return nil, fmt.Errorf("%s is a part of another run (%s) than the other %d parts %s (%s): parts of different runs cannot be merged; remove it",
				p.path, r, count[major], where, major)
		}
	}
	return firstOf(major), nil
}

// expName is how a command line names the experiment: its file, or its
// name for a committed one.
func expName(s *config.Experiment) string {
	if s.SourceFile != "" {
		return s.SourceFile
	}
	return s.Name
}
