//go:build !unix

package cli

// DiskFree is unknown here: a spilled count that runs out of disk stops
// with the write's error instead of being refused up front.
func DiskFree(string) (int64, bool) { return 0, false }
