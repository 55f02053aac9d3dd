package count

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// mapped says that large tables are mapped from the operating system.
const mapped = true

var pageSize = os.Getpagesize()

// hugePage is the size of a transparent huge page on the processors the
// kernel offers them on (x86-64, arm64 with 4 KiB pages).
const hugePage = 2 << 20

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), which the syscall
// package does not name.
const madvPopulateWrite = 23

// osAlloc maps size bytes of zeroed anonymous memory, with transparent
// huge pages where the kernel offers them, and faults it in for writing
// at once. A layer's lists, packed states and merge room are written once
// and read back:
//   - with 4 KiB pages the kernel's work to fault them in took a fifth of
//     a sweep's CPU time (7x8 closed), so mappings of 2 MiB or more start
//     on a 2 MiB boundary, where every whole 2 MiB of them can be one huge
//     page, which also spares the reads a page walk for each miss;
//   - touched lazily, the first touch of a page was often a read (when a
//     step inserted into tables of the whole layer, an insert read its
//     slot first), which maps the shared zero page; the write that
//     followed replaced it and flushed the old mapping from every core's
//     TLB, a shootdown that took a tenth of a 7x7 sweep's CPU time.
//     Faulting the memory in for writing up front costs one fault a page
//     and no flush, whatever touches it first.
//
// Both are requests: a kernel without them (before 5.14) maps lazily, with
// the same contents.
func osAlloc(size int) ([]byte, error) {
	span := size
	if size >= hugePage {
		span = size + hugePage // room to start on a boundary
	}
	addr, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(span), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE, ^uintptr(0), 0)
	if errno != 0 {
		return nil, fmt.Errorf("map %d MiB for a state table: %w", size>>20, errno)
	}
	start := addr
	if span != size {
		start = (addr + hugePage - 1) &^ (hugePage - 1)
		if head := start - addr; head > 0 {
			unmap(addr, head)
		}
		end := start + uintptr(roundPage(size))
		if tail := addr + uintptr(span) - end; tail > 0 {
			unmap(end, tail)
		}
	}
	// The mapping is outside the Go heap, so the address converts safely.
	b := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&start))), size)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // only a hint: without it, small pages
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, uintptr(roundPage(size)), madvPopulateWrite)
	return b, nil
}

func roundPage(n int) int { return (n + pageSize - 1) / pageSize * pageSize }

func unmap(addr, n uintptr) {
	if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, addr, n, 0); errno != 0 {
		panic("count: unmap a state table: " + errno.Error())
	}
}

// osFree unmaps memory from osAlloc.
func osFree(b []byte) {
	unmap(uintptr(unsafe.Pointer(&b[0])), uintptr(roundPage(len(b))))
}
