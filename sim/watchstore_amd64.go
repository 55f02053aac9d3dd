//go:build amd64 && !purego

package sim

// storeRelease stores v at *addr as a release store: a plain MOV, which on
// amd64 (total store order) no load or store before it passes, and which
// a reader's atomic load sees. sync/atomic's Store is sequentially
// consistent (an XCHG, tens of cycles); the guard marks each call of a
// walk with one of these instead (walkCall), for a few cycles.
//
//go:noescape
func storeRelease(addr *uint64, v uint64)
