package count

import (
	"fmt"
	"slices"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// Shard selects part K of N (K from 0) of a count's independent sweeps
// (Options.Shard); the zero value, and N = 1, is the whole count.
//
// The units a count splits into, in sweep order, and which go to shard K:
//
//   - open tours, per start: one unit per orbit of start squares (the sweep
//     that designates the orbit's representative); shard K takes every
//     N-th, from the K-th, and runs the shared sweep only as far as its
//     last one;
//   - open tours by paired ends: one unit per first end x (the sweep that
//     designates x, with all its branches for second ends y); every N-th
//     first end, so the early first ends, whose sweeps cross the widest
//     layers with one end designated, are dealt out in turn;
//   - closed tours: one sweep, split by its states: it runs to the cut
//     (cutSquare), keeps the states of the layer's hash shards i with
//     i mod N = K (256 shards, so within one shard of 1/N each), and sweeps
//     on from those only. Counts add, so the tours completed from the N
//     subsets sum to the tours of the whole layer. The states of the later
//     layers are not split: states from different subsets meet again, so
//     each shard's layers are smaller than the whole sweep's but together
//     larger (see cutSquare and TestClosedShardsBalance).
//
// Every shard is a count of its own, with its own shared prefix; the
// pieces it reports (Result.Pieces) are combined by Combine.
type Shard struct{ K, N int }

func (s Shard) split() bool { return s.N > 1 }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

func (s Shard) check() error {
	if s.N < 0 || s.N > 0 && (s.K < 0 || s.K >= s.N) || s.N == 0 && s.K != 0 {
		return fmt.Errorf("shard %d/%d: want K from 0 to N-1", s.K, s.N)
	}
	return nil
}

// Takes reports whether the shard runs the i-th unit (in sweep order).
// Units are dealt out in a serpentine: 0, 1, …, N-1, then N-1, …, 0, and
// so on, so that shard 0 does not take the most expensive unit of every
// round (the early units, which cross the widest layers with one end
// designated): 6x6 by paired ends in 3 shards took 2.6, 1.2 and 1.1 s
// dealt in turn (one run each, shared machine), and 1.11, 1.08 and 1.60
// CPU-s dealt in a serpentine.
func (s Shard) Takes(i int) bool {
	if !s.split() {
		return true
	}
	k := i % s.N
	if (i/s.N)%2 == 1 {
		k = s.N - 1 - k
	}
	return k == s.K
}

// Piece is what one unit of a sharded count counted: Key names the unit's
// count (see Combine) and Count is its value.
type Piece struct {
	Key   string
	Count Count
}

// SweepStat is what one sweep of a count took: the squares it added, the
// most states a layer held and the states of all its layers together, its
// time, and the most the state tables of the whole count took while it
// ran (sweeps run one at a time, so that is the memory it needed).
type SweepStat struct {
	Sweep      string
	Steps      int
	PeakStates int
	States     int64
	Seconds    float64
	PeakBytes  int64
}

// cutSquare is where a sharded closed count splits its states: after
// 7/12 of the squares, before the widest layers (6x8: square 33 of 48;
// 8x8: 45 of 64). States split there meet again in the layers that
// follow, so a shard handles far more than 1/N of the whole sweep's
// states: on 6x8 in 4 shards each handled 80 % of them with the cut at
// square 28, 83 % at 24, 85 % at 20, 87 % at 16 (an earlier cut shares
// less of the prefix but splits less of the rest). What the split gives is
// balance and a smaller widest layer per node, not a 1/N of the time. It
// depends on the board only, so every shard cuts at the same square.
func (p *plan) cutSquare() int { return max(1, 7*p.n/12) }

// stats summarises the sweeps of a count.
func sweepStats(ws []*sweep) []SweepStat {
	var out []SweepStat
	for _, w := range ws {
		st := SweepStat{Sweep: w.name, Steps: len(w.layers), Seconds: w.spent.Seconds()}
		for _, l := range w.layers {
			st.PeakStates = max(st.PeakStates, l.States)
			st.States += int64(l.States)
			st.PeakBytes = max(st.PeakBytes, l.PeakBytes)
		}
		out = append(out, st)
	}
	return out
}

// keepShards drops the states of l that another shard of a closed count
// takes (shard i of the layer goes to i mod N).
func (s Shard) keepShards(l *layer) {
	for i := range l.s {
		if i%s.N != s.K {
			l.releaseShard(i)
		}
	}
}

// Units lists the names of the independent units a count of b as opt says
// splits into, in sweep order: shard K of N runs those at K, K+N, … (see
// Shard). For planning a cluster run and for naming what to resubmit.
func Units(b *sim.Board, opt Options) ([]string, error) {
	u, err := unitsOf(b, opt)
	if err != nil {
		return nil, err
	}
	return u.names, nil
}

// units is the division of a count into independent units, and the keys
// of the pieces each reports.
type units struct {
	p      *plan
	names  []string
	keys   [][]string
	reps   []int               // open, per start: the swept representatives, in sweep order
	rep    []int               // open, per start: square -> its representative
	firsts []int               // paired: first ends in sweep order
	canon  map[pairKey]pairKey // paired: pair -> swept pair
	pairs  map[int][]pairKey   // paired: first end -> its swept pairs
}

func unitsOf(b *sim.Board, opt Options) (*units, error) {
	p, err := newPlan(b)
	if err != nil {
		return nil, err
	}
	u := &units{p: p}
	switch {
	case opt.Closed:
		n := max(1, opt.Shard.N)
		if p.n%2 == 0 && p.n >= 4 {
			for k := range n {
				u.names = append(u.names, fmt.Sprintf("closed, states %d of %d at square %d", k, n, p.cutSquare()))
				u.keys = append(u.keys, []string{fmt.Sprintf("closed %d/%d", k, n)})
			}
		}
	case p.n == 1:
	case opt.PairedEnds:
		var ends []int
		for sq := range p.n {
			if row, col := b.RowCol(sq); p.n%2 == 0 || (row+col)%2 == 0 {
				ends = append(ends, sq)
			}
		}
		u.canon = canonicalPairs(p, ends)
		u.pairs = map[int][]pairKey{}
		for _, k := range u.canon {
			if !slices.Contains(u.pairs[k.x], k) {
				u.pairs[k.x] = append(u.pairs[k.x], k)
			}
		}
		for x := range u.pairs {
			u.firsts = append(u.firsts, x)
		}
		slices.Sort(u.firsts)
		for _, x := range u.firsts {
			ks := u.pairs[x]
			slices.SortFunc(ks, func(a, b pairKey) int { return a.y - b.y })
			u.names = append(u.names, "from "+p.sweepName(x)+" (paired ends)")
			var keys []string
			for _, k := range ks {
				keys = append(keys, pairName(p, k))
			}
			u.keys = append(u.keys, keys)
		}
	default:
		u.rep, u.reps = startReps(p)
		for _, m := range u.reps {
			u.names = append(u.names, "from "+b.SquareName(m))
			u.keys = append(u.keys, []string{"from " + b.SquareName(m)})
		}
	}
	return u, nil
}

func pairName(p *plan, k pairKey) string { return p.sweepName(k.x) + "-" + p.sweepName(k.y) }

// startReps returns each square's representative in its orbit under the
// board's symmetries (the square latest in the sweep) and the
// representatives a path can start from, in sweep order. On a board with
// an odd number of squares a path begins and ends on the majority colour.
func startReps(p *plan) (rep, reps []int) {
	b := p.board
	rep = make([]int, p.n)
	syms := b.Symmetries()
	for sq := range rep {
		m := sq
		for _, g := range syms {
			if img := int(g[sq]); p.sweepSquare(img) > p.sweepSquare(m) {
				m = img
			}
		}
		rep[sq] = m
		if row, col := b.RowCol(m); (p.n%2 == 0 || (row+col)%2 == 0) && !slices.Contains(reps, m) {
			reps = append(reps, m)
		}
	}
	slices.SortFunc(reps, func(x, y int) int { return p.sweepSquare(x) - p.sweepSquare(y) })
	return rep, reps
}

// Combine adds the pieces of the N shards of a count (opt as the shards
// ran it, opt.Shard.N their number) into the Result one count gives: the
// total and every square's count (opt.Starts is ignored: every square). A
// piece missing, given twice, or of no unit of this count is an error
// naming it.
func Combine(b *sim.Board, opt Options, pieces []Piece) (Result, error) {
	u, err := unitsOf(b, opt)
	if err != nil {
		return Result{}, err
	}
	p := u.p
	want := map[string]int{} // key -> unit
	for i, ks := range u.keys {
		for _, k := range ks {
			want[k] = i
		}
	}
	got := map[string]Count{}
	for _, pc := range pieces {
		if _, ok := want[pc.Key]; !ok {
			return Result{}, fmt.Errorf("count of %s: piece %q belongs to no sweep of this count", b, pc.Key)
		}
		if _, dup := got[pc.Key]; dup {
			return Result{}, fmt.Errorf("count of %s: piece %q given twice", b, pc.Key)
		}
		got[pc.Key] = pc.Count
	}
	for i, ks := range u.keys {
		for _, k := range ks {
			if _, ok := got[k]; !ok {
				return Result{}, fmt.Errorf("count of %s: no count of %q (unit %d, %s)", b, k, i, u.names[i])
			}
		}
	}
	res := Result{Board: b, Closed: opt.Closed, PerStart: make([]Count, p.n), Sweeps: len(u.names)}
	for sq := range p.n {
		res.Starts = append(res.Starts, sq)
	}
	switch {
	case opt.Closed:
		for _, ks := range u.keys {
			res.Tours = res.Tours.Add(got[ks[0]])
		}
		twice := res.Tours.Add(res.Tours)
		for sq := range res.PerStart {
			res.PerStart[sq] = twice
		}
	case p.n == 1:
		res.Tours = Count{Lo: 1}
		res.PerStart[0] = Count{Lo: 1}
	case opt.PairedEnds:
		for k, c := range u.canon {
			n := got[pairName(p, c)]
			res.PerStart[k.x] = res.PerStart[k.x].Add(n)
			res.PerStart[k.y] = res.PerStart[k.y].Add(n)
		}
		for sq := range res.PerStart {
			res.Tours = res.Tours.Add(res.PerStart[sq])
		}
	default:
		for sq := range res.PerStart {
			res.PerStart[sq] = got["from "+b.SquareName(u.rep[sq])]
			res.Tours = res.Tours.Add(res.PerStart[sq])
		}
	}
	return res, nil
}

// timed adds the time of one call of advance to the sweep's.
func (w *sweep) timed(t0 time.Time) { w.spent += time.Since(t0) }
