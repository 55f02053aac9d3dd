package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPositionLayoutsAgree: Moves, Degree and Visited answer from the
// definition (the board's knight neighbours and the visited squares) on
// every layout — one-word bitboards (8x8), two-word (9x14), padded with
// kept degrees (13x11) and narrow boards — along random walks with resets,
// backtracking (undo) and positions set whole (setVisited), including
// squares off the board for Visited.
func TestPositionLayoutsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, b := range []*Board{MustBoard(1, 1), MustBoard(3, 4), MustBoard(5, 5), MustBoard(8, 8), MustBoard(9, 14), MustBoard(8, 16), MustBoard(13, 11), MustBoard(20, 20)} {
		p := newPosition(b)
		n := b.Squares()
		visited := make([]bool, n)
		check := func(when string) {
			t.Helper()
			for sq := -3; sq < n+3; sq++ {
				want := sq < 0 || sq >= n || visited[sq]
				if p.Visited(sq) != want {
					t.Fatalf("%s %s: Visited(%d) = %v, want %v", b, when, sq, !want, want)
				}
			}
			for sq := range n {
				var want []int
				for _, u := range b.Neighbours(nil, sq) {
					if !visited[u] {
						want = append(want, u)
					}
				}
				slices.Sort(want)
				got := p.Moves(sq, []int{-7}) // appended after what dst holds
				if got[0] != -7 || !slices.Equal(got[1:], want) {
					t.Fatalf("%s %s: Moves(%s) = %v, want %v", b, when, b.SquareName(sq), got[1:], want)
				}
				if d := p.Degree(sq); d != len(want) {
					t.Fatalf("%s %s: Degree(%s) = %d, want %d", b, when, b.SquareName(sq), d, len(want))
				}
			}
		}
		for trial := range 30 {
			clear(visited)
			start := rng.IntN(n)
			p.reset(start)
			visited[start] = true
			var path []int
			path = append(path, start)
			for k := rng.IntN(3 * n); k > 0; k-- {
				m := p.Moves(p.cur, nil)
				if len(m) == 0 || rng.IntN(5) == 0 && len(path) > 1 { // back up
					if len(path) == 1 {
						break
					}
					visited[p.cur] = false
					path = path[:len(path)-1]
					p.undo(path[len(path)-1])
					continue
				}
				sq := m[rng.IntN(len(m))]
				p.move(sq)
				visited[sq] = true
				path = append(path, sq)
			}
			check("after a walk")
			if trial%3 == 0 {
				for sq := range visited {
					visited[sq] = rng.IntN(3) == 0
				}
				p.setVisited(func(sq int) bool { return visited[sq] }, 0, 0)
				check("after setVisited")
			}
		}
	}
}
