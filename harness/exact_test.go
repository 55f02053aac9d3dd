package harness

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// runCmd runs the command line args and returns stdout, stderr and the error.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, args)
	return out.String(), errb.String(), err
}

func TestExactCSV(t *testing.T) {
	out, _, err := runCmd(t, "exact", "--board", "5x5", "--rule", "warnsdorff", "--tie-break", "random", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 26 || !strings.HasPrefix(lines[0], "start,start_row,start_col,start_class,p_success,p_closed,p_stopped,mean_length") {
		t.Fatalf("want a header and 25 rows, got:\n%s", out)
	}
	want := map[string]string{"a1": "a1,0,0,corner,1,", "b2": "b2,1,1,interior,0.75,", "c3": "c3,2,2,centre,1,"}
	for sq, prefix := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, sq+",") {
				found = strings.HasPrefix(l, prefix)
				if !found {
					t.Errorf("row %q, want prefix %q", l, prefix)
				}
			}
		}
		if !found {
			t.Errorf("no good row for %s", sq)
		}
	}
}

func TestExactRandomRuleOneSquare(t *testing.T) {
	out, _, err := runCmd(t, "exact", "--board", "5x5", "--rule", "random", "--start", "a1", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	// At least 12 significant digits of P(success) ≈ 0.0022142.
	if !strings.Contains(out, "a1,0,0,corner,0.00221419917") {
		t.Errorf("got %s", out)
	}
}

func TestExactText(t *testing.T) {
	out, _, err := runCmd(t, "exact", "--board", "5x5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3  0.0000 0.7500 1.0000 0.7500 0.0000") && !strings.Contains(out, "0.7500") {
		t.Errorf("board table missing:\n%s", out)
	}
	if !strings.Contains(out, "a      b      c      d      e") {
		t.Errorf("file letters missing:\n%s", out)
	}
}

func TestExactErrors(t *testing.T) {
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"exact"}, true, "--board is required"},
		{[]string{"exact", "--board", "0x5"}, true, "at least 1"},
		{[]string{"exact", "--board", "5x5", "--rule", "sideways"}, true, "valid rules are"},
		{[]string{"exact", "--board", "5x5", "--tie-break", "coin"}, true, "valid tie-breaks are"},
		{[]string{"exact", "--board", "5x5", "--start", "f6"}, true, "off the 5x5 board"},
		{[]string{"exact", "--board", "5x5", "--format", "xml"}, true, "valid formats"},
		{[]string{"exact", "--board", "5x5", "--bogus"}, true, "flag provided but not defined"},
		{[]string{"exact", "--board", "26x26"}, false, "has 676 squares; exact enumeration handles at most 640"},
		{[]string{"exact", "--board", "6x6", "--rule", "random", "--budget", "1000"}, false, "node budget exceeded"},
		{[]string{"nonsense"}, true, "unknown command"},
	} {
		_, _, err := runCmd(t, c.args...)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.As(err, &u) != c.usage {
			t.Errorf("%q: got %v (usage %v), want %q (usage %v)", c.args, err, errors.As(err, &u), c.want, c.usage)
		}
	}
}
