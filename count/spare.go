package count

import (
	"sync"
	"unsafe"
)

// spare keeps the mapped tables a count frees, whole, for its next tables
// to reuse. A fresh mapping's pages cost a fault each on first touch, and
// in a virtual machine that lends its free memory back to the host the
// faults cost more than the sweep's own work on them: the kernel's time
// was 9 % of 7x7's CPU time and a quarter of 7x8 closed's. Spare tables
// count against the budget whole, and are given up when the budget is
// short.
type spare struct {
	mu   sync.Mutex
	maps [][]slot // whole mappings, len == cap
}

// spareMax bounds the tables kept: a step frees about one a shard.
const spareMax = 2 * shards

const slotSize = int64(unsafe.Sizeof(slot{}))

// keep takes x (a narrow table from alloc or reuse) for later reuse, or
// frees it when it is small, the spare tables are many, or the budget
// cannot hold it.
func (b *budget) keep(x []slot) {
	x = x[:cap(x)]
	if !mapped || int64(len(x))*slotSize < mmapMin || !b.tryTake(int64(len(x))*slotSize) {
		free(x)
		return
	}
	b.spare.mu.Lock()
	if len(b.spare.maps) < spareMax {
		b.spare.maps = append(b.spare.maps, x)
		x = nil
	}
	b.spare.mu.Unlock()
	if x != nil {
		b.give(int64(len(x)) * slotSize)
		free(x)
	}
}

// reuse returns a zeroed table of n slots from a spare one of at most
// twice the size, or nil. Pages past n go back to the system, so that the
// table holds what the budget counts for it.
func (b *budget) reuse(n int) []slot {
	b.spare.mu.Lock()
	best := -1
	for i, x := range b.spare.maps {
		if len(x) >= n && len(x) <= 2*n && (best < 0 || len(x) < len(b.spare.maps[best])) {
			best = i
		}
	}
	if best < 0 {
		b.spare.mu.Unlock()
		return nil
	}
	x := b.spare.maps[best]
	last := len(b.spare.maps) - 1
	b.spare.maps[best] = b.spare.maps[last]
	b.spare.maps = b.spare.maps[:last]
	b.spare.mu.Unlock()
	b.give(int64(len(x)) * slotSize)
	x = shrink(x, n)
	clear(x)
	return x
}

// drain frees every spare table and reports whether there were any.
func (b *budget) drain() bool {
	b.spare.mu.Lock()
	maps := b.spare.maps
	b.spare.maps = nil
	b.spare.mu.Unlock()
	for _, x := range maps {
		b.give(int64(len(x)) * slotSize)
		free(x)
	}
	return len(maps) > 0
}
