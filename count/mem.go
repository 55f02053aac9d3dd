package count

import "unsafe"

// mmapMin is the smallest table taken from the operating system directly;
// smaller ones come from the Go heap.
const mmapMin = 1 << 20

// alloc returns n zeroed elements of T for a state table. Large tables
// are mapped from the operating system (on Linux), so that free
// gives their memory back at once: a layer released between two steps
// would otherwise stay resident until the garbage collector ran, and the
// process would hold up to twice what the budget counts.
func alloc[T slot | uint64](n int) ([]T, error) {
	size := n * int(unsafe.Sizeof(*new(T)))
	if n == 0 {
		return nil, nil
	}
	if !mapped || size < mmapMin {
		return make([]T, n), nil
	}
	b, err := osAlloc(size)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), nil
}

// free gives back a table from alloc, whole (as alloc returned it).
func free[T slot | uint64](x []T) {
	size := cap(x) * int(unsafe.Sizeof(*new(T)))
	if !mapped || size < mmapMin {
		return
	}
	osFree(unsafe.Slice((*byte)(unsafe.Pointer(&x[:1][0])), size))
}
