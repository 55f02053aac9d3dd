// Package testenv decides which tests run: the default `go test ./...` is
// kept under a minute on 2 cores, and the slow checks (figures of the
// example set, cancel and resume, the README's numbers, Monte Carlo
// coverage, the larger brute-force counts) run only with KNIGHTWALK_SLOW=1,
// as CI's second pass does. Every such gate goes through this package, so
// there is one switch and one message.
package testenv

import (
	"os"
	"testing"
)

// Var is the environment variable that turns the slow checks on.
const Var = "KNIGHTWALK_SLOW"

// Slow reports whether the slow checks run: Var is set to 1.
func Slow() bool { return os.Getenv(Var) == "1" }

// SkipUnlessSlow skips t, saying what it would have checked, unless the slow
// checks run.
func SkipUnlessSlow(t testing.TB, what string) {
	t.Helper()
	if !Slow() {
		t.Skipf("%s: slow, runs with %s=1", what, Var)
	}
}
