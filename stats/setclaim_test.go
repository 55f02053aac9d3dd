package stats

import "testing"

func TestHolds(t *testing.T) {
	above := Claim{Kind: Above, Value: 0.85}
	below := Claim{Kind: Below, Value: 0.05}
	for _, tc := range []struct {
		c    Claim
		x    float64
		want bool
	}{{above, 0.85, false}, {above, 0.851, true}, {below, 0.05, false}, {below, 0.0, true},
		{Claim{Kind: Range, Lo: 0.7, Hi: 0.8}, 0.7, true}, {Claim{Kind: Rate, Value: 0.5}, 0.5, true}} {
		if got := tc.c.Holds(tc.x); got != tc.want {
			t.Errorf("%v holds %v = %v, want %v", tc.c, tc.x, got, tc.want)
		}
	}
}

// TestShare: three boards decided above 85 %, one undecided, one below;
// the share of boards above is 3/5 at least and 4/5 at most.
func TestShare(t *testing.T) {
	per := Claim{Kind: Above, Value: 0.85}
	boards := []Summary{{Center: 0.95, Lo: 0.9, Hi: 0.98}, {Center: 0.99, Lo: 0.97, Hi: 1}, {Center: 0.9, Lo: 0.86, Hi: 0.93},
		{Center: 0.84, Lo: 0.80, Hi: 0.88}, {Center: 0.5, Lo: 0.4, Hi: 0.6}}
	r := Share(per, boards)
	if r.Boards != 5 || r.Consistent != 3 || r.Open != 1 || r.Point != 0.6 || r.Lo != 0.6 || r.Hi != 0.8 {
		t.Fatalf("Share = %+v", r)
	}
	for _, tc := range []struct {
		share float64
		want  string
	}{{0.5, Consistent}, {0.6, Inconclusive}, {0.7, Inconclusive}, {0.8, Refuted}, {0.9, Refuted}} {
		if got := ShareVerdict(r, tc.share); got != tc.want {
			t.Errorf("more than %v of boards: %s, want %s", tc.share, got, tc.want)
		}
	}
	if got := ShareVerdict(r, 1); got != Refuted {
		t.Errorf("every board, one refuted: %s", got)
	}
	all := Share(per, boards[:3])
	if got := ShareVerdict(all, 1); got != Consistent {
		t.Errorf("every board, all consistent: %s", got)
	}
	if got := ShareVerdict(Share(per, boards[:4]), 1); got != Inconclusive {
		t.Errorf("every board, one undecided: %s", got)
	}
	if got := ShareVerdict(Share(per, nil), 0.5); got != Inconclusive {
		t.Errorf("no boards: %s", got)
	}
	if ExactVerdict(true) != Consistent || ExactVerdict(false) != Refuted {
		t.Error("ExactVerdict")
	}
}
