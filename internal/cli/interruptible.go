package cli

import "context"

// Interruptible returns f's answer, or ctx's error as soon as ctx is done
// (SIGINT, SIGTERM) while f still computes. It is for work that cannot see
// ctx and writes nothing (reading, resolving and planning an experiment):
// the command returns at once, saying it was interrupted, and the process
// exits without waiting for f, which is left to finish unobserved.
func Interruptible[T any](ctx context.Context, f func() (T, error)) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1) // buffered: an abandoned f does not block
	go func() {
		v, err := f()
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
