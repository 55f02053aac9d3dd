package manual

import (
	"strings"

	"github.com/knightwalk/knightwalk/internal/config"
)

// Each command's long text: what it does, after its usage line and short
// help and before its flags.

// Run is the long text of `experiment run`.
const Run = `Runs the experiment in FILE (or a committed experiment by NAME, or with no
argument the embedded default: seed 000's claims on 8x8) and writes
results/<name>/ (or --out DIR): Parquet tables, report.md, manifest.json.
The directory appears only when the run completes; an interrupted run can
be continued with --resume. --shard K/N runs slice K of N, counting from 0
(0/4, 1/4, 2/4, 3/4), and writes a part for 'experiment merge'.
A sequential run (walks: {until: ...}) is sharded round by round: --shard
K/N --round R --out PARTS runs shard K of round R into PARTS/round-R/part-K
(without --round, the first round without this shard's part), replaying
the decisions of the rounds before from their parts; 'experiment merge
--out DIR PARTS' writes the result once the rounds decide the run, and
until then says which round to run next (exit status 3).
--dry-run prints the plan and its estimated time from short calibration
walks: on at most 12 boards per rule, spread over the sizes; the other
boards' costs are interpolated by their squares (marked "by size").
--check (with --shard K/N, what a cluster task runs) refuses what the run
would refuse, walking and estimating nothing: a sieve split into shards,
more shards than work units (the largest round's, for a sequential run), a
rule that fails its checks; deploy/slurm/submit.sh runs it before queueing.
--dry-run refuses the same before it estimates.
A result's DIR/manifest.json (or the config key of one of its tables,
saved as a file) runs exactly that configuration again: the same tables,
byte for byte, on the same machine and binary.`

// Count is the long text of `experiment count`.
const Count = `Counts knight's tours: exactly (search, frontier), or beyond what they reach by
importance sampling (sample). Open tours by default: the number of
directed tours that start on each square. With --closed, the number of
directed tours from each square that end a knight's move from it (twice the
closed tours, the same on every square).

Two methods (--method):
  search    backtracking over bitboards (count.CountTours): boards of at most
            64 squares, enumerating tours one by one; --unique by Burnside's
            lemma over the tours it finds.
  frontier  a transfer-matrix sweep (package count): boards whose shorter
            side is at most 8, time and memory governed by the number of
            frontier states, not of tours (7x7 open, 8x8 closed); --unique
            (boards of at most 64 squares) by Burnside's lemma from its total
            and the tours each symmetry fixes, searched on the board folded
            by the symmetry (a fixed tour is determined by half of it or
            less).
  auto      (default) for --unique, the search where its estimate is at
            most 10^9 nodes, else the frontier; otherwise frontier for closed
            tours and for boards of more than 64 squares, and for open tours
            the search when its estimate is at most 10^9 nodes (under about a
            minute on 2 cores; 6x6 and smaller), the frontier beyond (7x7).
  sample    an estimate with an interval, on any board: sequential
            importance sampling (Knuth 1975; Cancela & Mordecki 2015). Each
            walk draws every step among the moves that can still lead to a
            tour (pruning that never drops a completable path) with
            probability proportional to exp(-beta·degree) (--proposal
            softmin:BETA, default 0.3; uniform is Knuth's walk), counts its
            last --tail squares (default 20) exactly, and weighs its tour by
            the inverse of its probability; the mean weight is an unbiased
            estimate of the tours. Open: one walk from every square a block
            (the block sums are independent); closed: from a square with two
            neighbours, through one of them to the other, so the estimate is
            the cycles. Stops at --samples N walks, at --precision R (the
            --confidence interval's half-width at most R times the estimate
            and no diagnostic warning), or at --max-time D, whichever comes
            first, at the end of a round of chunks: the same seed gives the
            same estimate for any --workers. Prints the estimate, its normal
            interval, and the diagnostics that say when not to trust it
            (tours drawn, ESS, the largest weight's share, Chatterjee &
            Diaconis's sample size exp(KL)); csv and parquet: the
            tour_estimates table (docs/tables.md), one row for the board
            (start all) and with --per-start one per square. --shard K/N
            --out PART with --samples draws every N-th chunk; merge adds the
            parts into exactly the estimate of one run. A board that a
            theorem rules out (Conrad et al. 1994, Schwenk 1991) is 0
            exactly. docs/counting.md says when to trust it and what it
            costs.

text: a board-shaped table of the per-start counts, then the totals.
csv and parquet: the counts table (docs/tables.md): board, rows, cols,
start, kind, count; one row per counted square, then the totals (start
empty). parquet needs --out, a new file.

The search refuses up front a count estimated over --max-nodes (from random
probes of its tree); the frontier sweep is refused up front when its
estimated widest layer would not fit --max-memory (open tours switch to
--paired-ends first when that would fit: 7x7), and stops as soon as its
state tables would pass it. With --spill DIR the sweep keeps its layers in
files in DIR (removed as they are made, so none outlives the run) and writes
each layer in as many passes as --max-memory requires: the memory then costs
time instead of bounding what can be counted (8x8 closed: see docs/performance.md,
Counting tours); it is refused up front when DIR lacks the disk space for
two layers. --force starts a sweep that its estimate refuses (the estimate
is an order of magnitude; to measure how far a count gets): the budget
still stops it when a table would pass --max-memory, and a full disk stops
it with the files already gone. Progress goes to stderr on a terminal (--layers:
one line per square and sweep, anywhere); Ctrl-C stops either within a
fraction of a second.

--shard K/N --out PART runs part K of N (from 0) of the frontier count's
independent sweeps and writes what they counted, with each sweep's states,
time and memory, to PART (a new JSON file); 'experiment merge --out FILE
PART...' adds the N parts into the counts table of one count (every
square). Open tours per start: the sweep of each orbit of start squares;
by paired ends: the sweep of each first end with its branches. They are
dealt in sweep order in a serpentine (to shards 0, 1, ..., N-1, then N-1,
..., 0, and so on), so the expensive early ones are spread out. Closed tours are one sweep: each shard keeps the
states of every N-th of the layer's 256 hash shards after 7/12 of the
squares; balanced, but the states meet again, so each shard still handles
most of the sweep's states (80 % of them on 6x8 in 4 shards): it spreads
memory, not time. deploy/slurm/submit-count.sh queues the shards and the merge
on Slurm; it first runs the same command with --check, which checks the
flags, the board and the shard and exits without counting, so a mistake
stops it before anything is queued.`

// Exact is the long text of `experiment exact`.
const Exact = `Follows every branch a walk can take, weighted by its probability, and
prints the exact P(success) per start square (text: a board-shaped table;
csv: one row per start square with P(success), P(closed), P(stopped), the
mean path length and tie decisions, the states expanded, the board and the
rule; parquet: the same rows as the exact table of docs/tables.md, written
to --out FILE, whose board, rule and start columns join the result tables
with no cast). Boards of at most 640 squares (25x25); the random rule only
on small boards (or with --max-steps).

Where the program stores the exact values (internal/exactstore: 10x10
warnsdorff/random, one enumeration per orbit of the board's symmetries,
694 million states from e5), exact gives them at once, as a run with
exact values does, and says they are the stored ones; --enumerate
enumerates again.

The states held at once are counted against --max-memory: a start whose
layers certainly cannot fit (estimated from sampled walks, e.g. 8x8 with the
random rule) is refused before enumerating, with the estimate; one that
outgrows it is stopped when it does. Progress goes to stderr on a terminal.

With --spill DIR, each start keeps its layers in files in DIR (removed
from it as soon as they are made, so nothing is left however the command
ends) and builds each layer in as many passes over the one before as
--max-memory requires: memory then bounds one pass, not a layer, and the
result is bit for bit the in-memory one. Each pass works out every move of
the layer again (once a round of --workers passes): 10x10 from a1 takes
0.8 GiB of memory and of disk this way with --max-memory 1GiB, against
4 GiB in memory, and half as much CPU again (docs/design.md). A
summary of the passes and the disk used goes to stderr; --layers writes
each layer's states (passes and disk when spilled) and the time to stderr,
for measuring and for forecasting a larger run from its first layers.

With --bounds, a start that would pass --budget or --max-memory is not
refused: each layer over the budget (the states left shared equally among
the path lengths still to come) or over the memory drops its least probable
states, and their probability is carried as unresolved. P(success) is then
certified to lie in [p_lower, p_upper]: the successes found, and those plus
every walk through a dropped state; there is no sampling error. The text
output lists the bounds under the board; csv and parquet add p_lower,
p_upper and the states dropped (p_lower = p_upper = p_success where exact).
The bounds depend on --budget and on each start's share of --max-memory,
which the starts enumerated at once (--workers, at most the starts) share;
a single start gets all of it, and workers beyond the starts share a
start's work without changing any result. With --spill, a start that does
not fit even in passes is enumerated again in memory, with bounds.`

// Merge is the long text of `experiment merge`.
const Merge = `Reads the parts written by 'experiment run --shard K/N' (their directories or
part.json files), checks that they are all N shards of one config and seed,
and writes the same tables, report and manifest that one unsharded run of the
experiment writes, value for value.

Given the parts of 'experiment count --shard K/N --out PART' (files, or a
directory of them), checks that they are all N shards of one count (board,
open or closed, paired ends) and writes its counts table to --out FILE (a
new Parquet file; docs/tables.md), the same as 'count --format parquet' of
the whole count, and prints the board.`

// Tour is the long text of `experiment tour`.
const Tour = `Runs one walk and prints it: text, a board with each square numbered by
when the walk visited it (1 the start, "." never), then the outcome; csv,
one row per square in visiting order (step,square,row,col); json, the walk
with its squares in order (seed and walk as decimal strings, which
JavaScript reads exactly).

The walk is walk index --walk of (--seed, board, rule, start), drawn from
the same stream as in a run (docs/design.md, the random-stream contract),
so a walk from a walks table is replayed exactly: pass the experiment's
seed and the row's rule, start and walk. --rule backtrack/closed searches
for a closed tour.

--draw FILE.png (or .svg, .pdf) also draws the walk printed into FILE, as a
run's walk figure draws it (the path over the board, squares numbered in
visiting order on boards up to 12x12, start and end marked), in the format
its extension names. FILE must not exist: tour never overwrites a file, and
an existing one or another extension is a usage error (exit 2) before any
walk.

Exit status 0 when the walk is a full tour (every square visited; for
backtrack/closed, a closed one), 1 when it is not (the outcome on stderr),
2 for a usage mistake.`

// Rare is the long text of `experiment rare`.
const Rare = `Estimates P(success) (or, with --target, P(path length reaches L)) of one
randomised walk rule from one start square by fixed-effort multilevel
splitting on path length (docs/design.md, "Rare events"): unbiased, with the
standard error and Student t interval of --replicates independent
replicates. It reaches probabilities far below what plain sampling can
resolve, e.g. Warnsdorff/random from a corner of 400x400.

The levels are chosen by a pilot run on streams of its own (--levels auto),
or given. The same flags and seed give the same estimate for any --workers.
It also prints what plain sampling would need for the same relative
standard error: (1-p)/(p·RSE²) walks of the pilot's measured mean length.`

// Bench is the long text of `experiment bench`.
const Bench = `Runs a fixed set of kernels on one goroutine (8x8 Warnsdorff/random, 8x8
random rule, 50x50, 200x200 and 1000x1000 Warnsdorff/random) and the
end-to-end runner on --workers goroutines, and prints walks/s, ns per walk
and per step, the end-to-end over kernel ratio and peak memory. With python3
on the PATH it also times plain Python versions of seed 000 and seed 001
(bench/knight_py.py) and reports the speed ratio measured in the same run.
The two 8x8 kernels are also timed on every kernel path this CPU has
(avx512, avx2, pdep16, scalar), forced, against the C versions;
KNIGHTWALK_KERNEL forces the path of the other rows (default: auto, the
fastest for each rule). Four rules of your own that copy the 8x8 rules
are timed beside them: through sim.Position, one walk a call
(bench/warnsdorff-random, bench/random), and in lanes, 16 walks a call
(bench/warnsdorff-random-lanes, bench/random-lanes), each with its CPU
time per walk over the built-in's, on the path that ran it and on each
path forced. The general kernel is timed from the corner of 100x100 and
1000x1000 (random, Warnsdorff/random) against bench/c/large.c, a
straightforward C version walking the same walks (its steps checked).
--json adds the CPU's family, model and features.`

// Validate is the long text of `experiment validate`.
const Validate = `Decodes and validates each experiment file (or committed experiment name) and
reports every error with its file, line and key; prints the plan's size for
files that are valid. A sources file (experiments/sources.yaml: the
publications the claims cite) is checked as one, so 'validate
experiments/*.yaml' checks every file there. Exit status 1 when any file
is invalid. Validation takes time in proportion to the file, not to the
boards' areas (a sweep over n = 5..2000 from the corners takes well under
a second), and stops on SIGINT or SIGTERM.`

// Plot is the long text of `experiment plot`.
var Plot = `Draws the figures of a finished run from its Parquet tables and manifest.json
into DIR/figures (PNG, SVG and PDF; the walk figure also as an animated GIF)
and updates the figures section of DIR/report.md. No walks are run; the walk
figure replays walk 0 from the seed (figure option walk: W another, the walk
'experiment tour --walk W' prints). --figure-options FILE draws with the
figure options of FILE in place of those the run recorded: a YAML file
holding what an experiment file holds under outputs.figure_options
(heatmap, length_distribution, size_curve, walk; docs/figures.md), e.g. a
reference line added to the size curve. It is validated as that key is,
against the run's experiment (its rules, walks, sources), every problem
named FILE:LINE: KEY, before anything is drawn; manifest.json keeps the
run's own options, so pass the file again to redraw with it. --with DIR2,... (with --figure
sweep-strip) draws the sweeps of other results below DIR's, each row
named by its move order, e.g. a fitted order's beside the canonical
order's; those directories are only read. design-map draws a design's
failing cells per start square from the designs table alone (a design's
runs take no other figure). Figures: ` + strings.Join(config.Figures, ", ") + `.`

// Version is the long text of `experiment version`.
const Version = `Prints what the binary's build info records: the module and its version,
the VCS revision and time, whether the working tree had local changes, and
the Go version. Results record the same revision as git_commit; "unknown"
means the binary was built without VCS information (go build -buildvcs=false,
or outside a git checkout). A binary built in another module (a program that
registers its own rules and calls harness.Main) also prints the harness it
embeds: knightwalk's module path, version, the commit a pseudo-version names,
and the replacement a replace directive put in its place, as its results
record them (knightwalk_module, knightwalk_version, knightwalk_commit,
knightwalk_replace).`

// Claims is the long text of `experiment claims`.
const Claims = `Reads the claims table of each result directory and prints one Markdown
table of them all, in order: the claim, its reading (the name the
experiment gives it; "fitted" where it was chosen because it reproduces
the number), its source, how it was read (rule, target, boards and
walks), what was measured, the exact value where known, what decided the
verdict (exact, walk or sample), the verdict, and the verdicts adjusted by
Holm within each claim family. Then the claim × reading matrix: each
claim's verdict under each reading, and under how many of its readings
that are not fitted it holds (a claim read in several experiments is
gathered from all the directories: one claim id and reading must state
the same thing in every directory, and each directory is named once). The
"Published claims" table of docs/claims.md is this command's output on the
literature runs, so it cannot drift from what the tool measures.`
