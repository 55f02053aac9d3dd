package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/table"
)

func TestRunSmall(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", dir, "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	// b2 succeeds with exact probability 0.75 (0.70..0.80 claimed): consistent;
	// corners always succeed on 5x5: "below 20 %" is refuted.
	for _, want := range []string{"b2 ", "consistent", "corner", "refuted"} {
		if !strings.Contains(out, want) {
			t.Errorf("claims output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"squares.parquet", "lengths.parquet", "deadends.parquet", "classes.parquet", "comparisons.parquet", "claims.parquet", "report.md", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	rows, md, err := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*6 || md.Seed != 3 || md.Experiment != "small" || md.ConfigHash == "" {
		t.Errorf("%d rows, metadata %+v", len(rows), md)
	}
	// Existing results are refused without --force, and kept.
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", dir, "--quiet"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("second run: %v", err)
	}
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", dir, "--quiet", "--force", "--workers", "1"); err != nil {
		t.Fatal(err)
	}
	again, _, _ := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if fmt.Sprintf("%#v", again) != fmt.Sprintf("%#v", rows) { // %#v: NaN (a null mean) equals NaN
		t.Error("--workers 1 after --workers 2: squares differ")
	}
}

// TestShardsAndMerge runs three shards through the command and merges
// them: the merged tables equal one run's.
func TestShardsAndMerge(t *testing.T) {
	tmp := t.TempDir()
	if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--out", filepath.Join(tmp, "one"), "--quiet"); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for k := range 3 {
		d := filepath.Join(tmp, "part"+string(rune('0'+k)))
		if _, _, err := runCmd(t, "run", "testdata/small.yaml", "--shard", string(rune('0'+k))+"/3", "--out", d, "--quiet"); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, d)
	}
	if _, _, err := runCmd(t, append([]string{"merge", "--out", filepath.Join(tmp, "bad")}, parts[:2]...)...); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("merge of 2 of 3 shards: %v", err)
	}
	if _, _, err := runCmd(t, append([]string{"merge", "--out", filepath.Join(tmp, "merged")}, parts...)...); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims"} {
		a, _ := os.ReadFile(filepath.Join(tmp, "one", name+".parquet"))
		b, _ := os.ReadFile(filepath.Join(tmp, "merged", name+".parquet"))
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s.parquet: merged shards differ from one run", name)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "no/such/file.yaml"}, "no such file"},
		{[]string{"run", "a.yaml", "b.yaml"}, "at most one"},
		{[]string{"run", "--shard", "3/3"}, "0 <= K < N"},
		{[]string{"run", "--workers", "0"}, "want 1 to 1024"},
		{[]string{"merge", "--out", "x"}, "name the parts"},
		{[]string{"validate"}, "at least one"},
	} {
		if _, _, err := runCmd(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.args, err, c.want)
		}
	}
}

func TestDryRun(t *testing.T) {
	out, _, err := runCmd(t, "run", "testdata/small.yaml", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "total: 12 units, 36000 walks") || !strings.Contains(out, "estimated") {
		t.Errorf("dry run:\n%s", out)
	}
}

func TestValidateCommitted(t *testing.T) {
	out, errOut, err := runCmd(t, "validate", "default", "testdata/small.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Count(out, ": ok:") != 2 {
		t.Errorf("validate:\n%s", out)
	}
}

// TestRunBadFileWritesNothing: an invalid experiment file is refused with
// its errors, and no result or partial directory appears.
func TestRunBadFileWritesNothing(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\nboards: [0x8]\nrules: []\nwalks: 10\n"), 0o644)
	out := filepath.Join(tmp, "results", "bad")
	_, _, err := runCmd(t, "run", bad, "--out", out, "--quiet")
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:2") || !strings.Contains(err.Error(), "bad.yaml:3") {
		t.Fatalf("want errors naming lines 2 and 3, got %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(tmp, "results")); len(ents) > 0 {
		t.Errorf("a bad file left %d entries under results/", len(ents))
	}
}
