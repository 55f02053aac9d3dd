//go:build amd64 && !purego

package sim

// vecWarnsdorff and vecRandom (AVX-512, vec_amd64.s) and vec2Warnsdorff
// and vec2Random (AVX2, vec2_amd64.s) advance every lane of ls by one step
// per round, for at most rounds rounds, and stop before a round in which a
// lane's walk ends (returning the ended lanes as bits 0..15) or a draw
// meets Lemire's rare rejection (returning bit 16); they return 0 when the
// rounds are used up. Nothing of the round they stop before is stored,
// lane by lane in groups of eight (AVX-512) or four (AVX2): the lanes of a
// group that stopped are as they were before that round, and the caller
// finishes it in Go. A walk ends where it has no allowed square or has
// visited more than maxSteps squares (64: no limit). For the AVX-512
// rounds nb[i] is the neighbour mask of square 63-i (they index it by
// leading zeros), for the AVX2 rounds that of square i.
//
//go:noescape
func vecWarnsdorff(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64

//go:noescape
func vecRandom(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64

//go:noescape
func vec2Warnsdorff(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64

//go:noescape
func vec2Random(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64
