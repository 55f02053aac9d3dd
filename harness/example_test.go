package harness

import (
	"context"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"knightwalk/internal/buildinfo"
	"knightwalk/internal/figures"
	"knightwalk/internal/results"
	"knightwalk/internal/runner"
	"knightwalk/internal/table"
)

// TestExampleUpToDate fails when the committed results/example is not what
// the code writes now: every table's rows, categories (the stored level
// lists), metadata other than the writing binary's provenance, and
// report.md. Regenerate it with results/regenerate-example.sh.
func TestExampleUpToDate(t *testing.T) {
	s, err := loadExperiment("example")
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

// tableDigest is a table's rows (hashed), key-value metadata and stored
// levels as text, less the keys that name the binary and machine that
// wrote it.
func tableDigest(path string) (string, error) {
	var rows any
	var md table.Metadata
	var err error
	switch filepath.Base(path) {
	case results.SquaresFile:
		rows, md, err = table.ReadSquares(path)
	case results.LengthsFile:
		rows, md, err = table.ReadLengths(path)
	case results.DeadEndsFile:
		rows, md, err = table.ReadDeadEnds(path)
	case results.ClassesFile:
		rows, md, err = table.ReadClasses(path)
	case results.BoardsFile:
		rows, md, err = table.ReadBoards(path)
	case results.ComparisonsFile:
		rows, md, err = table.ReadComparisons(path)
	case results.ClaimsFile:
		rows, md, err = table.ReadClaims(path)
	case results.WalksFile:
		rows, md, err = table.ReadWalks(path)
	default:
		return "", fmt.Errorf("%s: not a table", path)
	}
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
	// The rows by their gob encoding (every field is exported; floats by
	// their bits), hashed: printing 200,000 walk rows with %#v cost more
	// CPU than running the experiment's walks.
	h := sha256.New()
	if err := gob.NewEncoder(h).Encode(rows); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x\n%#v\n%s", h.Sum(nil), md, *levels), nil
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
