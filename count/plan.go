package count

import (
	"fmt"
	"math"

	"github.com/knightwalk/knightwalk/sim"
)

// MaxWidth is the widest sweep the counter takes: the shorter side of the
// board. Its frontier holds 2·width+1 squares, packed into one 64-bit key:
// 4 bits a square up to width 7, base 11 at width 8 (3 codes and up to 8
// pair labels; 11^17 < 2^64); a ninth column would need wider keys, and
// its states would not fit any memory budget anyway.
const MaxWidth = 8

// Codes of a frontier square in a state. A square with no edges left to
// take (two edges, a designated start that has its one edge, or no square
// at all) is spent; a square with one edge is a path end, and the code says
// where its path's other end is: a terminal (a square that retired as an
// end of the Hamiltonian path) or another frontier square with the same
// label.
const (
	spent     = 0
	fresh     = 1 // no edge yet
	term      = 2 // one edge; the other end of its path is a terminal
	firstPair = 3 // one edge; the other end carries the same code
)

// plan is the sweep of one board: squares in row-major order of the board
// turned so that rows are its shorter side, which keeps the frontier to
// about two rows.
type plan struct {
	board      *sim.Board
	rows, cols int  // of the sweep; cols = min(board.Rows, board.Cols)
	turned     bool // sweep square (r, c) is board square (c, r)
	n          int
	slots      int    // squares a stored state holds: 2·cols+1
	base       uint64 // radix of the packed key
	// back[v] lists d = v-u for each neighbour u < v: the slots of the
	// squares v may take an edge from.
	back [][]int8
	// retire[v] lists d = v-u for each square u whose last neighbour is v
	// (v itself when it has no later neighbour): after v they leave.
	retire [][]int8
	// avail[v][d] is how many neighbours square v-d has after v: the edges
	// it can still take once v is added.
	avail [][2*MaxWidth + 1]uint8
}

func newPlan(b *sim.Board) (*plan, error) {
	rows, cols, turned := b.Rows, b.Cols, false
	if cols > rows {
		rows, cols, turned = cols, rows, true
	}
	if cols > MaxWidth {
		return nil, fmt.Errorf("count tours on %s: the frontier counter sweeps boards whose shorter side is at most %d (its states would not fit in memory beyond)", b, MaxWidth)
	}
	p := &plan{board: b, rows: rows, cols: cols, turned: turned, n: rows * cols,
		slots: 2*cols + 1, base: 16}
	if cols == MaxWidth {
		p.base = 11 // 3 codes and 8 pair labels; 16^17 > 2^64
	}
	p.back = make([][]int8, p.n)
	p.retire = make([][]int8, p.n)
	p.avail = make([][2*MaxWidth + 1]uint8, p.n)
	for v := range p.n {
		r, c := v/cols, v%cols
		last := v
		for _, d := range [][2]int{{1, 2}, {1, -2}, {2, 1}, {2, -1}, {-1, 2}, {-1, -2}, {-2, 1}, {-2, -1}} {
			rr, cc := r+d[0], c+d[1]
			if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
				continue
			}
			u := rr*cols + cc
			if u < v {
				p.back[v] = append(p.back[v], int8(v-u))
				continue
			}
			last = max(last, u)
			for w := v; w < u && w-v <= 2*cols; w++ {
				p.avail[w][w-v]++
			}
		}
		p.retire[last] = append(p.retire[last], int8(last-v))
	}
	return p, nil
}

// sweepSquare maps a board square to its index in the sweep.
func (p *plan) sweepSquare(sq int) int {
	r, c := p.board.RowCol(sq)
	if p.turned {
		r, c = c, r
	}
	return r*p.cols + c
}

// log2Bound is an upper bound on log2 of the number of Hamiltonian paths
// of the board's knight graph (and so of its cycles). By Brègman's theorem
// the permanent of a 0/1 matrix with row sums d_i is at most
// ∏ (d_i!)^(1/d_i); a Hamiltonian path from s to t is a Hamiltonian cycle
// of the graph with the arc t→s added, which is a permutation counted by
// the permanent of the adjacency matrix plus that arc (row sums at most
// d_i+1). Summing over the n² pairs (s, t) gives the bound.
func (p *plan) log2Bound() float64 {
	sum := 2 * math.Log2(float64(p.n))
	for v := range p.n {
		d := float64(p.board.Degree(v) + 1)
		lg, _ := math.Lgamma(d + 1)
		sum += lg / math.Ln2 / d
	}
	return sum
}
