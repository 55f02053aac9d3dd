//go:build !amd64 || purego

package sim

// haveFastPDEP is false: the PDEP select exists only on amd64.
const haveFastPDEP = false

func pdepSelect(set *[batchLanes]uint64, idx *[batchLanes]uint32) {
	panic("sim: pdepSelect without PDEP")
}
