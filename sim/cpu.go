package sim

import (
	"fmt"
	"runtime"
)

// CPU describes the processor the kernels run on, for benchmark reports:
// which kernel path is fastest depends on it (autopath.go).
type CPU struct {
	Arch     string   `json:"arch"`             // GOARCH
	Vendor   string   `json:"vendor,omitempty"` // CPUID vendor string (amd64)
	Name     string   `json:"name,omitempty"`   // CPUID brand string (amd64)
	Family   int      `json:"family"`           // CPUID display family (amd64; 0 elsewhere)
	Model    int      `json:"model"`            // CPUID display model
	Stepping int      `json:"stepping"`
	Features []string `json:"features"` // those the kernel paths use, as this CPU and OS have them
}

// CPUInfo returns the processor's description.
func CPUInfo() CPU {
	c := cpuInfo()
	c.Arch = runtime.GOARCH
	if c.Features == nil {
		c.Features = []string{}
	}
	return c
}

// cpuName is the short description that errors about kernel paths give.
func cpuName() string {
	c := CPUInfo()
	if c.Vendor == "" {
		return c.Arch
	}
	return fmt.Sprintf("%s %s family %xh model %xh", c.Arch, c.Vendor, c.Family, c.Model)
}
