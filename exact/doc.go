// Package exact computes a walk rule's outcome exactly, without sampling:
// it follows every branch a walk can take from a start square, each
// weighted by its probability (a draw among m squares splits the walk into
// m branches of probability 1/m; a deterministic tie-break does not split
// it), and sums the probabilities of the branches that succeed, close,
// stop or end at each dead end (Result).
//
// The enumeration runs layer by layer, one layer per path length. The
// walks that reach the same visited set and current square have the same
// future, so they are merged into one state, their probabilities summed:
// a layer holds the distinct states at its path length, which on most
// boards are far fewer than the branches (Result.Nodes against
// Result.TreeNodes). Each layer is sorted into a fixed reference order
// before it is expanded, so the floating-point sums, and every result, are
// the same bit for bit on every run, whatever the workers.
//
// Walk enumerates one start within a budget of states (DefaultBudget);
// Bounds, instead of failing past it, drops the least probable states and
// certifies P(success) in [Result.PLower, Result.PUpper]; Walks runs many
// starts at once (Options). With Options.MaxMemory, the states held at
// once are counted against a memory budget (StatesMemory of it): a start
// whose layers certainly do not fit, estimated from sampled walks, is
// refused up front, and one that outgrows its share stops with ErrMemory.
// With Options.Spill, the layers are spilled to disk instead and each one
// is built in as many passes over the one before as the memory requires:
// memory then bounds a pass rather than a layer, and the result is the
// in-memory one bit for bit.
//
// Boards have at most MaxSquares squares; visited sets are bitsets of two
// to ten words, by the board's size. The rules come from package sim: the
// built-in rules are enumerated on the bitsets directly, with sim's
// tie-break chains (sim.TieBreak.Narrow, the enumerator being a
// sim.TieScorer); a rule of your own is asked through sim.Choices.
package exact
