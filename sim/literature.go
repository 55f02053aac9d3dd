package sim

import (
	"fmt"
	"strconv"
)

// The literature's algorithms as rules (docs/design.md, "The literature's
// algorithms"): Squirrel & Cull's modified Warnsdorff rule, as their 1996
// report states it (Algorithm, pp. 116-118, and Figure 3, "Summary of
// tiebreaking rules", p. 117), and the same algorithm as Ganzfried (2004)
// restates it (Table 1, p. 7, and the pseudocode of pp. 8-9). Each is
// written from its own paper's statement, so that the two implementations
// check each other (TestLiteratureRulesAgree).
//
// The algorithm: Warnsdorff's rule (a square of minimum degree), ties
// broken by a move-ordering, a permutation of the eight move types; the
// ordering changes each time the knight stands on the next "switching
// square" of a table chosen by n mod 8 (and n mod 16 when n ≡ 5 mod 8).
// The papers number squares (i, j), i the row counted from the top, j the
// column, both from 1, and move types 1..8 as (−2,1), (−1,2), (1,2), (2,1),
// (2,−1), (1,−2), (−1,−2), (−2,−1) in (row, column) steps (Ganzfried p. 2,
// S&C Figure 1 and step 1). Here (i, j) is row i−1, column j−1 and a move
// type's steps are the same (row, column) steps: the papers' top-left
// corner (1,1) is a1, and their board is ours turned over top to bottom,
// which changes no tour.
//
// Both start in the corner (1,1); from another start the 1996 algorithm
// leaves the first ordering unset until the walk reaches (1,1) (t = 0,
// (u,v) = (1,1) in its step 1) and Ganzfried's pseudocode uses the first
// ordering from the start. Here squirrel-cull uses the first ordering until
// (1,1) and then proceeds as the 1996 steps do, ganzfried as Ganzfried's
// pseudocode does: two readings, which differ only away from a1.

// scSwitch is one row of the table: a move-ordering and the square where
// the next one takes over ((0,0): the last row, "end").
type scSwitch struct {
	order string // e.g. "34261578": move types, first preferred
	i, j  int    // the switching square, from 1; 0 for end
}

// squirrelCullTable returns Figure 3's rows for an m×m board (Ganzfried's
// Table 1 is the same table, its entries written as (m+9)/2 where Figure 3
// writes (m−1)/2+5).
func squirrelCullTable(m int) []scSwitch {
	switch m % 8 {
	case 0:
		return []scSwitch{{"34261578", m - 1, m - 2}, {"87642135", 2, 2}, {"51867342", m - 8, 1}, {"51342678", 7, m - 3}, {"21435678", 0, 0}}
	case 1:
		return []scSwitch{{"34261578", m - 1, m - 2}, {"87642135", 2, 2}, {"51324678", m - 6, (m-1)/2 + 5}, {"32481765", 0, 0}}
	case 2:
		return []scSwitch{{"34261578", 6, 1}, {"87642135", 3, 1}, {"54132678", m - 15, 4}, {"52431678", 10, m - 2}, {"85647123", 5, m/2 - 3}, {"15746823", 0, 0}}
	case 3:
		return []scSwitch{{"34625718", m - 1, m - 2}, {"42681357", m - 6, m}, {"86512347", 2, 5}, {"51867342", m - 10, 3}, {"61825437", (m-1)/2 + 1, m - 2}, {"71642538", 0, 0}}
	case 4:
		return []scSwitch{{"34261578", m - 1, m - 2}, {"87642135", 2, 2}, {"51867342", m - 8, 1}, {"51342678", 10, m - 5}, {"86753421", 13, m/2 + 1}, {"78563421", 0, 0}}
	case 5:
		// "* If m ≡ 5 mod 16, use (m−2, (m−1)/2−2), else use (m−2, (m−1)/2−6)."
		j := (m-1)/2 - 6
		if m%16 == 5 {
			j = (m-1)/2 - 2
		}
		return []scSwitch{{"34261578", m - 1, m - 2}, {"87642135", 2, 2}, {"51324678", m - 2, j}, {"15234678", 0, 0}}
	case 6:
		return []scSwitch{{"34261578", 6, 1}, {"87642135", 3, 1}, {"54132678", m - 10, 1}, {"52431678", 10, m - 2}, {"85647123", 3, m/2 + 4}, {"12453678", 0, 0}}
	default: // 7
		return []scSwitch{{"34625718", m - 1, m - 2}, {"42681357", m - 6, m}, {"86512347", 2, 5}, {"51867342", m - 6, 3}, {"61825437", (m-1)/2 + 1, m - 2}, {"61357284", 0, 0}}
	}
}

// scMoves are the papers' move types 1..8 as (row, column) steps.
var scMoves = [8]Move{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// orderingMoves turns "34261578" into the moves it prefers, first first.
func orderingMoves(s string) [8]Move {
	var out [8]Move
	for k := range 8 {
		d, _ := strconv.Atoi(s[k : k+1])
		out[k] = scMoves[d-1]
	}
	return out
}

// Stateful is a policy that keeps state along a walk (Squirrel & Cull's
// current move-ordering): the walk calls Begin when it starts on
// p.Current() and Moved after each move, with p showing the new square.
// Exact enumeration merges walks that reach the same visited set and
// square, which a stateful rule may tell apart, so it refuses them; rare
// splitting, which saves and restores walks, does too. The literature's
// stateful rules are deterministic: their one walk decides.
type Stateful interface {
	Policy
	Begin(p *Position)
	Moved(p *Position, sq int)
}

// squareBoardOnly refuses boards the literature's rules are not stated for.
func squareBoardOnly(name string) func(b *Board) error {
	return func(b *Board) error {
		if b.Rows != b.Cols {
			return fmt.Errorf("rule %s is stated for square boards (its switching squares are functions of n for n×n); %s is not square", name, b)
		}
		return nil
	}
}

// squirrelCull follows the 1996 report's steps: a matrix B of degrees,
// decremented for the unvisited neighbours of each square the knight
// reaches (step 5), the ordering T scanned in order with a strict "<"
// (step 5), and the switch when the knight stands on (u,v) (step 4).
type squirrelCull struct {
	b     *Board
	table []scSwitch
	deg   []int8 // B: for an unvisited square, its unvisited neighbours
	vis   []bool
	t     int // rows of the table passed; 0 before (1,1) is reached
	u, v  int // the next switching square, from 1 (−1: none)
	order [8]Move
}

func newSquirrelCull(b *Board) Policy {
	return &squirrelCull{b: b, table: squirrelCullTable(b.Rows), deg: make([]int8, b.Squares()), vis: make([]bool, b.Squares())}
}

func (s *squirrelCull) Begin(p *Position) {
	b := s.b
	for sq := range s.deg {
		s.deg[sq] = int8(b.Degree(sq)) // step 2: B[i,j] = on-board neighbours
		s.vis[sq] = false
	}
	// step 1: t = 0, (u,v) = (1,1); before (1,1) is reached the first
	// ordering (our reading for starts other than (1,1)).
	s.t, s.u, s.v = 0, 1, 1
	s.order = orderingMoves(s.table[0].order)
	s.arrive(p.Current())
}

func (s *squirrelCull) Moved(p *Position, sq int) { s.arrive(sq) }

// arrive is steps 3 and 4 and the decrements of step 5 for the square the
// knight now stands on.
func (s *squirrelCull) arrive(sq int) {
	b := s.b
	s.vis[sq] = true
	r, c := b.RowCol(sq)
	if r+1 == s.u && c+1 == s.v { // step 4
		s.t++
		row := s.table[s.t-1]
		s.order = orderingMoves(row.order)
		s.u, s.v = row.i, row.j
		if row.i == 0 { // the last ordering: (u,v) := (−1,−1)
			s.u, s.v = -1, -1
		}
	}
	for _, m := range scMoves {
		if b.On(r+m.DR, c+m.DC) {
			if t := b.Square(r+m.DR, c+m.DC); !s.vis[t] {
				s.deg[t]--
			}
		}
	}
}

// Allowed is step 5's scan: the first square of least B in the order T.
func (s *squirrelCull) Allowed(p *Position, dst []int) []int {
	b := s.b
	r, c := b.RowCol(p.Current())
	best, z := -1, int8(9)
	for _, m := range s.order {
		if b.On(r+m.DR, c+m.DC) {
			if t := b.Square(r+m.DR, c+m.DC); !s.vis[t] && s.deg[t] < z {
				best, z = t, s.deg[t]
			}
		}
	}
	if best < 0 {
		return dst // step 6: z = 9, the path ends
	}
	return append(dst, best)
}

// ganzfried follows Ganzfried's pseudocode (pp. 8-9): Tour() switches T
// when (x,y) = (u,v) after labelling the square; getNextSquare scans the
// move types in the order of K, computes each candidate's degree afresh,
// and on equal degree keeps whichever of the two moves comes first in T.
type ganzfried struct {
	b     *Board
	table []scSwitch
	t     int // index of the current ordering in the table, from 0
	pos   [8]int
	u, v  int
}

func newGanzfried(b *Board) Policy {
	return &ganzfried{b: b, table: squirrelCullTable(b.Rows)}
}

func (g *ganzfried) setOrdering(t int) {
	g.t = t
	row := g.table[t]
	for k := range 8 { // pos[d] = where move type d+1 stands in T
		d, _ := strconv.Atoi(row.order[k : k+1])
		g.pos[d-1] = k
	}
	g.u, g.v = row.i, row.j // (0,0) for end: never reached
}

func (g *ganzfried) Begin(p *Position) {
	g.setOrdering(0) // T = perms[1], (u,v) = switch[1]
	g.arrive(p.Current())
}

func (g *ganzfried) Moved(p *Position, sq int) { g.arrive(sq) }

func (g *ganzfried) arrive(sq int) {
	r, c := g.b.RowCol(sq)
	if r+1 == g.u && c+1 == g.v && g.t+1 < len(g.table) {
		g.setOrdering(g.t + 1)
	}
}

func (g *ganzfried) Allowed(p *Position, dst []int) []int {
	cur := p.Current()
	q := p.padOf(cur) // the padded layout: off-board squares count as visited
	min, key, best := 9, -1, -1
	for count, m := range scMoves { // K[1..8]
		qt := q + m.DR*p.pc + m.DC
		if p.pad[qt] { // off the board or visited: isLegal && A[x'][y'] == 0 fails
			continue
		}
		t := cur + m.DR*p.board.Cols + m.DC
		deg := 0 // degree(x',y'): its unvisited neighbours, counted afresh
		for _, o := range p.off {
			if !p.pad[qt+o] {
				deg++
			}
		}
		if deg < min {
			min, best, key = deg, t, count
		} else if deg == min && g.pos[count] < g.pos[key] {
			best, key = t, count
		}
	}
	if best < 0 {
		return dst
	}
	return append(dst, best)
}

func init() {
	registry.builtin["squirrel-cull"], registry.builtin["ganzfried"] = true, true
	MustRegister(CustomRule{Name: "squirrel-cull", Doc: "Squirrel & Cull (1996): Warnsdorff's rule, ties by move-orderings switched at squares (their Figure 3), from the 1996 report's steps",
		New: newSquirrelCull, Deterministic: true, Boards: squareBoardOnly("squirrel-cull")})
	MustRegister(CustomRule{Name: "ganzfried", Doc: "Squirrel & Cull's algorithm as Ganzfried (2004) restates it (Table 1 and the pseudocode of pp. 8-9)",
		New: newGanzfried, Deterministic: true, Boards: squareBoardOnly("ganzfried")})
}
