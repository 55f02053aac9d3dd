// Package harness is the experiment command (cmd/experiment) as a library: Main runs
// it, so a program that registers rules of its own (sim.Register) and calls Main
// is the whole command with those rules (examples/custom-rule). The command's
// manual is the documentation of cmd/experiment (go doc ./cmd/experiment, or
// experiment help).
package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/knightwalk/knightwalk/internal/runner"
)

// commands lists every subcommand, in the order help prints them. Each
// entry is a named function in the command's own file that declares its
// flags and returns the body: parse, call one internal function, print.
var commands = []*command{
	benchCommand(),
	claimsCommand(),
	countCommand(),
	exactCommand(),
	mergeCommand(),
	plotCommand(),
	rareCommand(),
	runCommand(),
	tourCommand(),
	validateCommand(),
	versionCommand(),
}

// Main runs the experiment command on os.Args and exits with its status:
// 0 success, 1 failure, 2 a usage error, 3 a merge of a sequential run's
// rounds that has not decided yet (the next round is to run).
func Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first signal cancels ctx, and the work stops cleanly; a
		// second one kills the process as if nothing caught it, in case
		// something cannot see ctx (a blocked open of a FIFO, say).
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "experiment:", err)
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		if errors.Is(err, runner.ErrNotDecided) { // merge of a sequential run's rounds: the next round is to run
			os.Exit(3)
		}
		os.Exit(1)
	}
}

// Run runs the experiment command with args (os.Args[1:] for Main) and
// returns its error; a *usage* error is one Main exits 2 for. Tests and
// programs of your own call it to run subcommands in process.
func Run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	return run(ctx, stdout, stderr, args)
}
