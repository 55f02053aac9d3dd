// Package count counts knight's tours exactly, without enumerating them,
// by a frontier (transfer-matrix) sweep over the squares.
// On boards of at most 64 squares it also counts them by a backtracking
// search that enumerates them one by one (CountTours, FixedTours).
//
// # Algorithm
//
// The board is turned so that its rows are the shorter side (width w) and
// its squares are added one at a time in row-major order. A knight move
// spans at most two rows, so when square v is added, its earlier
// neighbours are among the 2w+1 squares before it, and a square u has no
// neighbour left to come once the sweep has passed u+2w+1. The squares
// added so far that still have neighbours to come are the frontier.
//
// Adding v chooses which edges to its earlier neighbours a tour uses:
// none, one, or two, each to a square that still has room (fewer than two
// edges). The chosen edges form a partial path system; what matters for
// the rest of the sweep is only, for each frontier square,
//
//   - spent: it has all its edges (or is the designated start with its one
//     edge); nothing more can attach,
//   - fresh: no edge yet,
//   - a path end with one edge, and where that path's other end is: another
//     frontier square (the two carry the same pair label), or a terminal, a
//     square that left the frontier as an end of the Hamiltonian path.
//
// Partial systems with equal states have equal sets of completions, so a
// layer maps each state to the number of partial systems that reach it,
// and the next layer adds those numbers up. The state is packed into one
// 64-bit key with pair labels renumbered in order of first appearance, so
// that equal states get equal keys: 4 bits a square up to width 7, where
// a step holds the state and the square it adds in one 64-bit word and
// makes, checks and packs its successors on all 16 nibbles at once
// (expand16, nibble.go), and base 11 at width 8, a byte a square.
//
// # Invariants
//
//   - A path system never closes a cycle, except the last edge of a
//     Hamiltonian cycle at the last square with every other square spent.
//   - A square that leaves the frontier fresh is never visited: the state
//     dies. Counting cycles, a square may leave only when spent. Counting
//     paths, a square that leaves with one edge is a path end: its
//     partner becomes a terminal; at most two terminals exist (one of them
//     reserved for the designated start while it waits for its edge).
//   - A tour is complete only at the last square, exactly once, with every
//     square spent: a cycle closes, or a path gets its second terminal.
//     Earlier completion would leave squares unvisited.
//   - A stored state's pair labels are firstPair, firstPair+1, … in order
//     of first appearance, fewer than newPair (one pair for every two of
//     at most 17 squares), and a step starts at most one new pair (only
//     the added square, fresh, can join another fresh square), which
//     takes the code newPair until the successor is packed.
//   - A layer being read is packed (every slot a state) and is read once;
//     a layer being written is only added to.
//   - Counts only add. Tours are counted in 128 bits, modulo 2^128, so
//     they are exact below 2^128, which Brègman's bound on permanents
//     proves before the sweep starts. A layer keeps each state's count in
//     64 bits (narrow) while it fits: a sum of non-negative counts that
//     passes 2^64 carries out of the add that makes it, that carry stops
//     the sweep, and the count runs again with 128-bit (wide) tables. So
//     a narrow result is never a count reduced modulo 2^64.
//
// Directed open tours from a start s are the Hamiltonian paths with an end
// at s: a sweep where s is designated (it may take only one edge, and
// becomes a terminal when it does). Start squares related by a symmetry of
// the board have equal counts and share one sweep. Every path has two ends,
// so the counts from all squares sum to twice the Hamiltonian paths: the
// directed open tours. A sweep's two path ends are each free (any square
// may end the path there), designated, or held in reserve for a square
// later in the sweep; sweeps that differ only in ends not yet reached are
// the same sweep up to there, so per-start sweeps branch off one shared
// sweep (Options.PairedEnds: per pair of ends, two levels of branching;
// on a board with an even number of squares only pairs of opposite colour,
// since a path alternates colours).
//
// # Work and memory
//
// Time and memory follow the number of states per layer, which grows
// roughly by a constant factor per column of width and depends little on
// the number of rows. A layer is split by hash into 256 shards. While a
// step writes it, each shard is a list of the successors bound for it,
// behind its own lock: workers batch their successors per shard, 16 bytes
// each, and append a batch to the shard's list, so the writes go in order.
// Once the step has expanded every state, each shard is packed: its list
// is sorted by hash into buckets of about 8,192 successors, and each
// bucket merged (equal states' counts added) in a hash table of 256 KiB,
// which stays in a core's second-level cache. Inserting every successor
// into a table of the whole layer, as the sweep did before, waited on
// memory at every insert once the layer outgrew the caches. A packed layer
// takes 16 bytes a state, and a step reads it shard by shard, in parallel,
// freeing each shard once read, so the memory of a step is the part of
// the old layer not yet read and the new layer's lists (16 bytes a
// successor, about 31 a state at 7x7). A step lists at most half of what
// the budget leaves, then packs what it has listed (merging it with what
// it packed before) and goes on, so a tight budget costs rounds of packing
// rather than the count. Tables of a megabyte or more are mapped from the
// operating system (Linux), so that freed memory leaves the process at
// once rather than at the garbage collector's next cycle; the list pieces
// of 2 MiB are kept for the next step's lists (the operating system would
// zero fresh ones); the budget counts all of it and stops the sweep when
// an allocation would pass it.
//
// With a spill directory (Options.Spill) no layer stays in memory: each
// packed layer is written to a file (removed from the directory as soon
// as it is made) and read back a chunk at a time, and a step writes the
// next layer in passes over the one before, each keeping only the
// successors bound for its range of shards, as many passes as the budget
// needs (spill.go). A pass that outgrows the budget is dropped and its
// range run again as two halves, down to a single shard, so the budget
// holds as strictly as in memory; the price is time, since every pass
// expands every state read.
package count
