package figures

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/plots"
)

// TestDesignMap: the design map draws, for each design and board, the
// designs table's cells_failing on the squares run and nothing on the
// others; a deterministic design's note and caption say its counts are
// exact, a sampled one's that they count cells with a failing walk; a run
// with no design gets a note, not a figure; and a file asking for another
// figure of a design, or for the map without one, is refused.
func TestDesignMap(t *testing.T) {
	const text = `name: dm
seed: 2
boards: [6x6, 5x7]
starts: [corner, c3, r1c2]
walks: 4
exact: off
rules:
  - {name: warnsdorff, tie_break: first, order: rotations}
  - {name: random, max_steps: [20, 30]}
outputs: {figures: [design-map]}
`
	c, err := config.Parse("dm.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := config.Resolve(c, "dm.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "dm")
	defer func(f []string) { formats = f }(formats)
	formats = []string{"svg"}
	if _, err := runner.Run(context.Background(), e, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	data := map[string]plots.HeatmapData{}
	dataHook = func(base string, v any) {
		mu.Lock()
		defer mu.Unlock()
		data[base] = v.(plots.HeatmapData)
	}
	defer func() { dataHook = nil }()
	drawn, err := Draw(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(drawn) != 4 || len(data) != 4 {
		t.Fatalf("%d figures drawn, %d maps; want one per (board, design): 4", len(drawn), len(data))
	}
	rows, _, err := table.Read[table.DesignRow](filepath.Join(dir, results.DesignsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, dr := range drawn {
		base := filepath.Base(dr.Base)
		h, ok := data[base]
		if !ok {
			t.Fatalf("%s: no map recorded", base)
		}
		run := 0
		for _, r := range rows {
			if base != "design-map_"+slug(r.Board+"_"+strings.NewReplacer("[", "", "]", "").Replace(r.Design)) {
				continue
			}
			run++
			i := int(r.StartRow)*h.Cols + int(r.StartCol)
			if h.Mask[i] || h.Values[i] != float64(r.CellsFailing) {
				t.Errorf("%s %s: drawn %v (masked %v), cells_failing %d", base, r.Start, h.Values[i], h.Mask[i], r.CellsFailing)
			}
		}
		masked := 0
		for i, m := range h.Mask {
			if m {
				masked++
				if !math.IsNaN(h.Values[i]) {
					t.Errorf("%s: square %d not run but drawn %v", base, i, h.Values[i])
				}
			}
		}
		if run != 6 || masked != h.Rows*h.Cols-6 {
			t.Errorf("%s: %d squares run, %d masked", base, run, masked)
		}
		// The map and the designs table name the rule with its tie-break
		// and its design factor, as rule_spec names a rule.
		want := map[bool]string{true: "warnsdorff;tie_break=first;order=rotations", false: "random;max_steps={20,30}"}[strings.HasSuffix(base, "rules0")]
		if !strings.HasPrefix(h.Title, want+" on ") {
			t.Errorf("%s: title %q, want it to name %s", base, h.Title, want)
		}
		for _, r := range rows {
			if base == "design-map_"+slug(r.Board+"_"+strings.NewReplacer("[", "", "]", "").Replace(r.Design)) && r.Rule != want {
				t.Errorf("%s: the designs table's rule %q, want %q", base, r.Rule, want)
				break
			}
		}
		exact := strings.HasSuffix(base, "rules0")
		if exact != strings.Contains(h.Note, "exact") || exact != strings.Contains(dr.Caption, "counts are exact") {
			t.Errorf("%s: note %q, caption %q", base, h.Note, dr.Caption)
		}
	}
	plain := filepath.Join(t.TempDir(), "plain")
	p := strings.NewReplacer("order: rotations}", "}", "max_steps: [20, 30]}", "max_steps: 20}", "outputs: {figures: [design-map]}\n", "").Replace(text)
	pc, err := config.Parse("p.yaml", []byte(p))
	if err != nil {
		t.Fatal(err)
	}
	pe, _ := config.Resolve(pc, "p.yaml", []byte(p))
	if _, err := runner.Run(context.Background(), pe, runner.RunOptions{Out: plain, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	if got, err := Draw(plain, []string{"design-map"}); err != nil || len(got) != 1 || got[0].Note == "" || got[0].Base != "" {
		t.Errorf("design-map of a run without a design: %+v, %v", got, err)
	}
	for _, c := range []struct{ yaml, want string }{
		{strings.Replace(text, "[design-map]", "[design-map, success-heatmap]", 1), "leave out figures but design-map"},
		{strings.Replace(p, "exact: off\n", "exact: off\noutputs: {figures: [design-map]}\n", 1), "no rule entry here is a design"},
	} {
		if _, err := config.Parse("x.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v; want %q", err, c.want)
		}
	}
}
