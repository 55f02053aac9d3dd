package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
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
	// UpToWalks and UpToSeconds are the forecast with every square of
	// Borderline at its cap (max walks): where a claim's true rate lies
	// on its bound the run cannot decide it, and its squares run to max.
	UpToWalks   uint64
	UpToSeconds float64
	Borderline  []SeqBorderline
}

// SeqBorderline is a claim (on one board) whose squares may run to the
// cap: the pilot's fixed-n interval of its pooled counts, at the run's
// confidence and method, does not settle it (its rate may lie on the
// claim's bound, which no number of walks decides), or it is compared
// with a published count (a fixed-n test: its squares run to max).
type SeqBorderline struct {
	Claim, Board, Rule string
	Rate, Lo, Hi       float64 // the pilot's rate and fixed-n interval (NaN for a comparison)
	Compare            bool
	Squares            []string // the claim's squares that may run to the cap
	cells              []Cell
}

// SeqEstimateLine is one (board, rule) of a SeqEstimate.
type SeqEstimateLine struct {
	Board, Rule string
	Starts      int
	Walks       uint64 // predicted
	MaxWalks    uint64
	NsPerWalk   float64
	Borderline  int    // squares that may run to the cap (SeqEstimate.Borderline)
	UpToWalks   uint64 // Walks with those squares at the cap
}

// EstimateSequential runs the pilot of a sequential experiment and
// predicts its walks: a square stops at the first round's end where its
// pilot rate, taken as the truth, would decide every claim it feeds
// (until decided: at the family's Bonferroni level, a little stricter
// than the Holm adjustment the run applies) or make its always-valid
// interval narrow enough (until half_width); at max where none does,
// including a claim whose pilot rate sits on the claimed set's edge. It is
// a forecast from a small sample, not a bound: a square whose claim the
// pilot's fixed-n interval does not settle may have its rate on the
// claim's bound and run to the cap, so those squares are listed
// (Borderline) and UpToWalks forecasts them at the cap.
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
	need, border, err := predictWalks(ctx, s, p, ts, workers)
	if err != nil {
		return nil, err
	}
	est.Borderline = border
	atCap := map[Cell]bool{}
	for _, b := range border {
		for _, c := range b.cells {
			atCap[c] = true
		}
	}
	var ns, nsUp float64
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
				c := Cell{bi, ri, st}
				l.Walks += need[c]
				l.MaxWalks += s.WalksFor(ri)
				if atCap[c] {
					l.Borderline++
					l.UpToWalks += s.WalksFor(ri)
				} else {
					l.UpToWalks += need[c]
				}
			}
			est.Walks += l.Walks
			est.MaxWalks += l.MaxWalks
			est.UpToWalks += l.UpToWalks
			ns += l.NsPerWalk * float64(l.Walks)
			nsUp += l.NsPerWalk * float64(l.UpToWalks)
			est.Lines = append(est.Lines, l)
		}
	}
	est.Seconds = ns / 1e9 / float64(max(workers, 1))
	est.UpToSeconds = nsUp / 1e9 / float64(max(workers, 1))
	return est, nil
}

// predictWalks returns the walks each square is forecast to need, and the
// claims whose squares may run to the cap.
func predictWalks(ctx context.Context, s *config.Experiment, p *Plan, ts *Tallies, workers int) (map[Cell]uint64, []SeqBorderline, error) {
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
		return need, nil, nil
	}
	x, err := computeExact(ctx, s, max(1, workers), nil)
	if err != nil {
		return nil, nil, err
	}
	rows, err := results.ClaimsOf(s, results.Inputs{Tally: ts.Of, Exact: x.Of, Bounds: x.Bounds})
	if err != nil {
		return nil, nil, err
	}
	var border []SeqBorderline
	addBorder := func(ch config.Check, j int, compare bool) {
		b := SeqBorderline{Claim: ch.ID, Board: s.Boards[ch.Boards[j]].String(), Rule: s.Rules[ch.Rule].Name(), Compare: compare,
			Rate: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
		var x stats.Proportion
		for c := range claimCellsOf(ch, j) {
			t := ts.Of(c.Board, c.Rule, c.Start)
			x.Successes += t.Successes
			x.Trials += t.Walks
			b.Squares = append(b.Squares, s.Boards[c.Board].SquareName(c.Start))
			b.cells = append(b.cells, c)
		}
		if len(b.Squares) == 0 {
			return
		}
		if !compare {
			iv := x.Interval(s.Confidence, s.Method)
			b.Rate, b.Lo, b.Hi = iv.Center, iv.Lo, iv.Hi
		}
		border = append(border, b)
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
			settled := results.Decided(row) || s.Rules[ch.Rule].Deterministic()
			if !settled && ch.Compare {
				addBorder(ch, j, true)
			} else if !settled {
				// the pilot's fixed-n interval, of this board's squares
				// pooled: where it does not settle the claim, the rate
				// may lie on the claim's bound, where no number of walks
				// decides it
				var y stats.Proportion
				for c := range claimCellsOf(ch, j) {
					t := ts.Of(c.Board, c.Rule, c.Start)
					y.Successes += t.Successes
					y.Trials += t.Walks
				}
				if !decisive(ch.Claim, y.Interval(s.Confidence, s.Method)) {
					addBorder(ch, j, false)
				}
			}
			switch {
			case settled:
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
	return need, border, nil
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

// Print writes the forecast as `run --dry-run` prints it for a sequential
// run: per (board, rule) the walks forecast, and where squares may run to
// the cap how many and the walks with them at it; then each claim whose
// squares may run to the cap, with the pilot's interval that does not
// settle it, and the totals both ways.
func (est *SeqEstimate) Print(w io.Writer, s *config.Experiment, workers int) {
	q := s.Sequential
	dur := func(sec float64) time.Duration {
		return time.Duration(sec * float64(time.Second)).Round(time.Millisecond)
	}
	fmt.Fprintf(w, "experiment %s: sequential until %s, %d to %d walks per start square; pilot of %d walks (%d per square) in %.2fs\n",
		s.Name, q.Until, q.Min, q.Max, est.PilotWalks, q.Min, est.PilotSeconds)
	for _, l := range est.Lines {
		risk := ""
		if l.Borderline > 0 {
			risk = fmt.Sprintf("; up to %d with its %d borderline square(s) at the cap", l.UpToWalks, l.Borderline)
		}
		fmt.Fprintf(w, "  %-9s %-18s %4d starts %14d walks forecast (max %d%s)  ~%.0f ns/walk\n", l.Board, l.Rule, l.Starts, l.Walks, l.MaxWalks, risk, l.NsPerWalk)
	}
	for _, b := range est.Borderline {
		why := fmt.Sprintf("the pilot's rate %.4g, %g %% %s interval [%.4g, %.4g], does not settle it: its rate may lie on the claim's bound, which no number of walks decides",
			b.Rate, 100*s.Confidence, s.Method, b.Lo, b.Hi)
		if b.Compare {
			why = "compared with a published count by a fixed-n test, it runs to max"
		}
		fmt.Fprintf(w, "  may run to the cap (%d walks per square): claim %s on %s (%s), squares %s: %s\n",
			q.Max, b.Claim, b.Board, b.Rule, strings.Join(b.Squares, " "), why)
	}
	fmt.Fprintf(w, "total: %d walks forecast, %.3g %% of the %d of max walks everywhere; estimated %s on %d workers (a forecast from the pilot's rates, not a bound)\n",
		est.Walks, 100*float64(est.Walks)/float64(est.MaxWalks), est.MaxWalks, dur(est.Seconds), workers)
	if len(est.Borderline) > 0 {
		fmt.Fprintf(w, "up to: %d walks, %s on %d workers, if the borderline squares above run to the cap\n", est.UpToWalks, dur(est.UpToSeconds), workers)
	}
}
