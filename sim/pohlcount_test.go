package sim

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// counting is one way to count the degrees behind Warnsdorff's and Pohl's
// scores when the walk stands on cur and weighs moving to a candidate c:
// which squares count as unvisited.
type counting struct {
	name string
	// curFree: the current square is not yet marked visited (degrees
	// counted before marking it); candMarked: the candidate is marked as
	// if the walk had moved there.
	curFree, candMarked bool
}

var countings = []counting{
	{"after marking the current square", false, false},
	{"before marking it", true, false},
	{"after marking it and the candidate", false, true},
}

// conventionScores scores the candidates from cur under one counting,
// written from the definitions with nothing shared with the kernels: the
// Warnsdorff degree of c (its unvisited neighbours), and Pohl's sum and
// minimum of the degrees of c's unvisited neighbours (minimum 0 where it
// has none, as the pohlmin tie-break defines it).
func conventionScores(nbrs [][]int, visited []bool, cur int, cands []int, k counting) (deg, sum, mn []int) {
	free := func(sq, c int) bool {
		switch {
		case sq == cur:
			return k.curFree
		case sq == c:
			return !k.candMarked
		}
		return !visited[sq]
	}
	for _, c := range cands {
		d, s, m := 0, 0, -1
		for _, u := range nbrs[c] {
			if !free(u, c) {
				continue
			}
			d++
			du := 0
			for _, v := range nbrs[u] {
				if free(v, c) && v != u {
					du++
				}
			}
			s += du
			if m < 0 || du < m {
				m = du
			}
		}
		deg, sum, mn = append(deg, d), append(sum, s), append(mn, max(m, 0))
	}
	return deg, sum, mn
}

// best returns the positions of the smallest scores among those kept.
func best(scores []int, keep []int) []int {
	m := slices.Min(pick(scores, keep))
	var out []int
	for _, i := range keep {
		if scores[i] == m {
			out = append(out, i)
		}
	}
	return out
}

func pick(s []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// TestPohlDegreeCounting checks docs/design.md's claim that when degrees
// are counted — before or after marking the current square visited, or
// with the candidate marked too — changes no choice of Warnsdorff's rule
// or of Pohl's sum, and none of Pohl's minimum when the candidate is
// marked, over every position that Warnsdorff walks with random ties (and
// plain random walks) reach on 5x5, 6x6, 8x8 and 7x9 from every start. It
// also finds the positions where the minimum counted before marking does
// choose differently (the current square counts as a neighbour of every
// candidate, with degree the number of candidates, and caps the minimum),
// which is why pohlmin-before is a reading of its own: the kernels'
// pohlmin-before must choose as that counting does.
func TestPohlDegreeCounting(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1967))
	positions, minDiffers := 0, 0
	for _, name := range []string{"5x5", "6x6", "8x8", "7x9"} {
		b, _ := ParseBoard(name)
		nbrs := make([][]int, b.Squares())
		for sq := range nbrs {
			nbrs[sq] = b.Neighbours(nil, sq)
		}
		r, err := ParseRule("warnsdorff/pohlmin-before+random")
		if err != nil {
			t.Fatal(err)
		}
		k := newFastKernel(b, r, PathScalar)
		for start := range b.Squares() {
			for w := range 60 {
				visited := make([]bool, b.Squares())
				cur := start
				visited[cur] = true
				for {
					var cands []int
					for _, n := range nbrs[cur] {
						if !visited[n] {
							cands = append(cands, n)
						}
					}
					if len(cands) == 0 {
						break
					}
					positions++
					all := make([]int, len(cands))
					for i := range all {
						all[i] = i
					}
					var tied, sums, mins [3][]int
					for ki, k := range countings {
						deg, sum, mn := conventionScores(nbrs, visited, cur, cands, k)
						tied[ki] = best(deg, all)
						sums[ki] = best(sum, tied[ki])
						mins[ki] = best(mn, tied[ki])
					}
					for ki := 1; ki < len(countings); ki++ {
						if !slices.Equal(tied[ki], tied[0]) || !slices.Equal(sums[ki], sums[0]) {
							t.Fatalf("%s from %s: counting %s changes Warnsdorff's ties %v→%v or Pohl's sum %v→%v", b, b.SquareName(start), countings[ki].name, tied[0], tied[ki], sums[0], sums[ki])
						}
					}
					if !slices.Equal(mins[2], mins[0]) {
						t.Fatalf("%s from %s: marking the candidate changes Pohl's minimum: %v→%v", b, b.SquareName(start), mins[0], mins[2])
					}
					if !slices.Equal(mins[1], mins[0]) {
						minDiffers++
					}
					checkPohlMinBefore(t, k, b, visited, cur, cands, tied[0], mins[1])
					// Warnsdorff's walk with random ties on even walks, a
					// plain random walk on odd ones.
					next := cands[tied[0][rng.IntN(len(tied[0]))]]
					if w%2 == 1 {
						next = cands[rng.IntN(len(cands))]
					}
					cur = next
					visited[cur] = true
				}
			}
		}
	}
	t.Logf("%d positions; Pohl's minimum counted before marking chooses differently at %d", positions, minDiffers)
	if minDiffers == 0 {
		t.Error("Pohl's minimum counted before marking never chose differently; then pohlmin-before is not a reading of its own")
	}
}

// checkPohlMinBefore checks the kernels' pohlmin-before on one position:
// the bitboard kernel (which shares narrowTies with the other kernels and
// with package exact's enumerator, checked against each other by
// TestChainsFollowReference) keeps the candidates that the counting
// before marking keeps.
func checkPohlMinBefore(t *testing.T, k *fastKernel, b *Board, visited []bool, cur int, cands, tied, keep []int) {
	t.Helper()
	if len(tied) < 2 {
		return
	}
	var set, tiedSet uint64
	for sq, v := range visited {
		if v {
			set |= 1 << sq
		}
	}
	for _, i := range tied {
		tiedSet |= 1 << cands[i]
	}
	got := k.narrowTies(tiedSet, cur, set)
	var want []int
	for _, i := range keep {
		want = append(want, cands[i])
	}
	slices.Sort(want)
	var have []int
	for ; got != 0; got &= got - 1 {
		have = append(have, bits.TrailingZeros64(got))
	}
	if !slices.Equal(have, want) {
		t.Fatalf("%s at %s: pohlmin-before keeps %v, counting before marking keeps %v", b, b.SquareName(cur), have, want)
	}
}
