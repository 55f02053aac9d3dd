// Package sim runs knight walks on rectangular boards exactly as the
// project's docs/design.md defines them: boards and their knight graph, the walk
// rules (the uniformly random walk, Warnsdorff's rule with its tie-breaks,
// and Warnsdorff-ordered backtracking), the reproducible per-walk random
// streams, exact enumeration of every branch a walk can take, and tour
// counting.
//
// Squares are numbered row-major, index = row*cols + col, with row 0 at the
// bottom; (0,0) is a1. Two kernels run the walk rules: a bitboard kernel for
// boards of at most 64 squares and a general kernel for any size. They make
// the same choices from the same random stream, so a walk does not depend on
// which kernel ran it.
//
// Of this project the package imports only internal/safeio, for the scratch
// files an exact enumeration spills its layers to.
package sim
