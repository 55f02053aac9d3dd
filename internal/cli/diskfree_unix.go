//go:build unix

package cli

import "syscall"

// DiskFree returns the bytes free to this user on the file system of dir.
func DiskFree(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
