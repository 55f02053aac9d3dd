//go:build linux && (amd64 || arm64)

package safeio

import "syscall"

// oTmpfile is O_TMPFILE (Linux 3.11), which the syscall package does not
// name: __O_TMPFILE with O_DIRECTORY, as on these processors.
const oTmpfile = 0o20000000 | syscall.O_DIRECTORY
