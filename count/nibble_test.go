package count

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestNibbleHelpers checks the all-nibbles-at-once helpers against their
// one-nibble-at-a-time definitions on random keys.
func TestNibbleHelpers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		key := rng.Uint64()
		if key&1 == 0 {
			key &= rng.Uint64() // many zero nibbles too
		}
		var zero uint64
		for d := range 16 {
			if key>>(4*d)&15 == 0 {
				zero |= 1 << (4 * d)
			}
		}
		if got := zeroNibbles(key); got != zero {
			t.Fatalf("zeroNibbles(%#x) = %#x, want %#x", key, got, zero)
		}
		var a frame
		unpack16(key, &a)
		for d := range 16 {
			if uint64(a[d+1]) != key>>(4*d)&15 {
				t.Fatalf("unpack16(%#x): slot %d holds %d", key, d+1, a[d+1])
			}
		}
		if back := nibblesOf(bytesOf(key)) | nibblesOf(bytesOf(key>>32))<<32; back != key {
			t.Fatalf("nibblesOf(bytesOf(%#x)) = %#x", key, back)
		}
	}
}

// finishLoop is finish16 written square by square, as the sweep did
// before finish16: the reference it is checked against.
func (s *stepper) finishLoop(a *frame) (uint64, bool) {
	var rename [16]uint8
	next := uint8(firstPair)
	ends := s.pending
	var key uint64
	for d := range s.slots {
		c := a[d]
		switch {
		case c == fresh && s.rule[d] == deadFresh:
			return 0, false
		case c == fresh && (s.rule[d] == lastFresh || s.rule[d] == endFresh), c == term:
			ends++
		case c >= firstPair:
			if rename[c] == 0 {
				rename[c] = next
				next++
			}
			c = rename[c]
		}
		key |= uint64(c) << (4 * d)
	}
	if !s.closed && ends > 2 {
		return 0, false
	}
	return key, true
}

// randomFrame returns a frame of slots squares with random codes, as a
// step leaves them: spent, fresh and term, and pair labels (up to
// newPair, in any order) each on two squares, the ends of one path.
func randomFrame(rng *rand.Rand, slots int) frame {
	var a frame
	var ends []int
	for d := range slots {
		a[d] = uint8(rng.IntN(3))
		if rng.IntN(2) == 0 {
			ends = append(ends, d)
		}
	}
	rng.Shuffle(len(ends), func(i, j int) { ends[i], ends[j] = ends[j], ends[i] })
	codes := rng.Perm(newPair + 1 - firstPair)
	for i := 0; i+1 < len(ends); i += 2 {
		c := uint8(firstPair + codes[i/2])
		a[ends[i]], a[ends[i+1]] = c, c
	}
	return a
}

// TestFinish16 checks finish16 against finishLoop on random frames under every step's rules of a width-7 board, open with
// designated ends and closed.
func TestFinish16(t *testing.T) {
	p, err := newPlan(sim.MustBoard(7, 8))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []stepper{{plan: p, ends: [2]int{20, p.n}}, {plan: p, ends: [2]int{-1, -1}}, {plan: p, closed: true, ends: [2]int{-1, -1}}} {
		for v := range p.n {
			s.v = v
			s.setup()
			for range 200 {
				a := randomFrame(rng, s.slots)
				b := a
				k1, ok1 := s.finish16(&a)
				k2, ok2 := s.finishLoop(&b)
				if ok1 != ok2 || ok1 && k1 != k2 {
					t.Fatalf("v=%d closed=%v frame %v: finish16 %#x %v, loop %#x %v", v, s.closed, b, k1, ok1, k2, ok2)
				}
			}
		}
	}
}

// TestBase11Keys runs the width-8 key path (base 11, square by square) on
// boards small enough to check, against the 4-bit keys.
func TestBase11Keys(t *testing.T) {
	for _, name := range []string{"4x5", "5x5", "5x6", "3x10"} {
		b, _ := sim.ParseBoard(name)
		for _, closed := range []bool{false, true} {
			var got [2]Count
			var layers [2][]Layer
			for i, base := range []uint64{16, 11} {
				p, err := newPlan(b)
				if err != nil {
					t.Fatal(err)
				}
				p.base = base
				w := &sweep{plan: p, closed: closed, ends: [2]int{-1, -1}, workers: 2, bud: &budget{}}
				if got[i], err = w.run(context.Background()); err != nil {
					t.Fatal(err)
				}
				layers[i] = w.layers
			}
			if got[0] != got[1] {
				t.Errorf("%s closed=%v: 4-bit keys %v, base 11 %v", name, closed, got[0], got[1])
			}
			for j := range layers[0] {
				if layers[0][j].States != layers[1][j].States {
					t.Errorf("%s closed=%v step %d: %d states with 4-bit keys, %d in base 11", name, closed, j+1, layers[0][j].States, layers[1][j].States)
				}
			}
		}
	}
}

// TestExpand16 checks expand16 against expandFrame state by state: every
// state of every layer of sweeps on boards of widths 3 to 6 (closed, both
// ends free, one end held in reserve, a designated end, paired ends, an
// end designated with the other held), the same successors in the same
// order and the same tours completed.
func TestExpand16(t *testing.T) {
	type sweepCase struct {
		board  string
		closed bool
		ends   [2]int
	}
	var cases []sweepCase
	for _, name := range []string{"3x4", "4x5", "5x5", "4x7", "5x6"} {
		b, _ := sim.ParseBoard(name)
		n := b.Rows * b.Cols
		cases = append(cases,
			sweepCase{name, true, [2]int{-1, -1}},
			sweepCase{name, false, [2]int{-1, -1}},
			sweepCase{name, false, [2]int{n, -1}},
			sweepCase{name, false, [2]int{n / 3, -1}},
			sweepCase{name, false, [2]int{2, n - 3}},
			sweepCase{name, false, [2]int{n / 2, n}},
		)
	}
	for _, c := range cases {
		b, err := sim.ParseBoard(c.board)
		if err != nil {
			t.Fatal(err)
		}
		p, err := newPlan(b)
		if err != nil {
			t.Fatal(err)
		}
		layer := map[uint64]bool{0: true}
		var states, tours int
		for v := range p.n {
			s := stepper{plan: p, closed: c.closed, ends: c.ends, v: v}
			s.setup()
			next := map[uint64]bool{}
			for key := range layer {
				var o1, o2 [maxOut]uint64
				n1, d1 := s.expand16(key, &o1)
				n2, d2 := s.expandFrame(key, &o2)
				if n1 != n2 || d1 != d2 || o1 != o2 {
					t.Fatalf("%s closed=%v ends=%v v=%d key %#x: expand16 %d %x done %d, expandFrame %d %x done %d",
						c.board, c.closed, c.ends, v, key, n1, o1[:n1], d1, n2, o2[:n2], d2)
				}
				tours += d1
				for _, k := range o1[:n1] {
					next[k] = true
				}
			}
			states += len(next)
			layer = next
		}
		// Of these boards only 5x6 has closed tours; all have open ones.
		if states < 10 || (c.closed && c.board == "5x6" || !c.closed && (c.ends[0] < 0 || c.ends[0] == p.n)) && tours == 0 {
			t.Errorf("%s closed=%v ends=%v: %d states, %d completions: the check saw too little", c.board, c.closed, c.ends, states, tours)
		}
	}
}
