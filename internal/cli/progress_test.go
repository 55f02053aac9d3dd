package cli

import (
	"bytes"
	"sync/atomic"
	"testing"
	"time"
)

// TestBarStopsWhateverTheCount: the live bar's stop returns at once for
// any total and count, 0 of 0 among them (a sieve stage no cell entered
// hung there, deaf to signals, when progress was shown), short of the
// total (an early end) and past it.
func TestBarStopsWhateverTheCount(t *testing.T) {
	for _, c := range []struct{ total, done uint64 }{{0, 0}, {10, 0}, {10, 3}, {10, 10}, {10, 12}, {1, 1}} {
		var done atomic.Uint64
		var buf bytes.Buffer
		stop := bar(&buf, c.total, &done)
		done.Store(c.done)
		ended := make(chan struct{})
		go func() { stop(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(5 * time.Second):
			t.Fatalf("total %d, done %d: stop has not returned after 5 s", c.total, c.done)
		}
	}
}
