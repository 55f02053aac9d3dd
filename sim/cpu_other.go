//go:build !amd64 || purego

package sim

// Only the scalar path exists here (16 walks in flight in pure Go): PDEP
// and the vector rounds are amd64 assembly.
const (
	haveBMI2   = false
	haveAVX2   = false
	haveAVX512 = false
)

func cpuInfo() CPU { return CPU{} }
