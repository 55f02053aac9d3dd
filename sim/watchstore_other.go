//go:build !amd64 || purego

package sim

import "sync/atomic"

// storeRelease stores v at *addr; elsewhere than amd64 a sequentially
// consistent store (sync/atomic has no weaker one).
func storeRelease(addr *uint64, v uint64) { atomic.StoreUint64(addr, v) }
