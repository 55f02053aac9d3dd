//go:build !(linux && (amd64 || arm64))

package safeio

// oTmpfile is zero where O_TMPFILE is not used (see ScratchFile).
const oTmpfile = 0
