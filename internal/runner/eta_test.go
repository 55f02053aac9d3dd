package runner

import (
	"testing"
	"time"
)

// TestETA: the time left at the rate so far; "unknown" before the first
// walk has finished, never a negative or overflowed duration.
func TestETA(t *testing.T) {
	for _, c := range []struct {
		done, total uint64
		elapsed     time.Duration
		want        string
	}{
		{0, 1 << 40, 5 * time.Second, "unknown"},
		{0, 10, 0, "unknown"},
		{5, 10, 0, "unknown"},
		{1, 1 << 62, time.Hour, "unknown"},
		{10, 10, time.Second, "0s"},
		{1, 3, 10 * time.Second, "20s"},
		{100, 400, 90 * time.Second, "4m30s"},
	} {
		if got := ETA(c.done, c.total, c.elapsed); got != c.want {
			t.Errorf("ETA(%d, %d, %v) = %q, want %q", c.done, c.total, c.elapsed, got, c.want)
		}
	}
}
