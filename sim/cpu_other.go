//go:build !amd64 || purego

package sim

// Only the scalar path exists here: the batched paths' select (PDEP) and
// vector rounds are amd64 assembly.
const (
	haveBMI2   = false
	haveAVX2   = false
	haveAVX512 = false
)

func cpuInfo() CPU { return CPU{} }
