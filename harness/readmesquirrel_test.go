package harness

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestReadmeSquirrelCull7Mod8 reruns the committed squirrel-cull-7-mod-8
// experiment (1 CPU-minute) and checks its row in docs/rules.md: both
// implementations give a tour on every n ≡ 7 mod 8 from 47 to 2007, and
// both claims are reproduced.
func TestReadmeSquirrelCull7Mod8(t *testing.T) {
	testenv.SkipUnlessSlow(t, "Squirrel & Cull's algorithm on 246 boards up to 2007x2007")
	if !strings.Contains(docPage(t, "docs/rules.md"), "| Ganzfried (2004), p. 9 and section 7: proof for m ≡ 7 mod 8, m ≥ 47 | Ganzfried's pseudocode / the 1996 steps | `ganzfried`, `squirrel-cull` | 47, 55, …, 2007 | none | **reproduced** (both) |") {
		t.Fatal("docs/rules.md lacks the row this test checks")
	}
	out := filepath.Join(t.TempDir(), "sc7")
	if _, _, err := runCmd(t, "run", "squirrel-cull-7-mod-8", "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	claims, _, err := table.Read[table.ClaimRow](filepath.Join(out, "claims.parquet"))
	if err != nil || len(claims) != 2 {
		t.Fatalf("%v, %d claim rows", err, len(claims))
	}
	for _, c := range claims {
		if c.VerdictHolm != "reproduced" {
			t.Errorf("%s (%s): %s", c.ID, c.Reading, c.VerdictHolm)
		}
	}
	squares, _, err := table.Read[table.SquareRow](filepath.Join(out, "squares.parquet"))
	if err != nil || len(squares) != 2*246 {
		t.Fatalf("%v, %d square rows", err, len(squares))
	}
	for _, r := range squares {
		if r.Successes != 1 {
			t.Errorf("%s on %s: no tour", r.Rule, r.Board)
		}
	}
}
