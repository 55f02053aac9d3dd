package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// walkDigest hashes every path of walks 0..walks-1 of rule from every start
// of b, on the fast kernel when general is false and b fits it.
func walkDigest(t *testing.T, b *Board, rule string, general bool, walks int) uint64 {
	t.Helper()
	r, err := ParseRule(rule)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWalker(b, r, general, PathAuto)
	if err != nil {
		t.Fatal(err)
	}
	w.KeepPaths(true)
	h := uint64(0xcbf29ce484222325)
	for s := 0; s < b.Squares(); s++ {
		key := NewKey(7, b, r, s)
		for i := 0; i < walks; i++ {
			for _, p := range w.Walk(s, key, uint64(i)).Path {
				h = Mix64(h ^ uint64(p))
			}
			h = Mix64(h ^ 0xffff)
		}
	}
	return h
}

// TestSingleTieBreaksUnchanged pins the walks of the single tie-break names
// to digests computed with the code before tie-break chains existed: the
// chains must leave every existing rule's walks, and so its random stream,
// bit-identical.
func TestSingleTieBreaksUnchanged(t *testing.T) {
	for _, c := range []struct {
		board   string
		general bool
		rule    string
		want    uint64
	}{
		{"8x8", false, "random", 0x3d23985b6667756f},
		{"8x8", false, "warnsdorff/random", 0xf42cd6ca7ef6d4a6},
		{"8x8", false, "warnsdorff/first", 0xf9ed8fea9a4e2463},
		{"8x8", false, "warnsdorff/pohl", 0x6f34d45d927fedd8},
		{"8x8", false, "warnsdorff/roth", 0xa61c0432c6059e71},
		{"8x8", true, "random", 0x3d23985b6667756f},
		{"8x8", true, "warnsdorff/random", 0xf42cd6ca7ef6d4a6},
		{"8x8", true, "warnsdorff/first", 0xf9ed8fea9a4e2463},
		{"8x8", true, "warnsdorff/pohl", 0x6f34d45d927fedd8},
		{"8x8", true, "warnsdorff/roth", 0xa61c0432c6059e71},
		{"10x10", true, "random", 0x37564972bd0c47fb},
		{"10x10", true, "warnsdorff/random", 0x58a963f3c6ce6d7a},
		{"10x10", true, "warnsdorff/first", 0xfc8cc029d6aa759b},
		{"10x10", true, "warnsdorff/pohl", 0xa718bf4f381b5086},
		{"10x10", true, "warnsdorff/roth", 0xc190e46ecf85e7ea},
		{"5x7", true, "random", 0xbefcbb0ea61bb6f1},
		{"5x7", true, "warnsdorff/random", 0x7565be199ff95d62},
		{"5x7", true, "warnsdorff/first", 0x54da89f2f655a071},
		{"5x7", true, "warnsdorff/pohl", 0x3e990889021ebc80},
		{"5x7", true, "warnsdorff/roth", 0x12f352138b9510b1},
	} {
		b, _ := ParseBoard(c.board)
		if got := walkDigest(t, b, c.rule, c.general, 20); got != c.want {
			t.Errorf("%s %s (general %v): digest %#x, pinned %#x: the walks changed", c.board, c.rule, c.general, got, c.want)
		}
	}
}

func TestTieBreakParsing(t *testing.T) {
	for _, c := range []struct{ in, name string }{
		{"random", "random"}, {"first", "first"}, {"pohl", "pohl"}, {"roth", "roth"},
		{"pohl+random", "pohl"}, {"roth+random", "roth"},
		{"pohl+first", "pohl+first"}, {"roth+first", "roth+first"},
		{"pohl+roth+random", "pohl+roth+random"}, {"roth+pohl+first", "roth+pohl+first"},
	} {
		tb, err := ParseTieBreak(c.in)
		if err != nil || tb.String() != c.name {
			t.Errorf("ParseTieBreak(%q) = %v, %v; want %s", c.in, tb, err, c.name)
		}
	}
	// The single names keep their values, and so their rule names and keys.
	for tb, name := range map[TieBreak]string{TieRandom: "random", TieFirst: "first", TiePohl: "pohl", TieRoth: "roth"} {
		if got, _ := ParseTieBreak(name); got != tb {
			t.Errorf("ParseTieBreak(%s) = %d, want %d", name, got, tb)
		}
	}
	r, _ := ParseRule("warnsdorff/pohl+random")
	if r.Name() != "warnsdorff/pohl" || FNV1a64(r.Name()) != fnvRef("warnsdorff/pohl") {
		t.Errorf("warnsdorff/pohl+random is named %s; want warnsdorff/pohl, the same streams", r.Name())
	}
	// Every chain's rule name is distinct, so its key and streams are too.
	seen := map[uint64]string{}
	all := []string{"random", "backtrack", "backtrack/closed"}
	for _, n := range tieBreakNames() {
		all = append(all, "warnsdorff/"+n)
	}
	for _, name := range all {
		if h := FNV1a64(name); seen[h] != "" {
			t.Errorf("%s and %s hash alike", name, seen[h])
		} else {
			seen[h] = name
		}
	}
	names := tieBreakNames()
	// Ordered choices of distinct refining steps from 4 (pohl, roth,
	// pohlmin, pohlmin-before): 1 + 4 + 12 + 24 + 24 = 65, each ended by
	// random or first.
	if len(names) != 130 {
		t.Errorf("tieBreakNames() = %v (%d): want 130, every ordered choice of distinct refining steps (pohl, roth, pohlmin, pohlmin-before) ended by random or first", names, len(names))
	}
	// The chains that existed before pohlmin-before keep their indices
	// (the first 32, pohlmin+random at 30, pohlmin+first at 31 among them).
	for i, n := range names[:32] {
		if strings.Contains(n, "pohlmin-before") {
			t.Errorf("chain %d is %s: the chains without pohlmin-before must come first", i, n)
		}
	}
	for _, n := range names {
		tb, err := ParseTieBreak(n)
		if err != nil || tb.String() != n {
			t.Errorf("%s does not round-trip: %v, %v", n, tb, err)
		}
		if want := strings.HasSuffix(n, "random") || n == "pohl" || n == "roth"; tb.Draws() != want || tb.UsesOrder() != strings.HasSuffix(n, "first") {
			t.Errorf("%s: Draws() = %v, UsesOrder() = %v", n, tb.Draws(), tb.UsesOrder())
		}
	}
	for bad, why := range map[string]string{
		"coin":            `unknown tie-break "coin"`,
		"roth+coin":       `unknown tie-break "coin"`,
		"":                "empty step",
		"roth++first":     "empty step",
		"pohl+roth":       "must end in random or first",
		"roth+roth+first": "roth appears twice",
		"first+roth":      "first decides alone",
		"random+first":    "random decides alone",
		"Roth+first":      `unknown tie-break "Roth"`,
	} {
		_, err := ParseTieBreak(bad)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "valid tie-breaks are random, first, pohl, roth") {
			t.Errorf("ParseTieBreak(%q) = %v; want an error saying %q and listing what is valid", bad, err, why)
		}
	}
	if _, err := ParseRule("warnsdorff/pohl+roth"); err == nil || !strings.Contains(err.Error(), "valid") {
		t.Errorf("ParseRule(warnsdorff/pohl+roth) = %v", err)
	}
	bt := Rule{Kind: Backtrack, TieBreak: mustTie(t, "roth+first")}
	if err := bt.Validate(); err == nil {
		t.Error("backtrack with roth+first: want an error")
	}
}

func mustTie(t *testing.T, s string) TieBreak {
	t.Helper()
	tb, err := ParseTieBreak(s)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// chainRules lists the Warnsdorff rules with a chain beyond the single names.
func chainRules() []string {
	var out []string
	for _, n := range tieBreakNames() {
		// Chains of at most two refining steps, and of pohlmin only the
		// chains that pair it once with each other step: a third step, or
		// every ordering of pohlmin's pairs, adds no new interaction and
		// would only multiply the run time.
		pohlmin := map[string]bool{"pohlmin+random": true, "pohlmin+first": true, "pohl+pohlmin+first": true, "pohlmin+roth+random": true,
			"pohlmin-before+random": true, "pohlmin-before+first": true, "pohlmin-before+roth+first": true, "pohlmin+pohlmin-before+first": true}
		if strings.Contains(n, "+") && strings.Count(n, "+") <= 2 && (!strings.Contains(n, "pohlmin") || pohlmin[n]) {
			out = append(out, "warnsdorff/"+n)
		}
	}
	return out
}

// refAllowed is a plain reference for a Warnsdorff chain, written from the
// definitions with the Board API alone: the squares the rule allows from
// cur given visited (more than one only where the chain ends in random).
// nbrs[sq] lists sq's neighbours.
func refAllowed(b *Board, r Rule, nbrs [][]int, visited []bool, cur int) []int {
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
	order := r.order()
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
				return slices.Index(order, Move{row - cr, col - cc})
			})
		}
	}
	return cand
}

// TestChainsFollowReference replays walks of every chain on both kernels
// against refAllowed: each step must go to an allowed square, and must be
// forced where the reference allows one. (Package exact holds its
// enumerator to the same reference along the same walks.)
func TestChainsFollowReference(t *testing.T) {
	orders := [][]Move{nil, {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}}
	for _, board := range []string{"5x5", "6x6", "8x8", "7x9", "3x4", "11x11"} {
		b, _ := ParseBoard(board)
		for _, name := range chainRules() {
			for _, order := range orders {
				r, _ := ParseRule(name)
				r.Order = order
				for _, general := range []bool{false, true} {
					if !general && b.Squares() > 64 {
						continue
					}
					w, _ := newWalker(b, r, general, PathAuto)
					w.KeepPaths(true)
					walks := 1
					if r.TieBreak.Draws() {
						walks = 5
					}
					for s := 0; s < b.Squares(); s++ {
						key := NewKey(3, b, r, s)
						for i := 0; i < walks; i++ {
							o := w.Walk(s, key, uint64(i))
							checkWalk(t, b, o, r)
							checkAgainstRef(t, b, r, o)
						}
					}
				}
			}
		}
	}
}

func checkAgainstRef(t *testing.T, b *Board, r Rule, o Outcome) {
	t.Helper()
	visited := make([]bool, b.Squares())
	nbrs := make([][]int, b.Squares())
	for sq := range nbrs {
		nbrs[sq] = b.Neighbours(nil, sq)
	}
	for i, p := range o.Path {
		visited[p] = true
		allowed := refAllowed(b, r, nbrs, visited, int(p))
		if i+1 == len(o.Path) {
			if len(allowed) != 0 {
				t.Fatalf("%s %s from %s: walk stops at %s with moves left", b, r, b.SquareName(o.Start), b.SquareName(int(p)))
			}
			return
		}
		next := int(o.Path[i+1])
		if !slices.Contains(allowed, next) || len(allowed) > 1 && !r.TieBreak.Draws() {
			t.Fatalf("%s %s order %v from %s, step %d: went to %s, reference allows %v", b, r, r.Order, b.SquareName(o.Start), i+1, b.SquareName(next), allowed)
		}
	}
}

// TestKernelsAgreeChains is TestKernelsAgree for the chains.
func TestKernelsAgreeChains(t *testing.T) {
	for _, bs := range [][2]int{{1, 5}, {3, 4}, {5, 5}, {4, 7}, {6, 6}, {8, 8}, {2, 32}, {8, 7}} {
		b := MustBoard(bs[0], bs[1])
		for _, name := range chainRules() {
			r, _ := ParseRule(name)
			fw, _ := NewWalker(b, r)
			gw, _ := NewGeneralWalker(b, r)
			fw.KeepPaths(true)
			gw.KeepPaths(true)
			for start := 0; start < b.Squares(); start++ {
				key := NewKey(42, b, r, start)
				for w := uint64(0); w < 10; w++ {
					a, g := fw.Walk(start, key, w), gw.Walk(start, key, w)
					if !slices.Equal(a.Path, g.Path) || fmt.Sprint(a) != fmt.Sprint(g) {
						t.Fatalf("%s %s start %s walk %d:\nfast    %+v\ngeneral %+v", b, name, b.SquareName(start), w, a, g)
					}
				}
			}
		}
	}
}

// tieBreakNames lists every tie-break name ParseTieBreak accepts in its
// canonical spelling.
func tieBreakNames() []string {
	out := make([]string, len(tieChains))
	for i := range tieChains {
		out[i] = TieBreak(i).String()
	}
	return out
}
