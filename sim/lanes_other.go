//go:build !amd64 || purego

package sim

func laneCheckAVX512(k *laneKernel, maxSteps uint64) (ended, draw, bad uint64) {
	panic("sim: laneCheckAVX512 without AVX-512")
}

func laneMoveAVX512(k *laneKernel) { panic("sim: laneMoveAVX512 without AVX-512") }
