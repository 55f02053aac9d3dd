package sim

import (
	"fmt"
	"math/big"
	"math/bits"
	"testing"
)

// pcgBefore returns the PCG state whose step leads to the state (hi, lo):
// the LCG run backwards, (state - inc) × mul⁻¹ mod 2¹²⁸.
func pcgBefore(hi, lo uint64) (uint64, uint64) {
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	u128 := func(h, l uint64) *big.Int {
		return new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(h), 64), new(big.Int).SetUint64(l))
	}
	mul := u128(2549297995355413924, 4865540595714422341)
	inc := u128(6364136223846793005, 1442695040888963407)
	s := new(big.Int).Sub(u128(hi, lo), inc)
	s.Mul(s, new(big.Int).ModInverse(mul, mod)).Mod(s, mod)
	return new(big.Int).Rsh(s, 64).Uint64(), s.Uint64()
}

// rejectingStream returns a PCG state whose next output has a low half of
// 0, so that any draw from it meets Lemire's rejection: the output
// function is inverted for y = dxsm(h) with a low half of 0 (x = y×(l|1)).
func rejectingStream(t *testing.T) (hi, lo uint64) {
	y := uint64(0xabcdef0100000000)
	y2 := y ^ y>>48 // undo y ^= y>>48
	cInv := uint64(1)
	for range 6 { // Newton: the inverse of an odd number mod 2^64
		cInv *= 2 - 0xda942042e4dd58b5*cInv
	}
	y1 := y2 * cInv
	h := y1 ^ y1>>32 // undo y ^= y>>32
	l := uint64(0x123456789)
	hi, lo = pcgBefore(h, l)
	if nh, nl, x := pcgStep(hi, lo); nh != h || nl != l || uint32(x) != 0 {
		t.Fatalf("constructed stream steps to (%#x, %#x) with output %#x", nh, nl, x)
	}
	return hi, lo
}

// vecPaths returns the vector paths this CPU can run.
func vecPaths() []KernelPath {
	var ps []KernelPath
	for _, p := range KernelPaths() {
		if p == PathAVX512 || p == PathAVX2 {
			ps = append(ps, p)
		}
	}
	return ps
}

// TestVecRejection gives one lane a stream whose next draw meets Lemire's
// rejection (about one draw in 10^9 does): the vector rounds must stop
// before that round and leave the lane's group as it was, so that the Go
// round draws again. The groups before it have made their round.
func TestVecRejection(t *testing.T) {
	if len(vecPaths()) == 0 {
		t.Skip("no AVX2 or AVX-512 on this CPU: the vector rounds do not run")
	}
	b := MustBoard(8, 8)
	rhi, rlo := rejectingStream(t)
	for _, path := range vecPaths() {
		for _, name := range []string{"random", "warnsdorff/random"} {
			r, _ := ParseRule(name)
			k := newFastKernel(b, r, path)
			for _, lane := range []int{3, 11} {
				checkRejection(t, k, lane, rhi, rlo)
			}
		}
	}
}

// checkRejection runs one vector round of k's path with lane's stream
// (rhi, rlo) about to be rejected, then with an ordinary one.
func checkRejection(t *testing.T, k *fastKernel, lane int, rhi, rlo uint64) {
	t.Helper()
	b := MustBoard(8, 8)
	v, what := k.vec, fmt.Sprintf("%s %s, lane %d", k.kpath, k.rule.Name(), lane)
	run, nb := v.random, &k.nb
	if k.rule.Kind == Warnsdorff {
		run = v.warnsdorff
	}
	if v.reversed {
		nb = &k.nbRev
	}
	var ls lanes
	e4 := b.Square(3, 4)
	for j := range batchLanes {
		ls.set[j] = 1 << e4 // every lane moves into e4 from an empty board: a tie
		ls.hi[j], ls.lo[j] = uint64(j)*0x9e3779b97f4a7c15, uint64(j)+1
		for i := range ls.planes {
			ls.planes[i][j] = k.planes[i]
		}
	}
	ls.hi[lane], ls.lo[lane] = rhi, rlo
	before := ls
	if st := run(&ls, nb, 64, 1); st != 1<<16 {
		t.Fatalf("%s: vector round returned %#x, want the rejection bit", what, st)
	}
	g := lane / v.group * v.group
	for j := range batchLanes {
		same := ls.set[j] == before.set[j] && ls.visited[j] == before.visited[j] && ls.hi[j] == before.hi[j] && ls.lo[j] == before.lo[j] && ls.ties[j] == before.ties[j]
		if j >= g && j < g+v.group && !same {
			t.Fatalf("%s: lane %d changed in the round that stopped", what, j)
		}
		if j < g && ls.visited[j] != 1<<e4 {
			t.Fatalf("%s: lane %d's group did not make its round before lane %d's stopped", what, j, lane)
		}
	}
	// With an ordinary stream the same round goes through, and matches
	// the scalar draw.
	ls = before
	ls.hi[lane], ls.lo[lane] = before.hi[lane^1], before.lo[lane^1]
	if st := run(&ls, nb, 64, 1); st != 0 {
		t.Fatalf("%s: ordinary round returned %#x", what, st)
	}
	cand := k.nb[e4]
	if k.rule.Kind == Warnsdorff {
		p := k.planes
		n := k.nb[e4]
		p[0], n = p[0]^n, n&^p[0]
		p[1], n = p[1]^n, n&^p[1]
		p[2], n = p[2]^n, n&^p[2]
		p[3] ^= n
		cand = minDegree(cand, p[3], p[2], p[1], p[0])
	}
	_, _, idx := uniform(before.hi[lane^1], before.lo[lane^1], uint32(bits.OnesCount64(cand)))
	if want := nthBit(cand, idx); ls.set[lane] != want || ls.ties[lane] != 1 {
		t.Fatalf("%s: chose %#x with %d ties, want %#x with 1", what, ls.set[lane], ls.ties[lane], want)
	}
}

// TestVecAgreesLong runs many more walks than TestKernelsAgree through
// each vector path's rounds and through the Go rounds (PathPDEP16), in
// the runner's runs of 256 walks per start, and requires the same outcome
// for every walk.
func TestVecAgreesLong(t *testing.T) {
	if len(vecPaths()) == 0 {
		t.Skip("no AVX2 or AVX-512 on this CPU: the vector rounds do not run")
	}
	for _, bs := range [][2]int{{8, 8}, {7, 7}, {5, 6}} {
		b := MustBoard(bs[0], bs[1])
		for _, name := range []string{"random", "warnsdorff/random"} {
			for _, maxSteps := range []int{0, 20} {
				r, _ := ParseRule(name)
				r.MaxSteps = maxSteps
				gw, _ := NewPathWalker(b, r, PathPDEP16)
				got, want := make([]Outcome, 256), make([]Outcome, 256)
				for _, path := range vecPaths() {
					vw, _ := NewPathWalker(b, r, path)
					if vw.fast.vec == nil {
						t.Fatalf("%s %s: the %s rounds are off", b, name, path)
					}
					for start := range b.Squares() {
						key := NewKey(2026, b, r, start)
						for lo := uint64(0); lo < 1024; lo += 256 {
							vw.WalkRange(start, key, lo, got)
							gw.WalkRange(start, key, lo, want)
							compareOutcomes(t, got, want, fmt.Sprintf("%s %s %s max %d start %s from walk %d", path, b, name, maxSteps, b.SquareName(start), lo))
						}
					}
				}
			}
		}
	}
}
