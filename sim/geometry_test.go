package sim

import "testing"

// TestGeometryWithoutBoard checks the rows×cols helpers against built boards.
func TestGeometryWithoutBoard(t *testing.T) {
	for rows := 1; rows <= 11; rows++ {
		for cols := 1; cols <= 30; cols += 1 + cols/6 {
			b := MustBoard(rows, cols)
			count := map[Class]int{}
			for sq := range b.Squares() {
				r, c := b.RowCol(sq)
				if got := KnightDegree(rows, cols, r, c); got != b.Degree(sq) {
					t.Fatalf("%s %s: KnightDegree %d, board %d", b, b.SquareName(sq), got, b.Degree(sq))
				}
				if got := ClassAt(rows, cols, r, c); got != b.Class(sq) {
					t.Fatalf("%s %s: ClassAt %v, board %v", b, b.SquareName(sq), got, b.Class(sq))
				}
				name := b.SquareName(sq)
				if gr, gc, err := ParseSquareAt(rows, cols, name); err != nil || gr != r || gc != c {
					t.Fatalf("%s: ParseSquareAt(%q) = %d, %d, %v", b, name, gr, gc, err)
				}
				count[b.Class(sq)]++
			}
			for _, cl := range Classes {
				if got := ClassCount(rows, cols, cl); got != count[cl] {
					t.Errorf("%s: ClassCount(%v) = %d, counted %d", b, cl, got, count[cl])
				}
			}
		}
	}
	if _, _, err := ParseSquareAt(8, 8, "i1"); err == nil {
		t.Error("ParseSquareAt accepted i1 on 8x8")
	}
}
