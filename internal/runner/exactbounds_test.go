package runner

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/config"
)

// TestExactBoundsMode: exact: bounds with a budget too small for 8x8 gives
// certified bounds (exact_success null) that contain the exact values; a
// claim the bounds settle is decided by them, one they straddle by the
// sample; 1 and 3 workers give the same tables.
func TestExactBoundsMode(t *testing.T) {
	const y = `name: eb
seed: 38
boards: [8x8]
starts: [a1, d4]
walks: 300
exact: bounds
exact_budget: 60000
rules: [{name: warnsdorff, tie_break: random}]
claims:
  - {id: above, rule: warnsdorff/random, square: a1, above: 0.5}
  - {id: near, rule: warnsdorff/random, square: a1, above: 0.979}
`
	c, err := config.Parse("eb.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	s, err := config.Resolve(c, "eb.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	b := s.Boards[0]
	r := s.Rules[0]
	var first *Completed
	for _, w := range []int{1, 3} {
		sum, err := runTo(t, context.Background(), s, filepath.Join(t.TempDir(), "out"), w, All, false)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = sum
			continue
		}
		if !sameValues(sum.Tables, first.Tables) {
			t.Fatalf("%d workers: tables differ from 1 worker", w)
		}
	}
	for _, sq := range first.Tables.Squares {
		start, _ := b.ParseSquare(sq.Start)
		x, err := exact.Walk(context.Background(), b, r, start, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(sq.ExactSuccess) || !(sq.ExactLower <= x.PSuccess && x.PSuccess <= sq.ExactUpper && sq.ExactUpper-sq.ExactLower < 0.5) {
			t.Errorf("%s: exact %v, bounds [%v, %v], the exact value %v", sq.Start, sq.ExactSuccess, sq.ExactLower, sq.ExactUpper, x.PSuccess)
		}
	}
	want := map[string]string{"above": "bounds", "near": "sample"}
	for _, cl := range first.Tables.Claims {
		if cl.DecidedBy != want[cl.ID] {
			t.Errorf("claim %s: decided by %s [%v, %v], want %s", cl.ID, cl.DecidedBy, cl.ExactLower, cl.ExactUpper, want[cl.ID])
		}
	}
}
