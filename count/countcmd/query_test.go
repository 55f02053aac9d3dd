package countcmd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/sim"
)

// TestCountSwitchesToPairedEnds: 7x7's single-end sweeps would not fit 6
// GiB, paired ends would; the refusal comes only when neither fits.
func TestCountSwitchesToPairedEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // only the choice is wanted, not the count
	var out, errOut strings.Builder
	e := Env{Stdout: &out, Stderr: &errOut}
	b, _ := sim.ParseBoard("7x7")
	q := Query{Board: b, Method: "frontier", Workers: 1, MaxMemory: 6 << 30, All: true}
	_, err := q.Run(ctx, &e)
	if !q.Paired || !errors.Is(err, context.Canceled) {
		t.Errorf("7x7 in 6 GiB: paired %v, err %v; want paired ends, then the cancellation", q.Paired, err)
	}
	q = Query{Board: b, Method: "frontier", Workers: 1, MaxMemory: 1 << 30, All: true}
	if _, err := q.Run(ctx, &e); err == nil || !strings.Contains(err.Error(), "not started") {
		t.Errorf("7x7 in 1 GiB: %v, want the refusal", err)
	}
}
