package runner

import (
	"context"
	"math"
	"time"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/stats"
)

// SeqEstimate is what `run --dry-run` prints for a sequential run: a
// pilot (its first round, min walks per square, run for real but not
// kept), and from the pilot's rates the walks each (board, rule) will
// need and the time they will take.
type SeqEstimate struct {
	PilotWalks   uint64
	PilotSeconds float64
	Lines        []SeqEstimateLine
	Walks        uint64 // predicted in all
	MaxWalks     uint64 // what a run of max walks per square would take
	Seconds      float64
}

// SeqEstimateLine is one (board, rule) of a SeqEstimate.
type SeqEstimateLine struct {
	Board, Rule string
	Starts      int
	Walks       uint64 // predicted
	MaxWalks    uint64
	NsPerWalk   float64
}

// EstimateSequential runs the pilot of a sequential experiment and
// predicts its walks: a square stops at the first round's end where its
// pilot rate, taken as the truth, would decide every claim it feeds
// (until decided: at the family's Bonferroni level, a little stricter
// than the Holm adjustment the run applies) or make its always-valid
// interval narrow enough (until half_width); at max where none does,
// including a claim whose pilot rate sits on the claimed set's edge. It is
// a forecast from a small sample, not a bound.
func EstimateSequential(ctx context.Context, s *config.Experiment, workers int) (*SeqEstimate, error) {
	p, err := NewPlan(s)
	if err != nil {
		return nil, err
	}
	ts := NewTallies()
	est := &SeqEstimate{}
	t0 := time.Now()
	err = Execute(ctx, p, p.RoundUnits(0, func(Cell) bool { return true }), Options{Workers: workers}, func(r Result) error {
		est.PilotWalks += r.Unit.Hi - r.Unit.Lo
		return ts.addResult(r)
	})
	if err != nil {
		return nil, err
	}
	est.PilotSeconds = time.Since(t0).Seconds()
	need, err := predictWalks(ctx, s, p, ts, workers)
	if err != nil {
		return nil, err
	}
	var ns float64
	sample := calibrationSample(s.Boards)
	perWalk := make([]map[int]float64, len(s.Rules)) // of the sampled boards; the others interpolated
	for ri, r := range s.Rules {
		perWalk[ri] = map[int]float64{}
		for bi := range sample {
			if perWalk[ri][bi], err = calibrate(ctx, s.Boards[bi], r, s.Starts[bi]); err != nil {
				return nil, err
			}
		}
	}
	for bi, b := range s.Boards {
		for ri, r := range s.Rules {
			l := SeqEstimateLine{Board: b.String(), Rule: r.Name(), Starts: len(s.Starts[bi]), NsPerWalk: bySquares(s.Boards, perWalk[ri], bi)}
			for _, st := range s.Starts[bi] {
				l.Walks += need[Cell{bi, ri, st}]
				l.MaxWalks += s.WalksFor(ri)
			}
			est.Walks += l.Walks
			est.MaxWalks += l.MaxWalks
			ns += l.NsPerWalk * float64(l.Walks)
			est.Lines = append(est.Lines, l)
		}
	}
	est.Seconds = ns / 1e9 / float64(max(workers, 1))
	return est, nil
}

// predictWalks returns the walks each square is forecast to need.
func predictWalks(ctx context.Context, s *config.Experiment, p *Plan, ts *Tallies, workers int) (map[Cell]uint64, error) {
	q := s.Sequential
	ends := Schedule(uint64(q.Min), s.Walks)
	need := map[Cell]uint64{}
	for bi := range s.Boards {
		for ri := range s.Rules {
			for _, st := range s.Starts[bi] {
				c := Cell{bi, ri, st}
				need[c] = min(uint64(q.Min), s.WalksFor(ri))
				if q.Until == "half_width" && !s.Rules[ri].Deterministic() {
					rate := ts.Of(bi, ri, st).SuccessRate().Estimate()
					need[c] = firstEnd(ends, 1, func(n float64) bool {
						cs := stats.Proportion{Successes: uint64(math.Round(rate * n)), Trials: uint64(n)}.Interval(s.Confidence, stats.ConfidenceSequence)
						return (cs.Hi-cs.Lo)/2 <= q.HalfWidth
					})
				}
			}
		}
	}
	if q.Until != "decided" {
		return need, nil
	}
	x, err := computeExact(ctx, s, max(1, workers), nil)
	if err != nil {
		return nil, err
	}
	rows, err := results.ClaimsOf(s, results.Inputs{Tally: ts.Of, Exact: x.Of, Bounds: x.Bounds})
	if err != nil {
		return nil, err
	}
	family := map[string]int{}
	for _, r := range rows {
		if r.DecidedBy == "sample" {
			family[r.Family]++
		}
	}
	i := 0
	for _, ch := range s.Checks {
		for j := range ch.Boards {
			row := rows[i]
			if ch.Set.Kind == "" || j == len(ch.Boards)-1 {
				i++
			}
			n := uint64(q.Min)
			switch {
			case results.Decided(row) || s.Rules[ch.Rule].Deterministic():
			case ch.Compare: // a comparison with a published count runs to max (results.Decided)
				n = s.Walks
			case ch.Set.Kind != "": // a share of boards: each board until its own interval decides
				level := stats.BonferroniLevel(s.Confidence, len(ch.Boards))
				var x stats.Proportion
				for c := range claimCellsOf(ch, j) {
					t := ts.Of(c.Board, c.Rule, c.Start)
					x.Successes += t.Successes
					x.Trials += t.Walks
				}
				rate, m := x.Estimate(), float64(len(ch.Squares[j]))
				n = firstEnd(ends, m, func(trials float64) bool {
					y := stats.Proportion{Successes: uint64(math.Round(rate * trials)), Trials: uint64(trials)}
					return decisive(ch.Claim, y.Interval(level, stats.ConfidenceSequence))
				})
			default:
				level := stats.BonferroniLevel(s.Confidence, family[row.Family])
				m := float64(len(ch.Squares[j]))
				n = firstEnd(ends, m, func(trials float64) bool {
					x := stats.Proportion{Successes: uint64(math.Round(row.Measured * trials)), Trials: uint64(trials)}
					return decisive(ch.Claim, x.Interval(level, stats.ConfidenceSequence))
				})
			}
			for c := range claimCellsOf(ch, j) {
				need[c] = max(need[c], min(n, s.WalksFor(c.Rule)))
			}
		}
	}
	return need, nil
}

// firstEnd returns the first round's end e of ends at which ok(e·m)
// holds (m squares pooled), the last end if none.
func firstEnd(ends []uint64, m float64, ok func(trials float64) bool) uint64 {
	for _, e := range ends {
		if ok(float64(e) * m) {
			return e
		}
	}
	return ends[len(ends)-1]
}

// decisive reports whether an interval settles claim c (results.Decided).
func decisive(c stats.Claim, x stats.Summary) bool {
	switch stats.Verdict(c, x) {
	case stats.Refuted:
		return true
	case stats.Consistent:
		return !(c.Kind == stats.Rate && c.Tolerance == 0)
	}
	return false
}
