//go:build amd64 && !purego

package sim

// pdepSelect's assembly takes four lanes at a time: this fails to compile
// unless batchLanes is a positive multiple of 4.
var (
	_ = [1]int{}[batchLanes%4]
	_ = uint(batchLanes/4 - 1)
)

// pdepSelect replaces each set[j] by its idx[j]-th lowest set bit: PDEP
// deposits 1<<idx[j] into the set bits of set[j].
//
//go:noescape
func pdepSelect(set *[batchLanes]uint64, idx *[batchLanes]uint32)

// pdepSelectDrawn is pdepSelect for only the ndraw lanes listed in
// ls.draw; the others keep their one allowed square.
//
//go:noescape
func pdepSelectDrawn(ls *lanes, ndraw int)
