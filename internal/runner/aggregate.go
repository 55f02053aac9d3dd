package runner

import (
	"fmt"
	"sort"
	"strconv"

	"knightwalk/sim"
	"knightwalk/stats"
)

// ClaimSpec is one claim of an experiment file, resolved.
type ClaimSpec struct {
	ID, Source string
	Rule       string // rule name, e.g. warnsdorff/random
	Board      string // "8x8"; "" for every board of the experiment
	Target     string // "class:centre", "square:d4" or "degree:8"
	Claim      stats.Claim
}

// Group is a set of start squares pooled into one aggregate.
type Group struct {
	By      string // "class" or "degree"
	Name    string // "corner", "8", ...
	Squares []int
}

// ClassGroups returns the start squares of starts grouped by class (in
// report order) and by degree (ascending), leaving out empty groups.
func ClassGroups(b *sim.Board, starts []int) []Group {
	var out []Group
	for _, c := range sim.Classes {
		g := Group{By: "class", Name: c.String()}
		for _, s := range starts {
			if b.Class(s) == c {
				g.Squares = append(g.Squares, s)
			}
		}
		if len(g.Squares) > 0 {
			out = append(out, g)
		}
	}
	byDeg := map[int][]int{}
	for _, s := range starts {
		byDeg[b.Degree(s)] = append(byDeg[b.Degree(s)], s)
	}
	degs := make([]int, 0, len(byDeg))
	for d := range byDeg {
		degs = append(degs, d)
	}
	sort.Ints(degs)
	for _, d := range degs {
		out = append(out, Group{By: "degree", Name: strconv.Itoa(d), Squares: byDeg[d]})
	}
	return out
}

// TargetSquares returns the squares of starts that a claim target
// ("class:centre", "square:d4", "degree:8") names.
func TargetSquares(b *sim.Board, starts []int, target string) ([]int, error) {
	kind, val, _ := cutColon(target)
	var out []int
	switch kind {
	case "class":
		c, err := sim.ParseClass(val)
		if err != nil {
			return nil, err
		}
		for _, s := range starts {
			if b.Class(s) == c {
				out = append(out, s)
			}
		}
	case "square":
		sq, err := b.ParseSquare(val)
		if err != nil {
			return nil, err
		}
		for _, s := range starts {
			if s == sq {
				out = append(out, s)
			}
		}
	case "degree":
		d, err := strconv.Atoi(val)
		if err != nil {
			return nil, fmt.Errorf("degree %q: want a whole number", val)
		}
		for _, s := range starts {
			if b.Degree(s) == d {
				out = append(out, s)
			}
		}
	default:
		return nil, fmt.Errorf("claim target %q: want class:NAME, square:NAME or degree:N", target)
	}
	return out, nil
}

func cutColon(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// pool merges the tallies of squares for (board, rule).
func pool(ts *Tallies, bi, ri int, squares []int, n int) *stats.Tally {
	out := stats.NewTally(n)
	for _, s := range squares {
		if t := ts.Get(Key{bi, ri, s}); t != nil {
			if err := out.Merge(t); err != nil {
				panic("runner: " + err.Error())
			}
		}
	}
	return out
}
