package count

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
	"github.com/knightwalk/knightwalk/sim"
)

// shardedPieces runs the n shards of a count and returns all their pieces.
func shardedPieces(t *testing.T, b *sim.Board, opt Options, n int) []Piece {
	t.Helper()
	var all []Piece
	for k := range n {
		o := opt
		o.Shard = Shard{k, n}
		r, err := Tours(context.Background(), b, o)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r.Pieces...)
	}
	return all
}

// TestShardsCombine checks that the shards of a count, combined, give the
// count of one run square by square: open per start and by paired ends,
// closed, on boards of even and odd squares, for 1 to 5 shards (more
// shards than units leaves some shards empty).
func TestShardsCombine(t *testing.T) {
	cases := []struct {
		board string
		opt   Options
	}{
		{"5x5", Options{}},
		{"5x5", Options{PairedEnds: true}},
		{"4x5", Options{}},
		{"5x6", Options{PairedEnds: true}},
		{"6x6", Options{Closed: true}},
		{"5x6", Options{Closed: true}},
	}
	for _, c := range cases {
		b, _ := sim.ParseBoard(c.board)
		c.opt.Workers = 2
		whole := c.opt
		whole.Starts = allSquares(b)
		want, err := Tours(context.Background(), b, whole)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("%s/closed=%v/paired=%v/%d", c.board, c.opt.Closed, c.opt.PairedEnds, n), func(t *testing.T) {
				o := c.opt
				o.Shard = Shard{0, n}
				got, err := Combine(b, o, shardedPieces(t, b, c.opt, n))
				if err != nil {
					t.Fatal(err)
				}
				if got.Tours != want.Tours || got.Tours.Lo == 0 {
					t.Errorf("total %v, one run %v", got.Tours, want.Tours)
				}
				for sq := range b.Squares() {
					if got.PerStart[sq] != want.PerStart[sq] {
						t.Errorf("from %s: %v, one run %v", b.SquareName(sq), got.PerStart[sq], want.PerStart[sq])
					}
				}
			})
		}
	}
}

// TestShard6x6Open is the case: 6x6 open tours in 3 shards, by
// paired ends and per start, combine to 6,637,920 with each square's
// count the one run's.
func TestShard6x6Open(t *testing.T) {
	// harness.TestCountShardsMerge does 6x6 through the command in the
	// default suite; this one, with the per-start counts, in the slow one
	testenv.SkipUnlessSlow(t, "6x6 open tours in 3 shards against one count")
	b, _ := sim.ParseBoard("6x6")
	for _, paired := range []bool{true} {
		opt := Options{PairedEnds: paired, Workers: 2}
		want, err := Tours(context.Background(), b, Options{PairedEnds: paired, Workers: 2, Starts: allSquares(b)})
		if err != nil {
			t.Fatal(err)
		}
		o := opt
		o.Shard = Shard{0, 3}
		got, err := Combine(b, o, shardedPieces(t, b, opt, 3))
		if err != nil {
			t.Fatal(err)
		}
		if got.Tours.String() != "6637920" {
			t.Errorf("paired=%v: %v tours, want 6637920", paired, got.Tours)
		}
		for sq := range b.Squares() {
			if got.PerStart[sq] != want.PerStart[sq] {
				t.Errorf("paired=%v from %s: %v, one run %v", paired, b.SquareName(sq), got.PerStart[sq], want.PerStart[sq])
			}
		}
	}
}

// TestCombineRefuses: a missing piece, one given twice, and one of another
// count are errors naming the piece.
func TestCombineRefuses(t *testing.T) {
	b, _ := sim.ParseBoard("5x5")
	opt := Options{Workers: 2}
	pieces := shardedPieces(t, b, opt, 2)
	o := opt
	o.Shard = Shard{0, 2}
	for _, c := range []struct {
		name   string
		pieces []Piece
		want   string
	}{
		{"missing", pieces[1:], "no count of \"" + pieces[0].Key + "\""},
		{"twice", append(pieces[:len(pieces):len(pieces)], pieces[0]), "given twice"},
		{"foreign", append(pieces[:len(pieces):len(pieces)], Piece{Key: "a1-b3"}), "\"a1-b3\" belongs to no sweep"},
	} {
		if _, err := Combine(b, o, c.pieces); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestClosedShardsBalance measures how a closed count's states split:
// each shard's states, summed over its layers, against the whole sweep's.
// Each shard must do less than the whole, and no shard more than twice
// the mean of the shards.
func TestClosedShardsBalance(t *testing.T) {
	b, _ := sim.ParseBoard("6x6")
	whole, err := Tours(context.Background(), b, Options{Closed: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var all int64
	for _, l := range whole.Layers {
		all += int64(l.States)
	}
	const n = 3
	var sum, most int64
	for k := range n {
		r, err := Tours(context.Background(), b, Options{Closed: true, Workers: 2, Shard: Shard{k, n}})
		if err != nil {
			t.Fatal(err)
		}
		var s int64
		for _, l := range r.Layers {
			s += int64(l.States)
		}
		t.Logf("shard %d/%d: %d states in all its layers, whole sweep %d", k, n, s, all)
		sum += s
		most = max(most, s)
		if s >= all {
			t.Errorf("shard %d/%d handles %d states, the whole sweep %d", k, n, s, all)
		}
	}
	if most*n > 2*sum {
		t.Errorf("the largest shard handles %d states, the mean %d", most, sum/n)
	}
}
