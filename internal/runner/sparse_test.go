package runner

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/stats"
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

// TestAddBinsIsMergeBins: addBins, in place or not, sums as mergeBins
// does, on histograms whose bins b does and does not all have in a.
func TestAddBinsIsMergeBins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hist := func(n, span int) [][2]uint64 {
		m := map[uint64]uint64{}
		for range n {
			m[uint64(rng.IntN(span))] += uint64(1 + rng.IntN(5))
		}
		var out [][2]uint64
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, [2]uint64{k, m[k]})
		}
		return out
	}
	inPlace := 0
	for range 2000 {
		a, b := hist(rng.IntN(40), 50), hist(rng.IntN(6), 50)
		if rng.IntN(2) == 0 { // b's bins all in a
			for i := range b {
				if len(a) > 0 {
					b[i][0] = a[rng.IntN(len(a))][0]
				}
			}
			slices.SortFunc(b, func(x, y [2]uint64) int { return cmp.Compare(x[0], y[0]) })
			b = slices.CompactFunc(b, func(x, y [2]uint64) bool { return x[0] == y[0] })
		}
		want := mergeBins(a, b)
		got := addBins(slices.Clone(a), b)
		if !slices.Equal(got, want) {
			t.Fatalf("addBins(%v, %v) = %v, mergeBins %v", a, b, got, want)
		}
		if len(got) == len(a) && len(b) > 0 {
			inPlace++
		}
	}
	if inPlace < 500 {
		t.Fatalf("only %d of 2000 cases added in place", inPlace)
	}
}

// mergeBins adds two sparse histograms, each sorted by bin, into a new
// one (addBins's reference).
func mergeBins(a, b [][2]uint64) [][2]uint64 {
	out := make([][2]uint64, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0][0] < b[0][0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0][0] < a[0][0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out = append(out, [2]uint64{a[0][0], a[0][1] + b[0][1]})
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// TestSparseMergePending: a cell's sparse tally merged from many units,
// read (tally) now and then in between, is the sum of the units' dense
// tallies, whether the units' bins are mostly in the cell already
// (lengths) or mostly new (dead ends, a new square nearly every walk), so
// that merge keeps new bins pending and settles them in batches.
func TestSparseMergePending(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const squares = 5000
	want := stats.NewTally(squares)
	var cell *sparseTally
	settled := 0
	for u := range 600 {
		x := stats.NewTally(squares)
		for range 1 + rng.IntN(40) {
			x.Walks++
			x.Lengths[1+rng.IntN(60)]++
			x.DeadEnds[rng.IntN(squares)]++
		}
		if err := want.Merge(x); err != nil {
			t.Fatal(err)
		}
		st := sparseOf(x)
		if cell == nil {
			st.Lengths, st.DeadEnds = slices.Clone(st.Lengths), slices.Clone(st.DeadEnds)
			cell = &st
		} else if err := cell.merge(st); err != nil {
			t.Fatal(err)
		}
		if len(cell.pendDeadEnds) > 0 {
			settled++
		}
		if u%97 == 0 || u == 599 {
			got, err := cell.tally(squares)
			if err != nil {
				t.Fatalf("unit %d: %v", u, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("unit %d: the cell's tally is not the units' sum", u)
			}
		}
	}
	if settled < 300 {
		t.Fatalf("bins were pending after only %d of 600 merges: the batching was not exercised", settled)
	}
}
