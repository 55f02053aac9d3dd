//go:build !amd64 || purego

package sim

func pdepSelect(set *[batchLanes]uint64, idx *[batchLanes]uint32) {
	panic("sim: pdepSelect without PDEP")
}

func pdepSelectDrawn(ls *lanes, ndraw int) {
	panic("sim: pdepSelectDrawn without PDEP")
}
