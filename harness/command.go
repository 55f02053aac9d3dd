package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/knightwalk/knightwalk/internal/cli"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/manual"
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
type usageError = cli.UsageError

var usagef = cli.Usagef

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	out := &cli.CheckedWriter{W: stdout}
	err := dispatch(ctx, out, stderr, args)
	if out.Err != nil && (err == nil || !errors.As(err, new(usageError))) {
		// Whatever a command prints is its result (a CSV, a table, the
		// verdicts, its help): a write that failed (a full disk,
		// /dev/full) leaves it cut short, so the exit status must say so.
		name := "experiment"
		if len(args) > 0 {
			name = args[0]
		}
		if err != nil {
			return fmt.Errorf("%s: %v; writing its output also failed after %d bytes: %v", name, err, out.N, out.Err)
		}
		return fmt.Errorf("%s: writing its output failed after %d bytes: %v; what was written is incomplete", name, out.N, out.Err)
	}
	return err
}

func dispatch(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 2 {
			return usagef("help takes at most one command name, got %q (usage: experiment help %s)", args[1:], manual.HelpUsage)
		}
		if len(args) == 2 {
			switch topic := args[1]; topic {
			case "help", "-h", "-help", "--help":
				fmt.Fprint(stdout, manual.Text(manual.Help))
			case "all":
				fmt.Fprint(stdout, manual.Text(manualDoc()))
			default:
				c := lookup(topic)
				if c == nil {
					return usagef("help %s: unknown command (run 'experiment help')", topic)
				}
				printCommandHelp(stdout, c)
			}
			return nil
		}
		fmt.Fprint(stdout, manual.Text(manual.Overview(manualCommands())))
		if len(args) == 0 {
			return usagef("no command given")
		}
		return nil
	}
	c := lookup(args[0])
	if c == nil {
		return usagef("unknown command %q (run 'experiment help')", args[0])
	}
	if err := config.CheckPublished(); err != nil {
		return err
	}
	fs := flag.NewFlagSet("experiment "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	body := c.flags(fs)
	flagArgs, err := cli.Interleaved(fs, args[1:])
	if err != nil {
		return usagef("%s: %v (usage: experiment %s %s)", c.name, err, c.name, c.usage)
	}
	if err := fs.Parse(flagArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandHelp(stdout, c)
			return nil
		}
		return usagef("%s: %v (usage: experiment %s %s)", c.name, err, c.name, c.usage)
	}
	err = cli.WatchRules(ctx, c.name, func(ctx context.Context) error {
		return body(ctx, &env{stdout: stdout, stderr: stderr}, fs.Args())
	})
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// A bare "context canceled" tells a user nothing: say what
		// stopped the command and what it left (every command writes its
		// results only once complete).
		return fmt.Errorf("%s interrupted by a signal before it finished: nothing was written or changed", c.name)
	}
	return err
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// printCommandHelp prints a command's section of the manual, as
// 'experiment help COMMAND' and 'experiment COMMAND -h' both do.
func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprint(w, manual.Text(manual.Section(c.manualCommand())))
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
