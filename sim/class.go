package sim

import "fmt"

// Class is a start-square class (docs/design.md, "Start classes and degree classes").
type Class uint8

const (
	Corner   Class = iota // the 4 corners
	Edge                  // other squares on the border
	Centre                // squares nearest the board centre, off the border
	Interior              // everything else
)

// Classes lists the classes in report order.
var Classes = [...]Class{Corner, Edge, Centre, Interior}

var classNames = [...]string{"corner", "edge", "centre", "interior"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", c)
}

// ParseClass parses "corner", "edge", "centre" (or "center") and "interior".
func ParseClass(s string) (Class, error) {
	for i, n := range classNames {
		if s == n {
			return Class(i), nil
		}
	}
	if s == "center" {
		return Centre, nil
	}
	return 0, fmt.Errorf("class %q: valid classes are corner, edge, centre, interior", s)
}

// CentreDist2 returns 4× the squared Euclidean distance from the centre of
// square sq to the centre of the board, an integer: (2r-(rows-1))² +
// (2c-(cols-1))². Roth's tie-break and the centre class use it.
func (b *Board) CentreDist2(sq int) int {
	r, c := b.RowCol(sq)
	dr, dc := 2*r-(b.Rows-1), 2*c-(b.Cols-1)
	return dr*dr + dc*dc
}

// CornerDist2 is the squared Euclidean distance from sq to the nearest
// corner square, in squares (the corner tie-break's score): 0 on a corner,
// 5 a knight's move from one.
func (b *Board) CornerDist2(sq int) int {
	r, c := b.RowCol(sq)
	dr, dc := min(r, b.Rows-1-r), min(c, b.Cols-1-c)
	return dr*dr + dc*dc
}

// EdgeDist is the number of squares between sq and the nearest side of the
// board (the edge tie-break's score): 0 on the edge.
func (b *Board) EdgeDist(sq int) int {
	r, c := b.RowCol(sq)
	return min(r, c, b.Rows-1-r, b.Cols-1-c)
}

// Class returns the class of sq. Corners take precedence over edges, edges
// over centre: on boards too small to have an interior, a square is in the
// first class that fits. The centre is the set of squares of smallest
// distance to the board centre (the central 2×2 on even square boards, the
// centre square on odd ones).
func (b *Board) Class(sq int) Class {
	r, c := b.RowCol(sq)
	onRowEdge := r == 0 || r == b.Rows-1
	onColEdge := c == 0 || c == b.Cols-1
	switch {
	case onRowEdge && onColEdge:
		return Corner
	case onRowEdge || onColEdge:
		return Edge
	}
	// The smallest distance is reached at the middle row(s) and column(s).
	mr, mc := (b.Rows-1)/2, (b.Cols-1)/2
	if b.CentreDist2(sq) == b.CentreDist2(b.Square(mr, mc)) {
		return Centre
	}
	return Interior
}

// Symmetries returns the board's symmetries as square permutations
// (perm[sq] is the image of sq): the 8 of the dihedral group on square
// boards, the 4 that keep the shape on other rectangles. The identity is
// first.
func (b *Board) Symmetries() [][]int32 {
	R, C := b.Rows, b.Cols
	type tf func(r, c int) (int, int)
	tfs := []tf{
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return R - 1 - r, c },
		func(r, c int) (int, int) { return r, C - 1 - c },
		func(r, c int) (int, int) { return R - 1 - r, C - 1 - c },
	}
	if R == C {
		tfs = append(tfs,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return C - 1 - c, r },
			func(r, c int) (int, int) { return c, R - 1 - r },
			func(r, c int) (int, int) { return C - 1 - c, R - 1 - r },
		)
	}
	out := make([][]int32, len(tfs))
	for i, f := range tfs {
		p := make([]int32, R*C)
		for sq := range p {
			r, c := b.RowCol(sq)
			nr, nc := f(r, c)
			p[sq] = int32(b.Square(nr, nc))
		}
		out[i] = p
	}
	return out
}

// ClassAt is Board.Class for (row, col) of a rows×cols board, without
// building the board.
func ClassAt(rows, cols, row, col int) Class {
	return (&Board{Rows: rows, Cols: cols}).Class(row*cols + col)
}

// ClassCount returns how many squares of a rows×cols board are of class cl,
// without building the board or visiting its squares.
func ClassCount(rows, cols int, cl Class) int {
	inner := max(0, rows-2) * max(0, cols-2)
	corners := 4
	switch {
	case rows == 1 && cols == 1:
		corners = 1
	case rows == 1 || cols == 1:
		corners = 2
	}
	centre := 0
	if rows >= 3 && cols >= 3 {
		centre = (2 - rows%2) * (2 - cols%2)
	}
	switch cl {
	case Corner:
		return corners
	case Edge:
		return rows*cols - inner - corners
	case Centre:
		return centre
	case Interior:
		return inner - centre
	}
	return 0
}
