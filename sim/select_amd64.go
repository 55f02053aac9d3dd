//go:build amd64 && !purego

package sim

// haveFastPDEP reports a CPU with BMI2 whose PDEP is a single fast
// instruction: not AMD's family 17h (Zen 1 and 2), where it is microcoded
// and takes up to hundreds of cycles.
var haveFastPDEP = func() bool {
	_, ebx7, _, _ := cpuid(7, 0)
	if ebx7>>8&1 == 0 { // BMI2
		return false
	}
	_, vb, vc, vd := cpuid(0, 0)
	amd := vb == 0x68747541 && vd == 0x69746e65 && vc == 0x444d4163 // "AuthenticAMD"
	eax1, _, _, _ := cpuid(1, 0)
	family := eax1 >> 8 & 0xf
	if family == 0xf {
		family += eax1 >> 20 & 0xff
	}
	return !(amd && family < 0x19)
}()

// pdepSelect's assembly takes four lanes at a time: this fails to compile
// unless batchLanes is a positive multiple of 4.
var (
	_ = [1]int{}[batchLanes%4]
	_ = uint(batchLanes/4 - 1)
)

// cpuid executes CPUID with the given leaf and subleaf.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// pdepSelect replaces each set[j] by its idx[j]-th lowest set bit: PDEP
// deposits 1<<idx[j] into the set bits of set[j].
//
//go:noescape
func pdepSelect(set *[batchLanes]uint64, idx *[batchLanes]uint32)
