package config

import (
	"reflect"
	"testing"
)

// TestResolveClaims: claims are tied to the run's rule index, board indices
// and pooled squares however they spell the rule and board.
func TestResolveClaims(t *testing.T) {
	src := `name: x
boards: [5x5, 6x6]
starts: [corner, c3, d4]
rules: [{name: random}, {name: warnsdorff}]
claims:
  - {rule: warnsdorff, board: "6", class: corner, below: 0.5}
  - {id: sq, rule: random, square: c3, rate: 0.1, tolerance: 0.05}
  - {id: deg, rule: warnsdorff/random, board: 5×5, degree: 8, above: 0.5}
`
	c, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Resolve(c, "x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		id      string
		rule    int
		boards  []int
		squares [][]int
		target  string
	}
	var all []got
	for _, ch := range e.Checks {
		all = append(all, got{ch.ID, ch.Rule, ch.Boards, ch.Squares, ch.Target(e.Boards[ch.Boards[0]])})
	}
	want := []got{
		{"claim-1", 1, []int{1}, [][]int{{0, 5, 30, 35}}, "class:corner"},
		{"sq", 0, []int{0, 1}, [][]int{{12}, {14}}, "square:c3"},
		{"deg", 1, []int{0}, [][]int{{12}}, "degree:8"},
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("checks\n%+v\nwant\n%+v", all, want)
	}
	if e.Checks[1].Claim.Tolerance != 0.05 || e.Starts[0][0] != 0 || len(e.Starts[1]) != 6 {
		t.Errorf("claim %+v, starts %v", e.Checks[1].Claim, e.Starts)
	}
}
