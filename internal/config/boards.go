package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/knightwalk/knightwalk/sim"
)

// size is a board's shape before the board is built.
type size struct{ rows, cols int }

func (s size) String() string { return fmt.Sprintf("%dx%d", s.rows, s.cols) }

// The geometry below needs only rows and cols, so validation can reason
// about 4096x4096 boards without building their knight graphs.

func (s size) on(p rc) bool { return p.r >= 0 && p.r < s.rows && p.c >= 0 && p.c < s.cols }

// square returns the square index of p, as sim.Board.Square numbers it.
func (s size) square(p rc) int { return p.r*s.cols + p.c }

func (s size) rc(sq int) rc { return rc{sq / s.cols, sq % s.cols} }

func (s size) class(p rc) sim.Class { return sim.ClassAt(s.rows, s.cols, p.r, p.c) }

// parseSquare reads a square name on a board of size s.
func (s size) parseSquare(name string) (rc, error) {
	r, c, err := sim.ParseSquareAt(s.rows, s.cols, name)
	return rc{r, c}, err
}

// fits reports whether sim.NewBoard accepts the size.
func (s size) fits() bool {
	return s.rows >= 1 && s.cols >= 1 && s.rows <= sim.MaxSide && s.cols <= sim.MaxSide && s.rows*s.cols <= sim.MaxSquares
}

// sizeError returns sim.NewBoard's error for a size that does not fit.
func (s size) sizeError() error {
	if s.fits() {
		return nil
	}
	_, err := sim.NewBoard(s.rows, s.cols)
	return err
}

const boardForms = "8x8, 8, {sizes: 5..60}, {from: 5, to: 60, step: 5} or {rows: 5..10, cols: 8}"

// sizes expands the boards of c in order, without duplicates, reporting
// problems to k (which may be nil).
func (c *Config) sizes(k *checker) []size {
	var out []size
	seen := map[size]bool{}
	for i, b := range c.Boards {
		for _, s := range b.expand(k, fmt.Sprintf("boards[%d]", i)) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	if len(out) > MaxBoards {
		k.errorf("boards", "%d boards; at most %d per experiment", len(out), MaxBoards)
		out = out[:MaxBoards]
	}
	return out
}

// expand returns the sizes of one board item, or none if it has a problem.
func (b BoardSpec) expand(k *checker, key string) []size {
	scalar, sizes, fromTo, rowsCols := b.Size != "", b.Sizes != "", b.From != 0 || b.To != 0, b.Rows != "" || b.Cols != ""
	forms := 0
	for _, f := range []bool{scalar, sizes, fromTo, rowsCols} {
		if f {
			forms++
		}
	}
	switch {
	case forms == 0:
		k.errorf(key, "empty; want %s", boardForms)
		return nil
	case forms > 1:
		k.errorf(key, "mixes board forms; want one of %s", boardForms)
		return nil
	}
	step := b.Step
	switch {
	case step < 0 || step == 0 && b.stepGiven:
		k.errorf(key+".step", "%d; want a step of at least 1 (leave it out for 1)", step)
		return nil
	case step != 0 && scalar:
		k.errorf(key+".step", "a single board has no step")
		return nil
	case step == 0:
		step = 1
	}

	var rows, cols span
	switch {
	case scalar:
		s, ok := parseSize(b.Size)
		if !ok {
			k.errorf(key, "%q is not a board; want ROWSxCOLS such as 8x8, or N for NxN", b.Size)
			return nil
		}
		rows, cols = span{s.rows, s.rows}, span{s.cols, s.cols}
	case sizes:
		sp, ok := parseSpan(b.Sizes)
		if !ok {
			k.errorf(key+".sizes", "%q is not a size range; want N or LO..HI, e.g. 5..60", b.Sizes)
			return nil
		}
		rows, cols = sp, sp
	case fromTo:
		if b.From == 0 || b.To == 0 {
			missing := "to"
			if b.From == 0 {
				missing = "from"
			}
			k.errorf(key, "%s is missing; want e.g. {from: 5, to: 60, step: 5}", missing)
			return nil
		}
		rows = span{b.From, b.To}
		cols = rows
	case rowsCols:
		if b.Rows == "" || b.Cols == "" {
			missing := "cols"
			if b.Rows == "" {
				missing = "rows"
			}
			k.errorf(key, "%s is missing; want e.g. {rows: 5..10, cols: 8}", missing)
			return nil
		}
		var ok bool
		if rows, ok = parseSpan(b.Rows); !ok {
			k.errorf(key+".rows", "%q is not a size or range; want N or LO..HI, e.g. 5..10", b.Rows)
			return nil
		}
		if cols, ok = parseSpan(b.Cols); !ok {
			k.errorf(key+".cols", "%q is not a size or range; want N or LO..HI, e.g. 5..10", b.Cols)
			return nil
		}
	}
	for _, sp := range []span{rows, cols} {
		if sp.lo > sp.hi {
			k.errorf(key, "range %d..%d is empty; want LO ≤ HI", sp.lo, sp.hi)
			return nil
		}
	}
	// sim's limits are monotone in each side, so the smallest and the
	// largest board decide. The smallest goes first: once it fits, the
	// arithmetic on the largest cannot overflow.
	if err := (size{rows.lo, cols.lo}).sizeError(); err != nil {
		k.errorf(key, "%v", err)
		return nil
	}
	if err := (size{rows.last(step), cols.last(step)}).sizeError(); err != nil {
		k.errorf(key, "%v", err)
		return nil
	}
	nr, nc := rows.count(step), cols.count(step)
	if square := sizes || fromTo; square {
		if nr > MaxBoards {
			k.errorf(key, "%d boards; at most %d per experiment", nr, MaxBoards)
			return nil
		}
		out := make([]size, nr)
		for i := range out {
			n := rows.lo + i*step
			out[i] = size{n, n}
		}
		return out
	}
	if nr*nc > MaxBoards {
		k.errorf(key, "%d boards; at most %d per experiment", nr*nc, MaxBoards)
		return nil
	}
	var out []size
	for i := range nr {
		for j := range nc {
			out = append(out, size{rows.lo + i*step, cols.lo + j*step})
		}
	}
	return out
}

// span is an inclusive range of side lengths.
type span struct{ lo, hi int }

func (s span) count(step int) int { return (s.hi-s.lo)/step + 1 }
func (s span) last(step int) int  { return s.lo + (s.hi-s.lo)/step*step }

// parseSpan reads "N" or "LO..HI".
func parseSpan(s string) (span, bool) {
	lo, hi, isRange := strings.Cut(s, "..")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	if !isRange {
		return span{a, a}, err1 == nil
	}
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	return span{a, b}, err1 == nil && err2 == nil
}

// parseSize reads "8x8" (as sim.ParseBoardSize does) or "8" for 8x8.
func parseSize(s string) (size, bool) {
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return size{n, n}, true
	}
	r, c, err := sim.ParseBoardSize(s)
	return size{r, c}, err == nil
}

// degree returns the knight degree of (r, c) on an empty board of size s.
func (s size) degree(r, c int) int { return sim.KnightDegree(s.rows, s.cols, r, c) }

// classCount returns the number of squares of class cl.
func (s size) classCount(cl sim.Class) int { return sim.ClassCount(s.rows, s.cols, cl) }

// band returns the squares at most d from an edge (min(r, c, rows-1-r,
// cols-1-c) <= d), row by row: O(d·(rows+cols)) squares, not rows·cols.
func (s size) band(d int) []rc {
	var out []rc
	for r := range s.rows {
		if r <= d || r >= s.rows-1-d {
			for c := range s.cols {
				out = append(out, rc{r, c})
			}
			continue
		}
		for c := 0; c <= d && c < s.cols; c++ {
			out = append(out, rc{r, c})
		}
		for c := max(d+1, s.cols-1-d); c < s.cols; c++ {
			out = append(out, rc{r, c})
		}
	}
	return out
}

// corners returns the four corner squares (fewer distinct ones on a board
// one square wide; pick removes the repeats).
func (s size) corners() []rc {
	return []rc{{0, 0}, {0, s.cols - 1}, {s.rows - 1, 0}, {s.rows - 1, s.cols - 1}}
}

// centre returns the squares that can be of class centre: the middle
// row(s) by the middle column(s) (sim.Board.Class decides which are).
func (s size) centre() []rc {
	var out []rc
	for _, r := range []int{(s.rows - 1) / 2, s.rows / 2} {
		for _, c := range []int{(s.cols - 1) / 2, s.cols / 2} {
			out = append(out, rc{r, c})
		}
	}
	return out
}

// representatives returns squares that between them show every (class,
// degree) pair the board has: class and degree depend on a row only through
// its distance from the nearer edges (capped at 2) and whether it is a
// centre row, and every such kind of row is among rows 0-3, the last four
// and the centre rows; likewise for columns.
func (s size) representatives() []int {
	pick := func(n int) []int {
		var out []int
		seen := map[int]bool{}
		for _, v := range []int{0, 1, 2, 3, n - 4, n - 3, n - 2, n - 1, (n - 1) / 2, n - 1 - (n-1)/2} {
			if v >= 0 && v < n && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		return out
	}
	var sqs []int
	for _, r := range pick(s.rows) {
		for _, c := range pick(s.cols) {
			sqs = append(sqs, r*s.cols+c)
		}
	}
	return sqs
}
