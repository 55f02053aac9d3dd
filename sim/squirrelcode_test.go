package sim

import (
	"slices"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/testenv"
)

// squirrelCodeTable is squirrelCullTable with the fifth switching square
// for m ≡ 3 mod 8 as Douglas Squirrel's own program has it
// (github.com/douglassquirrel/warnsdorff-scheme, src/sc-data.rkt:
// ((m−1)/2, m−2)), where Figure 3 as the tool reads it, and the row for
// m ≡ 7 mod 8 in both, has ((m−1)/2 + 1, m−2).
func squirrelCodeTable(m int) []scSwitch {
	t := squirrelCullTable(m)
	if m%8 == 3 {
		t[4].i = (m - 1) / 2
	}
	return t
}

var registerSquirrelCode = sync.OnceFunc(func() {
	MustRegister(CustomRule{Name: "squirrel-code-test", Doc: "test only: squirrel-cull with the fifth square of Squirrel's code for m ≡ 3 mod 8",
		New: func(b *Board) Policy {
			return &squirrelCull{b: b, table: squirrelCodeTable(b.Rows), deg: make([]int8, b.Squares()), vis: make([]bool, b.Squares())}
		}, Deterministic: true, Boards: squareBoardOnly("squirrel-code-test")})
})

// TestSquirrelCodeFifthSquare: the two readings of the fifth switching
// square for m ≡ 3 mod 8 take the same walk from a1 on every size up to
// 300 (the slow suite; 100 otherwise) but n = 19, and both tour there
// (docs/design.md, experiments/sources.yaml: squirrel-cull-1996-algorithm-112).
func TestSquirrelCodeFifthSquare(t *testing.T) {
	registerSquirrelCode()
	hi := 100
	if testenv.Slow() {
		hi = 300
	}
	var differ []int
	for n := 5; n <= hi; n++ {
		if n%8 != 3 {
			continue
		}
		a, c := literatureWalk(t, "squirrel-cull", n, 0), literatureWalk(t, "squirrel-code-test", n, 0)
		if !slices.Equal(a.Path, c.Path) {
			differ = append(differ, n)
			if !a.Success || !c.Success {
				t.Errorf("n = %d: the readings differ and one fails (figure %v, code %v)", n, a.Success, c.Success)
			}
		}
	}
	if !slices.Equal(differ, []int{19}) {
		t.Errorf("sizes where Squirrel's code walks differently from Figure 3: %v, want [19]", differ)
	}
}
