package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSquares bounds rows*cols. A general-kernel walker holds a few bytes per
// square (padded state and path), so 2^24 squares (4096×4096) costs well
// under 100 MB per worker; anything larger is refused rather than allowed to
// exhaust memory.
const MaxSquares = 1 << 24

// MaxSide bounds each side, so that row and column fit comfortably in int32
// arithmetic for padded indexing.
const MaxSide = 1 << 20

// Move is a knight move as (drow, dcol).
type Move struct{ DR, DC int }

// CanonicalMoves is the move order used wherever an order matters and none is
// configured (docs/design.md, "Knight moves and move orders").
var CanonicalMoves = [8]Move{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}

// Board is a rows×cols board with its knight graph. It is immutable once
// built and safe for concurrent use.
type Board struct {
	// Rows and Cols are all a Board holds: an experiment resolves every
	// board up front, and a per-square table here (it once held each
	// square's degree) made a sweep over n = 5..2000 hold 2.7 GB.
	Rows, Cols int
}

// NewBoard returns a rows×cols board or an error for sizes outside
// 1..MaxSide per side or more than MaxSquares squares.
func NewBoard(rows, cols int) (*Board, error) {
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("board %dx%d: rows and cols must be at least 1", rows, cols)
	}
	if rows > MaxSide || cols > MaxSide || rows*cols > MaxSquares {
		return nil, fmt.Errorf("board %dx%d: too large (at most %d squares, e.g. 4096x4096)", rows, cols, MaxSquares)
	}
	return &Board{Rows: rows, Cols: cols}, nil
}

// ParseBoard parses "8x8" (also "8×8" and "8X8") into a board.
func ParseBoard(s string) (*Board, error) {
	rows, cols, err := ParseBoardSize(s)
	if err != nil {
		return nil, err
	}
	return NewBoard(rows, cols)
}

// ParseBoardSize parses "ROWSxCOLS" without building the board.
func ParseBoardSize(s string) (rows, cols int, err error) {
	t := strings.NewReplacer("×", "x", "X", "x").Replace(strings.TrimSpace(s))
	a, b, ok := strings.Cut(t, "x")
	if !ok {
		return 0, 0, fmt.Errorf("board %q: want ROWSxCOLS, e.g. 8x8", s)
	}
	rows, err1 := strconv.Atoi(a)
	cols, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("board %q: want ROWSxCOLS with whole numbers, e.g. 8x8", s)
	}
	return rows, cols, nil
}

// MustBoard is NewBoard for sizes known to be valid (tests, examples).
func MustBoard(rows, cols int) *Board {
	b, err := NewBoard(rows, cols)
	if err != nil {
		panic("sim: " + err.Error())
	}
	return b
}

// String returns the board's name in tables, e.g. "8x8".
func (b *Board) String() string { return fmt.Sprintf("%dx%d", b.Rows, b.Cols) }

// Squares returns rows*cols.
func (b *Board) Squares() int { return b.Rows * b.Cols }

// On reports whether (row, col) lies on the board.
func (b *Board) On(row, col int) bool { return row >= 0 && row < b.Rows && col >= 0 && col < b.Cols }

// Square returns the index of (row, col).
func (b *Board) Square(row, col int) int { return row*b.Cols + col }

// RowCol returns the row and column of square sq.
func (b *Board) RowCol(sq int) (row, col int) { return sq / b.Cols, sq % b.Cols }

// Degree returns the number of knight moves from sq on the empty board.
func (b *Board) Degree(sq int) int {
	r, c := b.RowCol(sq)
	return KnightDegree(b.Rows, b.Cols, r, c)
}

// Neighbours appends the knight neighbours of sq in ascending square order.
func (b *Board) Neighbours(dst []int, sq int) []int {
	r, c := b.RowCol(sq)
	for _, m := range sortedMoves {
		if b.On(r+m.DR, c+m.DC) {
			dst = append(dst, b.Square(r+m.DR, c+m.DC))
		}
	}
	return dst
}

// Adjacent reports whether a and b are a knight's move apart.
func (b *Board) Adjacent(a, c int) bool {
	ar, ac := b.RowCol(a)
	br, bc := b.RowCol(c)
	dr, dc := abs(ar-br), abs(ac-bc)
	return dr == 1 && dc == 2 || dr == 2 && dc == 1
}

// sortedMoves lists the moves in ascending order of dr*cols+dc, which is
// ascending square order for every board with more than 4 columns and for
// the padded layout of the general kernel. Draws choose among squares in
// ascending square order, so kernels iterate moves in this order.
var sortedMoves = [8]Move{{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}}

// SquareName returns the algebraic name of sq: file letter from the column
// and rank from row+1 ("a1"); boards wider than 26 columns use "r<row>c<col>".
func (b *Board) SquareName(sq int) string {
	r, c := b.RowCol(sq)
	if b.Cols > 26 {
		return fmt.Sprintf("r%dc%d", r, c)
	}
	return string(rune('a'+c)) + strconv.Itoa(r+1)
}

// ParseSquare parses an algebraic name ("d4") or "r<row>c<col>" (0-based)
// into a square index on b.
func (b *Board) ParseSquare(name string) (int, error) {
	s := strings.TrimSpace(name)
	var r, c int
	switch {
	case len(s) >= 4 && s[0] == 'r' && strings.Contains(s[1:], "c") && isDigit(s[1]):
		rs, cs, _ := strings.Cut(s[1:], "c")
		var err1, err2 error
		r, err1 = strconv.Atoi(rs)
		c, err2 = strconv.Atoi(cs)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("square %q: want a name like a1 or r0c0", name)
		}
	case len(s) >= 2 && s[0] >= 'a' && s[0] <= 'z' && isDigit(s[1]):
		if b.Cols > 26 {
			return 0, fmt.Errorf("square %q: board %s is wider than 26 columns; name squares as r<row>c<col>, e.g. r0c0", name, b)
		}
		rank, err := strconv.Atoi(s[1:])
		if err != nil {
			return 0, fmt.Errorf("square %q: want a name like a1 or r0c0", name)
		}
		r, c = rank-1, int(s[0]-'a')
	default:
		return 0, fmt.Errorf("square %q: want a name like a1 or r0c0", name)
	}
	if !b.On(r, c) {
		return 0, fmt.Errorf("square %q is off the %s board (valid: %s to %s)", name, b, b.SquareName(0), b.SquareName(b.Squares()-1))
	}
	return b.Square(r, c), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// KnightDegree returns the number of knight moves from (row, col) on an
// empty rows×cols board: Board.Degree without building the board, so that
// a configuration can reason about boards it has not built.
func KnightDegree(rows, cols, row, col int) int {
	d := 0
	for _, m := range CanonicalMoves {
		if r, c := row+m.DR, col+m.DC; r >= 0 && r < rows && c >= 0 && c < cols {
			d++
		}
	}
	return d
}

// ParseSquareAt is Board.ParseSquare for a rows×cols board, without
// building the board: it returns the square's row and column.
func ParseSquareAt(rows, cols int, name string) (row, col int, err error) {
	sq, err := (&Board{Rows: rows, Cols: cols}).ParseSquare(name)
	if err != nil {
		return 0, 0, err
	}
	return sq / cols, sq % cols, nil
}
