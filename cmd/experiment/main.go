// Command experiment runs knight-walk Monte Carlo studies: see the README.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"knightwalk/internal/runner"
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

func main() {
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
