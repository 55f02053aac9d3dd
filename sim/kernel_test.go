package sim

import (
	"fmt"
	"hash/fnv"
	"math/bits"
	"slices"
	"testing"
)

var kernelRules = []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/pohl", "warnsdorff/roth"}

// TestKernelsAgree runs the bitboard and the general kernel on the same
// boards, starts and streams and requires identical walks.
func TestKernelsAgree(t *testing.T) {
	boards := [][2]int{{1, 1}, {1, 5}, {3, 3}, {3, 4}, {4, 4}, {5, 5}, {4, 7}, {6, 6}, {7, 7}, {8, 8}, {2, 32}, {8, 7}, {4, 16}}
	for _, bs := range boards {
		b := MustBoard(bs[0], bs[1])
		for _, name := range kernelRules {
			for _, maxSteps := range []int{0, 5} {
				r, _ := ParseRule(name)
				r.MaxSteps = maxSteps
				fw, err := NewWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				gw, _ := NewGeneralWalker(b, r)
				if fw.fast == nil || gw.gen == nil {
					t.Fatal("kernels not as asked")
				}
				fw.KeepPaths(true)
				gw.KeepPaths(true)
				bw, _ := NewWalker(b, r) // WalkRange: no paths
				pw, _ := NewPreviousWalker(b, r)
				pgw, _ := NewGeneralWalker(b, r)
				pgw.previous = true
				pw.KeepPaths(true)
				pgw.KeepPaths(true)
				for start := 0; start < b.Squares(); start++ {
					key := NewKey(42, b, r, start)
					want := make([]Outcome, 24)
					for w := range uint64(len(want)) {
						a, g := fw.Walk(start, key, w), gw.Walk(start, key, w)
						if !slices.Equal(a.Path, g.Path) || fmt.Sprint(a) != fmt.Sprint(g) {
							t.Fatalf("%s %s max %d start %s walk %d:\nfast    %+v\ngeneral %+v", b, name, maxSteps, b.SquareName(start), w, a, g)
						}
						checkWalk(t, b, a, r)
						for _, prev := range []*Walker{pw, pgw} {
							if p := prev.Walk(start, key, w); fmt.Sprint(a) != fmt.Sprint(p) {
								t.Fatalf("%s %s max %d start %s walk %d:\nfast     %+v\nprevious %+v", b, name, maxSteps, b.SquareName(start), w, a, p)
							}
						}
						a.Path = nil
						want[w] = a
					}
					for _, m := range rangeModes() {
						m.set(bw)
						checkBatch(t, bw, start, key, want, fmt.Sprintf("%s %s max %d start %s, %+v", b, name, maxSteps, b.SquareName(start), m))
					}
				}
			}
		}
	}
}

// rangeMode is one way WalkRange can run.
type rangeMode struct {
	Path   KernelPath
	Rounds int // the most vector rounds between rounds in Go (0: no limit)
}

// rangeModes lists the ways WalkRange can run on this machine: on every
// kernel path the CPU has, and on the vector paths also with Go rounds
// every one or three rounds (so that the hand-over between the two is
// exercised at every stage of a walk).
func rangeModes() []rangeMode {
	var modes []rangeMode
	for _, p := range KernelPaths() {
		modes = append(modes, rangeMode{Path: p})
		if p == PathAVX512 || p == PathAVX2 {
			modes = append(modes, rangeMode{p, 1}, rangeMode{p, 3})
		}
	}
	return modes
}

// set makes w's WalkRange run in mode m.
func (m rangeMode) set(w *Walker) {
	w.fast.setPath(m.Path)
	w.fast.vecRounds = 1 << 62
	if m.Rounds > 0 {
		w.fast.vecRounds = m.Rounds
	}
}

// checkBatch requires bw.WalkRange to give the outcomes want (of walks 0,
// 1, ...) both in one call and split into uneven runs, including empty ones
// and runs shorter than the number of lanes.
func checkBatch(t *testing.T, bw *Walker, start int, key Key, want []Outcome, what string) {
	t.Helper()
	got := make([]Outcome, len(want))
	bw.WalkRange(start, key, 0, got)
	compareOutcomes(t, got, want, what+", one run")
	clear(got)
	cuts := []int{0, 1, 1, 4, 7, len(want) - 2, len(want)}
	for i := 1; i < len(cuts); i++ {
		bw.WalkRange(start, key, uint64(cuts[i-1]), got[cuts[i-1]:cuts[i]])
	}
	compareOutcomes(t, got, want, what+", uneven runs")
}

func compareOutcomes(t *testing.T, got, want []Outcome, what string) {
	t.Helper()
	for i := range want {
		if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
			t.Fatalf("%s walk %d:\nbatch  %+v\nscalar %+v", what, i, got[i], want[i])
		}
	}
}

// checkWalk checks that o is a legal walk of rule r on b.
func checkWalk(t *testing.T, b *Board, o Outcome, r Rule) {
	t.Helper()
	if len(o.Path) != o.Length || o.Path[0] != int32(o.Start) || int(o.Path[len(o.Path)-1]) != o.End {
		t.Fatalf("path %v disagrees with outcome %+v", o.Path, o)
	}
	seen := make([]bool, b.Squares())
	for i, p := range o.Path {
		if seen[p] {
			t.Fatalf("square %s visited twice", b.SquareName(int(p)))
		}
		seen[p] = true
		if i > 0 && !b.Adjacent(int(o.Path[i-1]), int(p)) {
			t.Fatalf("%s to %s is not a knight move", b.SquareName(int(o.Path[i-1])), b.SquareName(int(p)))
		}
	}
	if o.Success != (o.Length == b.Squares()) {
		t.Fatalf("success %v with length %d", o.Success, o.Length)
	}
	if r.MaxSteps > 0 && o.Length > r.MaxSteps+1 {
		t.Fatalf("length %d beyond max_steps %d", o.Length, r.MaxSteps)
	}
	if !o.Stopped && r.Kind != Backtrack {
		for _, n := range b.Neighbours(nil, o.End) {
			if !seen[n] {
				t.Fatalf("walk ended at %s with %s unvisited", b.SquareName(o.End), b.SquareName(n))
			}
		}
	}
}

func TestNthBit(t *testing.T) {
	for _, m := range []uint64{1, 0x80, 0x8000000000000001, 0xffffffffffffffff, 0x0123456789abcdef, 0xf0f0f0f00f0f0f0f, 1 << 63} {
		j := uint32(0)
		for i := 0; i < 64; i++ {
			if m>>i&1 != 0 {
				if got := nthBit(m, j); got != 1<<i {
					t.Fatalf("nthBit(%#x, %d) = %#x, want bit %d", m, j, got, i)
				}
				j++
			}
		}
	}
}

// TestGeneralResets requires the general kernel to leave its board state
// as new after every walk, whether it undoes the walk or copies the fresh
// state back: a reused walker walks exactly as a fresh one, and as the
// previous general kernel.
func TestGeneralResets(t *testing.T) {
	b := MustBoard(20, 23)
	for _, name := range kernelRules {
		for _, maxSteps := range []int{0, 2, 40} {
			r, _ := ParseRule(name)
			r.MaxSteps = maxSteps
			reused, _ := NewWalker(b, r)
			prev, _ := NewPreviousWalker(b, r)
			for i, start := range []int{0, 57, 231, 459, 57} {
				key := NewKey(7, b, r, start)
				for w := range uint64(6) {
					fresh, _ := NewWalker(b, r)
					a, f := reused.Walk(start, key, w), fresh.Walk(start, key, w)
					if fmt.Sprint(a) != fmt.Sprint(f) {
						t.Fatalf("%s max %d start %d (#%d) walk %d: reused %+v, fresh %+v", name, maxSteps, start, i, w, a, f)
					}
					if p := prev.Walk(start, key, w); fmt.Sprint(a) != fmt.Sprint(p) {
						t.Fatalf("%s max %d start %d (#%d) walk %d: current %+v, previous kernel %+v", name, maxSteps, start, i, w, a, p)
					}
				}
			}
		}
	}
}

// TestKernelsAgreeGolden pins a digest of walks on the bitboard (8x8, 5x6)
// and general (9x9) kernels, every rule of kernelRules, on every path this
// CPU has: the same digest on any CPU and architecture (CI runs this test
// for linux/arm64 under qemu-user) means the same walks everywhere.
func TestKernelsAgreeGolden(t *testing.T) {
	const want = "690e3c51d3603c6e"
	for _, p := range KernelPaths() {
		h := fnv.New64a()
		for _, bs := range [][2]int{{8, 8}, {5, 6}, {9, 9}} {
			b := MustBoard(bs[0], bs[1])
			for _, name := range kernelRules {
				r, _ := ParseRule(name)
				w, err := NewPathWalker(b, r, p)
				if err != nil {
					t.Fatal(err)
				}
				out := make([]Outcome, 37)
				for start := range b.Squares() {
					w.WalkRange(start, NewKey(25, b, r, start), 3, out)
					for _, o := range out {
						fmt.Fprintf(h, "%d %d %d %v %v %v %d;", o.Start, o.Length, o.End, o.Success, o.Closed, o.Stopped, o.Ties)
					}
				}
			}
		}
		if got := fmt.Sprintf("%016x", h.Sum64()); got != want {
			t.Errorf("path %s: digest of the walks %s, want %s", p, got, want)
		}
	}
}

// TestKnightSelect: on every board shape the bitboard kernel takes (each
// width, as many rows as fit in 64 squares), the scalar kernel's select
// finds the j-th square of every set of neighbours of every square, as
// nthBit does.
func TestKnightSelect(t *testing.T) {
	for c := 1; c <= 64; c++ {
		b := MustBoard(64/c, c)
		k := newFastKernel(b, Rule{Kind: RandomWalk}, PathScalar)
		if want := c >= 2 && c <= 15; k.hasKS != want {
			t.Fatalf("%s: knightSelect %v, want %v", b, k.hasKS, want)
		}
		for cur := range b.Squares() {
			var nbs []uint64
			for u := k.nb[cur]; u != 0; u &= u - 1 {
				nbs = append(nbs, u&-u)
			}
			for s := 1; s < 1<<len(nbs); s++ {
				var cand uint64
				for i, m := range nbs {
					if s>>i&1 != 0 {
						cand |= m
					}
				}
				for j := range uint32(bits.OnesCount64(cand)) {
					if got, want := k.next(cand, cur, k.hash(cand, cur), j), bits.TrailingZeros64(nthBit(cand, j)); got != want {
						t.Fatalf("%s from %s: square %d of %#x is %d, want %d", b, b.SquareName(cur), j, cand, got, want)
					}
				}
			}
		}
	}
}

// TestRetarget requires a general-kernel walker retargeted to another rule
// of its kind (tie-break, move order, step limit) to walk exactly as a
// walker built for that rule, in any sequence of retargets, and refuses
// the changes it cannot make (another kind, a bitboard walker).
func TestRetarget(t *testing.T) {
	b := MustBoard(11, 13)
	orders := []string{"", "(1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2)", "(-2,1) (-2,-1) (1,2) (-1,-2) (-1,2) (2,-1) (1,-2) (2,1)"}
	var rules []Rule
	for _, name := range []string{"warnsdorff/first", "warnsdorff/roth+first", "warnsdorff/pohl+first", "warnsdorff/random", "warnsdorff/roth"} {
		for _, o := range orders {
			for _, maxSteps := range []int{0, 30} {
				r, err := ParseRule(name)
				if err != nil {
					t.Fatal(err)
				}
				if o != "" {
					if r.Order, err = ParseOrder(o); err != nil {
						t.Fatal(err)
					}
				}
				r.MaxSteps = maxSteps
				rules = append(rules, r)
			}
		}
	}
	w, err := NewWalker(b, rules[len(rules)-1])
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 2 {
		for i, r := range rules {
			if !w.Retarget(r) {
				t.Fatalf("pass %d: %s not retargeted", pass, r.Name())
			}
			fresh, _ := NewWalker(b, r)
			for _, start := range []int{0, 6, 70, 142} {
				key := NewKey(5, b, r, start)
				for idx := range uint64(3) {
					a, f := w.Walk(start, key, idx), fresh.Walk(start, key, idx)
					if fmt.Sprint(a) != fmt.Sprint(f) {
						t.Fatalf("pass %d rule %d %s start %d walk %d: retargeted %+v, fresh %+v", pass, i, r.Name(), start, idx, a, f)
					}
				}
			}
		}
	}
	random, _ := ParseRule("random")
	if w.Retarget(random) {
		t.Error("a warnsdorff walker took the random walk")
	}
	small, _ := NewWalker(MustBoard(8, 8), rules[0])
	if small.Retarget(rules[1]) {
		t.Error("a bitboard walker reported a retarget")
	}
}
