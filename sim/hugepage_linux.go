//go:build linux

package sim

import "syscall"

// adviseHuge asks the kernel to back b with huge pages where it can
// (transparent huge pages in madvise mode): the wide kernel's slab of
// lanes' states, whose gathers otherwise touch more 4 KiB pages a round
// than the TLB holds. b's start should be 2 MiB aligned.
func adviseHuge(b []byte) {
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; advice only: an error leaves b as it was
}
