package harness

import (
	"context"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/expfile"
	"github.com/knightwalk/knightwalk/internal/figures"
	"github.com/knightwalk/knightwalk/internal/results"
	"github.com/knightwalk/knightwalk/internal/runner"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/internal/testenv"
)

// TestExampleUpToDate fails when the committed results/example is not what
// the code writes now: every table's rows, categories (the stored level
// lists), metadata other than the writing binary's provenance, and
// report.md. Regenerate it with results/regenerate-example.sh.
//
// The whole example is the slow pass's: its exact values (the random
// walk's on 5x5, Warnsdorff's on 7x7 and 8x8 from every square) are most
// of the fast suite's harness CPU. The fast pass reruns its 9x9 and 10x10
// boards (no exact values, no claims: 108,600 walks in a fraction of a
// second) and requires their rows of every table to be the committed
// rows of those boards: the walks' streams, the tallies, the statistics
// and the tables' encoding, board for board.
func TestExampleUpToDate(t *testing.T) {
	if !testenv.Slow() {
		checkExampleBoards(t)
		return
	}
	s, err := expfile.Load("example")
	if err != nil {
		t.Fatal(err)
	}
	s.Figures = nil // figures change no table, and are not committed
	dir := filepath.Join(t.TempDir(), "example")
	if _, err := runner.Run(context.Background(), s, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All,
		Meta: results.Metadata(s, version, buildinfo.Read())}); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "results", "example")
	for _, name := range append(results.TableFiles, results.WalksFile) {
		want, err := tableDigest(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := tableDigest(filepath.Join(committed, name))
		if err != nil || got != want {
			t.Errorf("results/example/%s is not what the code writes now (%v): run results/regenerate-example.sh", name, err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, results.ReportFile))
	b, _ := os.ReadFile(filepath.Join(committed, results.ReportFile))
	if withoutWarnings(a) != withoutWarnings(b) {
		t.Errorf("results/example/report.md is not what the code writes now: run results/regenerate-example.sh")
	}
}

// checkExampleBoards is the fast pass of TestExampleUpToDate: the example
// on its 9x9 and 10x10 boards alone, whose rows must be the committed
// rows of those boards in every table.
func checkExampleBoards(t *testing.T) {
	file, data, err := expfile.Read("example")
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := strings.Cut(string(data), "\nclaims:") // the claims are about 8x8
	const boards = "boards:\n  - {sizes: 5..10}\n"
	if !strings.Contains(text, boards) || !strings.HasSuffix(string(data), "source: \"seed 000\"}\n") {
		t.Fatalf("%s no longer has %q and its claims last: update checkExampleBoards", file, boards)
	}
	text = strings.Replace(text, boards, "boards: [9x9, 10x10]\n", 1) + "\n"
	cfg, err := expfile.Parse(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := config.Resolve(cfg, file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s.Figures = nil
	dir := filepath.Join(t.TempDir(), "example")
	if _, err := runner.Run(context.Background(), s, runner.RunOptions{Out: dir, Workers: 2, Shard: runner.All}); err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{"9x9": true, "10x10": true}
	for _, name := range append(results.TableFiles, results.WalksFile) {
		fresh, _, err := readRows(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, _, err := readRows(filepath.Join("..", "results", "example", name))
		if err != nil {
			t.Fatal(err)
		}
		committed = rowsOfBoards(committed, keep)
		if n := reflect.ValueOf(fresh).Len(); name != results.ClaimsFile && n == 0 {
			t.Fatalf("%s: no rows of 9x9 and 10x10", name)
		}
		if a, b := rowsHash(t, fresh), rowsHash(t, committed); a != b {
			t.Errorf("results/example/%s: its rows of 9x9 and 10x10 are not what the code writes now: run results/regenerate-example.sh", name)
		}
	}
}

// rowsOfBoards keeps the rows (a slice of table rows) whose Board is in keep.
func rowsOfBoards(rows any, keep map[string]bool) any {
	v := reflect.ValueOf(rows)
	out := reflect.MakeSlice(v.Type(), 0, v.Len())
	for i := range v.Len() {
		if keep[v.Index(i).FieldByName("Board").String()] {
			out = reflect.Append(out, v.Index(i))
		}
	}
	return out.Interface()
}

// rowsHash is the hash of rows' gob encoding (every field of a row is
// exported; floats by their bits): printing 200,000 walk rows with %#v
// cost more CPU than running the experiment's walks.
func rowsHash(t *testing.T, rows any) string {
	t.Helper()
	h := sha256.New()
	if err := gob.NewEncoder(h).Encode(rows); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// tableDigest is a table's rows (hashed), key-value metadata and stored
// levels as text, less the keys that name the binary and machine that
// wrote it.
func tableDigest(path string) (string, error) {
	rows, md, err := readRows(path)
	if err != nil {
		return "", err
	}
	md.Build = buildinfo.Info{}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return "", err
	}
	defer rdr.Close()
	levels := rdr.MetaData().KeyValueMetadata().FindValue(table.LevelsKey)
	if levels == nil {
		return "", fmt.Errorf("%s: no %s key", path, table.LevelsKey)
	}
	h := sha256.New()
	if err := gob.NewEncoder(h).Encode(rows); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x\n%#v\n%s", h.Sum(nil), md, *levels), nil
}

// readRows reads the table at path (by its file name) as its row type.
func readRows(path string) (rows any, md table.Metadata, err error) {
	switch filepath.Base(path) {
	case results.SquaresFile:
		rows, md, err = table.Read[table.SquareRow](path)
	case results.LengthsFile:
		rows, md, err = table.Read[table.LengthRow](path)
	case results.DeadEndsFile:
		rows, md, err = table.Read[table.DeadEndRow](path)
	case results.ClassesFile:
		rows, md, err = table.Read[table.ClassRow](path)
	case results.BoardsFile:
		rows, md, err = table.Read[table.BoardRow](path)
	case results.ComparisonsFile:
		rows, md, err = table.Read[table.ComparisonRow](path)
	case results.ClaimsFile:
		rows, md, err = table.Read[table.ClaimRow](path)
	case results.WalksFile:
		rows, md, err = table.Read[table.WalkRow](path)
	default:
		return nil, md, fmt.Errorf("%s: not a table", path)
	}
	return rows, md, err
}

// withoutWarnings drops the report's warning lines (a binary built by go
// test has no VCS information; the committed report's binary has) and its
// figures section (the test draws none).
func withoutWarnings(b []byte) string {
	text, _, _ := strings.Cut(string(b), figures.FiguresHeading)
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		// a warning and the blank line after it, which only one side has
		if !strings.HasPrefix(l, "**Warning:**") && !(l == "" && len(keep) > 0 && keep[len(keep)-1] == "") {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
