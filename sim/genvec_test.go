package sim

import (
	"fmt"
	"math/bits"
	"reflect"
	"testing"
	"unsafe"
)

// TestGenVecSameWalks holds the random walk's wide kernel (genvec.go) to
// WalkFrom's walks one at a time, on boards narrow and wide (the words
// the gathers read run past a row's end there), long walks (many refills
// of the draw buffers), a step limit that stops walks, and ranges of fewer
// walks than lanes, of more, and not starting at walk 0.
func TestGenVecSameWalks(t *testing.T) {
	if !genVecRandom {
		t.Skip("no wide kernel on this machine (AVX-512)")
	}
	for _, dims := range [][2]int{{2, 40}, {3, 30}, {30, 3}, {5, 21}, {9, 9}, {64, 64}, {100, 100}} {
		b := MustBoard(dims[0], dims[1])
		for _, maxSteps := range []int{0, 50} {
			r, _ := ParseRule("random")
			r.MaxSteps = maxSteps
			one, _ := NewWalker(b, r)
			many, _ := NewWalker(b, r)
			for _, start := range []int{0, b.Squares() / 2} {
				key := NewKey(3, b, r, start)
				for _, rg := range [][2]uint64{{0, 8}, {0, 16}, {7, 100}} {
					out := make([]Outcome, rg[1])
					many.WalkRange(start, key, rg[0], out)
					for i, got := range out {
						if want := one.WalkFrom(start, key.Stream(rg[0]+uint64(i))); !reflect.DeepEqual(got, want) {
							t.Fatalf("%s max %d start %d walk %d: wide %+v, Walk %+v", b, maxSteps, start, rg[0]+uint64(i), got, want)
						}
					}
				}
			}
		}
	}
}

// TestGenVecHandBacks: the wide loop's hand-backs, taken for real. Before
// every eighth call a lane's next draw is made zero, which Lemire's method rejects
// on a tie (the lane then walks on in Go's loop), and the call is given a
// budget of 1 to 5 rounds (the paths' room, Go growing them between
// calls); the walks are still WalkFrom's, and every reason was seen.
func TestGenVecHandBacks(t *testing.T) {
	if !genVecRandom {
		t.Skip("no wide kernel on this machine (AVX-512)")
	}
	defer func(f func(*genVecState, int) (int, int)) { genVecLoop = f }(genVecLoop)
	src := NewPCG(9, 10)
	var seen [4]int
	calls := 0
	genVecLoop = func(s *genVecState, budget int) (int, int) {
		calls++
		if calls%8 == 0 && s.act != 0 {
			j := int(Uniform(src, genVecLanes))
			for s.act>>j&1 == 0 {
				j = (j + 1) % genVecLanes
			}
			if s.rd[j] < s.rend[j] {
				v := (*genVec)(unsafe.Pointer(s)) // s is a genVec's first field
				v.draws[s.rd[j]] = 0
			}
		}
		lane, reason := genVecRandomLoop(s, min(budget, 1+int(Uniform(src, 5))))
		seen[reason]++
		return lane, reason
	}
	rangeIsWalkFrom(t, MustBoard(30, 30), 12, 120, "random")
	rangeIsWalkFrom(t, MustBoard(70, 70), 13, 40, "random")
	for reason, n := range seen {
		if n == 0 {
			t.Errorf("the wide loop never handed back for reason %d (%v)", reason, seen)
		}
	}
}

// TestGenVecTables: selLo and selHi give a nibble's set bits in order,
// and the wide kernel's bit i is k.off[i] (the order the draw counts in).
func TestGenVecTables(t *testing.T) {
	b := MustBoard(20, 20)
	r, _ := ParseRule("random")
	k := newGenKernel(b, r)
	v := k.vecLanes()
	for n := range 16 {
		r := 0
		for bit := range 4 {
			if n>>bit&1 == 0 {
				continue
			}
			if got := int(v.s.selLo[n] >> (8 * r) & 0xff); got != bit {
				t.Errorf("selLo[%d] move %d: %d, want %d", n, r, got, bit)
			}
			if got := int(v.s.selHi[n] >> (8 * r) & 0xff); got != bit+4 {
				t.Errorf("selHi[%d] move %d: %d, want %d", n, r, got, bit+4)
			}
			r++
		}
		if r != bits.OnesCount8(uint8(n)) {
			t.Fatalf("nibble %d", n)
		}
	}
	for i := range 8 {
		if int(v.s.offs[i]) != k.off[i] {
			t.Errorf("offs[%d] = %d, want %d", i, v.s.offs[i], k.off[i])
		}
	}
	if got := fmt.Sprint(v.stride % 64); got != "0" {
		t.Errorf("stride %d not a multiple of 64", v.stride)
	}
}
