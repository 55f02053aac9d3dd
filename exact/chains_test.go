package exact

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// chainRules lists the Warnsdorff rules with a chain beyond the single
// names that sim's TestChainsFollowReference walks: chains of at most two
// refining steps among pohl, roth, pohlmin and pohlmin-before, and of
// pohlmin only those that pair it once with each other step.
func chainRules(t *testing.T) []string {
	t.Helper()
	refining := []string{"pohl", "roth", "pohlmin", "pohlmin-before"}
	pohlmin := map[string]bool{"pohlmin+random": true, "pohlmin+first": true, "pohl+pohlmin+first": true, "pohlmin+roth+random": true,
		"pohlmin-before+random": true, "pohlmin-before+first": true, "pohlmin-before+roth+first": true, "pohlmin+pohlmin-before+first": true}
	prefixes := [][]string{{}}
	for _, a := range refining {
		prefixes = append(prefixes, []string{a})
	}
	for _, a := range refining {
		for _, b := range refining {
			if a != b {
				prefixes = append(prefixes, []string{a, b})
			}
		}
	}
	var out []string
	for _, p := range prefixes {
		for _, last := range []string{"random", "first"} {
			tb, err := sim.ParseTieBreak(strings.Join(append(slices.Clone(p), last), "+"))
			if err != nil {
				t.Fatal(err)
			}
			if n := tb.String(); strings.Contains(n, "+") && (!strings.Contains(n, "pohlmin") || pohlmin[n]) {
				out = append(out, "warnsdorff/"+n)
			}
		}
	}
	return out
}

// refAllowed is a plain reference for a Warnsdorff chain, written from the
// definitions with the Board API alone: the squares the rule allows from
// cur given visited (more than one only where the chain ends in random).
// nbrs[sq] lists sq's neighbours.
func refAllowed(b *sim.Board, r sim.Rule, nbrs [][]int, visited []bool, cur int) []int {
	deg := func(sq int) int {
		d := 0
		for _, n := range nbrs[sq] {
			if !visited[n] {
				d++
			}
		}
		return d
	}
	var cand []int
	for _, n := range nbrs[cur] {
		if !visited[n] {
			cand = append(cand, n)
		}
	}
	keepBest := func(score func(int) int) {
		scores := make([]int, len(cand))
		for i, c := range cand {
			scores[i] = score(c)
		}
		best := slices.Min(scores)
		var keep []int
		for i, c := range cand {
			if scores[i] == best {
				keep = append(keep, c)
			}
		}
		cand = keep
	}
	if len(cand) == 0 {
		return nil
	}
	keepBest(deg)
	order := r.OrderOn(b)
	cr, cc := b.RowCol(cur)
	for _, step := range strings.Split(r.TieBreak.String(), "+") {
		switch step {
		case "pohl":
			keepBest(func(c int) int {
				s := 0
				for _, n := range nbrs[c] {
					if !visited[n] {
						s += deg(n)
					}
				}
				return s
			})
		case "pohlmin":
			keepBest(func(c int) int {
				m := -1
				for _, n := range nbrs[c] {
					if !visited[n] && (m < 0 || deg(n) < m) {
						m = deg(n)
					}
				}
				return max(m, 0)
			})
		case "pohlmin-before":
			// Degrees counted before cur is marked: cur is an unvisited
			// neighbour of c, its degree the number of cur's unvisited
			// neighbours; the other neighbours' degrees do not change (a
			// neighbour of c is never adjacent to cur).
			keepBest(func(c int) int {
				m := 0
				for _, n := range nbrs[cur] {
					if !visited[n] {
						m++
					}
				}
				for _, n := range nbrs[c] {
					if !visited[n] {
						m = min(m, deg(n))
					}
				}
				return m
			})
		case "roth":
			keepBest(func(c int) int { return -b.CentreDist2(c) })
		case "first":
			keepBest(func(c int) int {
				row, col := b.RowCol(c)
				return slices.Index(order, sim.Move{DR: row - cr, DC: col - cc})
			})
		}
	}
	return cand
}

// TestEnumeratorFollowsReference walks every chain (sim's kernels hold
// their walks to refAllowed: TestChainsFollowReference) and checks that at
// every step of the walks the enumeration branches on the reference's
// squares; a deterministic chain's enumeration is its one walk:
// P(success) 0 or 1, as the walk succeeds.
func TestEnumeratorFollowsReference(t *testing.T) {
	orders := [][]sim.Move{nil, {{DR: 1, DC: 2}, {DR: 2, DC: 1}, {DR: -1, DC: 2}, {DR: -2, DC: 1}, {DR: -2, DC: -1}, {DR: -1, DC: -2}, {DR: 1, DC: -2}, {DR: 2, DC: -1}}}
	for _, board := range []string{"5x5", "6x6", "8x8", "7x9", "3x4", "11x11"} {
		b, _ := sim.ParseBoard(board)
		nbrs := make([][]int, b.Squares())
		for sq := range nbrs {
			nbrs[sq] = b.Neighbours(nil, sq)
		}
		for _, name := range chainRules(t) {
			for _, order := range orders {
				r, _ := sim.ParseRule(name)
				r.Order = order
				w, err := sim.NewWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				w.KeepPaths(true)
				e := newEnumerator[words128](b, r)
				walks := 1
				if r.TieBreak.Draws() {
					walks = 5
				}
				for s := 0; s < b.Squares(); s++ {
					key := sim.NewKey(3, b, r, s)
					for i := range walks {
						o := w.Walk(s, key, uint64(i))
						visited := make([]bool, b.Squares())
						var set set128
						for step, p := range o.Path {
							visited[p] = true
							set = set.with(int(p))
							allowed := refAllowed(b, r, nbrs, visited, int(p))
							ea, _ := e.allowed(set, int(p))
							var got []int
							for !ea.empty() {
								got = append(got, ea.pop())
							}
							if slices.Sort(allowed); !slices.Equal(got, allowed) {
								t.Fatalf("%s %s order %v from %s, step %d: exact enumeration allows %v, reference %v", b, r, r.Order, b.SquareName(o.Start), step, got, allowed)
							}
						}
						if i == 0 && !r.TieBreak.Draws() && b.Squares() <= 64 {
							checkExactIsWalk(t, b, r, o)
						}
					}
				}
			}
		}
	}
}

func checkExactIsWalk(t *testing.T, b *sim.Board, r sim.Rule, o sim.Outcome) {
	t.Helper()
	e, err := Walk(context.Background(), b, r, o.Start, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.Lengths[o.Length] != 1 || e.PSuccess != b2f(o.Success) || e.PClosed != b2f(o.Closed) || e.MeanTies != float64(o.Ties) {
		t.Fatalf("%s %s from %s: exact %+v, walk %+v", b, r, b.SquareName(o.Start), e, o)
	}
}
