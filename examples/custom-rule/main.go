// Command custom-rule is the experiment command with one rule of your own:
// Warnsdorff's rule with ties broken by the smallest sum of degrees two
// moves ahead. That is Pohl's 1967 tie-break, which the tool has built in
// as warnsdorff/pohl+random: the example writes a known rule as a policy
// to show the interface, and its test holds the two to the same exact
// values on every square (docs/rules.md, "Is your rule new?"). It
// registers the rule by name and hands over to the command, so every
// subcommand knows it:
//
//	go run ./examples/custom-rule --out DIR          # its experiment.yaml
//	go run ./examples/custom-rule run FILE --out DIR # any experiment naming it
//	go run ./examples/custom-rule exact --board 7x7 --rule mine/degree-sum2
//	go run ./examples/custom-rule tour --board 8x8 --rule mine/degree-sum2 --start b1
//
// Build it (go build ./examples/custom-rule) and it runs shards on a
// cluster like the experiment binary (BIN=./custom-rule deploy/slurm/submit.sh).
package main

import (
	_ "embed"
	"os"
	"strings"

	"github.com/knightwalk/knightwalk/harness"
	"github.com/knightwalk/knightwalk/sim"
)

// degreeSum2 allows the unvisited neighbours of minimum degree (Warnsdorff)
// that have the smallest sum of their own neighbours' degrees; the walk
// draws among those left.
type degreeSum2 struct{ next, ahead []int }

func (d *degreeSum2) Allowed(p *sim.Position, dst []int) []int {
	d.next = p.Moves(p.Current(), d.next[:0])
	best, bestSum, first := 9, 0, len(dst)
	for _, sq := range d.next {
		deg, sum := p.Degree(sq), 0
		d.ahead = p.Moves(sq, d.ahead[:0])
		for _, t := range d.ahead {
			sum += p.Degree(t)
		}
		switch {
		case deg < best || deg == best && sum < bestSum:
			best, bestSum = deg, sum
			dst = append(dst[:first], sq)
		case deg == best && sum == bestSum:
			dst = append(dst, sq)
		}
	}
	return dst
}

//go:embed experiment.yaml
var experiment []byte

func main() {
	sim.MustRegister(sim.CustomRule{
		Name: "mine/degree-sum2",
		Doc:  "Warnsdorff's rule, ties kept by the smallest degree sum two moves ahead, then drawn",
		New:  func(*sim.Board) sim.Policy { return &degreeSum2{} },
	})
	harness.SetDefault("examples/custom-rule/experiment.yaml", experiment)
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		os.Args = append([]string{os.Args[0], "run"}, os.Args[1:]...) // flags alone: run the experiment
	}
	harness.Main()
}
