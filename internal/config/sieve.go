package config

import (
	"fmt"
	"slices"
	"strings"
)

// A sieve is an experiment whose boards entries each say which cells to
// keep (boards: [{sizes: "428", keep: fails}, {sizes: "5..427", keep:
// succeeds}]): each entry is a stage, and a cell (a rule and a start
// square, followed from board to board) goes on to the next stage only
// if its walks on the stage's boards, taken in the order given, meet the
// stage's keep. keep: fails keeps a cell whose walk fails on some board of
// the stage; keep: succeeds one whose walk succeeds on every board. A
// cell's walks in a stage stop as soon as its fate there is known: at its
// first failure. So the search for the move orders that first fail at
// n = 428 walks every order on 428x428 but sweeps n = 5..427 only for the
// few that fail there, each up to its own first failure, where a sweep of
// every order would walk about six times as far.
//
// A sieve walks each cell once per board (walks: 1; a deterministic rule's
// walk decides it), follows start squares named as squares (r0c0, a1),
// and writes the sieve table instead of the squares, lengths and deadends
// tables: no claims, figures, per-walk table or exact values.

// SieveKeeps lists what a boards entry's keep accepts.
var SieveKeeps = []string{"fails", "succeeds"}

// SieveStage is one stage of a sieve: its boards entry's boards (indices
// into Experiment.Boards, in the order walked) and what it keeps.
type SieveStage struct {
	Key    string // the entry's key in the file: "boards[0]"
	Keep   string // fails or succeeds
	Boards []int
}

// MaxSieveCells bounds the cells (rules × start squares) of a sieve: each
// holds a record of a few dozen bytes per stage it enters.
const MaxSieveCells = 4_000_000

// IsSieve reports whether the experiment is a sieve: some boards entry
// gives keep.
func (c *Config) IsSieve() bool {
	return slices.ContainsFunc(c.Boards, func(b BoardSpec) bool { return b.Keep != "" })
}

// stageOf is the sieve stage of boards entry i: the entry itself, or the
// stage a manifest recorded for it (FromCanonical writes one entry per
// board).
func (c *Config) stageOf(i int) int {
	if s := c.Boards[i].stage; s > 0 {
		return s - 1
	}
	return i
}

// sieveStages returns the stages of a sieve: per stage its keep and the
// sizes of its entries, without the sizes an earlier entry gave.
func (c *Config) sieveStages() (keeps []string, sizes [][]size) {
	seen := map[size]bool{}
	for i, b := range c.Boards {
		st := c.stageOf(i)
		for len(keeps) <= st {
			keeps, sizes = append(keeps, b.Keep), append(sizes, nil)
		}
		for _, s := range b.expand(nil, "") {
			if !seen[s] {
				seen[s] = true
				sizes[st] = append(sizes[st], s)
			}
		}
	}
	return keeps, sizes
}

// checkSieve validates what a sieve needs, and bounds its cells; it
// reports whether the experiment is within its cell budget.
func (c *Config) checkSieve(k *checker, st startSet) bool {
	seen := map[size]string{}
	for i, b := range c.Boards {
		key := fmt.Sprintf("boards[%d]", i)
		switch {
		case b.Keep == "":
			j := slices.IndexFunc(c.Boards, func(b BoardSpec) bool { return b.Keep != "" })
			k.errorf(key+".keep", "missing; in a sieve (%s gives keep) every boards entry is a stage and says which cells it keeps: %s", c.fileKey(fmt.Sprintf("boards[%d].keep", j)), strings.Join(SieveKeeps, " or "))
		case !slices.Contains(SieveKeeps, b.Keep):
			k.errorf(key+".keep", "%q; valid: fails (keep the cells whose walk fails on some board of the entry) or succeeds (on every board)", b.Keep)
		}
		for _, s := range b.expand(nil, key) {
			if prev, dup := seen[s]; dup {
				k.errorf(key, "%s again (%s); in a sieve each board belongs to one stage", s, prev)
				break
			}
			seen[s] = c.fileKey(key)
		}
	}
	if c.Sequential != nil || c.Walks != 1 {
		k.errorf("walks", "a sieve walks each cell once per board; want walks: 1")
	}
	if st.all || slices.Contains(st.classes[:], true) {
		k.errorf("starts", "a sieve follows each start square from board to board; name squares (starts: [r0c0]), not all or a class")
	}
	if len(c.Claims) > 0 {
		k.errorf("claims", "a sieve checks no claims: it keeps cells by their walks, and writes which it kept (the sieve table); test a claim in an experiment of the boards and rules it names")
	}
	if len(c.Outputs.Figures) > 0 || c.Outputs.Walks {
		k.errorf("outputs", "a sieve draws no figures and writes no per-walk table: its result is the sieve table")
	}
	if c.Exact == "on" || c.Exact == "bounds" {
		k.errorf("exact", "%q: a sieve computes no exact values; leave exact out", c.Exact)
	}
	cells := float64(c.ruleCount()) * float64(len(st.squares))
	if cells > MaxSieveCells {
		k.errorf("rules", "%.0f cells (%.0f rules × %d start squares) to sieve; at most %d", cells, float64(c.ruleCount()), len(st.squares), MaxSieveCells)
		return false
	}
	return true
}
