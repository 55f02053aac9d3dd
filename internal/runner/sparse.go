package runner

import (
	"encoding/json"
	"fmt"

	"knightwalk/stats"
)

// sparseTally is a tally's JSON form in checkpoints and parts: histograms
// as [index, count] pairs of their non-zero bins. On a 2000×2000 board a
// dense histogram is 4 million numbers however few walks it counts.
type sparseTally struct {
	Squares        int         `json:"squares"`
	Walks          uint64      `json:"walks"`
	Successes      uint64      `json:"successes"`
	Closed         uint64      `json:"closed"`
	Stopped        uint64      `json:"stopped"`
	TieSum         uint64      `json:"tie_sum"`
	NodeSum        uint64      `json:"node_sum"`
	BacktrackSum   uint64      `json:"backtrack_sum"`
	BudgetExceeded uint64      `json:"budget_exceeded"`
	Lengths        [][2]uint64 `json:"lengths"`
	DeadEnds       [][2]uint64 `json:"deadends"`
}

// tallyJSON wraps a tally for sparse JSON encoding.
type tallyJSON struct{ *stats.Tally }

func sparse(h []uint64) [][2]uint64 {
	out := [][2]uint64{}
	for i, c := range h {
		if c != 0 {
			out = append(out, [2]uint64{uint64(i), c})
		}
	}
	return out
}

func (t tallyJSON) MarshalJSON() ([]byte, error) {
	return json.Marshal(sparseTally{Squares: t.Squares(), Walks: t.Walks, Successes: t.Successes, Closed: t.Closed, Stopped: t.Stopped,
		TieSum: t.TieSum, NodeSum: t.NodeSum, BacktrackSum: t.BacktrackSum, BudgetExceeded: t.BudgetExceeded,
		Lengths: sparse(t.Lengths), DeadEnds: sparse(t.DeadEnds)})
}

func (t *tallyJSON) UnmarshalJSON(b []byte) error {
	var s sparseTally
	if err := decodeStrict(b, &s); err != nil {
		return err
	}
	if s.Squares < 1 || s.Squares > 1<<24 {
		return fmt.Errorf("tally of %d squares", s.Squares)
	}
	x := stats.NewTally(s.Squares)
	x.Walks, x.Successes, x.Closed, x.Stopped = s.Walks, s.Successes, s.Closed, s.Stopped
	x.TieSum, x.NodeSum, x.BacktrackSum, x.BudgetExceeded = s.TieSum, s.NodeSum, s.BacktrackSum, s.BudgetExceeded
	for _, h := range []struct {
		dst []uint64
		src [][2]uint64
	}{{x.Lengths, s.Lengths}, {x.DeadEnds, s.DeadEnds}} {
		for _, p := range h.src {
			if p[0] >= uint64(len(h.dst)) {
				return fmt.Errorf("histogram bin %d out of range for %d squares", p[0], s.Squares)
			}
			h.dst[p[0]] += p[1]
		}
	}
	t.Tally = x
	return nil
}
