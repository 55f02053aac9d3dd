//go:build !amd64 || purego

package sim

// haveAVX512 is false: the vector rounds exist only on amd64.
const haveAVX512 = false

func vecWarnsdorff(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX-512")
}

func vecRandom(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64 {
	panic("sim: vector rounds without AVX-512")
}
