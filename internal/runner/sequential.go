package runner

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/stats"
)

// A sequential run (walks: {until: ...}; docs/design.md, "Running until
// decided") goes in rounds: every square runs the walks [0, min), then
// each square still undecided the next block of the schedule (Schedule),
// until it is decided or reaches max. After each round the decision is a
// function of the tallies of the rounds so far, which are integer sums of
// seeded walks, so the walks each square runs, and the tables, are the
// same for any number of workers; --resume replays the decisions from the
// checkpoint's units round by round and goes on where the run stopped.

// ShardSequential refuses --shard K/N (N > 1) for a sequential run without
// a round: after each round the decision to go on needs the tallies of
// every square of a claim (and of every board of a share claim), which the
// other shards hold, so a sequential run is sharded round by round
// (RunRound, MergeRounds).
func ShardSequential(s *config.Experiment, sh Shard) error {
	if s.Sequential == nil || sh.N <= 1 {
		return nil
	}
	return fmt.Errorf("%s: --shard %s: a sequential run (walks: {until: %s}) decides after each round from the counts of every shard, so it is sharded round by round: run each round's shards with --round R and merge the parts directory after each round (README, Clusters)",
		s.Name, sh, s.Sequential.Until)
}

// tallySink receives the tally of a finished unit.
type tallySink interface {
	addUnit(Unit, *stats.Tally) error
	addResult(Result) error // addUnit(r.Unit, r.Tally), from its sparse form where it has one
}

func (ts *Tallies) addUnit(u Unit, t *stats.Tally) error { return ts.Add(u.Cell(), t) }

// roundTallies holds a sequential run's unit tallies by round until the
// round is done: a resumed run reads units of later rounds from its
// checkpoint before it decides the earlier ones.
type roundTallies struct{ by map[int]*Tallies }

func (rt *roundTallies) addUnit(u Unit, t *stats.Tally) error {
	return rt.of(u.Round).Add(u.Cell(), t)
}

func (rt *roundTallies) addResult(r Result) error { return rt.of(r.Unit.Round).addResult(r) }

// of returns the tallies of round r.
func (rt *roundTallies) of(r int) *Tallies {
	ts := rt.by[r]
	if ts == nil {
		ts = NewTallies()
		rt.by[r] = ts
	}
	return ts
}

// mergeInto adds every cell of ts into dst.
func (ts *Tallies) mergeInto(dst *Tallies) error {
	for c, t := range ts.m {
		if err := dst.Add(c, t); err != nil {
			return err
		}
	}
	for c := range ts.one {
		if err := dst.Add(c, ts.Of(c.Board, c.Rule, c.Start)); err != nil {
			return err
		}
	}
	for c := range ts.sparse {
		if err := dst.Add(c, ts.Of(c.Board, c.Rule, c.Start)); err != nil {
			return err
		}
	}
	return nil
}

// runRounds runs a sequential experiment round by round, the tallies of
// finished rounds into ts. It returns the walks this process ran and
// every square's stop reason.
func runRounds(ctx context.Context, s *config.Experiment, p *Plan, o RunOptions, st *runState, rounds *roundTallies, ts *Tallies) (uint64, *decider, error) {
	d := newDecider(s, p, ts)
	if s.Sequential.Until == "decided" { // a claim the exact values decide needs no walks beyond min
		x, err := computeExact(ctx, s, max(1, o.Workers), o.Log)
		if err != nil {
			return 0, nil, err
		}
		d.exact, d.bounds = x.Of, x.Bounds
	}
	active := map[Cell]bool{}
	for bi := range s.Boards {
		for ri := range s.Rules {
			for _, start := range s.Starts[bi] {
				active[Cell{bi, ri, start}] = true
			}
		}
	}
	var walked uint64
	for r := 0; r < p.Rounds() && len(active) > 0; r++ {
		// The round's units are listed before they run: the run marks units
		// done as they finish, while Execute's feeder would still be reading.
		var todo []Unit
		var total uint64
		for u := range p.RoundUnits(r, func(c Cell) bool { return active[c] }) {
			if !st.done[u.ID] {
				todo = append(todo, u)
				total += u.Hi - u.Lo
			}
		}
		units := slices.Values(todo)
		if o.Log != nil {
			fmt.Fprintf(o.Log, "experiment: round %d: %d squares undecided, %d walks\n", r+1, len(active), total)
		}
		n, err := st.execute(ctx, p, units, total, o, rounds)
		walked += n
		if err != nil {
			return walked, nil, err
		}
		if done := rounds.by[r]; done != nil {
			if err := done.mergeInto(ts); err != nil {
				return walked, nil, err
			}
			delete(rounds.by, r)
		}
		if active, err = d.next(r, ts, active); err != nil {
			return walked, nil, err
		}
	}
	return walked, d, nil
}

// decider decides after each round which squares go on, and which claims
// are settled. A claim is judged on its own squares' walks up to the round
// that settled it (its snapshot), whatever other claims make those squares
// run afterwards: every square a claim pools advances by the same walks
// until the claim is settled, so its pooled rate is the equal-weight mean
// of its squares (the uniform start) and its always-valid interval is
// valid for that mean (docs/design.md, "Running until decided"), and
// adding, removing or reordering other claims cannot move it. A claim
// settles when its own p-value reaches (1 − confidence)/m, m the rows of
// its Holm family with a p-value (results.OwnDecided), so Holm's
// adjustment at the end keeps every settled verdict.
type decider struct {
	s      *config.Experiment
	p      *Plan
	ts     *Tallies
	exact  results.ExactOf
	bounds results.BoundsOf
	stops  map[Cell]string
	snap   []map[Cell]*stats.Tally // per claim: its squares' tallies when settled
	frozen [][]bool                // per claim and board: settled
	family map[string]int          // rows with a p-value per Holm family, from the first round
}

func newDecider(s *config.Experiment, p *Plan, ts *Tallies) *decider {
	d := &decider{s: s, p: p, ts: ts, stops: map[Cell]string{}}
	for _, ch := range s.Checks {
		d.snap = append(d.snap, map[Cell]*stats.Tally{})
		d.frozen = append(d.frozen, make([]bool, len(ch.Boards)))
	}
	return d
}

// tallyFor returns the tallies claim ci is judged on: its snapshot where
// it has one, else the run's.
func (d *decider) tallyFor(ci int) results.TallyOf {
	snap := d.snap[ci]
	return func(board, rule, start int) *stats.Tally {
		if t := snap[Cell{board, rule, start}]; t != nil {
			return t
		}
		return d.ts.Of(board, rule, start)
	}
}

// claimStop is the stop reason of row j of claim ci (a set claim has one
// row, settled when every board is).
func (d *decider) claimStop(ci, j int) string {
	fr := d.frozen[ci]
	if d.s.Checks[ci].Set.Kind != "" {
		if !slices.Contains(fr, false) {
			return table.StopDecided
		}
		return table.StopMax
	}
	if j < len(fr) && fr[j] {
		return table.StopDecided
	}
	return table.StopMax
}

// freeze settles board j of claim ci: its squares' tallies as they are now
// are what it is judged on from here.
func (d *decider) freeze(ci, j int) {
	d.frozen[ci][j] = true
	for c := range claimCellsOf(d.s.Checks[ci], j) {
		if d.snap[ci][c] == nil {
			if t := d.ts.Of(c.Board, c.Rule, c.Start); t != nil {
				d.snap[ci][c] = t.Clone()
			}
		}
	}
}

// inputs are the tables' inputs for this run's claims.
func (d *decider) inputs(in results.Inputs) results.Inputs {
	if d != nil {
		in.ClaimTally, in.ClaimStop = d.tallyFor, d.claimStop
	}
	return in
}

// next returns the squares of active that run round r+1, and records why
// the others stopped.
func (d *decider) next(r int, ts *Tallies, active map[Cell]bool) (map[Cell]bool, error) {
	s := d.s
	var claimed, open map[Cell]bool
	if s.Sequential.Until == "decided" {
		var err error
		if claimed, open, err = d.claimCells(ts); err != nil {
			return nil, err
		}
	}
	next := map[Cell]bool{}
	for c := range active {
		last := d.p.RoundEnd(c.Board, c.Rule, r) >= s.WalksFor(c.Rule)
		stop := ""
		switch {
		case s.Rules[c.Rule].Deterministic():
			stop = table.StopDeterministic
		case s.Sequential.Until == "half_width":
			cs := ts.Of(c.Board, c.Rule, c.Start).SuccessRate().Interval(s.Confidence, stats.ConfidenceSequence)
			if (cs.Hi-cs.Lo)/2 <= s.Sequential.HalfWidth {
				stop = table.StopPrecise
			}
		case !claimed[c]:
			stop = table.StopMin
		case !open[c]:
			stop = table.StopDecided
		}
		switch {
		case stop != "":
			d.stops[c] = stop
		case last:
			d.stops[c] = table.StopMax
		default:
			next[c] = true
		}
	}
	return next, nil
}

// claimCells returns the squares some claim pools, and those some claim
// not yet settled pools, settling the claims whose own data now decide
// them (decider).
func (d *decider) claimCells(ts *Tallies) (claimed, open map[Cell]bool, err error) {
	s := d.s
	rowsBy := make([][]table.ClaimRow, len(s.Checks))
	for ci := range s.Checks {
		if !slices.Contains(d.frozen[ci], false) {
			continue
		}
		if rowsBy[ci], err = results.ClaimRowsOf(s, results.Inputs{Tally: d.tallyFor(ci), Exact: d.exact, Bounds: d.bounds}, ci); err != nil {
			return nil, nil, err
		}
	}
	if d.family == nil { // every row is unsettled on the first round
		d.family = map[string]int{}
		for _, rows := range rowsBy {
			for _, r := range rows {
				if !math.IsNaN(r.PValue) {
					d.family[r.Family]++
				}
			}
		}
	}
	claimed, open = map[Cell]bool{}, map[Cell]bool{}
	for ci, ch := range s.Checks {
		for j := range ch.Boards {
			if !d.frozen[ci][j] {
				row := rowsBy[ci][0]
				if ch.Set.Kind == "" {
					row = rowsBy[ci][j]
				}
				alpha := (1 - s.Confidence) / float64(max(1, d.family[row.Family]))
				if results.OwnDecided(row, alpha) || ch.Set.Kind == "share" && d.shareBoardSettled(ci, ch, j) {
					d.freeze(ci, j)
				}
			}
			for c := range claimCellsOf(ch, j) {
				claimed[c] = true
				if !d.frozen[ci][j] {
					open[c] = true
				}
			}
		}
	}
	return claimed, open, nil
}

// shareBoardSettled reports whether board j of an undecided share claim
// needs no more walks: its exact value is known, or its always-valid
// interval at the claim's Bonferroni level (as results judges the share)
// already decides the per-board statement; for a claim read as counts,
// which is judged jointly over its boards, the claim is decided
// (stats.CountShareResult.SettledAt). Each board's interval is valid at
// any stopping time, so boards may stop one by one.
func (d *decider) shareBoardSettled(ci int, ch config.Check, j int) bool {
	tally := d.tallyFor(ci)
	if ch.Count != nil { // read as the source's counts: the joint test decides
		r, err := results.CountShare(d.s, tally, d.exact, ch)
		if err != nil {
			return false
		}
		if r.IsExact[j] {
			return true
		}
		// A refutation stops only at the level its claim settles at
		// (OwnDecided: α/m), or the claim could stop on a verdict Holm then
		// takes back; a claim shown plausible stops as it is.
		alpha := (1 - d.s.Confidence) / float64(max(1, d.family[ch.Family]))
		return r.SettledAt(alpha)
	}
	sampled := 0
	for k, bi := range ch.Boards {
		if !d.exactOf(bi, ch.Rule, ch.Squares[k]) {
			sampled++
		}
	}
	if d.exactOf(ch.Boards[j], ch.Rule, ch.Squares[j]) {
		return true
	}
	var x stats.Proportion
	for c := range claimCellsOf(ch, j) {
		t := tally(c.Board, c.Rule, c.Start)
		x.Successes += t.Successes
		x.Trials += t.Walks
	}
	if _, ok := stats.Proved(ch.Claim, x.Successes, x.Trials); ok {
		return true // a walk proved the per-board statement
	}
	return decisive(ch.Claim, x.Interval(stats.BonferroniLevel(d.s.Confidence, sampled), stats.ConfidenceSequence))
}

// exactOf reports whether every square of a claim's board has an exact value.
func (d *decider) exactOf(board, rule int, squares []int) bool {
	if d.exact == nil {
		return false
	}
	for _, sq := range squares {
		if _, ok := d.exact(board, rule, sq); !ok {
			return false
		}
	}
	return true
}

// claimCellsOf returns the squares claim ch pools on its j-th board.
func claimCellsOf(ch config.Check, j int) iter.Seq[Cell] {
	return func(yield func(Cell) bool) {
		for _, sq := range ch.Squares[j] {
			if !yield(Cell{ch.Boards[j], ch.Rule, sq}) {
				return
			}
		}
	}
}
