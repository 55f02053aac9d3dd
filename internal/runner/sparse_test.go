package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSparseBins holds sparse, which skips empty runs eight bins at a
// time, to the plain scan on histograms of every length mod 8, with bins
// at the ends, in the tail and in runs.
func TestSparseBins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for trial := range 50 {
			h := make([]uint64, n)
			for i := range h {
				if rng.IntN(6) == 0 || trial == 0 && (i == 0 || i == n-1) {
					h[i] = rng.Uint64N(5) + 1
				}
			}
			var want [][2]uint64
			for i, c := range h {
				if c != 0 {
					want = append(want, [2]uint64{uint64(i), c})
				}
			}
			if got := sparse(h); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("len %d: sparse %v, want %v", n, got, want)
			}
		}
	}
}

// TestCheckpointJSON holds the checkpoint's hand-written JSON to
// json.Marshal, byte for byte, body and record, for tallies with empty,
// nil and long histograms and counts up to 2^64 − 1: a checkpoint written
// either way resumes either way.
func TestCheckpointJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bins := func(n int) [][2]uint64 {
		if n < 0 {
			return nil
		}
		out := [][2]uint64{}
		for i := range n {
			out = append(out, [2]uint64{uint64(i) * 7, rng.Uint64()})
		}
		return out
	}
	for trial := range 200 {
		b := checkpointBody{Unit: rng.IntN(1 << 40), Tally: sparseTally{Squares: rng.IntN(1 << 24), Walks: rng.Uint64(), Successes: ^uint64(0),
			Closed: rng.Uint64N(10), Stopped: 0, TieSum: rng.Uint64(), NodeSum: rng.Uint64(), BacktrackSum: rng.Uint64(), BudgetExceeded: rng.Uint64(),
			Lengths: bins(rng.IntN(12) - 1), DeadEnds: bins(rng.IntN(12) - 1)}}
		want, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("trial %d:\n got %s\nwant %s", trial, got, want)
		}
		rec, _ := json.Marshal(checkpointRecord{b, seal("h", want)})
		var out bytes.Buffer
		c := &checkpoint{hash: "h"}
		c.w = bufio.NewWriter(&out)
		c.flushed = time.Now()
		if err := c.addBody(b); err != nil {
			t.Fatal(err)
		}
		c.w.Flush()
		if out.String() != string(rec)+"\n" {
			t.Fatalf("trial %d record:\n got %s\nwant %s", trial, out.String(), rec)
		}
	}
}
