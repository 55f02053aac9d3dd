package harness

import (
	"github.com/knightwalk/knightwalk/internal/testenv"
	"regexp"
	"testing"
)

// TestCountUniqueBySweep: --unique by the frontier sweep (its total and
// the tours each symmetry fixes, Burnside's lemma) equals the search's
// (Burnside's lemma over the tours it finds) on every board the search
// finishes quickly, and the published values: 5x5 open 112, 5x6 open
// 4,696 and closed 3, 6x6 open 414,870 and closed 1,245. auto picks the
// search on these boards.
func TestCountUniqueBySweep(t *testing.T) {
	re := regexp.MustCompile(`up to symmetry \((\d+) symmetries\): (\d+)`)
	unique := func(args ...string) string {
		t.Helper()
		out, _, err := runCmd(t, append([]string{"count", "--unique"}, args...)...)
		m := re.FindStringSubmatch(out)
		if err != nil || m == nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return m[2]
	}
	cases := []struct {
		board  string
		closed bool
		want   string
	}{
		{"5x5", false, "112"}, {"5x6", false, "4696"}, {"5x6", true, "3"}, {"6x6", true, "1245"},
		{"6x6", false, "414870"}, {"3x10", true, "6"}, {"4x9", false, "47478"},
	}
	for _, c := range cases {
		if !testenv.Slow() && c.board == "6x6" && !c.closed { // 2 CPU-seconds
			continue
		}
		args := []string{"--board", c.board}
		if c.closed {
			args = append(args, "--closed")
		}
		sweep := unique(append(args, "--method", "frontier")...)
		search := c.want // 6x6 open: the search's is sim.TestCount6x6Open's
		if c.board != "6x6" || c.closed {
			search = unique(append(args, "--method", "search", "--max-nodes", "1e10")...)
		}
		if sweep != c.want || search != c.want {
			t.Errorf("%v: sweep %s, search %s, want %s", args, sweep, search, c.want)
		}
	}
}
