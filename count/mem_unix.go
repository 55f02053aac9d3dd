//go:build linux || darwin || freebsd

package count

import (
	"fmt"
	"syscall"
)

// osAlloc maps size bytes of zeroed anonymous memory.
func osAlloc(size int) ([]byte, error) {
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("map %d MiB for a state table: %w", size>>20, err)
	}
	return b, nil
}

// osFree unmaps memory from osAlloc.
func osFree(b []byte) {
	if err := syscall.Munmap(b); err != nil {
		panic("count: unmap a state table: " + err.Error())
	}
}
