//go:build !amd64 || purego

package sim

// The vector rounds exist only on amd64; KernelPaths offers none here.

func vecWarnsdorff(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX-512")
}

func vecRandom(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX-512")
}

func vec2Warnsdorff(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX2")
}

func vec2Random(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX2")
}
