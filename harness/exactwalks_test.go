package harness

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knightwalk/knightwalk/exact"
	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/sim"
)

// exactWalksA1 enumerates rule from a1 on board through exactWalks.
func exactWalksA1(t *testing.T, board, rule string, opt exact.Options, layers bool) (exact.Result, string) {
	t.Helper()
	b, err := sim.ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRule(rule)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	res, err := exactWalks(context.Background(), &stderr, b, r, []int{0}, opt, layers)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Start != 0 {
		t.Fatalf("%s: got %d results, want one for a1", rule, len(res))
	}
	return res[0], stderr.String()
}

// TestExactWalksA1: the exact values 'experiment exact --board B --start a1
// [--rule R] --format csv' prints, bit for bit: Warnsdorff/random completes
// a tour from the corner of 5x5 every time (263 states), of 3x7 one time
// in three (130 states); the random walk on 4x5 with probability
// 0.0036289544753086425 (20,362 states).
func TestExactWalksA1(t *testing.T) {
	for _, c := range []struct {
		board, rule string
		p, mean     float64
		nodes       int64
	}{
		{"5x5", "warnsdorff/random", 1, 25, 263},
		{"3x7", "warnsdorff/random", 0.33333333333333331, 17.583333333333332, 130},
		{"4x5", "random", 0.0036289544753086425, 12.906030851694723, 20362},
	} {
		x, stderr := exactWalksA1(t, c.board, c.rule, exact.Options{Workers: 1}, false)
		if x.PSuccess != c.p || x.MeanLength != c.mean || x.Nodes != c.nodes || !x.IsExact() {
			t.Errorf("%s %s from a1: P(success) %v, mean length %v, %d states, exact %v; want %v, %v, %d, exact",
				c.board, c.rule, x.PSuccess, x.MeanLength, x.Nodes, x.IsExact(), c.p, c.mean, c.nodes)
		}
		if stderr != "" { // no terminal, no layers, no spill: nothing to say
			t.Errorf("%s: stderr %q, want nothing", c.rule, stderr)
		}
	}
}

// TestExactWalksSpill: spilled to disk in passes, the enumeration gives the
// in-memory result bit for bit, says what the spill took, and leaves
// nothing in the directory; --layers reports each path length.
func TestExactWalksSpill(t *testing.T) {
	mem, _ := exactWalksA1(t, "4x5", "random", exact.Options{Workers: 1}, false)
	dir := t.TempDir()
	spilled, stderr := exactWalksA1(t, "4x5", "random", exact.Options{Workers: 1, Spill: dir}, true)
	if !reflect.DeepEqual(mem, spilled) {
		t.Errorf("spilled result differs from the in-memory one:\n%+v\n%+v", spilled, mem)
	}
	if !strings.Contains(stderr, "exact 4x5 random: spilled to "+dir+": largest layer ") {
		t.Errorf("stderr lacks the spill summary:\n%s", stderr)
	}
	if !strings.Contains(stderr, "exact 4x5 random from a1: path length 2: ") {
		t.Errorf("stderr lacks the layer lines of --layers:\n%s", stderr)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the spill directory keeps %d entries, want none", len(left))
	}
}

// TestCheckExactSpill: a missing directory or a file is a usage error naming
// --spill; a writable directory passes and is left empty.
func TestCheckExactSpill(t *testing.T) {
	if err := checkExactSpill(""); err != nil {
		t.Errorf("no --spill: %v", err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), file} {
		err := checkExactSpill(bad)
		var u cli.UsageError
		if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), "--spill "+bad+": ") {
			t.Errorf("checkExactSpill(%s) = %v, want a usage error naming --spill", bad, err)
		}
	}
	empty := t.TempDir()
	if err := checkExactSpill(empty); err != nil {
		t.Errorf("checkExactSpill(a writable directory) = %v", err)
	}
	if left, _ := os.ReadDir(empty); len(left) != 0 {
		t.Errorf("checkExactSpill left %d entries behind", len(left))
	}
}
