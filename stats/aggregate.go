package stats

import "fmt"

// Pool merges tallies of the same board size into a new tally, e.g. the four
// corner squares of one board and rule. The inputs are not changed. It is an
// error to pool nothing (an empty class) or tallies of different boards.
//
// The pooled success count is the sum over squares, so its rate is the
// walk-weighted mean of the squares' rates: the class rate for a start drawn
// uniformly from the class when every square ran the same number of walks,
// as the harness plans them. Its binomial interval is then valid, if
// slightly conservative: a sum of independent binomials with unequal rates
// has variance at most that of one binomial with their mean rate.
func Pool(tallies ...*Tally) (*Tally, error) {
	if len(tallies) == 0 {
		return nil, fmt.Errorf("stats: pool: no tallies (empty class?)")
	}
	if tallies[0] == nil {
		return nil, fmt.Errorf("stats: pool: nil tally")
	}
	out := NewTally(tallies[0].Squares())
	for i, t := range tallies {
		if err := out.Merge(t); err != nil {
			return nil, fmt.Errorf("stats: pool: tally %d: %w", i, err)
		}
	}
	return out, nil
}

// Rates summarises a tally (one start square or a pooled class) for tables:
// the counts, the success and closed-tour rates with intervals, and the
// path-length distribution.
type Rates struct {
	Walks, Successes, Closed uint64
	Success                  Summary // Successes / Walks
	ClosedTour               Summary // Closed / Walks
	Length                   LengthStats
}

// Summarize computes Rates for t at confidence level conf by method m.
// It panics, like Proportion.Interval, on an invalid conf or method.
func Summarize(t *Tally, conf float64, m Method) Rates {
	return Rates{
		Walks:      t.Walks,
		Successes:  t.Successes,
		Closed:     t.Closed,
		Success:    t.SuccessRate().Interval(conf, m),
		ClosedTour: t.ClosedRate().Interval(conf, m),
		Length:     t.LengthStats(),
	}
}
