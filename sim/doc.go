// Package sim runs knight walks on rectangular boards exactly as the
// project's docs/design.md defines them: boards and their knight graph, the walk
// rules (the uniformly random walk, Warnsdorff's rule with its tie-breaks,
// and Warnsdorff-ordered backtracking), the reproducible per-walk random
// streams, and tour counting. Exact enumeration of every branch a walk can
// take is package exact's: it asks sim only what the rules decide, the
// tie-break chains (TieBreak.Narrow, scoring through a TieScorer) and the
// answers of rules of your own (Choices).
//
// Squares are numbered row-major, index = row*cols + col, with row 0 at the
// bottom; (0,0) is a1. Two kernels run the walk rules: a bitboard kernel for
// boards of at most 64 squares and a general kernel for any size. They make
// the same choices from the same random stream, so a walk does not depend on
// which kernel ran it.
//
// The package imports nothing else of this project.
package sim
