package count

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

func allSquares(b *sim.Board) []int {
	s := make([]int, b.Squares())
	for i := range s {
		s[i] = i
	}
	return s
}

// TestAgreesWithSearch checks the sweep against sim's backtracking search,
// square by square, on every board the search finishes in a moment:
// square and rectangular, both orientations (the sweep turns boards wider
// than tall), open per start and closed.
func TestAgreesWithSearch(t *testing.T) {
	boards := []string{"1x1", "1x2", "2x1", "1x3", "2x2", "2x3", "3x3", "3x4", "4x3", "3x5", "3x6", "6x3",
		"3x7", "4x4", "4x5", "5x4", "3x8", "4x6", "6x4", "5x5", "3x9", "3x10", "4x7", "7x4", "5x6", "6x5", "3x12"}
	for _, name := range boards {
		b, err := sim.ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, closed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/closed=%v", name, closed), func(t *testing.T) {
				want, err := CountTours(context.Background(), b, CountOptions{Closed: closed})
				if err != nil {
					t.Fatal(err)
				}
				got, err := Tours(context.Background(), b, Options{Closed: closed, Starts: allSquares(b), Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				for sq, w := range want.PerStart {
					if g, ok := got.PerStart[sq].Uint64(); !ok || int64(g) != w {
						t.Errorf("from %s: %v, search %d", b.SquareName(sq), got.PerStart[sq], w)
					}
				}
				total := want.Directed
				if closed {
					total = want.Undirected
				}
				if g, ok := got.Tours.Uint64(); !ok || int64(g) != total {
					t.Errorf("total %v, search %d", got.Tours, total)
				}
			})
		}
	}
}

// TestTotalSweepAgrees checks the sweep with both path ends free (the
// total only) against the sum of the per-start sweeps.
func TestTotalSweepAgrees(t *testing.T) {
	for _, name := range []string{"3x4", "4x5", "5x5", "3x10", "5x6", "4x8", "5x7"} {
		b, _ := sim.ParseBoard(name)
		all, err := totalPaths(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		per, err := Tours(context.Background(), b, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if all.Add(all) != per.Tours {
			t.Errorf("%s: total sweep 2x%v, sum over starts %v", name, all, per.Tours)
		}
	}
}

// TestKnownTotals checks published totals (see docs/design.md, "Counting tours").
func TestKnownTotals(t *testing.T) {
	cases := []struct {
		board          string
		closed, paired bool
		want           string
		slow           bool
	}{
		{"5x5", false, false, "1728", false},
		{"6x6", true, false, "9862", false},
		{"7x6", true, false, "1067638", false},
		{"6x6", false, false, "6637920", true},
		{"6x6", false, true, "6637920", true},
		{"7x7", true, false, "0", false},
		// Width 7: the widest 4-bit keys, every nibble of a key in use.
		{"7x8", true, false, "34524432316", true},
	}
	for _, c := range cases {
		if c.slow && !testenv.Slow() {
			continue
		}
		b, _ := sim.ParseBoard(c.board)
		got, err := Tours(context.Background(), b, Options{Closed: c.closed, PairedEnds: c.paired})
		if err != nil {
			t.Fatal(err)
		}
		if got.Tours.String() != c.want {
			t.Errorf("%s closed=%v paired=%v: %v, want %s", c.board, c.closed, c.paired, got.Tours, c.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		board string
		opt   Options
		want  string
	}{
		{"9x9", Options{}, "shorter side is at most 8"},
		{"1000x1000", Options{}, "shorter side is at most 8"},
		{"5x5", Options{Starts: []int{25}}, "off the board"},
		{"5x5", Options{Starts: []int{-1}}, "off the board"},
		{"5x5", Options{Workers: -1}, "workers"},
		{"8x60", Options{}, "128 bits"},
	} {
		b, err := sim.ParseBoard(c.board)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Tours(ctx, b, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want an error about %q", c.board, c.opt, err, c.want)
		}
	}
}

func TestMemoryBudget(t *testing.T) {
	b := sim.MustBoard(6, 6)
	_, err := Tours(context.Background(), b, Options{MaxMemory: 4 << 20})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "4 MiB") {
		t.Fatalf("6x6 open in 4 MiB: %v, want the budget error", err)
	}
	if n := strings.Count(err.Error(), "count tours on 6x6"); n != 1 {
		t.Errorf("%q says which count %d times; want once", err, n)
	}
	r, err := Tours(context.Background(), sim.MustBoard(5, 5), Options{MaxMemory: 16 << 20})
	if err != nil || r.PeakBytes > 16<<20 || r.PeakBytes == 0 {
		t.Fatalf("5x5 in 16 MiB: peak %d, %v", r.PeakBytes, err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Tours(ctx, sim.MustBoard(6, 6), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestWorkersAgree checks that the layers do not depend on the number of
// workers: same states after every step, same count.
func TestWorkersAgree(t *testing.T) {
	b := sim.MustBoard(5, 6)
	one, err := Tours(context.Background(), b, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	three, err := Tours(context.Background(), b, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if one.Tours != three.Tours || len(one.Layers) != len(three.Layers) {
		t.Fatalf("1 worker %v, 3 workers %v", one.Tours, three.Tours)
	}
	for i := range one.Layers {
		if one.Layers[i].States != three.Layers[i].States {
			t.Errorf("step %d: %d states with 1 worker, %d with 3", i+1, one.Layers[i].States, three.Layers[i].States)
		}
	}
}

// TestWideTables checks the 128-bit tables (used when a count passes 2^64)
// against the narrow ones.
func TestWideTables(t *testing.T) {
	for _, closed := range []bool{false, true} {
		b := sim.MustBoard(5, 6)
		narrow, err := Tours(context.Background(), b, Options{Closed: closed, Starts: allSquares(b)})
		if err != nil {
			t.Fatal(err)
		}
		wide, err := Tours(context.Background(), b, Options{Closed: closed, Starts: allSquares(b), wide: true})
		if err != nil {
			t.Fatal(err)
		}
		if narrow.Tours != wide.Tours || wide.PeakBytes <= narrow.PeakBytes {
			t.Errorf("closed=%v: narrow %v (%d bytes), wide %v (%d bytes)", closed, narrow.Tours, narrow.PeakBytes, wide.Tours, wide.PeakBytes)
		}
		for sq := range narrow.PerStart {
			if narrow.PerStart[sq] != wide.PerStart[sq] {
				t.Errorf("closed=%v from %s: narrow %v, wide %v", closed, b.SquareName(sq), narrow.PerStart[sq], wide.PerStart[sq])
			}
		}
	}
}

// TestNarrowOverflow checks that a narrow table refuses a count past 2^64
// instead of wrapping, and a wide one keeps it.
func TestNarrowOverflow(t *testing.T) {
	for _, wide := range []bool{false, true} {
		l := newLayer(&budget{}, wide)
		big := Count{Lo: 1<<64 - 1}
		err := l.addBatch(0, []entry{{key: 7, n: big}, {key: 7, n: Count{Lo: 1}}})
		if err == nil {
			pk := packer{l: l}
			err = pk.pack(0)
			pk.release()
		}
		if wide != (err == nil) {
			t.Fatalf("wide=%v: %v", wide, err)
		}
		if wide {
			if c := l.count(0, 0); l.s[0].n != 1 || c != (Count{Hi: 1}) {
				t.Errorf("wide sum %v, want 2^64", c)
			}
		} else if !errors.Is(err, errNarrow) {
			t.Errorf("narrow: %v, want errNarrow", err)
		}
	}
}

// TestPairedEndsAgree checks the count by both ends of the path against
// the search, square by square.
func TestPairedEndsAgree(t *testing.T) {
	for _, name := range []string{"1x1", "2x3", "3x4", "4x3", "3x7", "4x5", "5x5", "3x10", "4x6"} {
		b, _ := sim.ParseBoard(name)
		want, err := CountTours(context.Background(), b, CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Tours(context.Background(), b, Options{Starts: allSquares(b), PairedEnds: true})
		if err != nil {
			t.Fatal(err)
		}
		for sq, w := range want.PerStart {
			if g, _ := got.PerStart[sq].Uint64(); int64(g) != w {
				t.Errorf("%s from %s: %v, search %d", name, b.SquareName(sq), got.PerStart[sq], w)
			}
		}
		if g, _ := got.Tours.Uint64(); int64(g) != want.Directed {
			t.Errorf("%s: %v, search %d", name, got.Tours, want.Directed)
		}
	}
}

// totalPaths counts the Hamiltonian paths in one sweep with both ends
// free: slower than countOpen's per-start sweeps, kept as an independent
// check of them.
func totalPaths(ctx context.Context, b *sim.Board) (Count, error) {
	p, err := newPlan(b)
	if err != nil {
		return Count{}, err
	}
	w := &sweep{plan: p, ends: [2]int{-1, -1}, workers: 2, bud: &budget{}}
	defer w.bud.drain()
	return w.run(ctx)
}

// count returns the count in slot j of shard i.
func (l *layer) count(i, j int) Count {
	c := Count{Lo: l.s[i].e[j].lo}
	if l.wide {
		c.Hi = l.s[i].hi[j]
	}
	return c
}
