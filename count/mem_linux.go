package count

import (
	"fmt"
	"os"
	"syscall"
)

// mapped says that large tables are mapped from the operating system.
const mapped = true

var pageSize = os.Getpagesize()

// osAlloc maps size bytes of zeroed anonymous memory, with transparent
// huge pages where the kernel offers them: a layer's tables are touched at
// random and filled once, and with 4 KiB pages the kernel's work to fault
// them in took a fifth of a sweep's CPU time (7x8 closed).
func osAlloc(size int) ([]byte, error) {
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("map %d MiB for a state table: %w", size>>20, err)
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // only a hint: without it, small pages
	return b, nil
}

// osFree unmaps memory from osAlloc.
func osFree(b []byte) {
	if err := syscall.Munmap(b); err != nil {
		panic("count: unmap a state table: " + err.Error())
	}
}

// osDrop gives back the pages of b, the tail of a mapping, which stays
// mapped (read again, they would be zero).
func osDrop(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
}
