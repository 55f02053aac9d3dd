// Package countcmd does the work of `experiment count` and of merging its
// parts: it picks the method, runs the backtracking search (count.CountTours)
// or the frontier sweep (package count) within the memory and disk a
// count may use, applies Burnside's lemma for --unique, writes a shard's
// part file and adds the parts of all shards, and writes the counts table.
// The command (package harness) parses the flags, calls it and prints.
package countcmd

import "io"

// Env is where a count writes: its output and its progress and notes.
type Env struct {
	Stdout, Stderr io.Writer
	ToolVersion    string // the version the tables and parts are stamped with
}
