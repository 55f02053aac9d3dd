package tables_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/knightwalk/knightwalk/tables"
)

// exampleDir is the small result directory the module ships
// (results/example: square boards 5x5 to 10x10, two rules, 300 walks from
// every square).
var exampleDir = filepath.Join("..", "results", "example")

// Open a result directory and read its boards table: the success rate of
// each rule on each board with its confidence interval.
func ExampleOpen() {
	res, err := tables.Open(exampleDir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("experiment", res.Manifest.Experiment, "seed", res.Manifest.Seed)
	boards, err := res.Boards()
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range boards {
		if b.Board == "8x8" {
			fmt.Printf("%s %-18s %6d walks  success %.4f [%.4f, %.4f]\n", b.Board, b.Rule, b.Walks, b.SuccessRate, b.SuccessLo, b.SuccessHi)
		}
	}
	// Output:
	// experiment example seed 5
	// 8x8 warnsdorff/random   19200 walks  success 0.9788 [0.9766, 0.9807]
	// 8x8 random              19200 walks  success 0.0000 [0.0000, 0.0002]
}

// Read one table file by its path, wherever it lies, with the metadata
// that says which run and which binary wrote it.
func ExampleReadSquares() {
	squares, md, err := tables.ReadSquares(filepath.Join(exampleDir, tables.SquaresFile))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("table of", md.Experiment, "schema", md.SchemaVersion, "tool", md.ToolVersion, "commit recorded:", md.Build.Revision != "")
	fmt.Println("interval:", md.Extra["confidence"], md.Extra["interval"])
	for _, s := range squares {
		if s.Board == "6x6" && s.Start == "a1" {
			fmt.Printf("%s %-17s from %s: %3d of %d walks were tours\n", s.Board, s.Rule, s.Start, s.Successes, s.Walks)
		}
	}
	// Output:
	// table of example schema 3 tool 0.1.0 commit recorded: true
	// interval: 0.95 wilson
	// 6x6 warnsdorff/random from a1: 300 of 300 walks were tours
	// 6x6 random            from a1:   0 of 300 walks were tours
}

// Read only the walks you need from a per-walk table: here the walks from
// one square of the 5x5 board, keeping memory to those rows.
func ExampleResult_Walks() {
	res, err := tables.Open(exampleDir)
	if err != nil {
		log.Fatal(err)
	}
	walks, err := res.Walks(func(w *tables.WalkRow) bool {
		return w.Board == "5x5" && w.Rule == "random" && w.Start == "a1"
	})
	if err != nil {
		log.Fatal(err)
	}
	outcomes := map[string]int{}
	for _, w := range walks {
		outcomes[w.Outcome]++
	}
	fmt.Println(len(walks), "walks from a1:", outcomes)
	// Output:
	// 300 walks from a1: map[dead_end:299 success:1]
}

// Read a designs table: per start square, how many of a design's cells
// fail from it, here the 24 natural move orders of warnsdorff/first on
// 6x6. testdata/designs.parquet is the designs.parquet of `experiment run`
// of an experiment named design-example with boards [6x6], starts [a1, b1,
// c3], walks 1 and rules [{name: warnsdorff, tie_break: first, order:
// natural}].
func ExampleReadDesigns() {
	designs, md, err := tables.ReadDesigns(filepath.Join("testdata", "designs.parquet"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("table of", md.Experiment)
	for _, d := range designs {
		fmt.Printf("%s %s from %s: %d of %d move orders fail\n", d.Board, d.Design, d.Start, d.CellsFailing, d.Cells)
	}
	// Output:
	// table of design-example
	// 6x6 rules[0] from a1: 0 of 24 move orders fail
	// 6x6 rules[0] from b1: 0 of 24 move orders fail
	// 6x6 rules[0] from c3: 4 of 24 move orders fail
}
