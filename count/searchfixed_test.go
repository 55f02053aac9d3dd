package count

import (
	"github.com/knightwalk/knightwalk/sim"

	"context"
	"testing"
)

// TestFixedToursBurnside: the tours up to symmetry from FixedTours and
// the total (Burnside's lemma) equal the search's, which weighs every tour
// it finds by its stabiliser, on every board the search finishes quickly,
// open and closed, square and oblong.
func TestFixedToursBurnside(t *testing.T) {
	ctx := context.Background()
	for _, d := range [][2]int{{3, 4}, {4, 4}, {3, 7}, {4, 5}, {5, 5}, {5, 6}, {4, 6}, {3, 8}, {6, 6}, {4, 8}, {3, 10}, {5, 7}} {
		b := sim.MustBoard(d[0], d[1])
		for _, closed := range []bool{false, true} {
			want := countOf(t, b, CountOptions{Closed: closed, Unique: true})
			fixed, err := FixedTours(ctx, b, closed)
			if err != nil {
				t.Fatal(err)
			}
			total := want.Undirected
			group := int64(len(fixed))
			if !closed {
				total, group = want.Directed, 2*group
			}
			sum := total
			for _, x := range fixed[1:] {
				sum += x
			}
			if sum%group != 0 || sum/group != want.Unique {
				t.Errorf("%s closed %v: (%d + fixed %v) / %d, want %d up to symmetry", b, closed, total, fixed[1:], group, want.Unique)
			}
			t.Logf("%s closed %v: %d tours, fixed %v, %d up to symmetry", b, closed, total, fixed[1:], want.Unique)
		}
	}
}
