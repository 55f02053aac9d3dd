// Package procstat reads the process's own CPU time and peak resident
// memory, as the count, rare and bench reports record them.
package procstat

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// CPUSeconds is the process's user and system CPU time so far (0 where
// the system does not say).
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// PeakRSSBytes is the process's peak resident memory in bytes (0 where
// the system does not say). On Linux it is VmHWM of /proc/self/status,
// the high-water mark of this program's own memory: getrusage's ru_maxrss
// is not, because Linux carries the high-water mark of the process that
// started it into it at exec, so a count shard started from a Python
// session holding 3 GB would report a 3 GB peak (proc(5), getrusage(2)).
func PeakRSSBytes() int64 {
	if runtime.GOOS == "linux" {
		if n, ok := vmHWM("/proc/self/status"); ok {
			return n
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
}

// vmHWM reads the "VmHWM:  1234 kB" line of a /proc status file.
func vmHWM(file string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "VmHWM:" && string(f[2]) == "kB" {
			n, err := strconv.ParseInt(string(f[1]), 10, 64)
			return n * 1024, err == nil
		}
	}
	return 0, false
}
