//go:build amd64 && !purego

package sim

// haveAVX512 reports a CPU and OS with the AVX-512 subsets the vector
// rounds use: F, DQ (VPMULLQ, mask bytes), CD (VPLZCNTQ) and VPOPCNTDQ,
// with the OS saving the opmask and ZMM state.
var haveAVX512 = func() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1>>27&1 == 0 { // OSXSAVE: XGETBV is there
		return false
	}
	if xgetbv0()&0xe6 != 0xe6 { // XMM, YMM, opmask, ZMM_Hi256, Hi16_ZMM
		return false
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const f, dq, cd = 1 << 16, 1 << 17, 1 << 28
	return ebx7&(f|dq|cd) == f|dq|cd && ecx7>>14&1 != 0
}()

// xgetbv0 returns the low half of XCR0.
func xgetbv0() uint32

// vecWarnsdorff and vecRandom advance every lane of ls by one step per
// round, for at most rounds rounds, and stop before a round in which a
// lane's walk ends (returning the ended lanes as bits 0..15) or a draw
// meets Lemire's rare rejection (returning bit 16); they return 0 when the
// rounds are used up. Nothing of the round they stop before is stored,
// lane by lane in groups of eight: the lanes of a group that stopped are
// as they were before that round, and the caller finishes it in Go.
// nbRev[i] is the neighbour mask of square 63-i.
//
//go:noescape
func vecWarnsdorff(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64

//go:noescape
func vecRandom(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64
