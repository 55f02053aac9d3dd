package sim

import (
	"strings"
	"testing"
)

func TestBoardErrors(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		want       string
	}{
		{0, 8, "at least 1"}, {8, 0, "at least 1"}, {-3, 5, "at least 1"},
		{5000, 5000, "too large"}, {1 << 21, 1, "too large"},
	} {
		if _, err := NewBoard(c.rows, c.cols); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewBoard(%d, %d) = %v, want error containing %q", c.rows, c.cols, err, c.want)
		}
	}
	for _, s := range []string{"8", "8x", "axb", "8*8", ""} {
		if _, err := ParseBoard(s); err == nil {
			t.Errorf("ParseBoard(%q): want error", s)
		}
	}
	if b, err := ParseBoard("6×7"); err != nil || b.Rows != 6 || b.Cols != 7 || b.String() != "6x7" {
		t.Errorf("ParseBoard(6×7) = %v, %v", b, err)
	}
}

func TestSquareNames(t *testing.T) {
	b := MustBoard(8, 8)
	for name, rc := range map[string][2]int{"a1": {0, 0}, "d4": {3, 3}, "h8": {7, 7}, "b1": {0, 1}, "a2": {1, 0}, "r3c3": {3, 3}} {
		sq, err := b.ParseSquare(name)
		if err != nil || sq != b.Square(rc[0], rc[1]) {
			t.Errorf("ParseSquare(%q) = %d, %v", name, sq, err)
		}
	}
	if got := b.SquareName(b.Square(3, 3)); got != "d4" {
		t.Errorf("SquareName(3,3) = %q", got)
	}
	for _, bad := range []string{"i1", "a9", "a0", "r8c0", "zz", "4d", ""} {
		if _, err := b.ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q): want error", bad)
		}
	}
	if _, err := b.ParseSquare("a9"); err == nil || !strings.Contains(err.Error(), "off the 8x8 board (valid: a1 to h8)") {
		t.Errorf("a9: %v", err)
	}
	wide := MustBoard(3, 30)
	if got := wide.SquareName(wide.Square(2, 27)); got != "r2c27" {
		t.Errorf("wide SquareName = %q", got)
	}
	if _, err := wide.ParseSquare("a1"); err == nil {
		t.Error("algebraic name on a 30-column board: want error")
	}
}

func TestClassesAndDegrees(t *testing.T) {
	b := MustBoard(8, 8)
	count := map[Class]int{}
	for sq := 0; sq < 64; sq++ {
		count[b.Class(sq)]++
	}
	if count[Corner] != 4 || count[Edge] != 24 || count[Centre] != 4 || count[Interior] != 32 {
		t.Errorf("8x8 classes %v", count)
	}
	for _, sq := range []string{"d4", "e4", "d5", "e5"} {
		s, _ := b.ParseSquare(sq)
		if b.Class(s) != Centre || b.Degree(s) != 8 {
			t.Errorf("%s: class %s degree %d", sq, b.Class(s), b.Degree(s))
		}
	}
	degs := map[int]int{}
	for sq := 0; sq < 64; sq++ {
		degs[b.Degree(sq)]++
	}
	if degs[2] != 4 || degs[3] != 8 || degs[4] != 20 || degs[6] != 16 || degs[8] != 16 {
		t.Errorf("8x8 degree counts %v", degs)
	}
	b5 := MustBoard(5, 5)
	if c3, _ := b5.ParseSquare("c3"); b5.Class(c3) != Centre {
		t.Error("5x5 c3 is not centre")
	}
	if len(b.Symmetries()) != 8 || len(MustBoard(5, 7).Symmetries()) != 4 {
		t.Error("symmetry counts")
	}
	if _, err := ParseClass("middle"); err == nil {
		t.Error("ParseClass(middle): want error")
	}
}

func TestRuleParsing(t *testing.T) {
	for _, name := range RuleNames {
		r, err := ParseRule(name)
		if err != nil || r.Name() != name {
			t.Errorf("ParseRule(%q) = %v, %v", name, r, err)
		}
	}
	for _, bad := range []string{"warnsdorf", "warnsdorff/random2", "", "backtrack/open"} {
		if _, err := ParseRule(bad); err == nil || !strings.Contains(err.Error(), "valid") {
			t.Errorf("ParseRule(%q) = %v, want an error listing what is valid", bad, err)
		}
	}
	if _, err := ParseTieBreak("coin"); err == nil || !strings.Contains(err.Error(), "random, first, pohl, roth") {
		t.Errorf("ParseTieBreak(coin) = %v", err)
	}
	if _, err := ParseOrder("(2,1) (1,2)"); err == nil {
		t.Error("short order: want error")
	}
	if _, err := ParseOrder("(2,1) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"); err == nil {
		t.Error("repeated move: want error")
	}
	o, err := ParseOrder("(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)")
	if err != nil || o[0] != (Move{1, 2}) {
		t.Errorf("ParseOrder = %v, %v", o, err)
	}
	r := Rule{Kind: Warnsdorff, MaxSteps: -1}
	if _, err := NewWalker(MustBoard(8, 8), r); err == nil {
		t.Error("negative max_steps: want error")
	}
	r = Rule{Kind: Backtrack, TieBreak: TiePohl}
	if err := r.Validate(); err == nil {
		t.Error("backtrack with pohl: want error")
	}
}

// TestFirstUsesOrder: the first tie-break follows the configured order.
func TestFirstUsesOrder(t *testing.T) {
	b := MustBoard(8, 8)
	r, _ := ParseRule("warnsdorff/first")
	w, _ := NewWalker(b, r)
	w.KeepPaths(true)
	a := w.Walk(0, 0, 0)
	rev := slicesReverse(CanonicalMoves[:])
	r.Order = rev
	w2, _ := NewWalker(b, r)
	w2.KeepPaths(true)
	c := w2.Walk(0, 0, 0)
	// From a1 the two moves (b3, c2) both have degree... the walks must
	// differ somewhere when the order is reversed.
	same := len(a.Path) == len(c.Path)
	for i := range a.Path {
		if !same || a.Path[i] != c.Path[i] {
			same = false
			break
		}
	}
	if same {
		t.Error("reversing the move order did not change the first tie-break's walk")
	}
}

func slicesReverse(m []Move) []Move {
	out := make([]Move, len(m))
	for i := range m {
		out[i] = m[len(m)-1-i]
	}
	return out
}

func TestBacktrack(t *testing.T) {
	for _, c := range []struct {
		board, rule, start string
		success            bool
	}{
		{"8x8", "backtrack", "a1", true},
		{"8x8", "backtrack/closed", "a1", true},
		{"8x8", "backtrack/closed", "d4", true},
		{"6x6", "backtrack/closed", "a1", true},
		{"5x5", "backtrack", "a1", true},
		{"5x5", "backtrack", "b1", false},        // wrong colour: no tour
		{"5x5", "backtrack/closed", "a1", false}, // odd board: no closed tour
		{"20x20", "backtrack", "j10", true},
		{"10x10", "backtrack/closed", "a1", true},
	} {
		b, _ := ParseBoard(c.board)
		r, _ := ParseRule(c.rule)
		w, _ := NewWalker(b, r)
		w.KeepPaths(true)
		s, _ := b.ParseSquare(c.start)
		o := w.Walk(s, NewKey(1, b, r, s), 0)
		if o.Success != c.success || o.Success && r.Closed && !o.Closed {
			t.Errorf("%s %s from %s: %+v", c.board, c.rule, c.start, o)
			continue
		}
		if o.Success {
			checkWalk(t, b, o, r)
		}
		if o.Nodes < int64(o.Length) || (!o.Success && o.BudgetExceeded) {
			t.Errorf("%s %s from %s: nodes %d backtracks %d budget %v", c.board, c.rule, c.start, o.Nodes, o.Backtracks, o.BudgetExceeded)
		}
	}
	// A tiny budget is reported, not silently treated as "no tour".
	b := MustBoard(6, 6)
	r := Rule{Kind: Backtrack, TieBreak: TieFirst, Closed: true, NodeBudget: 10}
	w, _ := NewWalker(b, r)
	if o := w.Walk(0, 0, 0); o.Success || !o.BudgetExceeded || o.Nodes != 10 {
		t.Errorf("budget 10: %+v", o)
	}
	// The walker is reusable after a search: state fully restored.
	r.NodeBudget = 0
	w, _ = NewWalker(b, r)
	for i := 0; i < 3; i++ {
		if o := w.Walk(0, 0, 0); !o.Success {
			t.Fatalf("repeat %d: %+v", i, o)
		}
	}
}

// TestLargeBoardWalk: a 1000x1000 Warnsdorff walk completes and is a valid
// knight path visiting no square twice.
func TestLargeBoardWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("1000x1000: skipped with -short")
	}
	b := MustBoard(1000, 1000)
	r, _ := ParseRule("warnsdorff/random")
	w, _ := NewWalker(b, r)
	w.KeepPaths(true)
	o := w.Walk(0, NewKey(1, b, r, 0), 0)
	checkWalk(t, b, o, r)
	t.Logf("1000x1000 from a corner: length %d of %d, success %v", o.Length, b.Squares(), o.Success)
}
