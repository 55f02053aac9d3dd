package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

// TestDesignShardsMerge: the shards of a design merge into the tables of
// one run, byte for byte, the designs table included; also for a design
// past 24 rules, whose rows stream as they are written.
func TestDesignShardsMerge(t *testing.T) {
	for _, file := range []string{"testdata/design.yaml", "testdata/design-streamed.yaml"} {
		tmp := t.TempDir()
		one := filepath.Join(tmp, "one")
		if _, _, err := runCmd(t, "run", file, "--out", one, "--quiet", "--workers", "2"); err != nil {
			t.Fatal(err)
		}
		var parts []string
		for k := range 3 {
			d := filepath.Join(tmp, "part"+string(rune('0'+k)))
			if _, _, err := runCmd(t, "run", file, "--shard", string(rune('0'+k))+"/3", "--out", d, "--quiet", "--workers", "1"); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, d)
		}
		merged := filepath.Join(tmp, "merged")
		if _, _, err := runCmd(t, append([]string{"merge", "--out", merged}, parts...)...); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims", "designs", "report"} {
			ext := ".parquet"
			if name == "report" {
				ext = ".md"
			}
			a, _ := os.ReadFile(filepath.Join(one, name+ext))
			b, _ := os.ReadFile(filepath.Join(merged, name+ext))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s: %s%s: merged shards differ from one run", file, name, ext)
			}
		}
	}
}

// TestDesignTables: every cell has its own squares rows and rule_spec; the
// designs table counts, per start square, the cells whose walks all
// succeed and those with a failure, as the squares table has them; a cell
// gives the walks the same rule gives in an experiment of its own.
func TestDesignTables(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "d")
	if _, _, err := runCmd(t, "run", "testdata/design.yaml", "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	squares, _, err := table.Read[table.SquareRow](filepath.Join(out, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	designs, _, err := table.Read[table.DesignRow](filepath.Join(out, "designs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	const rules = 2*8 + 2 + 1
	starts := map[string]int{"6x6": 4 + 4 + 1, "8x8": 4 + 4 + 1}
	if len(squares) != rules*(starts["6x6"]+starts["8x8"]) {
		t.Fatalf("%d squares rows", len(squares))
	}
	specs := map[string]map[string]bool{} // board+start → rule_specs
	for _, s := range squares {
		k := s.Board + " " + s.Start
		if specs[k] == nil {
			specs[k] = map[string]bool{}
		}
		if specs[k][s.Params.Spec] {
			t.Errorf("%s: rule_spec %s twice", k, s.Params.Spec)
		}
		specs[k][s.Params.Spec] = true
	}
	if len(designs) != 2*(starts["6x6"]+starts["8x8"]) {
		t.Fatalf("%d designs rows", len(designs))
	}
	for _, d := range designs {
		var cells, succeeding, never int64
		for _, s := range squares {
			inDesign := d.Design == "rules[0]" && strings.HasPrefix(s.Params.Spec, "warnsdorff/") && strings.Contains(s.Params.Spec, "first;") ||
				d.Design == "rules[1]" && s.Rule == "random"
			if s.Board != d.Board || s.Start != d.Start || !inDesign {
				continue
			}
			cells++
			if s.Successes == s.Walks {
				succeeding++
			}
			if s.Successes == 0 {
				never++
			}
		}
		if d.Cells != cells || d.CellsSucceeding != succeeding || d.CellsNever != never || d.CellsFailing != cells-succeeding {
			t.Errorf("%s %s %s: %+v; squares give %d cells, %d succeeding, %d never", d.Board, d.Design, d.Start, d, cells, succeeding, never)
		}
		if d.Deterministic != (d.Design == "rules[0]") {
			t.Errorf("%s: deterministic %v", d.Design, d.Deterministic)
		}
	}
	// A cell is the rule its parameters name: the same walks as in an
	// experiment of its own (streams keyed by the rule's name).
	own := filepath.Join(tmp, "own.yaml")
	os.WriteFile(own, []byte("name: design\nseed: 7\nboards: [6x6, 8x8]\nstarts: [corner, centre, b3]\nwalks: 40\nexact: off\nrules:\n  - {name: random, max_steps: 24}\n  - {name: warnsdorff, tie_break: roth+first, order: \"(-2,-1) (-1,-2) (1,-2) (2,-1) (2,1) (1,2) (-1,2) (-2,1)\"}\n"), 0o644)
	if _, _, err := runCmd(t, "run", own, "--out", filepath.Join(tmp, "own"), "--quiet"); err != nil {
		t.Fatal(err)
	}
	alone, _, err := table.Read[table.SquareRow](filepath.Join(tmp, "own", "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range alone {
		i := slices.IndexFunc(squares, func(s table.SquareRow) bool {
			return s.Board == a.Board && s.Start == a.Start && s.Params.Spec == a.Params.Spec
		})
		if i < 0 {
			t.Errorf("%s %s %s: not in the design's run", a.Board, a.Params.Spec, a.Start)
			continue
		}
		s := squares[i]
		if s.Walks != a.Walks || s.Successes != a.Successes || s.LengthMean != a.LengthMean || s.Stopped != a.Stopped {
			t.Errorf("%s %s %s: design %d/%d mean %v, alone %d/%d mean %v", a.Board, a.Params.Spec, a.Start, s.Successes, s.Walks, s.LengthMean, a.Successes, a.Walks, a.LengthMean)
		}
	}
}

func TestValidateDesignSize(t *testing.T) {
	out, _, err := runCmd(t, "validate", "testdata/design.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "19 rules (rules[0]: a design of 16 cells, rules[1]: a design of 2 cells)") {
		t.Errorf("validate: %s", out)
	}
}

// TestPlotDesignRefused: figures are drawn per board and rule name, so a
// design's result, whose cells share a name, is refused rather than drawn
// with its cells pooled.
func TestPlotDesignRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d")
	if _, _, err := runCmd(t, "run", "testdata/design.yaml", "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, "plot", out, "--figure", "success-heatmap")
	if err == nil || !strings.Contains(err.Error(), "share the name warnsdorff/first (a design") {
		t.Errorf("plot of a design: %v", err)
	}
}
