package harness

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// typedRuns are experiments run both ways by TestExperimentRunIsTheCommand:
// a fixed run with claims, and a sieve (which writes only its sieve table).
var typedRuns = map[string]string{
	"typed-fixed": `name: typed-fixed
seed: 7
boards: [5x5, 6x6]
starts: all
walks: 300
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: random}
claims:
  - {id: corner, rule: warnsdorff/random, class: corner, above: 0.5}
`,
	"typed-sieve": `name: typed-sieve
seed: 7
boards:
  - {sizes: "5..9", keep: succeeds}
starts: [r0c0]
walks: 1
rules:
  - {name: warnsdorff, tie_break: roth+first, order: natural}
`,
}

// TestExperimentRunIsTheCommand runs each experiment with `experiment run
// FILE --out DIR` and with Parse and Experiment.Run, and requires every
// Parquet table and report.md of the two result directories to be the same
// bytes, and the typed Result to open the tables of the run.
func TestExperimentRunIsTheCommand(t *testing.T) {
	for name, src := range typedRuns {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			file := filepath.Join(tmp, name+".yaml")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cliDir, typedDir := filepath.Join(tmp, "cli"), filepath.Join(tmp, "typed")
			if err := Run(context.Background(), io.Discard, io.Discard, []string{"run", file, "--out", cliDir, "--workers", "2", "--quiet"}); err != nil {
				t.Fatalf("experiment run: %v", err)
			}
			e, err := Parse(file, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if e.Name() != name {
				t.Errorf("Name() = %q, want %q", e.Name(), name)
			}
			res, err := e.Run(context.Background(), RunOptions{Out: typedDir, Workers: 1})
			if err != nil {
				t.Fatalf("Experiment.Run: %v", err)
			}
			if res.Dir != typedDir {
				t.Errorf("Result.Dir = %q, want %q", res.Dir, typedDir)
			}
			files, err := filepath.Glob(filepath.Join(cliDir, "*.parquet"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no tables in %s (%v)", cliDir, err)
			}
			for _, f := range append(files, filepath.Join(cliDir, "report.md")) {
				want, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(typedDir, filepath.Base(f)))
				if err != nil {
					t.Fatalf("the typed run lacks the command's %s: %v", filepath.Base(f), err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: the typed run's %d bytes differ from the command's %d", filepath.Base(f), len(got), len(want))
				}
			}
			tr, err := res.Tables()
			if err != nil {
				t.Fatal(err)
			}
			if tr.Manifest.ConfigHash != e.ConfigHash() {
				t.Errorf("manifest config_hash %s, experiment %s", tr.Manifest.ConfigHash, e.ConfigHash())
			}
			if strings.HasSuffix(name, "sieve") {
				rows, err := tr.Sieve()
				if err != nil || len(rows) == 0 {
					t.Fatalf("Sieve(): %d rows, %v", len(rows), err)
				}
				return
			}
			rows, err := tr.Squares()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 2*(25+36) {
				t.Errorf("Squares(): %d rows, want %d", len(rows), 2*(25+36))
			}
		})
	}
}

// TestExperimentErrors: bad input to the typed entry is an error naming it.
func TestExperimentErrors(t *testing.T) {
	if _, err := Parse("bad.yaml", []byte("name: x\nwalks: -3\n")); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("Parse of a bad file: %v, want an error naming bad.yaml", err)
	}
	if _, err := Load(""); err == nil {
		t.Error("Load(\"\"): no error")
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("Load of a missing file: no error")
	}
	e, err := Parse("ok.yaml", []byte(typedRuns["typed-fixed"]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background(), RunOptions{Out: t.TempDir() + "/r", Workers: -1}); err == nil {
		t.Error("Workers -1: no error")
	}
}
