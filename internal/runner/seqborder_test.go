package runner

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestEstimateSequentialBorderline: a claim whose bound is its square's
// exact rate (Warnsdorff/random from c3 on 6x6: 49/64 = 0.765625) cannot be
// decided by any number of walks, and the run takes c3 to the cap; the dry
// run names that square as one that may run to the cap (the pilot's
// fixed-n interval holds the bound) and forecasts the run with it at the
// cap, while the claim the pilot settles (a1, near 100 % against 0.5) is
// not named, and the forecast from the pilot's rate alone stays below.
func TestEstimateSequentialBorderline(t *testing.T) {
	const y = `name: border
seed: 5
boards: [6x6]
starts: [a1, c3]
walks: {until: decided, min: 200, max: 20000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: easy, rule: warnsdorff/random, square: a1, above: 0.5}
  - {id: edge, rule: warnsdorff/random, square: c3, above: 0.765625}
`
	s := specOf(t, y)
	est, err := EstimateSequential(context.Background(), s, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(est.Borderline) != 1 || est.Borderline[0].Claim != "edge" || strings.Join(est.Borderline[0].Squares, " ") != "c3" {
		t.Fatalf("borderline %+v, want claim edge on c3 alone", est.Borderline)
	}
	b := est.Borderline[0]
	if !(b.Lo <= 0.765625 && 0.765625 <= b.Hi) {
		t.Errorf("pilot interval [%v, %v] does not hold the bound", b.Lo, b.Hi)
	}
	l := est.Lines[0]
	if l.Borderline != 1 || est.UpToWalks != l.UpToWalks || est.UpToWalks < 20000+200 || est.UpToWalks < est.Walks {
		t.Errorf("line %+v, up to %d walks (forecast %d): want c3 at the cap 20000 beside a1's pilot", l, est.UpToWalks, est.Walks)
	}
	if est.UpToSeconds < est.Seconds {
		t.Errorf("up to %.3fs, below the forecast %.3fs", est.UpToSeconds, est.Seconds)
	}
	var out bytes.Buffer
	est.Print(&out, s, 2)
	for _, want := range []string{"may run to the cap (20000 walks per square): claim edge on 6x6 (warnsdorff/random), squares c3:",
		"with its 1 borderline square(s) at the cap", "up to: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out.String())
		}
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := runTo(t, context.Background(), s, dir, 2, All, false); err != nil {
		t.Fatal(err)
	}
	rows, _, err := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Start == "c3" && r.Walks != 20000 {
			t.Errorf("c3 ran %d walks; the borderline square was to run to the cap", r.Walks)
		}
	}
}
