package harness

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/table"
)

// bigSeedYAML is an experiment with the largest seed, 2^64-1, which a
// reader decoding JSON numbers as float64 (JavaScript, R's jsonlite)
// rounds to 18446744073709552000.
const bigSeedYAML = `name: bigseed
seed: 18446744073709551615
boards: [3x4]
starts: [corner, b2]
walks: 40
rules:
  - name: random
    max_steps: 6
  - name: warnsdorff
    tie_break: first
`

// TestSeedIsAJSONString: manifest.json, its config and part.json hold the
// seed (and the walk totals) as decimal strings, read back exactly by a
// float64 JSON reader and by Go, which still reads a bare number.
func TestSeedIsAJSONString(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "bigseed.yaml")
	if err := os.WriteFile(cfg, []byte(bigSeedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(tmp, "one")
	if _, _, err := runCmd(t, "run", cfg, "--out", one, "--quiet"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(one, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]any // numbers as float64, as JavaScript reads them
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	if got := generic["seed"]; got != "18446744073709551615" {
		t.Errorf("manifest seed = %#v, want the string \"18446744073709551615\"", got)
	}
	if got := generic["config"].(map[string]any)["seed"]; got != "18446744073709551615" {
		t.Errorf("manifest config.seed = %#v, want a string", got)
	}
	for _, k := range []string{"walks", "successes", "closed"} {
		if _, ok := generic[k].(string); !ok {
			t.Errorf("manifest %s = %#v, want a decimal string", k, generic[k])
		}
	}
	m, err := results.ReadManifest(one)
	if err != nil || uint64(m.Seed) != 1<<64-1 || m.Walks != 5*40+5 { // warnsdorff/first is deterministic: one walk a square
		t.Fatalf("Go reads seed %d, walks %d (%v)", m.Seed, m.Walks, err)
	}
	// A manifest written before (bare numbers) still reads.
	old := strings.Replace(string(b), `"seed": "18446744073709551615"`, `"seed": 18446744073709551615`, 1)
	old = strings.Replace(old, `"walks": "205"`, `"walks": 205`, 1)
	if old == string(b) {
		t.Fatal("test does not rewrite the seed")
	}
	oldDir := filepath.Join(tmp, "old")
	os.Mkdir(oldDir, 0o755)
	os.WriteFile(filepath.Join(oldDir, "manifest.json"), []byte(old), 0o644)
	if m, err := results.ReadManifest(oldDir); err != nil || uint64(m.Seed) != 1<<64-1 || m.Walks != 205 {
		t.Errorf("bare-number manifest: seed %v, walks %v, %v", m.Seed, m.Walks, err)
	}
	// Re-running from the manifest (string seed in its config) gives the
	// same config hash.
	again := filepath.Join(tmp, "again")
	if _, _, err := runCmd(t, "run", filepath.Join(one, "manifest.json"), "--out", again, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if m2, err := results.ReadManifest(again); err != nil || m2.ConfigHash != m.ConfigHash {
		t.Errorf("re-run from manifest: %v", err)
	}
	// node's JSON.parse, the reader of .ci/duckdb/check.mjs.
	if node, err := exec.LookPath("node"); err == nil {
		out, err := exec.Command(node, "-e", `const m = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
process.stdout.write(String(m.seed) + ' ' + String(m.config.seed))`, filepath.Join(one, "manifest.json")).CombinedOutput()
		if err != nil || string(out) != "18446744073709551615 18446744073709551615" {
			t.Errorf("node reads %q (%v)", out, err)
		}
	} else {
		t.Log("node not installed: JSON.parse not run")
	}
}

// TestMergedProvenance: each part records its host, build, kernel path,
// workers and times; the merged manifest lists them per shard and reports
// the parts' compute time as throughput, not the merge's.
func TestMergedProvenance(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "bigseed.yaml")
	if err := os.WriteFile(cfg, []byte(bigSeedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for k, w := range []string{"1", "2", "1"} {
		p := filepath.Join(tmp, "part"+string(rune('0'+k)))
		if _, _, err := runCmd(t, "run", cfg, "--out", p, "--quiet", "--workers", w, "--shard", string(rune('0'+k))+"/3"); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(p, "part.json"))
		if err != nil {
			t.Fatal(err)
		}
		var part map[string]any
		json.Unmarshal(b, &part)
		if part["seed"] != "18446744073709551615" {
			t.Errorf("part.json seed = %#v, want a string", part["seed"])
		}
		prov, _ := part["provenance"].(map[string]any)
		host, _ := prov["host"].(map[string]any)
		if prov == nil || host["hostname"] == nil || !strings.Contains(host["kernel_path"].(string), "this CPU") ||
			prov["build"] == nil || prov["started_at"] == "" || prov["finished_at"] == "" || prov["shard"] != string(rune('0'+k))+"/3" {
			t.Errorf("part %d provenance: %v", k, prov)
		}
		parts = append(parts, p)
	}
	merged := filepath.Join(tmp, "merged")
	if _, _, err := runCmd(t, append([]string{"merge", "--out", merged}, parts...)...); err != nil {
		t.Fatal(err)
	}
	m, err := results.ReadManifest(merged)
	if err != nil {
		t.Fatal(err)
	}
	if m.Shard != "merged" || len(m.Shards) != 3 || m.Workers != 4 {
		t.Fatalf("merged manifest: shard %q, %d shards, workers %d", m.Shard, len(m.Shards), m.Workers)
	}
	var secs float64
	var walks uint64
	for k, s := range m.Shards {
		if s.Shard != string(rune('0'+k))+"/3" || s.Host.Hostname == "" || s.Host.KernelPath == "" || s.StartedAt == "" || s.Seconds <= 0 {
			t.Errorf("shard %d: %+v", k, s)
		}
		secs += s.Seconds
		walks += uint64(s.Walks)
	}
	if walks != uint64(m.Walks) || m.Seconds != secs || m.WalksPerSec != float64(walks)/secs || m.MergeSeconds <= 0 {
		t.Errorf("merged: walks %d of %d, seconds %g of %g, %g walks/s, merge %g s", walks, m.Walks, m.Seconds, secs, m.WalksPerSec, m.MergeSeconds)
	}
}

// TestRuleSpecJoin: every table with a rule column carries a non-null
// rule_spec, the same in every table of a run and in `experiment exact`
// with the same parameters; a join on (board, rule_spec, start) matches a
// random walk with max_steps 6 to `exact --max-steps 6` row for row and
// to an enumeration without a step limit not at all.
func TestRuleSpecJoin(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "bigseed.yaml")
	if err := os.WriteFile(cfg, []byte(bigSeedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "run")
	if _, _, err := runCmd(t, "run", cfg, "--out", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	sq, _, err := table.Read[table.SquareRow](filepath.Join(dir, "squares.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]string{}
	for _, r := range sq {
		specs[r.Rule] = r.Params.Spec
	}
	want := map[string]string{"random": "random;max_steps=6",
		"warnsdorff/first": "warnsdorff/first;order=(2,1)(1,2)(-1,2)(-2,1)(-2,-1)(-1,-2)(1,-2)(2,-1)"}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("squares rule_spec: %v, want %v", specs, want)
	}
	check := func(name string, n int, spec func(i int) (rule, spec string)) {
		for i := range n {
			if r, s := spec(i); s == "" || s != want[r] {
				t.Errorf("%s row %d: rule %s, rule_spec %q", name, i, r, s)
			}
		}
	}
	ls, _, _ := table.Read[table.LengthRow](filepath.Join(dir, "lengths.parquet"))
	check("lengths", len(ls), func(i int) (string, string) { return ls[i].Rule, ls[i].Params.Spec })
	de, _, _ := table.Read[table.DeadEndRow](filepath.Join(dir, "deadends.parquet"))
	check("deadends", len(de), func(i int) (string, string) { return de[i].Rule, de[i].Params.Spec })
	cl, _, _ := table.Read[table.ClassRow](filepath.Join(dir, "classes.parquet"))
	check("classes", len(cl), func(i int) (string, string) { return cl[i].Rule, cl[i].Params.Spec })
	bd, _, _ := table.Read[table.BoardRow](filepath.Join(dir, "boards.parquet"))
	check("boards", len(bd), func(i int) (string, string) { return bd[i].Rule, bd[i].Params.Spec })
	cm, _, _ := table.Read[table.ComparisonRow](filepath.Join(dir, "comparisons.parquet"))
	check("comparisons a", len(cm), func(i int) (string, string) { return cm[i].RuleA, cm[i].RuleSpecA })
	check("comparisons b", len(cm), func(i int) (string, string) { return cm[i].RuleB, cm[i].RuleSpecB })
	if len(ls) == 0 || len(bd) == 0 || len(cm) == 0 {
		t.Fatalf("empty tables: %d lengths, %d boards, %d comparisons", len(ls), len(bd), len(cm))
	}

	type key struct{ board, spec, start string }
	runKeys := map[key]bool{}
	for _, r := range sq {
		if r.Rule == "random" {
			runKeys[key{r.Board, r.Params.Spec, r.Start}] = true
		}
	}
	for _, c := range []struct {
		flags  []string
		joined int
	}{
		{[]string{"--max-steps", "6"}, len(runKeys)},
		{nil, 0},
	} {
		out := filepath.Join(tmp, "exact"+strings.Join(c.flags, "")+".parquet")
		args := append([]string{"exact", "--board", "3x4", "--rule", "random", "--format", "parquet", "--out", out}, c.flags...)
		if _, _, err := runCmd(t, args...); err != nil {
			t.Fatal(err)
		}
		ex, _, err := table.Read[table.ExactRow](out)
		if err != nil {
			t.Fatal(err)
		}
		joined := 0
		for _, r := range ex {
			if r.Params.Spec == "" {
				t.Errorf("exact %v: empty rule_spec", c.flags)
			}
			if runKeys[key{r.Key.Board, r.Params.Spec, r.Key.Start}] {
				joined++
			}
		}
		if joined != c.joined || len(ex) != 12 {
			t.Errorf("exact %v (%d rows, rule_spec %q): %d run rows join, want %d", c.flags, len(ex), ex[0].Params.Spec, joined, c.joined)
		}
	}
	csv, _, err := runCmd(t, "exact", "--board", "3x4", "--rule", "warnsdorff", "--tie-break", "first", "--order", "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)", "--max-steps", "5", "--format", "csv")
	if err != nil || !strings.Contains(csv, ",rule_spec,p_lower,p_upper,dropped\n") || !strings.Contains(csv, `,"warnsdorff/first;order=(1,2)(2,1)(-1,2)(-2,1)(-2,-1)(-1,-2)(1,-2)(2,-1);max_steps=5",`) {
		t.Errorf("exact csv: %v\n%s", err, csv)
	}
}

// TestTourJSONSeedString: tour --format json writes the seed and walk
// index as strings, read back exactly by a float64 JSON reader.
func TestTourJSONSeedString(t *testing.T) {
	out, _, err := runCmd(t, "tour", "--board", "5x5", "--start", "a1", "--seed", "18446744073709551615", "--walk", "9007199254740993", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m["seed"] != "18446744073709551615" || m["walk"] != "9007199254740993" {
		t.Errorf("seed %#v, walk %#v", m["seed"], m["walk"])
	}
}
