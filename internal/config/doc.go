// Package config reads experiment files (experiments/*.yaml): it decodes them
// strictly onto a copy of Default, validates the result once, reporting every
// problem with its file, line and key, and resolves the validated file once
// into an Experiment: boards, rules, start squares and claims (each tied to
// a rule, boards and squares of the run), typed. The runner and the results
// read only that, so whatever Validate accepts a run honours.
//
// Claims may spell rules and boards as the rest of the file does: a short
// rule name ("warnsdorff") means the run rule of that name
// ("warnsdorff/random"), and "8", "8x8", "8X8" and "8×8" all mean the 8x8
// board. A claim about a rule or board the experiment does not run is a
// validation error that lists the valid values.
//
// # Schema
//
// An experiment file is one YAML mapping. Every key but name, boards and
// rules may be left out; unknown keys are errors. It is UTF-8 text (a
// byte-order mark is allowed); UTF-16 and UTF-32 files, as Windows editors
// and PowerShell may save them, are refused with "save it as UTF-8", and
// so is a sources file. YAML aliases (*name, <<: *name) are refused at
// their line: write the value out.
//
//	name: centre-vs-corner        # required; a safe directory name (results/<name>/)
//	description: |                # free text, carried into reports
//	  Why this experiment exists.
//	seed: 1                       # any uint64 (default 1)
//	boards:                       # at least one; expanded in order, duplicates dropped
//	  - 8x8                       # ROWSxCOLS
//	  - 10                        # N means NxN
//	  - {sizes: 5..60}            # square boards 5x5 … 60x60 (sizes: 12 is one board)
//	  - {sizes: 10..100, step: 10}
//	  - {from: 5, to: 60, step: 5}  # square boards 5x5, 10x10, … 60x60
//	  - {rows: 5..10, cols: 8}    # rectangles; rows and cols are N or LO..HI, step applies to both
//	                              # keep: fails | succeeds on every entry makes a sieve: each entry a stage
//	                              # that keeps the cells (rule, start square) whose walk fails on some board
//	                              # of it, or succeeds on every one; walks: 1, squares named (docs/designs.md)
//	starts: all                   # default; or a list of squares (a1, r0c0) and
//	                              # classes (corner, edge, centre, interior)
//	walks: 10000                  # walks per start square, per rule, per board (default 10000);
//	                              # or {until: decided | half_width, min: 1000, max: 1e8, half_width: 0.001}:
//	                              # run in rounds until every claim is decided or every square that precise
//	rules:                        # at least one; no two the same rule (name and parameters)
//	  - name: warnsdorff          # random | warnsdorff | backtrack (or a full name, e.g. warnsdorff/pohl)
//	    tie_break: first          # random | first | pohl | roth; default random
//	                              # (backtrack: first | random, default first)
//	    order: "(2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"
//	                              # move order (default this one), for tie_break first and backtrack
//	                              # tie_break, order, max_steps and node_budget may each be a list, and order
//	                              # all (the 40,320 orders), rotations (8) or natural (24): a design, one rule per combination
//	                              # (docs/designs.md)
//	    max_steps: 0              # random and warnsdorff: stop after N moves (0: no limit)
//	    estimator: walks          # walks (default) | splitting: multilevel splitting for rare
//	                              # successes (random, warnsdorff with a random tie; fixed walks only)
//	                              # with particles: 1000 and replicates: 20 (per stage; independent)
//	  - name: backtrack
//	    closed: true              # backtrack only: the tour must close
//	    node_budget: 10000000     # backtrack only: squares entered per walk (0: sim.DefaultNodeBudget)
//	confidence: 0.95              # interval confidence, in (0,1) (default 0.95)
//	interval: wilson              # wilson (default) | clopper-pearson
//	exact: auto                   # exact values beside the estimates: auto (default: where cheap: warnsdorff
//	                              # with random ties on at most 64 squares, or 81 from at most 8 starts, random
//	                              # on at most 25, each start within max(2e6, 4e7 / starts) states) | on
//	                              # | bounds (as on, with certified bounds where a start does not fit) | off;
//	                              # all in memory (1 GiB): larger layers take experiment exact --spill DIR
//	exact_budget: 0               # on and bounds: states per start square (0: exact.DefaultBudget)
//	comparison_family: question   # Holm family of the comparisons: question (default: the class
//	                              # comparisons of one rule on one board, the rule comparisons of one
//	                              # class on one board) | board | run
//	outputs:
//	  walks: false                # write the per-walk table (default false)
//	  figures: [success-heatmap, size-curve]   # any of Figures (default none)
//	  row_group: 0                # Parquet rows per row group (0: the writer's default)
//	claims:                       # published statements the run checks
//	  - id: centre                # optional, unique when given
//	    rule: warnsdorff/first    # a rule of this experiment, named as in sim.ParseRule
//	    board: 8x8                # optional; default every board
//	    class: centre             # exactly one of class (corner | edge | centre | interior, or all:
//	                              # every start square pooled, a uniformly random start), square (d4)
//	                              # and degree (0..8)
//	    rate: 0.85                # exactly one of rate (with optional tolerance),
//	    tolerance: 0.025          # range: [lo, hi], below: p and above: p
//	    source: seed 000          # an id of experiments/sources.yaml, or words
//	    reading: a1, random ties  # optional: the claim may be listed once per reading
//	    fitted: false             # a reading chosen because it reproduces the number (with why)
//	    family: all               # optional: the Holm family (declared under families:)
//
// TestSchemaExample keeps this example valid.
//
// A claim whose source is an id of experiments/sources.yaml with a
// published count (rate and trials, or assumed trials) states no rate of
// its own: its rate is compared with that count (kind published). Readings:
// a claim may be listed several times with one id, each entry
// with its own reading name, rule and target and the same source and
// statement; each is its own verdict.
//
// A claim's rate with tolerance t states that the success rate lies in
// [rate-t, rate+t] (t = 0: exactly rate); range: [lo, hi] that it lies in
// [lo, hi]; below: p that it is below p; above: p that it is above p. A claim
// is about the start squares of its target (class, square or degree) that
// the experiment's starts select, pooled, on each of its boards.
//
// Claims about a set of boards (claimset.go, docs/design.md) add sizes:
// LO..HI (the n×n boards with n in the range, instead of board) and one of
// share: s (more than a share s of the boards meet the rate statement; 1:
// every board), first_failure: n or failing_below: p (deterministic rules:
// the first board where the walk fails, the share of boards where it
// fails); each is one row for the whole set. A share claim whose source in
// sources.yaml gives trials per board may add per_board: count: its
// per-board statement is then read as the count the source saw in those
// trials (stats.CountShare), not as the true rate (per_board: rate, the
// default), and judged on the joint probability of the stated pattern of
// counts. except: [n, …] drops sizes from sizes ("every n from 5 to 50
// except 8"); where the source states its sizes (sources.yaml sizes,
// except), a claim on it must read them so.
//
// each: square quantifies a claim on a class, all or a degree over its
// start squares one by one instead of their pool: the statement holds
// from every start square (share 1, the default) or, with share: s, from
// more than a share s of them, on each of the claim's boards; it is a share
// claim whose elements are (board, square), and the verdict names the
// squares that fail it.
//
// The top-level key sources: FILE names a sources file of the
// experiment's own, relative to the experiment file, with the schema and
// checks of experiments/sources.yaml (ids of the built-in file refused),
// so that an installed binary tests a paper without a rebuild; its name,
// SHA-256 and statements are part of the canonical config (hash,
// manifest). A source's equivalence margin is declared (margin) or
// derived from its design (trials at planning_rate, default 0.5), never
// from its published count.
//
// # Errors
//
// Parse and Load return Errors, one Error per problem, sorted by line, each
// printed as
//
//	experiments/bad.yaml:7: rules[1].tie_break: tie-break "randm": unknown tie-break "randm"; valid tie-breaks are ...
//
// At most MaxErrors are listed, then a count of the rest.
//
// # Limits
//
// Whatever a file holds, reading it takes bounded memory and time, and a
// mistyped number cannot ask for an absurd run. Files over MaxFileBytes
// (1 MiB) are refused before parsing (Load and ReadFile read through a
// limit, so /dev/zero or a FIFO is refused too). Before decoding, Parse
// refuses lists longer than their limit (MaxBoards board items, MaxStarts,
// MaxRules, MaxClaims, MaxFigures), a mapping of more than 64 keys, more
// than MaxEntries keys and items in all, a description over MaxDescription
// bytes and any other value over MaxScalar bytes. Every integer key gets
// exactly the value written or an error naming its valid range: the YAML
// library would store seed 2^64 as 2^63 and truncate 1e30, so numbers it
// reads as floats are checked exactly. The ranges: seed 0 to 2^64-1, walks 1
// to MaxWalks, max_steps 0 to MaxSteps, node_budget 0 to MaxNodeBudget,
// row_group 0 to MaxRowGroup, confidence strictly between 0 and 1, rates
// 0 to 1, degree 0 to 8, board sides within sim's limits.
//
// # Hash
//
// Hash identifies a validated experiment: the hex SHA-256 of a canonical
// JSON encoding of the resolved configuration (see canonical in hash.go):
// boards expanded to "RxC" names, rules resolved to their full options with
// defaults written out, start squares as classes and "r<row>c<col>" names,
// claims with resolved rule names and boards, and every other field with its
// default applied. It does not depend on YAML formatting, comments, key order,
// or on writing a default out rather than leaving it implicit, and it covers
// every field, description and claims included. Changing the canonical form
// changes every hash, so it carries a format number.
package config
