package harness_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/knightwalk/knightwalk/harness"
	"github.com/knightwalk/knightwalk/internal/table"
	"github.com/knightwalk/knightwalk/sim"
)

// lowestOfWarnsdorff is a rule of your own: Warnsdorff's minimum degree,
// ties broken by the lowest square number (a1, b1, ..., a2, ...). It never
// allows two squares, so it is registered as deterministic.
func lowestOfWarnsdorff(p *sim.Position, dst []int) []int {
	best := -1
	for _, sq := range p.Moves(p.Current(), nil) { // ascending: the first of a tie is the lowest
		if best < 0 || p.Degree(sq) < p.Degree(best) {
			best = sq
		}
	}
	if best < 0 {
		return dst // a dead end, or the tour is complete
	}
	return append(dst, best)
}

// A rule of your own, registered by name, runs through the whole command:
// here an experiment on 5x5 from every square, in process.
func Example_customRule() {
	sim.MustRegister(sim.CustomRule{
		Name:          "example/lowest",
		Doc:           "Warnsdorff's rule, ties broken by the lowest square",
		New:           func(*sim.Board) sim.Policy { return sim.PolicyFunc(lowestOfWarnsdorff) },
		Deterministic: true,
	})
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "lowest.yaml")
	os.WriteFile(file, []byte("name: lowest\nseed: 1\nboards: [5x5]\nstarts: all\nrules: [{name: example/lowest}]\n"), 0o644)
	out := filepath.Join(dir, "out")
	if err := harness.Run(context.Background(), io.Discard, io.Discard, []string{"run", file, "--out", out, "--quiet"}); err != nil {
		fmt.Println(err)
		return
	}
	rows, _, _ := table.Read[table.SquareRow](filepath.Join(out, "squares.parquet"))
	tours := 0
	for _, r := range rows {
		tours += int(r.Successes)
	}
	fmt.Printf("%s on %s: tours from %d of %d squares\n", rows[0].Rule, rows[0].Board, tours, len(rows))
	// Output: example/lowest on 5x5: tours from 10 of 25 squares
}
