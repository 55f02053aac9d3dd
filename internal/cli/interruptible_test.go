package cli

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestInterruptibleReturnsOnCancel: work that cannot see ctx (resolving an
// experiment) no longer holds a command past SIGINT: the command returns
// ctx's error within moments of the cancel, whatever the work still does.
func TestInterruptibleReturnsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := Interruptible(ctx, func() (int, error) { <-release; return 1, nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("returned after %v; want at once after the cancel", took)
	}
	if v, err := Interruptible(context.Background(), func() (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Errorf("uncancelled: %d, %v; want 7, nil", v, err)
	}
}
