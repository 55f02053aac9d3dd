package harness

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knightwalk/knightwalk/internal/exactstore"
	"github.com/knightwalk/knightwalk/sim"
)

// csvColumn returns column name of each data row of exact's csv, by start.
func csvColumn(t *testing.T, out, name string) map[string]float64 {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := -1
	for i, h := range strings.Split(lines[0], ",") {
		if h == name {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no column %s in\n%s", name, out)
	}
	got := map[string]float64{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		v, err := strconv.ParseFloat(f[col], 64)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got[f[0]] = v
	}
	return got
}

// TestExactFromStore: where the program stores the exact values (10x10
// warnsdorff/random, internal/exactstore), exact gives them at once,
// saying so, instead of enumerating for minutes (10x10 from e5: 694
// million states), and they are the store's, bit for bit, on every
// square of an orbit; --enumerate enumerates (here within a small budget,
// as certified bounds that hold the stored value). On a board the store
// does not hold, exact enumerates as before and says nothing of a store.
func TestExactFromStore(t *testing.T) {
	t0 := time.Now()
	out, stderr, err := runCmd(t, "exact", "--board", "10x10", "--start", "e5")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("exact --board 10x10 --start e5 took %v: it should take the stored values", d)
	}
	for _, s := range []string{out, stderr} {
		if !strings.Contains(s, "from the stored values") {
			t.Errorf("exact from the store does not say so:\n%s", s)
		}
	}
	if !strings.Contains(out, " 0.9779 ") {
		t.Errorf("10x10 e5: want 0.9779 (the stored 0.97789801826779355):\n%s", out)
	}

	b, err := sim.ParseBoard("10x10")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule("warnsdorff/random")
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"e5", "f6", "a1", "j10", "c7"} {
		out, _, err := runCmd(t, "exact", "--board", "10x10", "--start", start, "--format", "csv")
		if err != nil {
			t.Fatal(err)
		}
		sq, err := b.ParseSquare(start)
		if err != nil {
			t.Fatal(err)
		}
		want, ok, err := exactstore.Lookup(b, r, sq)
		if err != nil || !ok {
			t.Fatalf("the store has no 10x10 warnsdorff/random %s: %v", start, err)
		}
		for col, w := range map[string]float64{"p_success": want.PSuccess, "p_closed": want.PClosed, "mean_length": want.MeanLength, "p_lower": want.PSuccess, "p_upper": want.PSuccess} {
			if got := csvColumn(t, out, col)[start]; got != w {
				t.Errorf("10x10 %s %s: %v, the store %v", start, col, got, w)
			}
		}
	}

	// --enumerate enumerates: a budget far short of a1's 136.5 million
	// states gives certified bounds, which must hold the stored value
	out, stderr, err = runCmd(t, "exact", "--board", "10x10", "--start", "a1", "--enumerate", "--bounds", "--budget", "300000", "--workers", "1", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "stored") {
		t.Errorf("--enumerate took the stored values: %s", stderr)
	}
	stored, _, _ := exactstore.Lookup(b, r, 0)
	lo, hi := csvColumn(t, out, "p_lower")["a1"], csvColumn(t, out, "p_upper")["a1"]
	if !(lo <= stored.PSuccess && stored.PSuccess <= hi && hi-lo < 1) || csvColumn(t, out, "dropped")["a1"] == 0 {
		t.Errorf("10x10 a1 enumerated within a budget: [%v, %v], want certified bounds around the stored %v\n%s", lo, hi, stored.PSuccess, out)
	}

	// a board the store does not hold: enumerated, and the same values
	// with --enumerate and without
	plain, stderr, err := runCmd(t, "exact", "--board", "5x5", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "stored") {
		t.Errorf("5x5 is not stored, yet: %s", stderr)
	}
	enumerated, _, err := runCmd(t, "exact", "--board", "5x5", "--format", "csv", "--enumerate")
	if err != nil {
		t.Fatal(err)
	}
	if plain != enumerated {
		t.Errorf("5x5: exact\n%s\nexact --enumerate\n%s", plain, enumerated)
	}
	if got := csvColumn(t, plain, "p_success")["b2"]; got != 0.75 {
		t.Errorf("5x5 b2: %v, want 0.75", got)
	}
}
