package cli

import (
	"os"
	"strconv"
	"strings"
)

// The memory a command may use: the default --max-memory of every command
// that takes one, and the shares of it a count gives its tables and its
// collector. (An exact enumeration's states take exact.StatesMemory of the
// same budget: a rule of its own, measured on its own.)

// DefaultMaxMemory is what exact may hold unless told otherwise: half the
// machine's physical memory, at most 4 GiB (when the machine's memory is
// unknown, 4 GiB).
func DefaultMaxMemory() int64 {
	const most = 4 << 30
	if phys := physicalMemory(); phys > 0 {
		return min(most, phys/2)
	}
	return most
}

// cgroupLimit returns the memory limit of this process's cgroup (v2), or 0.
func cgroupLimit() int64 {
	data, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil { // "max": no limit
		return 0
	}
	return v
}

// physicalMemory returns the machine's memory in bytes from /proc/meminfo
// (or the container's limit, if lower), or 0 where that is not available.
func physicalMemory() int64 {
	mem := memTotal()
	if c := cgroupLimit(); c > 0 && (mem == 0 || c < mem) {
		mem = c
	}
	return mem
}

func memTotal() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// The memory a count may use, --max-memory, bounds the process's peak
// resident memory (a 1 GiB budget peaked at 1452 MB when the
// state tables alone were counted against it). What the tables do not
// count is the runtime and program (about 30 MB), the layer being built
// beside the one read, and the collector's headroom; so the tables get a
// share of the budget (CountTables) and the collector a soft limit below
// it (CountGCLimit); a small budget keeps at least an eighth for the tables.
// The large tables are mapped outside the Go heap, which the collector's
// limit does not count: at 0.85 of the budget the heap's garbage on top
// of them took a 1 GiB count to 1047-1098 MiB; at 0.5, 945 MiB (and a
// 256 MiB one to 162 MiB). Both fractions are measured:
// TestBudgetsBoundPeakRSS.
var (
	tableShare = envFraction("KNIGHTWALK_COUNT_TABLE_SHARE", 0.6)
	gcShare    = envFraction("KNIGHTWALK_COUNT_GC_SHARE", 0.5)
)

const runtimeBytes = 48 << 20

// CountTables is the share of a count's budget its state tables may take.
func CountTables(budget int64) int64 {
	return max(budget/8, int64(float64(budget-runtimeBytes)*tableShare))
}

// CountGCLimit is the collector's soft memory limit for a count's budget.
func CountGCLimit(budget int64) int64 { return int64(float64(budget) * gcShare) }

func envFraction(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil && v > 0 && v <= 1 {
		return v
	}
	return def
}
