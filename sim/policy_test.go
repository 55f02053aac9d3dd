package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinPoliciesMatchKernels holds every kernel to the rules'
// definitions: each built-in walk rule's Policy (written from the
// definition, walked by the policy kernel) and its kernel (fast or general,
// on this CPU's path) walk the same walks from the same streams, paths and
// tie counts included. This is what makes the Policy interface the rules'
// contract rather than a second implementation.
func TestBuiltinPoliciesMatchKernels(t *testing.T) {
	rules := []string{"random", "warnsdorff/random", "warnsdorff/first", "warnsdorff/pohl", "warnsdorff/roth",
		"warnsdorff/roth+first", "warnsdorff/pohl+roth+random", "warnsdorff/pohlmin+first", "warnsdorff/pohlmin-before+random",
		"warnsdorff/corner+first", "warnsdorff/edge", "warnsdorff/edge+corner+random", "warnsdorff/pohl+corner+first",
		"warnsdorff/lookahead2+first", "warnsdorff/lookahead3", "warnsdorff/lookahead4+roth+first", "warnsdorff/corner+lookahead2+random"}
	boards := [][2]int{{3, 4}, {4, 3}, {5, 5}, {6, 6}, {5, 9}, {8, 8}, {4, 16}, {9, 9}, {10, 10}, {12, 11}}
	reversed := slices.Clone(CanonicalMoves[:])
	slices.Reverse(reversed)
	for _, bs := range boards {
		b := MustBoard(bs[0], bs[1])
		for _, name := range rules {
			for _, variant := range []string{"", "max5", "order", "mod8"} {
				r, err := ParseRule(name)
				if err != nil {
					t.Fatal(err)
				}
				switch variant {
				case "max5":
					r.MaxSteps = 5
				case "order":
					if !r.TieBreak.UsesOrder() || r.Kind != Warnsdorff {
						continue
					}
					r.Order = reversed
				case "mod8": // this board's residue reversed, another's rotated: the board's must be used
					if !r.TieBreak.UsesOrder() || r.Kind != Warnsdorff || b.Rows != b.Cols {
						continue
					}
					r.OrdersMod8[b.Rows%8] = reversed
					r.OrdersMod8[(b.Rows+1)%8] = append(slices.Clone(CanonicalMoves[1:]), CanonicalMoves[0])
				}
				kw, err := NewWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				pw, err := NewPolicyWalker(b, r)
				if err != nil {
					t.Fatal(err)
				}
				kw.KeepPaths(true)
				pw.KeepPaths(true)
				for start := 0; start < b.Squares(); start += 1 + b.Squares()/12 {
					key := NewKey(7, b, r, start)
					for w := range uint64(12) {
						a, p := kw.Walk(start, key, w), pw.Walk(start, key, w)
						if !slices.Equal(a.Path, p.Path) || fmt.Sprint(a) != fmt.Sprint(p) {
							t.Fatalf("%s %s %s start %s walk %d:\nkernel %+v\npolicy %+v", b, r.Name(), variant, b.SquareName(start), w, a, p)
						}
					}
				}
			}
		}
	}
}

// degreeSum2 is the example rule of docs/rules.md: Warnsdorff's minimum degree,
// ties kept by the smallest sum of degrees two moves ahead, the rest drawn.
type degreeSum2 struct{ buf, buf2 []int }

func (d *degreeSum2) Allowed(p *Position, dst []int) []int {
	d.buf = p.Moves(p.Current(), d.buf[:0])
	best, bestSum := 9, 0
	start := len(dst)
	for _, sq := range d.buf {
		deg := p.Degree(sq)
		sum := 0
		d.buf2 = p.Moves(sq, d.buf2[:0])
		for _, t := range d.buf2 {
			sum += p.Degree(t)
		}
		switch {
		case deg < best || deg == best && sum < bestSum:
			best, bestSum = deg, sum
			dst = append(dst[:start], sq)
		case deg == best && sum == bestSum:
			dst = append(dst, sq)
		}
	}
	return dst
}

func registerOnce(t testing.TB, c CustomRule) {
	t.Helper()
	if _, ok := lookupCustom(c.Name); ok {
		return
	}
	if err := Register(c); err != nil {
		t.Fatal(err)
	}
}

func TestRegisterRefusesCollisions(t *testing.T) {
	newp := func(*Board) Policy { return &degreeSum2{} }
	for _, name := range []string{"random", "warnsdorff", "warnsdorff/mine", "backtrack/closed", "randomish", "", "two words"} {
		if err := Register(CustomRule{Name: name, New: newp}); err == nil {
			t.Errorf("Register(%q) accepted", name)
		}
	}
	registerOnce(t, CustomRule{Name: "test/dup", New: newp})
	err := Register(CustomRule{Name: "test/dup", New: newp})
	if err == nil || !strings.Contains(err.Error(), "registered already") {
		t.Errorf("second Register: %v", err)
	}
	if err := Register(CustomRule{Name: "test/nil"}); err == nil {
		t.Error("Register with nil New accepted")
	}
}

// TestCustomRuleWalks: a rule of your own walks valid walks, its name
// parses as a rule, the same stream gives the same walk, and its exact
// success probability (small board; package exact's TestExactCustomRule
// enumerates it) lies inside a 99.9 % interval of its Monte Carlo
// estimate.
func TestCustomRuleWalks(t *testing.T) {
	registerOnce(t, CustomRule{Name: "test/degree-sum2", New: func(*Board) Policy { return &degreeSum2{} }})
	r, err := ParseRule("test/degree-sum2")
	if err != nil || r.Kind != Custom || r.Name() != "test/degree-sum2" {
		t.Fatalf("ParseRule: %+v %v", r, err)
	}
	b := MustBoard(7, 7)
	const (
		start  = 2         // c1
		pExact = 61.0 / 72 // its P(success) from c1, as exact.Walk enumerates it
	)
	w, err := NewWalker(b, r)
	if err != nil {
		t.Fatal(err)
	}
	w.KeepPaths(true)
	key := NewKey(1, b, r, start)
	const n = 20000
	succ := 0
	for i := range uint64(n) {
		o := w.Walk(start, key, i)
		checkWalk(t, b, o, r)
		if o.Success {
			succ++
		}
		if i < 5 {
			if again := w.Walk(start, key, i); !slices.Equal(again.Path, o.Path) {
				t.Fatal("same stream, different walk")
			}
		}
	}
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	phat := float64(succ) / n
	half := 3.29 * math.Sqrt(pExact*(1-pExact)/n)
	if math.Abs(phat-pExact) > half+1e-12 {
		t.Errorf("7x7 c1: %d/%d = %.4f, exact %.6f outside ±%.4f", succ, n, phat, pExact, half)
	}
}

// TestBadPolicyRefused: a policy's answer that no walk may take stops the
// walk with a RuleError naming the rule, the square and the position.
func TestBadPolicyRefused(t *testing.T) {
	cases := []struct {
		name string
		pol  PolicyFunc
		det  bool
		want string
	}{
		{"test/off-board", func(p *Position, dst []int) []int { return append(dst, -3) }, false, "off the board"},
		{"test/not-knight", func(p *Position, dst []int) []int {
			if p.Current()+1 < p.Board().Squares() {
				return append(dst, p.Current()+1)
			}
			return dst
		}, false, "not a knight's move"},
		{"test/visited", func(p *Position, dst []int) []int {
			if p.VisitedCount() > 2 {
				return append(dst, p.Start()) // not a neighbour, or visited
			}
			return p.Moves(p.Current(), dst)
		}, false, ""},
		{"test/twice", func(p *Position, dst []int) []int {
			m := p.Moves(p.Current(), nil)
			if len(m) > 0 {
				return append(dst, m[0], m[0])
			}
			return dst
		}, false, "twice"},
		{"test/not-det", func(p *Position, dst []int) []int { return p.Moves(p.Current(), dst) }, true, "deterministic"},
	}
	b := MustBoard(8, 8)
	for _, c := range cases {
		registerOnce(t, CustomRule{Name: c.name, New: func(*Board) Policy { return c.pol }, Deterministic: c.det})
		r, _ := ParseRule(c.name)
		// refused at the first use (the guard's replay) or by the walk
		w, err := NewWalker(b, r)
		var o Outcome
		if err == nil {
			key := NewKey(1, b, r, 0)
			for i := range uint64(50) {
				if o = w.Walk(27, key, i); w.Stopped() {
					break
				}
			}
			if !w.Stopped() {
				t.Fatalf("%s: not stopped: %+v", c.name, o)
			}
			err = w.Err()
		}
		var re *RuleError
		if !errors.As(err, &re) {
			t.Fatalf("%s: not refused: %+v %v", c.name, o, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, c.name) || !strings.Contains(msg, "8x8 board, on ") || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %s", c.name, msg)
		}
		if err := choicesErr(MustBoard(5, 5), r, 0); err == nil || !errors.As(err, &re) {
			t.Errorf("%s: choices: %v", c.name, err)
		}
	}
}

// TestCornerEdgeCriteria: the corner and edge tie-breaks' scores from
// their definitions, their names, and that they decide ties (a chain with
// them walks differently from one without).
func TestCornerEdgeCriteria(t *testing.T) {
	b := MustBoard(5, 7)
	for _, c := range []struct {
		sq           string
		corner, edge int
	}{{"a1", 0, 0}, {"b3", 5, 1}, {"d3", 13, 2}, {"g5", 0, 0}, {"f4", 2, 1}, {"c2", 5, 1}} {
		sq, _ := b.ParseSquare(c.sq)
		if got := b.CornerDist2(sq); got != c.corner {
			t.Errorf("%s CornerDist2 = %d, want %d", c.sq, got, c.corner)
		}
		if got := b.EdgeDist(sq); got != c.edge {
			t.Errorf("%s EdgeDist = %d, want %d", c.sq, got, c.edge)
		}
	}
	for _, name := range []string{"corner", "edge+first", "corner+edge+random", "pohl+corner+first"} {
		tb, err := ParseTieBreak(name)
		if err != nil {
			t.Fatal(err)
		}
		want := name
		if name == "corner" {
			want = "corner+random"
		}
		if tb.String() != want {
			t.Errorf("%s: named %s", name, tb)
		}
		if again, _ := ParseTieBreak(want); again != tb {
			t.Errorf("%s parsed twice: %d and %d", name, tb, again)
		}
	}
	if _, err := ParseTieBreak("corner+corner+first"); err == nil {
		t.Error("a criterion twice accepted")
	}
	// Each new step against first alone: it must change some walks.
	for _, chain := range []string{"corner+first", "edge+first", "lookahead2+first", "lookahead3+first", "lookahead4+first"} {
		differ := 0
		for _, n := range []int{8, 12, 20} {
			b := MustBoard(n, n)
			a, _ := ParseRule("warnsdorff/first")
			c, _ := ParseRule("warnsdorff/" + chain)
			wa, _ := NewWalker(b, a)
			wc, _ := NewWalker(b, c)
			wa.KeepPaths(true)
			wc.KeepPaths(true)
			for start := range b.Squares() {
				if !slices.Equal(wa.Walk(start, NewKey(0, b, a, start), 0).Path, wc.Walk(start, NewKey(0, b, c, start), 0).Path) {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Errorf("%s walks exactly as first from every start: the step decides nothing", chain)
		}
	}
}

// TestOrdersMod8: a rule with a move order for n mod 8 uses it on n×n
// boards of that residue, and Order elsewhere.
func TestOrdersMod8(t *testing.T) {
	r, _ := ParseRule("warnsdorff/first")
	rev := slices.Clone(CanonicalMoves[:])
	slices.Reverse(rev)
	r.OrdersMod8[3] = rev
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := r.OrderOn(MustBoard(11, 11)); !slices.Equal(got, rev) {
		t.Errorf("11x11: %v", got)
	}
	for _, b := range []*Board{MustBoard(8, 8), MustBoard(11, 12)} {
		if got := r.OrderOn(b); !slices.Equal(got, CanonicalMoves[:]) {
			t.Errorf("%s: %v", b, got)
		}
	}
	walk := func(r Rule, n int) []int32 {
		b := MustBoard(n, n)
		w, _ := NewWalker(b, r)
		w.KeepPaths(true)
		return w.Walk(0, NewKey(0, b, r, 0), 0).Path
	}
	plain, _ := ParseRule("warnsdorff/first")
	byOrder := plain
	byOrder.Order = rev
	if !slices.Equal(walk(r, 11), walk(byOrder, 11)) || !slices.Equal(walk(r, 12), walk(plain, 12)) {
		t.Error("the residue's order is not the one walked")
	}
	bad := r
	bad.OrdersMod8[5] = CanonicalMoves[:7]
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "n mod 8 = 5") {
		t.Errorf("bad order: %v", err)
	}
	random, _ := ParseRule("warnsdorff/random")
	random.OrdersMod8[0] = rev
	if err := random.Validate(); err == nil {
		t.Error("orders by n mod 8 on a rule that draws its ties accepted")
	}
}

// TestMovesAnswerShortcut: on the padded layout (boards past 128 squares)
// the kernel takes an answer that is exactly Moves(Current()) of the
// present position without checking each square. An answer made from that
// slice by reordering it in place still walks the random walk (sorted
// first), and one with a square replaced in place by a visited one is
// still refused.
func TestMovesAnswerShortcut(t *testing.T) {
	registerOnce(t, CustomRule{Name: "test/moves-reversed", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			dst = p.Moves(p.Current(), dst)
			slices.Reverse(dst)
			return dst
		})
	}})
	registerOnce(t, CustomRule{Name: "test/moves-visited", New: func(*Board) Policy {
		return PolicyFunc(func(p *Position, dst []int) []int {
			dst = p.Moves(p.Current(), dst)
			if p.VisitedCount() > 30 && len(dst) > 1 {
				dst[0] = p.Start() // visited, and no neighbour
			}
			return dst
		})
	}})
	b := MustBoard(13, 17)
	rnd, _ := ParseRule("random")
	rev, _ := ParseRule("test/moves-reversed")
	kw, _ := NewWalker(b, rnd)
	ow, err := NewWalker(b, rev)
	if err != nil {
		t.Fatal(err)
	}
	kw.KeepPaths(true)
	ow.KeepPaths(true)
	key := NewKey(3, b, rnd, 5)
	for i := range uint64(300) {
		if ko, oo := kw.Walk(5, key, i), ow.Walk(5, key, i); !slices.Equal(ko.Path, oo.Path) {
			t.Fatalf("walk %d: random %v, reversed Moves %v (%v)", i, ko.Path, oo.Path, ow.Err())
		}
	}
	bad, _ := ParseRule("test/moves-visited")
	w, err := NewWalker(b, bad)
	if err == nil {
		for i := range uint64(300) {
			if w.Walk(5, NewKey(3, b, bad, 5), i); w.Stopped() {
				break
			}
		}
		err = w.Err()
	}
	var re *RuleError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "test/moves-visited") {
		t.Fatalf("an answer with a visited square was not refused: %v", err)
	}
}
