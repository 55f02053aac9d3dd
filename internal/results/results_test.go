package results

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
	"github.com/knightwalk/knightwalk/stats"
)

const testYAML = `name: r
seed: 4
boards: [5x5, "6"]
walks: 50
rules: [{name: warnsdorff, tie_break: pohl}, {name: random}]
outputs: {figures: [success-heatmap, walk]}
claims:
  - {rule: warnsdorff/pohl, board: "6", class: centre, above: 0.5}
  - {id: any, rule: random, degree: 8, below: 0.1}
`

func experiment(t *testing.T) *config.Experiment {
	t.Helper()
	c, err := config.Parse("r.yaml", []byte(testYAML))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "r.yaml", []byte(testYAML))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// tallies walks every (board, rule, start) of e directly, without the runner.
func tallies(t *testing.T, e *config.Experiment) map[[3]int]*stats.Tally {
	out := map[[3]int]*stats.Tally{}
	for bi, b := range e.Boards {
		for ri, r := range e.Rules {
			w, err := sim.NewWalker(b, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range e.Starts[bi] {
				x := stats.NewTally(b.Squares())
				for i := range e.Walks {
					x.Add(w.Walk(s, sim.NewKey(e.Seed, b, r, s), i))
				}
				out[[3]int{bi, ri, s}] = x
			}
		}
	}
	return out
}

// TestBuildAndWrite: claims become rows under canonical names with the
// squares they pool; the manifest read back holds what figures need.
func TestBuildAndWrite(t *testing.T) {
	e := experiment(t)
	ts := tallies(t, e)
	tab, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Squares) != 2*(25+36) || len(tab.Claims) != 3 {
		t.Fatalf("%d square rows, %d claim rows", len(tab.Squares), len(tab.Claims))
	}
	type row struct {
		id, rule, board, target string
		walks                   uint64
	}
	var got []row
	for _, c := range tab.Claims {
		got = append(got, row{c.ID, c.Rule, c.Board, c.Target, uint64(c.Walks)})
	}
	want := []row{{"claim-1", "warnsdorff/pohl", "6x6", "class:centre", 4 * 50},
		{"any", "random", "5x5", "degree:8", 1 * 50}, {"any", "random", "6x6", "degree:8", 4 * 50}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("claim rows\n%v\nwant\n%v", got, want)
	}
	dir := t.TempDir()
	if err := Write(dir, e, tab, RunInfo{Meta: Metadata(e, "v", buildinfo.Info{Revision: "c"}), Shard: "0/1", Workers: 1, Units: 9}); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Experiment != "r" || m.Seed != 4 || m.ConfigHash != e.ConfigHash || len(m.Config.Rules) != 2 ||
		m.Config.Rules[0].Name != "warnsdorff/pohl" || !reflect.DeepEqual(m.Config.Outputs.Figures, []string{"success-heatmap", "walk"}) {
		t.Errorf("manifest read back: %+v", m)
	}
	back, md, err := table.Read[table.ClaimRow](filepath.Join(dir, ClaimsFile))
	// %#v compares NaN (null) values equal, as reflect.DeepEqual does not.
	if err != nil || fmt.Sprintf("%#v", back) != fmt.Sprintf("%#v", tab.Claims) || md.ConfigHash != e.ConfigHash {
		t.Errorf("claims read back: %v", err)
	}
}

// TestBuildIncomplete: a missing tally is an error naming what is missing.
func TestBuildIncomplete(t *testing.T) {
	e := experiment(t)
	ts := tallies(t, e)
	delete(ts, [3]int{1, 0, 14})
	_, err := Build(e, func(b, r, s int) *stats.Tally { return ts[[3]int{b, r, s}] })
	if err == nil || !strings.Contains(err.Error(), "6x6 warnsdorff/pohl from c3") {
		t.Errorf("missing tally: %v", err)
	}
}
