package sim

import (
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"testing"
	"unsafe"
)

// TestGeneralWalkRangeSameWalks holds the general kernel's interleaved
// walks (WalkRange, several walks in flight) to the walks WalkFrom takes one
// at a time, outcome for outcome, on boards past 64 squares: every rule the
// kernel walks, a step limit that stops walks, ranges shorter and longer
// than the lanes, a range not starting at walk 0, and a walker retargeted
// between ranges.
//
// On amd64 it runs twice: with the assembly step loops and with the Go
// ones (the loops arm64 runs; CI also runs this test there under qemu).
//
// The assembly loops draw from buffers of the streams' outputs filled by
// AVX-512 where the CPU has it: they run again with the scalar fill. Where
// the CPU has AVX-512 the random walk's ranges of eight walks or more run
// on the wide kernel (genvec.go), with either fill, and without it.
func TestGeneralWalkRangeSameWalks(t *testing.T) {
	type mode struct{ asm, vec, wide bool }
	modes := []mode{{false, false, false}}
	if genStepAsm {
		modes = append(modes, mode{true, false, false})
		if haveAVX512 {
			modes = append(modes, mode{true, true, false}, mode{true, true, true}, mode{true, false, true})
		}
	}
	for _, m := range modes {
		t.Run(fmt.Sprintf("asm=%v/vec=%v/wide=%v", m.asm, m.vec, m.wide), func(t *testing.T) {
			defer func(asm, vec, wide bool) { genStepAsm, genFillVec, genVecRandom = asm, vec, wide }(genStepAsm, genFillVec, genVecRandom)
			genStepAsm, genFillVec, genVecRandom = m.asm, m.vec, m.wide
			generalSameWalks(t)
		})
	}
}

// TestGeneralAsmHandBacks: whatever the assembly step loops hand back to
// Go and whenever (a lane to step in Go, the budget spent, a path to
// grow between calls), the walks are WalkFrom's. The loops are wrapped to hand back at
// random (a seeded choice of lane and reason, without stepping) on every
// third call and to take a budget of 1 to 3 rounds otherwise.
func TestGeneralAsmHandBacks(t *testing.T) {
	if !genStepAsm {
		t.Skip("no assembly step loops on this architecture")
	}
	defer func(v bool) { genVecRandom = v }(genVecRandom)
	genVecRandom = false // the scalar loops' hand-backs (TestGenVecHandBacks: the wide loop's)
	defer func(r, w, f, d genAsmLoop) { genAsmRandom, genAsmWarnsdorff, genAsmFirst, genAsmTied = r, w, f, d }(genAsmRandom, genAsmWarnsdorff, genAsmFirst, genAsmTied)
	src := NewPCG(3, 4)
	calls := 0
	wrap := func(real genAsmLoop) genAsmLoop {
		return func(ls *genLane, n int, tb *genTables, maxSteps, budget int) (int, int) {
			calls++
			if calls%3 == 0 {
				return int(Uniform(src, uint32(n))) * int(unsafe.Sizeof(genLane{})), 2 + int(Uniform(src, 2))
			}
			return real(ls, n, tb, maxSteps, min(budget, 1+int(Uniform(src, 3)))) // budget: the paths' room
		}
	}
	genAsmRandom, genAsmWarnsdorff, genAsmFirst, genAsmTied = wrap(genLanesRandom), wrap(genLanesWarnsdorff), wrap(genLanesFirst), wrap(genLanesTied)
	rangeIsWalkFrom(t, MustBoard(40, 40), 11, 23, "random", "warnsdorff/random", "warnsdorff/first", "squirrel-cull",
		"warnsdorff/roth+first", "warnsdorff/pohl")
	if calls < 100 {
		t.Fatalf("the wrapped loops were called %d times: the hand-backs were not exercised", calls)
	}
}

// TestGeneralAsmRejection: Lemire's rejection, taken for real in the
// assembly loops. Before each call a lane's next draw in its buffer is made
// zero, which Lemire's method rejects on a tie (and which decides nothing
// without one); the loop hands the walk to Go, which draws again from the
// walk's stream, so the walks are still WalkFrom's.
func TestGeneralAsmRejection(t *testing.T) {
	if !genStepAsm {
		t.Skip("no assembly step loops on this architecture")
	}
	defer func(v bool) { genVecRandom = v }(genVecRandom)
	genVecRandom = false // the scalar loops' rejection (TestGenVecHandBacks: the wide loop's)
	defer func(r, w genAsmLoop) { genAsmRandom, genAsmWarnsdorff = r, w }(genAsmRandom, genAsmWarnsdorff)
	src := NewPCG(5, 6)
	zeroed := 0
	wrap := func(real genAsmLoop) genAsmLoop {
		return func(ls *genLane, n int, tb *genTables, maxSteps, budget int) (int, int) {
			l := (*genLane)(unsafe.Add(unsafe.Pointer(ls), uintptr(Uniform(src, uint32(n)))*unsafe.Sizeof(genLane{})))
			if l.rd < genDrawRows {
				*(*uint64)(unsafe.Add(l.dr, 8*l.rd)) = 0
				zeroed++
			}
			return real(ls, n, tb, maxSteps, min(budget, 1+int(Uniform(src, 5))))
		}
	}
	genAsmRandom, genAsmWarnsdorff = wrap(genLanesRandom), wrap(genLanesWarnsdorff)
	rangeIsWalkFrom(t, MustBoard(30, 30), 12, 40, "random", "warnsdorff/random")
	if zeroed < 100 {
		t.Fatalf("only %d draws were zeroed: the rejection was not exercised", zeroed)
	}
}

// rangeIsWalkFrom holds a WalkRange of n walks from the corner of b, for
// each rule named, to WalkFrom's walks one at a time.
func rangeIsWalkFrom(t *testing.T, b *Board, seed uint64, n int, names ...string) {
	t.Helper()
	for _, name := range names {
		r, _ := ParseRule(name)
		one, _ := NewWalker(b, r)
		many, _ := NewWalker(b, r)
		key := NewKey(seed, b, r, 0)
		out := make([]Outcome, n)
		many.WalkRange(0, key, 0, out)
		for i, got := range out {
			if want := one.WalkFrom(0, key.Stream(uint64(i))); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s walk %d: WalkRange %+v, Walk %+v", name, i, got, want)
			}
		}
	}
}

func generalSameWalks(t *testing.T) {
	rules := []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/roth", "warnsdorff/roth+first", "warnsdorff/pohl", "squirrel-cull", "ganzfried", "warnsdorff/edge", "warnsdorff/corner"}
	for _, dims := range [][2]int{{9, 9}, {12, 17}, {40, 40}} {
		b := MustBoard(dims[0], dims[1])
		for _, name := range rules {
			r, err := ParseRule(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, maxSteps := range []int{0, 30} {
				r.MaxSteps = maxSteps
				t.Run(fmt.Sprintf("%s/%s/max%d", b, name, maxSteps), func(t *testing.T) {
					one, err := NewWalker(b, r)
					if err != nil && b.Rows != b.Cols {
						t.Skip(err) // the rule is stated for square boards
					}
					if err != nil {
						t.Fatal(err)
					}
					many, err := NewWalker(b, r)
					if err != nil {
						t.Fatal(err)
					}
					for _, start := range []int{0, b.Squares() / 2, b.Squares() - 1} {
						key := NewKey(7, b, r, start)
						for _, rg := range [][2]uint64{{0, 1}, {0, 3}, {5, 37}} {
							out := make([]Outcome, rg[1])
							many.WalkRange(start, key, rg[0], out)
							for i, got := range out {
								want := one.WalkFrom(start, key.Stream(rg[0]+uint64(i)))
								if !reflect.DeepEqual(got, want) {
									t.Fatalf("start %d walk %d: WalkRange %+v, Walk %+v", start, rg[0]+uint64(i), got, want)
								}
							}
						}
					}
				})
			}
		}
	}
}

// TestGeneralWalkRangeRetarget: a walker retargeted to another rule of the
// same kind walks that rule's walks in WalkRange.
func TestGeneralWalkRangeRetarget(t *testing.T) {
	b := MustBoard(20, 20)
	first, _ := ParseRule("warnsdorff/first")
	roth, _ := ParseRule("warnsdorff/roth")
	w, err := NewWalker(b, first)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Outcome, 9)
	w.WalkRange(0, NewKey(1, b, first, 0), 0, out)
	if !w.Retarget(roth) {
		t.Fatal("Retarget(warnsdorff/roth) refused")
	}
	ref, _ := NewWalker(b, roth)
	key := NewKey(1, b, roth, 3)
	w.WalkRange(3, key, 2, out)
	for i, got := range out {
		if want := ref.WalkFrom(3, key.Stream(2+uint64(i))); !reflect.DeepEqual(got, want) {
			t.Fatalf("walk %d after Retarget: %+v, want %+v", i, got, want)
		}
	}
}

// TestGenFillDraws: a lane's draw buffer, filled by AVX-512 (where the CPU
// has it) and one row at a time, holds its stream's next outputs, row k
// the output of pcgStep k+1 times from the lane's state; and the jumps
// take a state k steps on as pcgStep does k times.
func TestGenFillDraws(t *testing.T) {
	if !genStepAsm {
		t.Skip("no assembly step loops on this architecture")
	}
	for _, k := range []int{1, 2, 7, 8, genDrawRows} {
		mhi, mlo, ihi, ilo := pcgJump(k)
		src := NewPCG(uint64(k), 99)
		hi, lo := src.hi, src.lo
		want := src
		for range k {
			want.hi, want.lo, _ = pcgStep(want.hi, want.lo)
		}
		h, l := bits.Mul64(lo, mlo)
		h += hi*mlo + lo*mhi
		l, c := bits.Add64(l, ilo, 0)
		h, _ = bits.Add64(h, ihi, c)
		if h != want.hi || l != want.lo {
			t.Fatalf("jump %d: %x %x, want %x %x", k, h, l, want.hi, want.lo)
		}
	}
	defer func(was bool) { genFillVec = was }(genFillVec)
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX512 {
			continue
		}
		genFillVec = vec
		k := newGenKernel(MustBoard(9, 9), Rule{Kind: RandomWalk})
		tb := &genTables{}
		tb.setJumps()
		l := &genLane{dr: unsafe.Pointer(&k.draws[0])}
		for seed := range uint64(50) {
			l.hi, l.lo = NewKey(seed, k.b, Rule{Kind: RandomWalk}, 0).Seeds(seed * 7)
			genFillDraws(l, tb)
			hi, lo := l.hi, l.lo
			for row, got := range k.draws {
				var x uint64
				hi, lo, x = pcgStep(hi, lo)
				if got != x {
					t.Fatalf("vec=%v seed %d row %d: %x, want %x", vec, seed, row, got, x)
				}
			}
		}
	}
}

// TestGenFillState: the fresh state laid out row by row (fillState) is
// the state square by square: every border byte visited with room for 8
// decrements, every board square its degree, on boards of every shape
// around the rows and columns fillState treats apart (the two on each side).
func TestGenFillState(t *testing.T) {
	var shapes [][2]int
	for r := 1; r <= 9; r++ {
		for c := 1; c <= 9; c++ {
			shapes = append(shapes, [2]int{r, c})
		}
	}
	shapes = append(shapes, [2]int{60, 3}, [2]int{3, 60}, [2]int{100, 7}, [2]int{37, 41})
	for _, s := range shapes {
		b := MustBoard(s[0], s[1])
		k := newGenKernel(b, Rule{Kind: RandomWalk})
		want := make([]uint8, len(k.st))
		for i := range want {
			want[i] = visitedBit | 8
		}
		for sq := range b.Squares() {
			want[k.pad(sq)] = uint8(b.Degree(sq))
		}
		if !slices.Equal(k.st, want) {
			t.Fatalf("%s: state %v, want %v", b, k.st, want)
		}
		if !slices.Equal(k.fresh, want) {
			t.Fatalf("%s: fresh state differs from the state", b)
		}
	}
}
