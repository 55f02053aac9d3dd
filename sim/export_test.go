package sim

// NewGeneralWalker is NewWalker forced onto the general kernel; tests and
// benchmarks compare the two kernels with it.
func NewGeneralWalker(b *Board, r Rule) (*Walker, error) {
	return newWalker(b, r, true, PathScalar)
}
