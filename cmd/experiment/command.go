package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand: its name, usage line, short help and its own
// flag set, built fresh for every invocation.
type command struct {
	name  string
	usage string // after "experiment NAME"
	short string
	long  string
	flags func(fs *flag.FlagSet) func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand writes to.
type env struct {
	stdout, stderr io.Writer
}

// usageError marks mistakes in how the command was called (exit status 2).
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			c := lookup(args[1])
			if c == nil {
				return usagef("help %s: unknown command (run 'experiment help')", args[1])
			}
			printCommandHelp(stdout, c, nil)
			return nil
		}
		printHelp(stdout)
		if len(args) == 0 {
			return usagef("no command given")
		}
		return nil
	}
	c := lookup(args[0])
	if c == nil {
		return usagef("unknown command %q (run 'experiment help')", args[0])
	}
	fs := flag.NewFlagSet("experiment "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	body := c.flags(fs)
	if err := fs.Parse(interleaved(fs, args[1:])); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandHelp(stdout, c, fs)
			return nil
		}
		return usagef("%s: %v (usage: experiment %s %s)", c.name, err, c.name, c.usage)
	}
	err := body(ctx, &env{stdout: stdout, stderr: stderr}, fs.Args())
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// A bare "context canceled" tells a user nothing: say what
		// stopped the command and what it left (every command writes its
		// results only once complete).
		return fmt.Errorf("%s interrupted by a signal before it finished: nothing was written or changed", c.name)
	}
	return err
}

// interleaved moves flags after positional arguments to the front, so that
// "experiment run FILE --workers 2" works as users expect.
func interleaved(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(flags, pos...)
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "experiment: Monte Carlo studies of knight walks and Warnsdorff's rule")
	fmt.Fprintln(w, "\nUsage: experiment COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun 'experiment help COMMAND' or 'experiment COMMAND -h' for a command's flags.")
}

func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: experiment %s %s\n\n%s\n", c.name, c.usage, c.short)
	if c.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.long))
	}
	if fs == nil {
		fs = flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
	}
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// maxWorkers bounds --workers: each worker holds its own search or walk
// state (count splits its search into 32 tasks a worker), so a mistyped
// 1000000 would exhaust memory before any work is done.
const maxWorkers = 1024

func checkWorkers(n int) error {
	if n < 1 || n > maxWorkers {
		return usagef("--workers %d: want 1 to %d", n, maxWorkers)
	}
	return nil
}
