package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestStreamContract pins the documented derivation to fixed numbers, so
// that an accidental change (which would change every published result)
// fails here. The expected values were computed from the formula in
// seed.go's comment.
func TestStreamContract(t *testing.T) {
	if got := Mix64(0); got != 0 {
		t.Errorf("Mix64(0) = %#x", got)
	}
	if got := Mix64(1); got != 0x5692161d100b05e5 {
		t.Errorf("Mix64(1) = %#x, want 0x5692161d100b05e5", got)
	}
	if got := FNV1a64("warnsdorff/random"); got != fnvRef("warnsdorff/random") {
		t.Errorf("FNV1a64 = %#x", got)
	}
	// The key by the formula, written out longhand.
	k := Mix64(1)
	k = Mix64(k ^ 8)
	k = Mix64(k ^ 8)
	k = Mix64(k ^ FNV1a64("warnsdorff/random"))
	k = Mix64(k ^ 27)
	wr, err := ParseRule("warnsdorff/random")
	if err != nil {
		t.Fatal(err)
	}
	key := NewKey(1, MustBoard(8, 8), wr, 27)
	if uint64(key) != k {
		t.Fatalf("NewKey = %#x, formula gives %#x", uint64(key), k)
	}
	src := rand.NewPCG(Mix64(k^5), Mix64(k+5+0x9e3779b97f4a7c15))
	got := key.Stream(5)
	for i := 0; i < 4; i++ {
		if a, b := got.Uint64(), src.Uint64(); a != b {
			t.Fatalf("stream word %d: %#x, formula gives %#x", i, a, b)
		}
	}
	if uint64(key) != goldenKey {
		t.Errorf("NewKey(1, 8x8, warnsdorff/random, d4) = %#x, pinned %#x: the stream contract changed", uint64(key), uint64(goldenKey))
	}
}

const goldenKey = 0x7fd8efa174798fc2

func fnvRef(s string) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(s) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// TestUniformMatchesReference compares Uniform with a plainly written
// rejection sampler on the same streams: accept a 32-bit x when the low
// half of x*m is at least 2^32 mod m.
func TestUniformMatchesReference(t *testing.T) {
	for _, m := range []uint32{1, 2, 3, 5, 7, 8, 1 << 31, 1<<31 + 1, 0xffffffff} {
		a, b := NewPCG(1, uint64(m)), rand.NewPCG(1, uint64(m))
		for i := 0; i < 2000; i++ {
			got := Uniform(a, m)
			var want uint32
			for {
				prod := uint64(uint32(b.Uint64())) * uint64(m)
				if uint32(prod) >= uint32((uint64(1)<<32)%uint64(m)) {
					want = uint32(prod >> 32)
					break
				}
			}
			if got != want || got >= m {
				t.Fatalf("m=%d draw %d: Uniform %d, reference %d", m, i, got, want)
			}
		}
	}
}

// TestPCGMatchesStdlib: sim.PCG is math/rand/v2's PCG, number for number.
func TestPCGMatchesStdlib(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), 12345}, {0x9e3779b97f4a7c15, 7}} {
		a, b := NewPCG(seed[0], seed[1]), rand.NewPCG(seed[0], seed[1])
		for i := 0; i < 1000; i++ {
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("seed %v output %d: %#x, math/rand/v2 gives %#x", seed, i, x, y)
			}
		}
	}
	var _ rand.Source = NewPCG(0, 0)
}

// TestPCGBack: pcgBack undoes pcgStep, so the scalar kernels, which run
// their stream one step ahead, hand back exactly the state a walk leaves.
func TestPCGBack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {1, 0}, {r.Uint64(), r.Uint64()}, {r.Uint64(), r.Uint64()}} {
		nhi, nlo, _ := pcgStep(s[0], s[1])
		if hi, lo := pcgBack(nhi, nlo); hi != s[0] || lo != s[1] {
			t.Fatalf("pcgBack(pcgStep(%#x, %#x)) = %#x, %#x", s[0], s[1], hi, lo)
		}
	}
}

// TestWalkFromLeavesState: a walk leaves its source exactly where the
// draws it made leave it, on every rule of the bitboard kernel: the next
// walk on the same source continues the stream.
func TestWalkFromLeavesState(t *testing.T) {
	for _, board := range []string{"8x8", "5x6", "4x16"} {
		b, _ := ParseBoard(board)
		for _, name := range kernelRules {
			r, _ := ParseRule(name)
			fw, _ := NewWalker(b, r)
			pw, _ := NewPolicyWalker(b, r)
			src1, src2 := NewPCG(5, 6), NewPCG(5, 6)
			for i := range 200 {
				s := i % b.Squares()
				a, p := fw.WalkFrom(s, src1), pw.WalkFrom(s, src2)
				if fmt.Sprint(a) != fmt.Sprint(p) || *src1 != *src2 {
					t.Fatalf("%s %s walk %d: kernel %+v state %v, policy walker %+v state %v", board, name, i, a, *src1, p, *src2)
				}
			}
		}
	}
}

// TestWalkOrderIndependent: walk w is the same whichever walks ran before
// it and on whichever walker.
func TestWalkOrderIndependent(t *testing.T) {
	for _, board := range []string{"8x8", "11x13"} {
		b, _ := ParseBoard(board)
		for _, name := range kernelRules {
			r, _ := ParseRule(name)
			key := NewKey(7, b, r, 3)
			w1, _ := NewWalker(b, r)
			w1.KeepPaths(true)
			fwd := make([]Outcome, 50)
			for i := range fwd {
				fwd[i] = w1.Walk(3, key, uint64(i))
			}
			w2, _ := NewWalker(b, r)
			w2.KeepPaths(true)
			for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(50) {
				o := w2.Walk(3, key, uint64(i))
				if !slices.Equal(o.Path, fwd[i].Path) || fmt.Sprint(o) != fmt.Sprint(fwd[i]) {
					t.Fatalf("%s %s walk %d differs when run out of order", board, name, i)
				}
			}
		}
	}
}

// TestStreamsDiffer: different walks, starts, rules and seeds get
// different streams.
func TestStreamsDiffer(t *testing.T) {
	seen := map[uint64]string{}
	b := MustBoard(8, 8)
	for seed := uint64(0); seed < 3; seed++ {
		for _, rule := range RuleNames {
			r, err := ParseRule(rule)
			if err != nil {
				t.Fatal(err)
			}
			for start := 0; start < 64; start++ {
				k := NewKey(seed, b, r, start)
				for w := uint64(0); w < 4; w++ {
					x := k.Stream(w).Uint64()
					id := fmt.Sprint(seed, rule, start, w)
					if prev, ok := seen[x]; ok {
						t.Fatalf("streams %s and %s start alike", prev, id)
					}
					seen[x] = id
				}
			}
		}
	}
}

// TestNewKeyTyped: the key hashes the rule's canonical name, so the spellings
// ParseRule accepts for one rule give one stream, and a start off the board
// is a programmer error, not another stream.
func TestNewKeyTyped(t *testing.T) {
	b := MustBoard(8, 8)
	short, err1 := ParseRule("warnsdorff")
	full, err2 := ParseRule(" warnsdorff/random")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if NewKey(1, b, short, 27) != NewKey(1, b, full, 27) || uint64(NewKey(1, b, full, 27)) != goldenKey {
		t.Errorf("warnsdorff and warnsdorff/random give different keys, or not the pinned one")
	}
	for _, start := range []int{-1, 64} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "sim: ") {
					t.Errorf("NewKey with start %d: panic %v, want a sim: panic", start, r)
				}
			}()
			NewKey(1, b, full, start)
		}()
	}
}
