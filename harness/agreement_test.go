package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestValidateRunAgreement writes claims the way users spell them (short and
// full rule names, board spellings, class, square and degree targets) into
// a tiny experiment and checks that `validate` and `run` agree: a claim that
// validate accepts gets its claim row on exactly the boards it names, under
// the canonical rule, board and target; a claim that validate refuses (with
// file:line: key and the valid values) is refused by run before any walk,
// and nothing is written.
func TestValidateRunAgreement(t *testing.T) {
	type rows map[string]int // board -> start squares pooled
	cases := []struct {
		claim  string // the claim's mapping, without id and statement
		target string // the target column on every row ("" when refused)
		rule   string // the rule column
		want   rows   // nil: refused
		errKey string // for a refusal: the key and the valid values named
	}{
		// Rule spellings: short names resolve to the run rule they name.
		{claim: `rule: warnsdorff, class: corner`, rule: "warnsdorff/random", target: "class:corner", want: rows{"5x5": 4, "6x6": 4}},
		{claim: `rule: warnsdorff/random, class: corner`, rule: "warnsdorff/random", target: "class:corner", want: rows{"5x5": 4, "6x6": 4}},
		{claim: `rule: " warnsdorff/random ", class: corner`, rule: "warnsdorff/random", target: "class:corner", want: rows{"5x5": 4, "6x6": 4}},
		{claim: `rule: random, class: edge`, rule: "random", target: "class:edge", want: rows{"5x5": 12, "6x6": 16}},
		{claim: `rule: warnsdorff/first, class: corner`, errKey: "claims[0].rule: warnsdorff/first is not one of this experiment's rules; valid: warnsdorff/random, random"},
		{claim: `rule: backtrack, class: corner`, errKey: "claims[0].rule: backtrack is not one of this experiment's rules; valid: warnsdorff/random, random"},
		{claim: `rule: Warnsdorff, class: corner`, errKey: `claims[0].rule: "Warnsdorff" is not a rule; valid: warnsdorff/random, random`},
		{claim: `rule: warnsdorff/rand, class: corner`, errKey: `claims[0].rule: "warnsdorff/rand" is not a rule; valid: warnsdorff/random, random`},
		{claim: `class: corner`, errKey: "claims[0].rule: missing; valid: warnsdorff/random, random"},
		// Board spellings: every spelling of a run board resolves to it.
		{claim: `rule: random, board: 5x5, class: corner`, rule: "random", target: "class:corner", want: rows{"5x5": 4}},
		{claim: `rule: random, board: "5", class: corner`, rule: "random", target: "class:corner", want: rows{"5x5": 4}},
		{claim: `rule: random, board: 6, class: corner`, rule: "random", target: "class:corner", want: rows{"6x6": 4}},
		{claim: `rule: random, board: "6×6", class: corner`, rule: "random", target: "class:corner", want: rows{"6x6": 4}},
		{claim: `rule: random, board: 6X6, class: corner`, rule: "random", target: "class:corner", want: rows{"6x6": 4}},
		{claim: `rule: random, board: " 6x6 ", class: corner`, rule: "random", target: "class:corner", want: rows{"6x6": 4}},
		{claim: `rule: random, board: 7x7, class: corner`, errKey: "claims[0].board: 7x7 is not one of this experiment's boards; valid: 5x5, 6x6"},
		{claim: `rule: random, board: "7", class: corner`, errKey: "claims[0].board: 7x7 is not one of this experiment's boards; valid: 5x5, 6x6"},
		{claim: `rule: random, board: 5x6, class: corner`, errKey: "claims[0].board: 5x6 is not one of this experiment's boards; valid: 5x5, 6x6"},
		{claim: `rule: random, board: eight, class: corner`, errKey: `claims[0].board: "eight" is not a board; want ROWSxCOLS, one of 5x5, 6x6`},
		// Class targets, with the American spelling.
		{claim: `rule: random, class: centre`, rule: "random", target: "class:centre", want: rows{"5x5": 1, "6x6": 4}},
		{claim: `rule: random, class: center`, rule: "random", target: "class:centre", want: rows{"5x5": 1, "6x6": 4}},
		{claim: `rule: random, class: interior`, rule: "random", target: "class:interior", want: rows{"5x5": 8, "6x6": 12}},
		{claim: `rule: random, class: middle`, errKey: `claims[0].class: "middle" is not a class; valid: corner, edge, centre, interior`},
		// Square targets: algebraic and row/column names, on every board or one.
		{claim: `rule: random, square: a1`, rule: "random", target: "square:a1", want: rows{"5x5": 1, "6x6": 1}},
		{claim: `rule: random, square: r0c0`, rule: "random", target: "square:a1", want: rows{"5x5": 1, "6x6": 1}},
		{claim: `rule: random, square: e5`, rule: "random", target: "square:e5", want: rows{"5x5": 1, "6x6": 1}},
		{claim: `rule: random, board: 6x6, square: f6`, rule: "random", target: "square:f6", want: rows{"6x6": 1}},
		{claim: `rule: random, square: f6`, errKey: `claims[0].square: square "f6" is off the 5x5 board (valid: a1 to e5)`},
		{claim: `rule: random, square: z99`, errKey: `claims[0].square: square "z99" is off the 5x5 board`},
		{claim: `rule: random, square: d`, errKey: `claims[0].square: "d" is not a square; want a name such as d4 or r3c3`},
		// Degree targets.
		{claim: `rule: random, degree: 8`, rule: "random", target: "degree:8", want: rows{"5x5": 1, "6x6": 4}},
		{claim: `rule: random, degree: 2`, rule: "random", target: "degree:2", want: rows{"5x5": 4, "6x6": 4}},
		{claim: `rule: random, degree: 9`, errKey: "claims[0].degree: 9 is not a knight degree; valid: 0 to 8"},
		{claim: `rule: random, degree: 0`, errKey: "claims[0].degree: no start square is degree 0 on 5x5, 6x6"},
		// Target and statement counts.
		{claim: `rule: random`, errKey: "claims[0]: no target; want exactly one of class, square, degree"},
		{claim: `rule: random, class: corner, square: a1`, errKey: "claims[0]: class and square: want exactly one of class, square, degree"},
	}
	const walks = 10
	tmp := t.TempDir()
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			file := filepath.Join(tmp, fmt.Sprintf("c%d.yaml", i))
			// The claim on line 7, as the refusals say; no exact values (the
			// rows' targets and walks are what is checked, and the random
			// walk's enumeration on 5x5 costs more than all 22 runs).
			yaml := fmt.Sprintf("name: agree\nseed: 3\nboards: [5x5, 6x6]\nwalks: %d\nrules: [{name: warnsdorff}, {name: random}]\nclaims:\n  - {id: c, %s, below: 0.5}\nexact: off\n", walks, tc.claim)
			if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(tmp, fmt.Sprintf("out%d", i))
			_, verr, vErr := runCmd(t, "validate", file)
			_, _, rErr := runCmd(t, "run", file, "--out", out, "--workers", "2", "--quiet")
			if tc.want == nil {
				want := file + ":7: " + tc.errKey
				if vErr == nil || !strings.Contains(verr, want) {
					t.Errorf("%s: validate said %v\n%s\nwant %q", tc.claim, vErr, verr, want)
				}
				if rErr == nil || !strings.Contains(rErr.Error(), want) {
					t.Errorf("%s: run said %v, want %q", tc.claim, rErr, want)
				}
				if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s: a refused run wrote %s", tc.claim, out)
				}
				return
			}
			if vErr != nil || rErr != nil {
				t.Fatalf("%s: validate: %v %s; run: %v", tc.claim, vErr, verr, rErr)
			}
			got, _, err := table.Read[table.ClaimRow](filepath.Join(out, "claims.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%s: %d claim rows, want one on each of %v: %+v", tc.claim, len(got), tc.want, got)
			}
			for _, r := range got {
				n, ok := tc.want[r.Board]
				if !ok || r.Rule != tc.rule || r.Target != tc.target || r.Walks != int64(n*walks) {
					t.Errorf("%s: row %s %s %s with %d walks; want rule %s, target %s, boards %v (%d walks per square)",
						tc.claim, r.Board, r.Rule, r.Target, r.Walks, tc.rule, tc.target, tc.want, walks)
				}
			}
		})
	}
}
