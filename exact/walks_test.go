package exact

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestExactWalks: the pool gives, for any worker count, exactly the results
// of Walk called start by start, in the order of starts; a failure is
// reported for the earliest failing start whatever the scheduling.
func TestExactWalks(t *testing.T) {
	b := sim.MustBoard(5, 5)
	r, _ := sim.ParseRule("warnsdorff/random")
	starts := []int{24, 0, 12, 7, 3, 18}
	want := make([]Result, len(starts))
	for i, s := range starts {
		x, err := Walk(context.Background(), b, r, s, 0)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = x
	}
	for _, workers := range []int{1, 2, 5, 16} {
		got, err := Walks(context.Background(), b, r, starts, Options{Workers: workers})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: err %v, results differ from Walk one start at a time", workers, err)
		}
	}

	rnd, _ := sim.ParseRule("random")
	for _, workers := range []int{1, 3} {
		_, err := Walks(context.Background(), b, rnd, []int{12, 0, 6}, Options{Budget: 1000, Workers: workers})
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "c3") {
			t.Errorf("%d workers, budget 1000: err %v, want ErrBudget naming the first start, c3", workers, err)
		}
	}
	if _, err := Walks(context.Background(), b, r, starts, Options{Workers: -1}); err == nil {
		t.Error("-1 workers: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walks(ctx, b, r, starts, Options{Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
