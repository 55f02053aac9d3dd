//go:build amd64 && !purego

package sim

// laneCheckAVX512 and laneMoveAVX512 (lanes_amd64.s) are the check pass
// and the move of walkLanes on eight lanes per register: the check copies
// every lane's answer to k.set and returns the lanes whose walk ends
// (ended: no square allowed, or more than maxSteps visited), those that
// must draw (two squares or more allowed, walk not ended) and in bad bit 0
// whether some answer holds a square not free, bit 1 whether some answer
// holds two squares or more; the move is laneKernel.move.
//
//go:noescape
func laneCheckAVX512(k *laneKernel, maxSteps uint64) (ended, draw, bad uint64)

//go:noescape
func laneMoveAVX512(k *laneKernel)

// The passes take the 16 lanes as two groups of eight.
var _ = [1]int{}[LaneCount-16]
