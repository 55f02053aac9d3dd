package config

import (
	"slices"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/sim"
)

// TestPickMatchesEverySquare checks pick, which visits only the squares
// that can qualify, against a scan of every square, for every start set
// of classes and squares and every kind of target on small boards of every
// shape (thin, odd, even).
func TestPickMatchesEverySquare(t *testing.T) {
	var sets []startSet
	for mask := range 1 << (len(sim.Classes) + 2) {
		var st startSet
		for cl := range sim.Classes {
			st.classes[cl] = mask&(1<<cl) != 0
		}
		if mask&(1<<len(sim.Classes)) != 0 {
			st.squares = []rc{{0, 1}, {2, 2}, {9, 9}}
		}
		st.all = mask&(1<<(len(sim.Classes)+1)) != 0
		sets = append(sets, st)
	}
	targets := []*target{nil, {kind: "all"}, {kind: "square", square: rc{2, 2}}, {kind: "square", square: rc{0, 7}}}
	for cl := range sim.Classes {
		targets = append(targets, &target{kind: "class", class: sim.Class(cl)})
	}
	for d := range 9 {
		targets = append(targets, &target{kind: "degree", degree: d})
	}
	for rows := 1; rows <= 9; rows++ {
		for cols := 1; cols <= 9; cols++ {
			s := size{rows, cols}
			for _, st := range sets {
				for _, tg := range targets {
					var want []int
					for sq := range rows * cols {
						if p := s.rc(sq); st.has(s, p) && (tg == nil || tg.has(s, p)) {
							want = append(want, sq)
						}
					}
					if got := st.pick(s, tg); !slices.Equal(got, want) {
						t.Fatalf("%s, starts %+v, target %v: pick %v, every square %v", s, st, tg, got, want)
					}
				}
			}
		}
	}
}

// TestResolveCornersOfManyBoards is the sweep of every n×n board from 5 to
// 2000 from its corners (roth-sweep-corners.yaml): resolving it visited
// every square of every board (2.7e9) and took minutes; picking the
// corners from the edges takes milliseconds.
func TestResolveCornersOfManyBoards(t *testing.T) {
	src := []byte(`name: corners
seed: 1
boards: [{sizes: 5..2000}]
starts: [corner]
walks: 1
rules: [{name: warnsdorff, tie_break: roth+first}]
claims:
  - {id: c, rule: warnsdorff/roth+first, class: corner, sizes: 5..2000, first_failure: 428}
  - {id: s, rule: warnsdorff/roth+first, square: r0c0, sizes: 5..2000, first_failure: 428}
`)
	c, err := Parse("corners.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e, err := Resolve(c, "corners.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("resolving took %v; want well under 5 s", took)
	}
	if len(e.Starts) != 1996 || !slices.Equal(e.Starts[1995], []int{0, 1999, 1999 * 2000, 2000*2000 - 1}) {
		t.Errorf("starts of the last board %v; want its four corners", e.Starts[len(e.Starts)-1])
	}
	if len(e.Checks) != 2 || len(e.Checks[1].Squares[0]) != 1 || len(e.Checks[0].Squares[1995]) != 4 {
		t.Errorf("claims resolved to %d checks; want the square claim on one square and the class claim on four", len(e.Checks))
	}
}
