package config

import (
	"strings"
	"testing"
)

// TestEachSquare: each: square makes a claim about its target's start
// squares one by one (every square, or more than a share of them): one
// element per (board, square), a share statement over them; it is refused,
// naming the key, with one square, a count reading, a deterministic
// sweep's statements or an unknown quantifier.
func TestEachSquare(t *testing.T) {
	src := "name: e\nboards: [5x5, 6x6]\nwalks: 10\nrules: [{name: warnsdorff}]\nclaims:\n" +
		"  - {rule: warnsdorff/random, class: corner, each: square, above: 0.5, source: x}\n" +
		"  - {rule: warnsdorff/random, board: 6x6, class: all, each: square, share: 0.75, above: 0.5, source: x}\n"
	c, err := Parse("e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Resolve(c, "e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	every, most := e.Checks[0], e.Checks[1]
	if every.Set.Kind != "share" || every.Set.Share != 1 || every.Set.Each != "square" || len(every.Boards) != 8 {
		t.Errorf("every corner of 5x5 and 6x6: %+v, %d elements, want share 1 over 8 squares", every.Set, len(every.Boards))
	}
	for i, sq := range every.Squares {
		if len(sq) != 1 || every.Boards[i] != i/4 {
			t.Errorf("element %d: board %d, squares %v, want one corner of board %d", i, every.Boards[i], sq, i/4)
		}
	}
	if most.Set.Share != 0.75 || len(most.Boards) != 36 || most.Set.String() != "from more than 0.75 of the start squares" {
		t.Errorf("most squares of 6x6: %+v (%s), %d elements", most.Set, most.Set, len(most.Boards))
	}
	if every.Set.String() != "from every start square" {
		t.Errorf("every square reads %q", every.Set)
	}
	for _, c := range []struct{ claim, want string }{
		{"{rule: warnsdorff/random, class: all, each: squares, above: 0.5, source: x}", `claims[0].each: "squares" is not a quantifier; valid: square`},
		{"{rule: warnsdorff/random, square: a1, each: square, above: 0.5, source: x}", "claims[0].each: square with one start square (square: a1)"},
		{"{rule: warnsdorff/first, class: all, each: square, first_failure: 5, source: x}", "claims[0].each: square goes with a rate statement"},
	} {
		src := "name: e\nboards: [5x5, 6x6]\nwalks: 10\nrules: [{name: warnsdorff}, {name: warnsdorff, tie_break: first}]\nclaims:\n  - " + c.claim + "\n"
		if _, err := Parse("e.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.claim, err, c.want)
		}
	}
}
